#!/usr/bin/env bash
# GPU proof, part 1, in one device call: unpack the carried Debian packages (scripts/gpu/pack.sh),
# configure and build what the check needs against the machine's PyTorch, then, most important
# first, each stage time-boxed so that the whole call ends inside its budget (default 520 s):
#   tests  every model's CUDA path against its CPU path (test_nn, test_eval, test_attack: *Cuda*)
#   cost   per model, one representative pair per fine category: 3 epochs and the RPC decision
#          on CUDA (the records' seconds), four models at a time; the GPU's peak memory sampled
#   ref    PPGN side by side on one card: the patched reference pipeline and brec eval, same pairs
# Everything finished comes back as $OUT/proof1.tar.gz (stages.tsv lists each stage's exit code
# and seconds; a stage out of time is cut, the rest still runs if time is left).
#
#   device run --carry .gpu --command 'bash scripts/gpu/proof1.sh'   # after pack.sh here
#   bash scripts/gpu/proof1.sh --rehearse     # here, on the CPU: unpack and configure into /tmp,
#                                             # then every stage with tiny settings on build/
set -uo pipefail
cd "$(dirname "$0")/../.."
REHEARSE=0
[[ "${1:-}" == "--rehearse" ]] && REHEARSE=1
OUT="${OUT:-$PWD/gpu-out}"
R="$(mktemp -d)/proof1"
mkdir -p "$OUT" "$R"
PREFIX=/tmp/brec-prefix
BUILD=/tmp/brec-gpu-build
START=$(date +%s)
DEADLINE=$((START + ${BREC_GPU_BUDGET:-520}))
printf 'stage\texit\tseconds\n' >"$R/stages.tsv"

# stage NAME LIMIT COMMAND...: runs COMMAND for at most LIMIT seconds (less if the budget is
# nearly spent; skipped under 10 s), its output in $R/NAME.log.
stage() {
  local name=$1 limit=$2 left
  shift 2
  left=$((DEADLINE - $(date +%s) - 15))
  ((limit > left)) && limit=$left
  if ((limit < 10)); then
    printf '%s\tskipped\t0\n' "$name" >>"$R/stages.tsv"
    echo "proof1: $name skipped (out of time)"
    return 1
  fi
  echo "proof1: $name (at most ${limit} s)"
  local t0=$(date +%s) rc=0
  # The commands are this script's functions: a child bash runs them (exported below).
  timeout --kill-after=5 "$limit" bash -c '"$@"' _ "$@" >"$R/$name.log" 2>&1 || rc=$?
  printf '%s\t%s\t%s\n' "$name" "$rc" "$(($(date +%s) - t0))" >>"$R/stages.tsv"
  tail -n 3 "$R/$name.log" | sed "s/^/  $name: /"
  return $rc
}

finish() {
  cp "$R/stages.tsv" "$OUT/stages.tsv"
  tar -czf "$OUT/proof1.tar.gz" -C "$(dirname "$R")" proof1
  echo "proof1: wrote $OUT/proof1.tar.gz after $(($(date +%s) - START)) s"
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
  # dependency is found through CMAKE_PREFIX_PATH (cmake/FindDependencies.cmake's fallbacks).
  PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= \
    cmake -S . -B "$BUILD" -G "$GENERATOR" -DCMAKE_BUILD_TYPE=Release -DBREC_WITH_PYTHON=OFF -DBREC_WITH_TCMALLOC=OFF \
    -DPKG_CONFIG_USE_CMAKE_PREFIX_PATH=OFF -DCMAKE_PREFIX_PATH="${torch_prefix}$PREFIX/usr" \
    -DOPENSSL_ROOT_DIR="$PREFIX/usr"
}
PY=python3  # the device's python3 holds its PyTorch
((REHEARSE)) && PY=/usr/bin/python3  # Debian's, with python3-torch
GENERATOR="Unix Makefiles"
command -v ninja >/dev/null && GENERATOR=Ninja
export LD_LIBRARY_PATH="$PREFIX/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}"

{
  echo "rehearse=$REHEARSE date=$(date -u +%FT%TZ) host=$(hostname) cores=$(nproc)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  $PY -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())' 2>&1
  git log -1 --format='commit %H' 2>/dev/null
} >"$R/machine.txt"

export -f unpack configure
export PREFIX BUILD REHEARSE PY GENERATOR R
stage unpack 60 unpack || exit 1
stage configure 90 configure || exit 1
if ((REHEARSE)); then
  # The configure above proves the carried packages suffice; the stages below use the build of
  # scripts/setup.sh (a second full build takes too long on 2 cores).
  BUILD=build
  DEVICE=cpu
  export BREC_CUDA_CHECK_DEVICE=cpu
  COST_MODELS="gin ppgn dropgnn"
  COST_PAIRS=0,60
  REF_PAIRS=0-1
else
  stage build 300 cmake --build "$BUILD" -j "$(nproc)" --target brec brec-eval test_nn test_eval test_attack || exit 1
  DEVICE=cuda
  COST_MODELS=""
  COST_PAIRS=0,60,150,160,300,360,380  # basic, regular, SR, extension, CFI, 4-vertex, DR
  REF_PAIRS=0-59,260-269
fi
BREC="$PWD/$BUILD/bin/brec"
[[ "$BUILD" == /* ]] && BREC="$BUILD/bin/brec"
[[ -z "$COST_MODELS" ]] && COST_MODELS=$("$BREC" eval --list-models --json | $PY -c \
  'import json,sys; print(" ".join(m["name"] for m in json.load(sys.stdin)))')

export BUILD DEVICE BREC COST_MODELS COST_PAIRS REF_PAIRS

cuda_tests() {
  local rc=0 t
  for t in nn eval attack; do
    "$BUILD/tests/test_$t" --gtest_filter='*Cuda*' --gtest_output="xml:$R/test_$t.xml" || rc=1
  done
  return $rc
}
export -f cuda_tests
stage tests 150 cuda_tests

cost() {
  mkdir -p "$R/cost"
  local sampler=""
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 250 >"$R/cost/gpu_memory_mib.txt" &
    sampler=$!
  fi
  # Four models at a time on the one device, each cut after 120 s; 3 epochs (no early stop) and
  # the decision per pair. A model's seconds per epoch: train_seconds / epochs of its records.
  printf '%s\n' $COST_MODELS | xargs -P 4 -I{} timeout 120 "$BREC" eval --model {} --pairs "$COST_PAIRS" \
    --device "$DEVICE" --epochs 3 --loss-threshold 0 --out "$R/cost/{}.jsonl" --quiet
  local rc=$?
  [[ -n "$sampler" ]] && kill "$sampler"
  return $rc
}
export -f cost
stage cost 200 cost

ref() {
  BREC_PAIRS=datasets/brec/brec_v3_pairs.tsv $PY .gpu/ppgn_reference.py --ids "$REF_PAIRS" --device "$DEVICE" \
    --threads "$(nproc)" --out "$R/ref_reference.json" || return 1
  "$BREC" eval --model ppgn --pairs "$REF_PAIRS" --device "$DEVICE" --out "$R/ref_brec.jsonl" --quiet
}
export -f ref
stage ref 150 ref
