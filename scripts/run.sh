#!/usr/bin/env bash
# Sets up brec and runs the main job on the shipped BREC v3 data: dataset summary, the WL-family
# tests per category, the per-pair hardness certificates, PPGN trained and judged with the RPC
# test on the Basic, simple-regular and Extension pairs (CPU, a few minutes), and the report of
# that evaluation. Results land in ./results/; a second run resumes instead of recomputing.
set -euo pipefail
cd "$(dirname "$0")/.."
# The binaries and the Python package only (brec builds brec-eval too; brec_python the package in
# build/python); the test suites are built by scripts/test.sh.
BREC_TARGETS="${BREC_TARGETS:-brec brec_python}" bash scripts/setup.sh
BREC="${BREC_BUILD_DIR:-build}/bin/brec"
JOBS="$(nproc)"
mkdir -p results
"$BREC" info
for m in 1wl 2fwl spd s3 s4 n:1 m1; do
  echo; echo "== brec wl --method $m"
  "$BREC" wl --method "$m" --fine --jobs "$JOBS"
done
echo; echo "== brec certify"
"$BREC" certify --jobs "$JOBS" --out results/certify.jsonl --resume
echo; echo "== brec eval --model ppgn (Basic, regular, Extension)"
"$BREC" eval --model ppgn --category basic,regular,extension --jobs "$JOBS" \
  --out results/ppgn.jsonl --resume --junit results/ppgn.junit.xml --fine
echo; echo "== brec report"
"$BREC" report results/ppgn.jsonl --out results/report
