#!/bin/bash
# Benchmark (not run in CI): the same PPGN evaluation in `brec eval` and in the Python re-creation
# of the BREC authors' pipeline (a ppgn_reference.py script given as REF), on the same pairs with the
# same intra-op thread count and the same BLAS (whatever libblas.so.3 points at). Prints seconds
# per pair for both, their ratio, peak RSS, and how often the decisions agree.
#
#   scripts/bench_ppgn.sh                      # Basic (pairs 0-59), 1 thread
#   IDS=160-179 THREADS=2 scripts/bench_ppgn.sh
#   IDS=345 EPOCHS=1 scripts/bench_ppgn.sh     # largest CFI pair, one epoch (brec only: set SKIP_REF=1)
#
# Environment: IDS (0-59), THREADS (1), PYTHON (/usr/bin/python3, which has python3-torch), BREC (build/bin/brec), REF (path of the Python
# re-creation; required unless SKIP_REF=1), OUT (bench-ppgn), KERNEL (auto | blas | torch for brec), EPOCHS (model
# default; brec only), SKIP_REF (1 = brec only), REF_OPENBLAS_THREADS (set OPENBLAS_NUM_THREADS
# for the reference run only; unset = the reference as shipped).
# Decisions are compared under `--protocol brec_reference` (T² without the factor q, as the reference code
# computes it); pairs are relabeled with different random streams in the two programs, so T²
# values differ while decisions should not.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
IDS=${IDS:-0-59}
THREADS=${THREADS:-1}
BREC=${BREC:-$ROOT/build/bin/brec}
REF=${REF:-}
if [[ "${SKIP_REF:-0}" != 1 && ! -f "$REF" ]]; then
    echo "bench_ppgn.sh: set REF to the Python re-creation of the BREC PPGN pipeline (ppgn_reference.py), or SKIP_REF=1" >&2; exit 2
fi
OUT=${OUT:-bench-ppgn}
KERNEL=${KERNEL:-auto}
# Debian's python3-torch lives in the system interpreter, not in a pyenv/venv one.
PYTHON=${PYTHON:-$( [[ -x /usr/bin/python3 ]] && echo /usr/bin/python3 || echo python3 )}
mkdir -p "$OUT"
[[ -x "$BREC" ]] || { echo "bench_ppgn.sh: no brec binary at $BREC (set BREC=...)" >&2; exit 2; }
export BREC_PAIRS=$ROOT/datasets/brec/brec_v3_pairs.tsv
TIME=/usr/bin/time
[[ -x $TIME ]] || TIME=""

epochs_flag=()
[[ -n "${EPOCHS:-}" ]] && epochs_flag=(--epochs "$EPOCHS")
rm -f "$OUT/brec.jsonl"
echo "== brec eval --model ppgn --pairs $IDS --torch-threads $THREADS --kernel $KERNEL" >&2
${TIME:+$TIME -f "%M" -o "$OUT/brec.rss"} "$BREC" eval --model ppgn --pairs "$IDS" --jobs 1 \
    --torch-threads "$THREADS" --kernel "$KERNEL" --protocol brec_reference "${epochs_flag[@]}" --device cpu \
    --out "$OUT/brec.jsonl" --quiet > "$OUT/brec.txt"

if [[ "${SKIP_REF:-0}" != 1 ]]; then
    echo "== ppgn_reference.py --ids $IDS --threads $THREADS" >&2
    ( [[ -n "${REF_OPENBLAS_THREADS:-}" ]] && export OPENBLAS_NUM_THREADS=$REF_OPENBLAS_THREADS
      ${TIME:+$TIME -f "%M" -o "$OUT/ref.rss"} "$PYTHON" "$REF" --ids "$IDS" --threads "$THREADS" \
          --out "$OUT/ref.json" > "$OUT/ref.log" )
fi

python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
rows = [json.loads(l) for l in open(os.path.join(out, "brec.jsonl")) if l.strip()]
# Decisions under the reference protocol (T² without q, as ppgn_reference.py computes it).
for r in rows:
    r.update(r["protocols"]["brec_reference"])
def rss(name):
    p = os.path.join(out, name)
    return f"{int(open(p).read().split()[-1]) / 1024:.0f} MiB" if os.path.exists(p) else "?"
# Early stopping (loss below the model's threshold) ends training after a random number of epochs
# in both programs, so besides seconds per pair the fair figure is training seconds per epoch.
b_sec = sum(r["seconds"] for r in rows) / len(rows)
b_ep = sum(r["train_seconds"] for r in rows) / sum(max(1, r["epochs"]) for r in rows)
b_dist = sum(r["distinguished"] and r["reliable"] for r in rows)
b_fail = sum(not r["reliable"] for r in rows)
print(f"pairs {len(rows)}")
print(f"brec      : {b_sec:8.3f} s/pair  {b_ep:8.3f} s/epoch  distinguished {b_dist:3d}  reliability failures {b_fail:2d}  peak RSS {rss('brec.rss')}")
ref = os.path.join(out, "ref.json")
if os.path.exists(ref):
    r = json.load(open(ref))
    res = {x["id"]: x for x in r["results"]}
    r_sec = r["wall_per_pair_s"]
    r_ep = sum(x["train_wall_s"] for x in r["results"]) / sum(max(1, x["epochs"]) for x in r["results"])
    r_dist = sum(x["distinguished"] and not x["reliability_fail"] for x in r["results"])
    r_fail = sum(x["reliability_fail"] for x in r["results"])
    print(f"reference : {r_sec:8.3f} s/pair  {r_ep:8.3f} s/epoch  distinguished {r_dist:3d}  reliability failures {r_fail:2d}  peak RSS {rss('ref.rss')}"
          f"  (threads {r['threads']}, torch {r['torch']}, data build {r['data_build_s']:.1f} s not counted)")
    agree = sum((x["distinguished"], x["reliable"]) == (res[x["id"]]["distinguished"], not res[x["id"]]["reliability_fail"])
                for x in rows if x["id"] in res)
    import math
    both = [(x, res[x["id"]]) for x in rows if x["id"] in res]
    per_epoch = [(y["train_wall_s"] / max(1, y["epochs"])) / (x["train_seconds"] / max(1, x["epochs"])) for x, y in both]
    same = [(x, y) for x, y in both if x["epochs"] == y["epochs"]]
    geo = math.exp(sum(map(math.log, per_epoch)) / len(per_epoch))
    print(f"speed-up  : {r_sec / b_sec:8.2f} x per pair, {r_ep / b_ep:6.2f} x per training epoch (pooled), "
          f"{geo:.2f} x (geometric mean of per-pair ratios)")
    if same:
        print(f"            {sum(y['wall_s'] for _, y in same) / sum(x['seconds'] for x, _ in same):.2f} x per pair on the "
              f"{len(same)} pairs where both trained the same number of epochs")
    print(f"decisions agree on {agree}/{len(rows)} pairs")
PY
