#!/usr/bin/env bash
# Sets up (installs dependencies, builds), runs the static checks (include graph, clang-format)
# and the unit test suite with CTest. Heavy runs (label `slow`, benchmarks, full-BREC evaluations)
# are excluded; run them with
#   ctest --test-dir build -L slow
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Static checks: #includes follow the module graph of src/CMakeLists.txt; sources as .clang-format says.
python3 scripts/ci/check_includes.py
bash scripts/ci/check_format.sh
BUILD_DIR="${BREC_BUILD_DIR:-build}"
ctest --test-dir "$BUILD_DIR" -L unit -LE slow --output-on-failure -j "$(nproc)" --timeout 600
# A short fuzzing run of every parser (clang, address + undefined-behaviour sanitizers, in
# build-fuzz/): fails on any crash, leak, hang or out-of-memory input. BREC_FUZZ_SECONDS=0 skips it.
FUZZ_SECONDS="${BREC_FUZZ_SECONDS:-15}"
if [[ "$FUZZ_SECONDS" != 0 ]]; then
  bash scripts/fuzz.sh --seconds "$FUZZ_SECONDS"
fi
