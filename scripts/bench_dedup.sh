#!/usr/bin/env bash
# Benchmark `brec dedup` (canonical certificates + hash map) against the pairwise approach on the
# same datasets, printing both times, their ratio and whether the orbits agree (exit 1 if not).
# Runs scripts/bench_dedup.py with a Python that can import pynauty (Debian python3-pynauty) when
# there is one; otherwise only the C++ pairwise baseline (brec dedup --method pairwise) runs.
# (Whole-command timings against a pynauty certificate pipeline, up to 10^6 graphs: bench_dedup_scale.sh.)
# Usage: scripts/bench_dedup.sh [bench_dedup.py options: --jobs J --tu DIR --only geng7,big --keep --work DIR]
# Example: BREC_BUILD_DIR=build scripts/bench_dedup.sh --jobs 2
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nauty-geng > /dev/null || { echo "bench_dedup.sh: nauty-geng not found (Debian package nauty)" >&2; exit 2; }
PY=python3
for cand in python3 /usr/bin/python3; do
  if "$cand" -c "import pynauty" 2> /dev/null; then PY="$cand"; break; fi
done
exec "$PY" scripts/bench_dedup.py "$@"
