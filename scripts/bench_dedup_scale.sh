#!/usr/bin/env bash
# Whole-command benchmark of `brec dedup --jobs 1` against the Python pynauty pipeline
# (scripts/dedup_pynauty.py): wall and CPU seconds, ratio, peak RSS, same orbits, on TU datasets and
# generated molecule-like sets of 10^3..10^6 graphs (Python up to --py-max). Needs a Python with
# pynauty (Debian python3-pynauty; not a project dependency).
# Usage: scripts/bench_dedup_scale.sh [bench_dedup_scale.py options: --tu DIR --sizes N,.. --py-max N
#        --before BREC --repeat K --work DIR --keep]
# Example: scripts/bench_dedup_scale.sh --tu data/PROTEINS --tu data/IMDB-BINARY --sizes 1000,10000,100000
set -euo pipefail
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
"$PY" -c "import pynauty" 2> /dev/null || {
  echo "bench_dedup_scale.sh: $PY cannot import pynauty (Debian package python3-pynauty)" >&2
  exit 2
}
exec "$PY" scripts/bench_dedup_scale.py --python "$PY" "$@"
