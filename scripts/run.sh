#!/usr/bin/env bash
# Sets up brec and runs the main job on the shipped BREC v3 data: dataset summary, the WL-family
# tests per category, and the per-pair hardness certificates. Results land in ./results/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BREC="${BREC_BUILD_DIR:-build}/bin/brec"
mkdir -p results
"$BREC" info
for m in 1wl 2fwl spd s3 s4 n:1 m1; do
  echo; echo "== brec wl --method $m"
  "$BREC" wl --method "$m" --fine --jobs "$(nproc)"
done
echo; echo "== brec certify"
"$BREC" certify --jobs "$(nproc)" --out results/certify.jsonl --resume
