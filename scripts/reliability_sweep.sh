#!/bin/bash
# Reliability sweep (a benchmark, not run in CI): every registered model x the pairs it can run on
# this machine x seeds 100..1000, then, per model and seed, the reliability failures and the
# decisions under both RPC protocols, and the false positives that theory rules out: a pair
# distinguished by a model whose theoretical bound (1-WL, 2-FWL = 3-WL, ...) is below the pair's
# certified hardness (`brec certify`), e.g. a 2-FWL-bounded model on a strongly regular pair.
#
#   scripts/reliability_sweep.sh                           # CPU: a sample of each category
#   PAIRS_PER_CATEGORY=10 scripts/reliability_sweep.sh     # a larger sample
#   ALL=1 DEVICE=cuda scripts/reliability_sweep.sh         # GPU: all 400 pairs for every model
#
# CPU sample: PAIRS_PER_CATEGORY evenly spaced pair ids of every fine category the model can run
# in seconds per pair on a CPU core (see categories_of: the subgraph models skip the CFI and
# 4-vertex-condition graphs, DE+NGNN, SUN and the n^2-sized models also the distance-regular ones,
# the heaviest models also the strongly regular ones). Every step appends to OUT and resumes (`--resume`), so interrupted or repeated runs add
# up; the reports are rebuilt each time.
#
# Output in OUT: board/ (brec board run: MODEL.jsonl per-pair records, costs and the provenance
# manifest), certify.jsonl, report/ (statistics across
# seeds), certificate-hotelling/ and certificate-brec_reference/ (each model's pairs per
# hardness level, the pairs failed within its bound and those distinguished beyond it), and
# sweep.md, the per-model table printed at the end.
#
# Environment: MODELS (every model of `brec eval --list-models`), SEEDS (100,200,...,1000),
# PAIRS_PER_CATEGORY (4), ALL (0; 1 = all 400 pairs), DEVICE (auto), JOBS (1), TORCH_THREADS (1:
# one intra-op thread per job; on a busy CPU more threads spin and cost far more than they gain),
# OUT (reliability-sweep), BREC (build/bin/brec), REPORT_ONLY (1 = only rebuild the reports from
# the records already in OUT, e.g. after runs on a cluster or a stopped sweep).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BREC=${BREC:-$ROOT/build/bin/brec}
SEEDS=${SEEDS:-100,200,300,400,500,600,700,800,900,1000}
PAIRS_PER_CATEGORY=${PAIRS_PER_CATEGORY:-4}
ALL=${ALL:-0}
DEVICE=${DEVICE:-auto}
JOBS=${JOBS:-1}
TORCH_THREADS=${TORCH_THREADS:-1}
OUT=${OUT:-reliability-sweep}
[[ -x "$BREC" ]] || { echo "reliability_sweep.sh: no brec binary at $BREC (set BREC=...)" >&2; exit 2; }
[[ "$PAIRS_PER_CATEGORY" =~ ^[1-9][0-9]*$ ]] ||
    { echo "reliability_sweep.sh: PAIRS_PER_CATEGORY must be a positive integer" >&2; exit 2; }
if [[ -z "${MODELS:-}" ]]; then
    # The model names are the first column of --list-models, up to its first blank line.
    MODELS=$("$BREC" eval --list-models | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $1 }' | tr '\n' ' ')
fi
mkdir -p "$OUT"

# Fine categories and their pair ids in the shipped BREC v3 file.
declare -A FIRST=([basic]=0 [regular]=60 [strongly_regular]=110 [extension]=160 [cfi]=260
                  [four_vertex_condition]=360 [distance_regular]=380)
declare -A COUNT=([basic]=60 [regular]=50 [strongly_regular]=50 [extension]=100 [cfi]=100
                  [four_vertex_condition]=20 [distance_regular]=20)
ALL_CATEGORIES="basic regular strongly_regular extension cfi four_vertex_condition distance_regular"

categories_of() {  # the fine categories a model runs in the CPU sample
    case "$1" in
        gin | ppgn | ngnn) echo "$ALL_CATEGORIES" ;;
        # DE+NGNN's distance-encoded copies (width 128, n^2 nodes) take over 20 minutes per
        # distance-regular pair (46-63 nodes) on a CPU core, SUN's copies several minutes.
        de_ngnn | sun) echo "basic regular strongly_regular extension" ;;
        # The n^2-sized and sampling models: SSWL+'s n^2 node pairs take minutes per
        # distance-regular pair; I2-GNN's per-neighbour copies minutes per strongly regular pair;
        # DropGNN (100 runs, 100 epochs), OSAN (21 graphs per input) and Graphormer (12 layers,
        # 100 epochs) tens of seconds per Basic pair already.
        sswl_p | lgnn2 | kc_setgnn) echo "basic regular strongly_regular extension" ;;
        i2_gnn | dropgnn | osan | graphormer) echo "basic regular extension" ;;
        *) echo "basic regular strongly_regular extension distance_regular" ;;
    esac
}

sample_ids() {  # PAIRS_PER_CATEGORY evenly spaced ids of each category given
    local ids=() c k first count
    for c in "$@"; do
        first=${FIRST[$c]} count=${COUNT[$c]}
        for ((k = 0; k < PAIRS_PER_CATEGORY && k < count; k++)); do
            ids+=($((first + k * count / PAIRS_PER_CATEGORY)))
        done
    done
    local IFS=,
    echo "${ids[*]}"
}

start=$SECONDS
REPORT_ONLY=${REPORT_ONLY:-0}
BOARD=$OUT/board
board_run() {  # brec board run: the (model, pair, seed) tasks cheapest first, records in $BOARD
    "$BREC" board run --all-pairs --seeds "$SEEDS" --device "$DEVICE" --jobs "$JOBS" \
        --torch-threads "$TORCH_THREADS" --out "$BOARD" --resume --quiet "$@" > /dev/null
}
if [[ "$REPORT_ONLY" != 1 ]]; then
    if [[ "$ALL" == 1 ]]; then
        echo "== brec board run: $MODELS on all 400 pairs, seeds $SEEDS" >&2
        board_run --models "$(echo $MODELS | tr ' ' ',')" --pairs 0-399
    else
        for model in $MODELS; do
            pairs=$(sample_ids $(categories_of "$model"))
            echo "== $model: seeds $SEEDS, pairs $pairs" >&2
            t0=$SECONDS
            board_run --models "$model" --pairs "$pairs"
            echo "   $((SECONDS - t0)) s" >&2
        done
    fi
fi

all_ids=0-399
[[ "$ALL" == 1 ]] || all_ids=$(sample_ids $ALL_CATEGORIES)
[[ "$REPORT_ONLY" == 1 ]] || echo "== brec certify (pairs $all_ids)" >&2
[[ "$REPORT_ONLY" == 1 ]] || "$BREC" certify --pairs "$all_ids" --jobs "$JOBS" --out "$OUT/certify.jsonl" --resume --quiet > /dev/null

[[ -s "$BOARD/manifest.json" ]] || { echo "reliability_sweep.sh: no board in $BOARD" >&2; exit 2; }
results=("$BOARD")
MODELS=$(python3 -c 'import json, sys; print(" ".join(m["name"] for m in json.load(open(sys.argv[1]))["models"]))' \
    "$BOARD/manifest.json")
"$BREC" report "${results[@]}" --fine --out "$OUT/report" --quiet
for protocol in hotelling brec_reference; do
    "$BREC" report "${results[@]}" --certificate "$OUT/certify.jsonl" --protocol "$protocol" \
        --format md,json --out "$OUT/certificate-$protocol" --quiet
done

# Per model, summed over its seeds: pair runs, reliability failures and pairs distinguished
# (reliable only) under each protocol, and the distinguished pairs beyond the model's bound.
python3 - "$OUT" $MODELS > "$OUT/sweep.md" <<'EOF'
import json, sys
out, models = sys.argv[1], sys.argv[2:]
views = {p: json.load(open(f"{out}/certificate-{p}/certificate.json")) for p in ("hotelling", "brec_reference")}
print("| model | bound | seeds | pair runs | unreliable H | unreliable R | distinguished H | distinguished R "
      "| beyond bound H | beyond bound R |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
beyond = []
for model in models:
    row = {}
    for p, view in views.items():
        runs = [r for r in view["runs"] if r["model"] == model]
        pairs = sum(l["pairs"] for r in runs for l in r["levels"].values())
        unreliable = sum(l["reliability_failures"] for r in runs for l in r["levels"].values())
        distinguished = sum(l["distinguished"] for r in runs for l in r["levels"].values())
        over = [(r["seed"], q) for r in runs for q in (r["distinguished_beyond_bound"] or [])]
        row[p] = (len(runs), pairs, unreliable, distinguished, over)
        beyond += [(model, p, seed, q) for seed, q in over]
    h, r = row["hotelling"], row["brec_reference"]
    bound = next((r_["bound"] for r_ in views["hotelling"]["runs"] if r_["model"] == model), None) or "?"
    print(f"| {model} | {bound} | {h[0]} | {h[1]} | {h[2]} | {r[2]} | {h[3]} | {r[3]} | {len(h[4])} | {len(r[4])} |")
print()
print("Distinguished beyond the bound (H = Hotelling protocol, R = BREC reference protocol):")
print()
if not beyond:
    print("none")
for model, p, seed, q in beyond:
    print(f"- {model} seed {seed} ({'H' if p == 'hotelling' else 'R'}): pair {q['id']} {q['category']}, "
          f"certified {q['level']}")
EOF
cat "$OUT/sweep.md"
echo "reliability_sweep.sh: $((SECONDS - start)) s; reports in $OUT/" >&2
