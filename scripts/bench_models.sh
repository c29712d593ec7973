#!/bin/bash
# Benchmark of the models' evaluation cost (not run in CI). Two modes:
#
#   scripts/bench_models.sh                   # cpu: a fixed small pair sample, 1 and 2 torch threads
#   MODE=full DEVICE=cuda scripts/bench_models.sh   # every pair, next to the BREC paper's times
#
# cpu mode, per model: seconds per pair and per training epoch with 1 and 2 intra-op threads (one
# job), peak RSS, and the share of a pair's time spent preparing the model's tensors (subgraphs,
# index maps, inputs), measured by the probe ModelBench.DISABLED_PreparationSeconds of test_eval:
# set_graphs plus a first pass over the batches (which builds every range) minus a second pass
# (which reuses them), for the training and the reliability group.
#
# full mode, per model: `brec eval` on all 400 pairs (default settings, --jobs JOBS), the total
# seconds and the seconds on the model's paper subset, next to the preparation + evaluation
# seconds the BREC authors report for their code on an RTX 4090 ("An Empirical Study of Realized
# GNN Expressiveness", Table 11), which ran each model on its paper subset only.
#
# Environment: MODELS (the subgraph, k-WL, substructure, random and transformer models: ngnn
# de_ngnn ds_gnn dss_gnn sun gnn_ak kp_gnn i2_gnn sswl_p lgnn2 kc_setgnn gsn dropgnn graphormer osan),
# IDS (cpu mode: 0,60,110,160,265 = one pair each of Basic, Regular, strongly regular, Extension,
# CFI), THREADS (cpu mode: "1 2"),
# EPOCHS (model default), SEED (100), OUT (bench-models), BREC (build/bin/brec), TEST_EVAL
# (build/tests/test_eval), MODE (cpu | full), DEVICE (full mode: auto), JOBS (full mode: 1),
# SKIP_PROBE (1 = no preparation probe).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MODELS=${MODELS:-ngnn de_ngnn ds_gnn dss_gnn sun gnn_ak kp_gnn i2_gnn sswl_p lgnn2 kc_setgnn gsn dropgnn graphormer osan}
IDS=${IDS:-0,60,110,160,265}
THREADS=${THREADS:-1 2}
SEED=${SEED:-100}
OUT=${OUT:-bench-models}
MODE=${MODE:-cpu}
BREC=${BREC:-$ROOT/build/bin/brec}
TEST_EVAL=${TEST_EVAL:-$ROOT/build/tests/test_eval}
[[ -x "$BREC" ]] || { echo "bench_models.sh: no brec binary at $BREC (set BREC=...)" >&2; exit 2; }
export BREC_PAIRS=$ROOT/datasets/brec/brec_v3_pairs.tsv
TIME=/usr/bin/time
[[ -x $TIME ]] || TIME=""
mkdir -p "$OUT"
epochs_flag=()
[[ -n "${EPOCHS:-}" ]] && epochs_flag=(--epochs "$EPOCHS")

"$BREC" eval --list-models --json > "$OUT/models.json"
# The BREC authors' times, shared by both modes' tables (written to $OUT/paper_times.py).
cat > "$OUT/paper_times.py" <<'PY'
# RTX 4090 seconds (preparation + evaluation) of the BREC authors' code, on each model's paper subset.
paper = {"ngnn": (516, 388), "de_ngnn": (3123, 1087), "ds_gnn": (2343, 3300), "dss_gnn": (2343, 1008),
         "sun": (2343, 1925), "gnn_ak": (768, 1048), "ppgn": (47, 156), "kp_gnn": (73113, 873),
         "i2_gnn": (10460, 7013),
         "lgnn2": (5, 2532), "graphormer": (66, 13681),
         "kc_setgnn": (118005, 5670),
         "gsn": (5231, 150),
         "dropgnn": (393, 533),
         "sswl_p": (644, 4085),
         "osan": (1, 187023)}
import json as _json, os as _os
# Each model's paper subset, as brec's registry gives it (brec eval --list-models --json).
_models = {m["name"]: m for m in _json.load(open(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "models.json")))}
def subset(model):
    spec = _models[model]["paper_subset"]
    if not spec:
        return set(range(400))
    ids = set()
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        ids |= set(range(int(lo), int(hi or lo) + 1))
    return ids
PY

if [[ "$MODE" == full ]]; then
    DEVICE=${DEVICE:-auto}
    JOBS=${JOBS:-1}
    for m in $MODELS; do
        rm -f "$OUT/$m.full.jsonl" "$OUT/$m.full.jsonl.summary.json"
        echo "== brec eval --model $m (all pairs, --device $DEVICE --jobs $JOBS)" >&2
        start=$(date +%s.%N)
        ${TIME:+$TIME -f "%M" -o "$OUT/$m.full.rss"} "$BREC" eval --model "$m" --device "$DEVICE" --jobs "$JOBS" \
            --seed "$SEED" "${epochs_flag[@]}" --out "$OUT/$m.full.jsonl" --quiet > /dev/null
        python3 -c "print($(date +%s.%N) - $start)" > "$OUT/$m.full.wall"
    done
    python3 - "$OUT" "$BREC" $MODELS <<'PY'
import json, os, subprocess, sys
out, brec, models = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.path.insert(0, out)
from paper_times import paper, subset
print(f"{'model':10} {'pairs':>5} {'all s':>9} {'wall s':>9} {'subset s':>9} {'paper prep+eval s':>18} {'ratio':>6} {'peak RSS':>9}")
for m in models:
    rows = [json.loads(l) for l in open(os.path.join(out, f"{m}.full.jsonl")) if l.strip()]
    total = sum(r["seconds"] for r in rows)
    sub = sum(r["seconds"] for r in rows if r["id"] in subset(m))
    wall = float(open(os.path.join(out, f"{m}.full.wall")).read())
    rss_path = os.path.join(out, f"{m}.full.rss")
    rss = f"{int(open(rss_path).read().split()[-1]) / 1024:.0f} MiB" if os.path.exists(rss_path) else "?"
    p = paper.get(m)
    ps = f"{p[0]}+{p[1]}={p[0] + p[1]}" if p else "-"
    ratio = f"{(p[0] + p[1]) / sub:.1f}x" if p and sub > 0 else "-"
    print(f"{m:10} {len(rows):5d} {total:9.0f} {wall:9.0f} {sub:9.0f} {ps:>18} {ratio:>6} {rss:>9}")
print("all s / subset s: sums of per-pair seconds (with --jobs > 1 they exceed the wall time); ratio = paper / subset.")
PY
    exit 0
fi

for m in $MODELS; do
    for t in $THREADS; do
        rm -f "$OUT/$m.t$t.jsonl" "$OUT/$m.t$t.jsonl.summary.json"
        echo "== brec eval --model $m --pairs $IDS --torch-threads $t" >&2
        ${TIME:+$TIME -f "%M" -o "$OUT/$m.t$t.rss"} "$BREC" eval --model "$m" --pairs "$IDS" --jobs 1 \
            --torch-threads "$t" --device cpu --seed "$SEED" "${epochs_flag[@]}" --out "$OUT/$m.t$t.jsonl" --quiet > /dev/null
    done
    if [[ "${SKIP_PROBE:-0}" != 1 ]]; then
        [[ -x "$TEST_EVAL" ]] || { echo "bench_models.sh: no test_eval at $TEST_EVAL (build with -DBREC_BUILD_TESTS=ON, or SKIP_PROBE=1)" >&2; exit 2; }
        echo "== preparation probe for $m" >&2
        BREC_BENCH_MODELS=$m BREC_BENCH_PAIRS=$IDS BREC_BENCH_THREADS=${THREADS%% *} BREC_BENCH_SEED=$SEED \
            "$TEST_EVAL" --gtest_also_run_disabled_tests --gtest_filter='ModelBench.DISABLED_PreparationSeconds' \
            | grep -E "^$m " > "$OUT/$m.probe" || true
    fi
done

python3 - "$OUT" "$THREADS" $MODELS <<'PY'
import json, os, sys
out, threads, models = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
sys.path.insert(0, out)
from paper_times import paper, subset
def rss(path):
    return f"{int(open(path).read().split()[-1]) / 1024:.0f}" if os.path.exists(path) else "?"
head = f"{'model':10} {'pairs':>5}"
for t in threads:
    head += f" {'s/pair t' + t:>11} {'s/epoch t' + t:>11} {'RSS MiB t' + t:>11}"
head += f" {'prep share':>11} {'paper s/pair':>12}"
print(head)
for m in models:
    line = ""
    for t in threads:
        rows = [json.loads(l) for l in open(os.path.join(out, f"{m}.t{t}.jsonl")) if l.strip()]
        per_pair = sum(r["seconds"] for r in rows) / len(rows)
        per_epoch = sum(r["train_seconds"] for r in rows) / max(1, sum(r["epochs"] for r in rows))
        line += f" {per_pair:11.3f} {per_epoch:11.4f} {rss(os.path.join(out, f'{m}.t{t}.rss')):>11}"
    share = "-"
    probe = os.path.join(out, f"{m}.probe")
    if os.path.exists(probe):
        prep = {int(c[1]): float(c[3]) for c in (l.split() for l in open(probe) if l.strip())}
        base = [json.loads(l) for l in open(os.path.join(out, f"{m}.t{threads[0]}.jsonl")) if l.strip()]
        if prep and base:
            # columns of the probe: model pair n prep_seconds
            share = f"{sum(prep.get(r['id'], 0.0) for r in base) / sum(r['seconds'] for r in base):.2%}"
    p = paper.get(m)
    paper_pair = f"{(p[0] + p[1]) / len(subset(m)):.1f}" if p else "-"
    print(f"{m:10} {len(rows):5d}{line} {share:>11} {paper_pair:>12}")
print("s/epoch = training seconds / epochs (early stopping ends training after a varying number of epochs);")
print("paper s/pair = the BREC authors' preparation + evaluation seconds on an RTX 4090 over the model's paper subset, per pair;")
print("  a mean over all of its categories, not over the pairs sampled here.")
print(f"prep share = seconds preparing tensors / seconds of the pairs' evaluations with {threads[0]} thread(s), summed over the pairs.")
PY
