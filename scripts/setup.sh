#!/usr/bin/env bash
# Installs every Debian package brec needs (idempotent; quiet when all are present), then
# configures and builds brec in ./build (RelWithDebInfo, assertions of the test suite on).
#
#   bash scripts/setup.sh            # install + build everything
#   BREC_SKIP_INSTALL=1 bash scripts/setup.sh   # build only
#   BREC_BUILD_DIR=out bash scripts/setup.sh    # another build directory
#   BREC_TARGETS=brec bash scripts/setup.sh     # only these targets (brec: both binaries;
#                                               # brec_python: the Python package in build/python)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  g++ cmake make pkg-config
  libboost-graph-dev libboost-math-dev libeigen3-dev
  libnauty2-dev nauty libsvm-dev
  libcli11-dev nlohmann-json3-dev
  # SHA-256 of datasets in a board's provenance manifest (OpenSSL's libcrypto)
  libssl-dev
  # The board page's browser test (tests/html): headless Chromium
  chromium
  libgtest-dev libgmock-dev libbenchmark-dev
  libtorch-dev
  # brec-eval's allocator (tcmalloc): large pairs of dense models without mmap/munmap per batch
  libgoogle-perftools-dev
  # scripts/ci/check_format.sh (clang-format 14 on Debian 12)
  clang-format
  # scripts/fuzz.sh: clang with its libFuzzer and sanitizer runtimes
  clang-14 libclang-rt-14-dev
  # The Python examples of your own model (scripts/examples/; same PyTorch 1.13 as libtorch-dev)
  # and the brec Python package (apps/python: a pybind11 extension for that torch).
  python3-torch python3-numpy pybind11-dev python3-dev python3-venv python3-setuptools python3-wheel
  # LibTorch links the generic libblas.so.3; OpenBLAS makes it ~30x faster than the reference BLAS.
  libopenblas0-pthread libopenblas-dev
)

if [[ "${BREC_SKIP_INSTALL:-0}" != "1" ]]; then
  missing=()
  for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""
    if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  # Make sure libblas.so.3 resolves to OpenBLAS (the alternatives system picks the best by priority).
  if command -v update-alternatives >/dev/null; then
    blas=$(update-alternatives --query libblas.so.3-x86_64-linux-gnu 2>/dev/null | awk '/^Value:/{print $2}')
    case "$blas" in
      *openblas*) ;;
      *) echo "setup: warning: libblas.so.3 points to '${blas:-?}', not OpenBLAS; LibTorch on CPU will be slow" >&2 ;;
    esac
  fi
fi

BUILD_DIR="${BREC_BUILD_DIR:-build}"
JOBS="${BREC_JOBS:-$(nproc)}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${BREC_BUILD_TYPE:-RelWithDebInfo}" \
  -DBREC_BUILD_TESTS=ON -DBREC_WITH_TORCH="${BREC_WITH_TORCH:-ON}" ${BREC_CMAKE_ARGS:-} >/dev/null
# BREC_TARGETS (space-separated) builds only those targets, e.g. the binaries without the tests.
read -r -a TARGETS <<< "${BREC_TARGETS:-all}"
cmake --build "$BUILD_DIR" -j "$JOBS" --target "${TARGETS[@]}"
echo "setup: built ${TARGETS[*]} in $BUILD_DIR (binaries in $BUILD_DIR/bin)" >&2
