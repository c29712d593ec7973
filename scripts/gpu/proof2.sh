#!/usr/bin/env bash
# GPU proof, part 2, in one device call (after proof1.sh on the same warm machine it reuses the
# build): Campi et al.'s robustness result at its own scale, and a PyG model through `import brec`.
#   train   I²-GNN triangle regressors at the original's configuration (5 layers, width 64, L1,
#           at most 500 epochs, patience 20, best-validation weights) on the SBM set, seeds 0-4
#           trained side by side on the one GPU, each stopped in time to leave the attack 170 s
#   attack  each attacked on P_Δ at the paper's protocol (the first 100 test graphs all five seeds
#           count within 0.5; greedy; cumulative budgets 1, 5, 12, 32): success rate, AUC, transfer
#   pyg     (beside train) the Python package built against the machine's torch; a torch_geometric
#           GIN and a PyG-style PPGN-like module judged on the Basic pairs by brec.evaluate
# Every stage is time-boxed (520 s in all by default); what finished comes back as
# $OUT/proof2.tar.gz.
#
#   device run --carry .gpu --command 'bash scripts/gpu/proof2.sh'   # after pack.sh here
#   bash scripts/gpu/proof2.sh --rehearse     # here, on the CPU, with tiny settings
PROOF=proof2
# shellcheck source=scripts/gpu/common.sh
source "$(dirname "$0")/common.sh" "$@"
prepare_build brec brec-eval brec_python
if ((REHEARSE)); then
  TRAIN="--epochs 2 --max-train 60 --max-validation 30 --layers 2 --hidden 8"
  ATTACK="--graphs 2 --budgets 1,1 --samples 5"
  SEEDS="0 1"
  PYG_IDS=0-1
  ATTACK_SHARE=0
else
  TRAIN="--epochs 500 --patience 20 --layers 5 --hidden 64"
  ATTACK="--graphs 100 --budgets 1,4,7,20"
  SEEDS="0 1 2 3 4"
  PYG_IDS=0-59
  ATTACK_SHARE=170
fi
export TRAIN ATTACK SEEDS PYG_IDS

data() { "$BREC" count --generate sbm --seed 0 --out "$R/sbm" --quiet; }
# One process per seed, all at once on the one device; each keeps its best-validation weights.
# Each stops after the epoch that ends past the time left less ATTACK_SHARE seconds (at most 400
# s), so that the attack runs on what was trained by then.
train() {
  local pids=() s rc=0 seconds=$((DEADLINE - $(date +%s) - ATTACK_SHARE))
  ((seconds > 400)) && seconds=400
  ((seconds < 30)) && seconds=30
  for s in $SEEDS; do
    # shellcheck disable=SC2086
    "$BREC" attack train --data "$R/sbm" --model i2_gnn --pattern triangle --seeds "$s" --loss l1 $TRAIN \
      --max-seconds "$seconds" --device "$DEVICE" --out "$R/models" --quiet >"$R/train_$s.txt" 2>&1 &
    pids+=($!)
  done
  for s in "${pids[@]}"; do wait "$s" || rc=1; done
  cat "$R"/train_*.txt
  return $rc
}
attack() {
  # shellcheck disable=SC2086
  "$BREC" attack run --data "$R/sbm" --models "$R/models" --model i2_gnn --pattern triangle \
    --seeds "$(echo $SEEDS | tr ' ' ,)" $ATTACK --device "$DEVICE" --jobs "$(nproc)" --out "$R/attack_triangle.jsonl"
}
pyg() {
  PYTHONPATH="$BUILD/python" $PY scripts/gpu/pyg_models.py --ids "$PYG_IDS" --device "$DEVICE" \
    --out "$R/pyg.json"
}
export -f data train attack pyg
export DEADLINE ATTACK_SHARE
stage data 30 data || exit 1
# The PyG models beside the training: both are small for the card.
stage pyg 120 pyg &
stage train 480 train
stage attack 480 attack
wait
