#!/usr/bin/env bash
# Both GPU checks in one device call. A lent task's 15 minutes of device time hold one machine
# start and one call of about nine minutes, not two (a machine stays warm for 30 s only), so this
# builds the targets of both checks once, then runs proof1.sh and proof2.sh side by side on the one
# card, every stage of each cut at the common deadline (BREC_GPU_BUDGET seconds from the start,
# default 540). Their timings share the card and the 16 cores with the other check.
# Back: $OUT/build.tar.gz (the build's logs and both checks' output), proof1.tar.gz, proof2.tar.gz
# and each one's stages.tsv.
#
#   device run --carry .gpu --timeout 600 --command 'bash scripts/gpu/proofs.sh'   # after pack.sh
#   bash scripts/gpu/proofs.sh --rehearse     # here, on the CPU, with tiny settings
export BREC_GPU_BUDGET="${BREC_GPU_BUDGET:-540}"
# The build of every target of both checks may take most of the budget: without it nothing runs.
export BREC_GPU_BUILD_LIMIT="${BREC_GPU_BUILD_LIMIT:-380}"
PROOF=build
# shellcheck source=scripts/gpu/common.sh
source "$(dirname "$0")/common.sh" "$@"
prepare_build brec brec-eval test_nn test_eval test_attack brec_python
export BREC_GPU_DEADLINE=$DEADLINE BREC_GPU_BUILT=1
bash scripts/gpu/proof1.sh "$@" >"$R/proof1.out" 2>&1 &
bash scripts/gpu/proof2.sh "$@" >"$R/proof2.out" 2>&1 &
wait
cat "$R/proof1.out" "$R/proof2.out"
