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
#                                             # then every stage with tiny settings on build/;
#                                             # its ref stage needs python3-torch and python3-networkx
#                                             # here (the device machine has both)
PROOF=proof1
# shellcheck source=scripts/gpu/common.sh
source "$(dirname "$0")/common.sh" "$@"
prepare_build brec brec-eval test_nn test_eval test_attack
if ((REHEARSE)); then
  export BREC_CUDA_CHECK_DEVICE=cpu
  COST_MODELS="gin ppgn dropgnn"
  COST_PAIRS=0,60
  REF_PAIRS=0-1
else
  COST_MODELS=""
  COST_PAIRS=0,60,150,160,300,360,380  # basic, regular, SR, extension, CFI, 4-vertex, DR
  REF_PAIRS=0-59,260-269
fi
[[ -z "$COST_MODELS" ]] && COST_MODELS=$("$BREC" eval --list-models --json | $PY -c \
  'import json,sys; print(" ".join(m["name"] for m in json.load(sys.stdin)))')

export COST_MODELS COST_PAIRS REF_PAIRS

# A test program that crashes leaves no XML but writes a backtrace (tests/common/crash_report.cpp);
# its frames inside the program itself are named here by addr2line from the symbol table (the
# Release build has no debug information). Where cuda-gdb exists it runs the program again.
cuda_tests() {
  local rc=0 t code bin
  for t in nn eval attack; do
    bin="$BUILD/tests/test_$t"
    if [[ ! -x "$bin" ]]; then
      echo "test_$t: not built (see build.log)"
      rc=1
      continue
    fi
    "$bin" --gtest_filter='*Cuda*' --gtest_output="xml:$R/test_$t.xml" 2>"$R/test_$t.err"
    code=$?
    cat "$R/test_$t.err"
    if ((code > 128)); then
      echo "test_$t: killed by signal $((code - 128)); its own frames:"
      grep -o "test_$t(+0x[0-9a-f]*)" "$R/test_$t.err" | sed 's/.*(+\(0x[0-9a-f]*\))/\1/' |
        xargs -r addr2line -f -C -p -e "$bin" 2>&1 | head -n 40
      if command -v cuda-gdb >/dev/null; then
        echo "test_$t: again under cuda-gdb:"
        timeout 90 cuda-gdb -batch -ex run -ex bt -ex 'thread apply all bt 8' \
          --args "$bin" --gtest_filter='*Cuda*' 2>&1 | tail -n 150
      fi
    fi
    ((code)) && rc=1
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
