#!/usr/bin/env bash
# Sets up (installs dependencies, builds) and runs the unit test suite with CTest.
# Heavy runs (label `slow`, benchmarks, full-BREC evaluations) are excluded; run them with
#   ctest --test-dir build -L slow
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR="${BREC_BUILD_DIR:-build}"
ctest --test-dir "$BUILD_DIR" -L unit -LE slow --output-on-failure -j "$(nproc)" --timeout 600
