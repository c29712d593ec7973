# Shared by the device checks (scripts/gpu/proof1.sh, proof2.sh); sourced with PROOF set:
#   PROOF=proof1 source scripts/gpu/common.sh "$@"
# Sets REHEARSE (--rehearse: the check on the CPU of this machine with tiny settings), DEVICE, R
# (the folder whose contents come back as $OUT/$PROOF.tar.gz), PY, BUILD and BREC, and defines
# stage (one time-boxed step) and prepare_build (unpack the carried Debian packages of
# scripts/gpu/pack.sh, configure against the machine's PyTorch, build the targets; a warm machine
# that built them already skips to the checks).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
REHEARSE=0
[[ "${1:-}" == "--rehearse" ]] && REHEARSE=1
OUT="${OUT:-$PWD/gpu-out}"
R="$(mktemp -d)/$PROOF"
mkdir -p "$OUT" "$R"
PREFIX=/tmp/brec-prefix
BUILD=/tmp/brec-gpu-build
START=$(date +%s)
# BREC_GPU_DEADLINE (seconds since the epoch) is the deadline of scripts/gpu/proofs.sh, which runs
# both checks in one call; alone, a check has BREC_GPU_BUDGET seconds.
DEADLINE=${BREC_GPU_DEADLINE:-$((START + ${BREC_GPU_BUDGET:-520}))}
PY=python3  # the device's python3 holds its PyTorch
((REHEARSE)) && PY=/usr/bin/python3  # Debian's, with python3-torch
DEVICE=cuda
((REHEARSE)) && DEVICE=cpu
GENERATOR="Unix Makefiles"
command -v ninja >/dev/null && GENERATOR=Ninja
# usr/lib: libcliquer.so.1, which libnauty.so needs (at link time too: ld searches LD_LIBRARY_PATH).
export LD_LIBRARY_PATH="$PREFIX/usr/lib/x86_64-linux-gnu:$PREFIX/usr/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}"
printf 'stage\texit\tseconds\n' >"$R/stages.tsv"
{
  echo "rehearse=$REHEARSE date=$(date -u +%FT%TZ) host=$(hostname) cores=$(nproc)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  $PY -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())' 2>&1
  git log -1 --format='commit %H' 2>/dev/null
} >"$R/machine.txt"

# stage NAME LIMIT COMMAND...: runs COMMAND (a function of the script, exported, or a program) for
# at most LIMIT seconds, less when the budget is nearly spent, skipped under 10 s; its output in
# $R/NAME.log, its exit code and seconds in $R/stages.tsv.
stage() {
  local name=$1 limit=$2 left
  shift 2
  left=$((DEADLINE - $(date +%s) - 15))
  ((limit > left)) && limit=$left
  if ((limit < 10)); then
    printf '%s\tskipped\t0\n' "$name" >>"$R/stages.tsv"
    echo "$PROOF: $name skipped (out of time)"
    return 1
  fi
  echo "$PROOF: $name (at most ${limit} s)"
  local t0 rc=0
  t0=$(date +%s)
  timeout --kill-after=5 "$limit" bash -c '"$@"' _ "$@" >"$R/$name.log" 2>&1 || rc=$?
  printf '%s\t%s\t%s\n' "$name" "$rc" "$(($(date +%s) - t0))" >>"$R/stages.tsv"
  tail -n 3 "$R/$name.log" | sed "s/^/  $name: /"
  return $rc
}

finish() {
  cp "$R/stages.tsv" "$OUT/$PROOF-stages.tsv"
  tar -czf "$OUT/$PROOF.tar.gz" -C "$(dirname "$R")" "$PROOF"
  echo "$PROOF: wrote $OUT/$PROOF.tar.gz after $(($(date +%s) - START)) s"
  cat "$R/stages.tsv"
}
trap finish EXIT

unpack() {
  rm -rf "$PREFIX" && mkdir -p "$PREFIX"
  for f in .gpu/debs/*.deb; do dpkg -x "$f" "$PREFIX"; done
}
configure() {
  rm -rf "$BUILD"
  local torch_prefix=""
  ((REHEARSE)) || torch_prefix="$($PY -c 'import torch; print(torch.utils.cmake_prefix_path)');"
  # pkg-config finds nothing: the packages' .pc files name /usr, not the unpacked prefix, so every
  # dependency is found through CMAKE_PREFIX_PATH (cmake/FindDependencies.cmake's fallbacks). The
  # libraries are named outright: the device's gcc (/opt/gcc) gives CMake no multiarch folder, so
  # find_library does not look in lib/x86_64-linux-gnu there.
  # When that fails, once more without the Python package (proof 1 does not need it).
  local usr="$PREFIX/usr" lib="$PREFIX/usr/lib/x86_64-linux-gnu"
  local args=(-S . -B "$BUILD" -G "$GENERATOR" -DCMAKE_BUILD_TYPE=Release -DBREC_WITH_TCMALLOC=OFF
    -DPKG_CONFIG_USE_CMAKE_PREFIX_PATH=OFF -DCMAKE_PREFIX_PATH="${torch_prefix}$usr"
    -DCMAKE_LIBRARY_ARCHITECTURE=x86_64-linux-gnu -DOPENSSL_ROOT_DIR="$usr" -DOPENSSL_INCLUDE_DIR="$usr/include"
    -DOPENSSL_CRYPTO_LIBRARY="$lib/libcrypto.so" -DOPENSSL_SSL_LIBRARY="$lib/libssl.so"
    -DNAUTY_HEADER_DIR="$usr/include/x86_64-linux-gnu" -DNAUTY_AUX_HEADER_DIR="$usr/include"
    -DNAUTY_LIBRARY="$lib/libnauty.so" -DLIBSVM_INCLUDE_DIR="$usr/include/libsvm" -DLIBSVM_LIBRARY="$lib/libsvm.so"
    -DBoost_DIR="$lib/cmake/Boost-1.74.0" -DGTest_DIR="$lib/cmake/GTest" -DPython3_EXECUTABLE="$(command -v $PY)")
  export PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH=''
  cmake "${args[@]}" && return 0
  echo "configure: failed; again without the Python package"
  rm -rf "$BUILD"
  cmake "${args[@]}" -DBREC_WITH_PYTHON=OFF
}
export -f unpack configure
export PREFIX BUILD REHEARSE PY GENERATOR R DEVICE DEADLINE

# prepare_build TARGET...: on the device, unpack, configure and build (skipped when a warm machine
# holds the build of an earlier check and it is up to date); rehearsing, unpack and configure into
# /tmp (proving the carried packages suffice), then use the build of scripts/setup.sh. With
# BREC_GPU_BUILT=1 (set by proofs.sh, which built every target first) it only names the build.
prepare_build() {
  if [[ "${BREC_GPU_BUILT:-0}" == 1 ]]; then
    ((REHEARSE)) && BUILD=build
  elif ((REHEARSE)); then
    stage unpack 60 unpack || exit 1
    stage configure 90 configure || exit 1
    BUILD=build
  else
    if [[ ! -f "$BUILD/build.ninja" && ! -f "$BUILD/Makefile" ]]; then
      stage unpack 60 unpack || exit 1
      stage configure 90 configure || exit 1
    fi
    # Ninja keeps going past a failed file (-k 0): a test program that does not compile leaves
    # brec and the other checks their stages, and the log names every failure at once.
    local keep_going=()
    [[ "$GENERATOR" == Ninja ]] && keep_going=(-- -k 0)
    stage build "${BREC_GPU_BUILD_LIMIT:-300}" cmake --build "$BUILD" -j "$(nproc)" --target "$@" "${keep_going[@]}" ||
      [[ -x "$BUILD/bin/brec" ]] || exit 1
  fi
  BREC="$PWD/$BUILD/bin/brec"
  [[ "$BUILD" == /* ]] && BREC="$BUILD/bin/brec"
  export BUILD BREC
}
