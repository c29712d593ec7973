#!/usr/bin/env bash
# Speed benchmark of the WL engine on the shipped BREC pairs:
#  1. brec wl --method 2fwl over all 400 pairs with --jobs J (goal: < 10 s on 2 cores), wall time,
#     CPU time and peak RSS;
#  2. side by side with the Python re-creation of the BREC authors' per-graph FWL_hash approach
#     (tests/benchmarks/reference/fwl_reference.py; needs python3-networkx) on the same pairs,
#     both on ONE core, and the ratio of their times;
#  3. with --cfi3: brec wl --method 3fwl over the 100 CFI pairs (goal: < 10 min on 2 cores).
# Usage: scripts/bench_wl.sh [--ref-pairs IDS] [--jobs J] [--cfi3] [--no-ref]
#   --ref-pairs: pairs the Python reference runs on (default 0-109,160-259: basic, regular and
#                extension, n <= 19; the strongly regular ones take it minutes, CFI hours,
#                the full 400 most of a day); brec runs the same pairs for the ratio.
# Example: BREC_BUILD_DIR=build scripts/bench_wl.sh --jobs 2 --cfi3
set -euo pipefail
cd "$(dirname "$0")/.."
BREC="${BREC_BUILD_DIR:-build}/bin/brec"
REF=tests/benchmarks/reference/fwl_reference.py
REF_PAIRS=0-109,160-259
JOBS=2
CFI3=0
RUN_REF=1
while [ $# -gt 0 ]; do
  case "$1" in
    --ref-pairs) REF_PAIRS="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --cfi3) CFI3=1; shift ;;
    --no-ref) RUN_REF=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "bench_wl.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$BREC" ] || { echo "bench_wl.sh: $BREC not found; build first or set BREC_BUILD_DIR" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Runs a command under GNU time; prints "wall user sys peak_kb" into $TMP/time.
timed() { /usr/bin/time -f "%e %U %S %M" -o "$TMP/time" "$@"; }

echo "== 2-FWL on all 400 BREC pairs, --jobs $JOBS"
timed "$BREC" wl --method 2fwl --jobs "$JOBS" --json --quiet > "$TMP/2fwl.jsonl"
read -r wall user sys rss < "$TMP/time"
python3 - "$TMP/2fwl.jsonl" "$wall" "$user" "$sys" "$rss" <<'PY'
import json, sys
s = json.loads(open(sys.argv[1]).read().splitlines()[-1])
wall, user, sysc, rss = sys.argv[2:]
print(f"distinguished {s['total']['distinguished']}/{s['total']['pairs']}; wall {float(wall):.2f} s "
      f"(CPU {float(user) + float(sysc):.2f} s), peak RSS {int(rss) / 1024:.1f} MiB")
PY

if [ "$RUN_REF" = 1 ]; then
  echo
  echo "== 2-FWL on pairs $REF_PAIRS, one core: brec vs the Python reference (FWL_hash style)"
  timed "$BREC" wl --method 2fwl --pairs "$REF_PAIRS" --jobs 1 --json --quiet > "$TMP/brec_sub.jsonl"
  read -r bwall buser bsys brss < "$TMP/time"
  timed python3 "$REF" --k 2 --pairs "$REF_PAIRS" --json > "$TMP/ref.jsonl"
  read -r rwall ruser rsys rrss < "$TMP/time"
  python3 - "$TMP/brec_sub.jsonl" "$TMP/ref.jsonl" "$bwall" "$buser" "$bsys" "$rwall" "$ruser" "$rsys" "$brss" "$rrss" <<'PY'
import json, sys
b_lines = open(sys.argv[1]).read().splitlines()
r_lines = open(sys.argv[2]).read().splitlines()
b_sum, r_sum = json.loads(b_lines[-1]), json.loads(r_lines[-1])
b = {j["id"]: j["distinguished"] for j in map(json.loads, b_lines[:-1])}
r = {j["id"]: j["distinguished"] for j in map(json.loads, r_lines[:-1])}
bw, bu, bs, rw, ru, rs = map(float, sys.argv[3:9])
brss, rrss = int(sys.argv[9]), int(sys.argv[10])
disagree = sorted(i for i in b if i in r and b[i] != r[i])
print(f"pairs {len(b)}; distinguished: brec {b_sum['total']['distinguished']}, reference {r_sum['distinguished']}; "
      f"disagreements {len(disagree)} {disagree[:10]}")
print(f"brec      wall {bw:8.2f} s  CPU {bu + bs:8.2f} s  peak RSS {brss / 1024:7.1f} MiB")
print(f"reference wall {rw:8.2f} s  CPU {ru + rs:8.2f} s  peak RSS {rrss / 1024:7.1f} MiB")
print(f"speed-up (reference / brec): wall x{rw / max(bw, 1e-3):.0f}, CPU x{(ru + rs) / max(bu + bs, 1e-3):.0f}")
PY
fi

if [ "$CFI3" = 1 ]; then
  echo
  echo "== 3-FWL on the 100 CFI pairs, --jobs $JOBS"
  timed "$BREC" wl --method 3fwl --category cfi --jobs "$JOBS" --json --quiet > "$TMP/3fwl.jsonl"
  read -r wall user sys rss < "$TMP/time"
  python3 - "$TMP/3fwl.jsonl" "$wall" "$user" "$sys" "$rss" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
s = json.loads(lines[-1])
slowest = max(map(json.loads, lines[:-1]), key=lambda j: j["seconds"])
wall, user, sysc, rss = sys.argv[2:]
print(f"distinguished {s['total']['distinguished']}/{s['total']['pairs']}; wall {float(wall):.1f} s "
      f"(CPU {float(user) + float(sysc):.1f} s), peak RSS {int(rss) / 1024:.1f} MiB; slowest pair "
      f"{slowest['id']}: {slowest['seconds']:.1f} s, {slowest['rounds']} rounds")
PY
fi
