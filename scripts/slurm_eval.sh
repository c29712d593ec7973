#!/bin/bash
# Slurm job array for `brec eval`: one shard of the pair file per array task.
#
#   sbatch --array=1-16 scripts/slurm_eval.sh                 # 16 shards, defaults below
#   MODEL=gin SEEDS=100,200,300 OUT=runs/gin sbatch --array=1-8 scripts/slurm_eval.sh
#   brec report runs/ppgn/*.jsonl                              # merge the shards afterwards
#
# Each task runs `brec eval --shard I/N` (I = SLURM_ARRAY_TASK_ID, 1-based; N = SHARDS or the array size)
# and appends one JSON line per pair to OUT/MODEL.shard-I-of-N.jsonl. Pairs are seeded from
# (seed, pair id), so the shards together give exactly the results of one unsharded run.
# Requeued or restarted tasks continue where they stopped (--resume): a shard that failed or was
# cancelled is rerun on its own with SHARDS set, e.g. SHARDS=8 sbatch --array=3 scripts/slurm_eval.sh.
# GPUs: request one per task (e.g. --gres=gpu:1) and set DEVICE=cuda. The resources below are
# defaults; sbatch flags override them (e.g. --cpus-per-task=1 --mem=2G on small nodes).
#
# Environment: MODEL (ppgn), SEEDS (100,200,...,1000), OUT (brec-eval-runs), SHARDS (the shard
# count; default: the array's last index), DATASET (shipped BREC file), DEVICE (auto), BREC (brec
# on PATH), EXTRA (more brec eval flags, e.g. "--category cfi").
#SBATCH --job-name=brec-eval
#SBATCH --cpus-per-task=4
#SBATCH --mem=16G
#SBATCH --time=24:00:00
#SBATCH --output=brec-eval-%A_%a.log
#SBATCH --open-mode=append
#SBATCH --requeue
set -euo pipefail

MODEL=${MODEL:-ppgn}
SEEDS=${SEEDS:-100,200,300,400,500,600,700,800,900,1000}
OUT=${OUT:-brec-eval-runs}
DEVICE=${DEVICE:-auto}
BREC=${BREC:-brec}
EXTRA=${EXTRA:-}

if [[ -z "${SLURM_ARRAY_TASK_ID:-}" ]]; then
    echo "slurm_eval.sh: not inside a Slurm job array (submit with sbatch --array=1-N)" >&2
    exit 2
fi
I=$SLURM_ARRAY_TASK_ID
# Shards are 1-based (an array 0..N-1 is shifted by one). The shard count is SHARDS when given,
# else the array's last index (+1 for a 0-based array): an array resubmitted in part (e.g.
# --array=3 to rerun one shard) must say SHARDS, or its shard would be cut differently.
if [[ -n "${SHARDS:-}" ]]; then
    N=$SHARDS
    if (( SLURM_ARRAY_TASK_MIN == 0 && ${SLURM_ARRAY_TASK_MAX} == N - 1 )); then
        I=$((I + 1))
    fi
else
    N=$SLURM_ARRAY_TASK_MAX
    if (( SLURM_ARRAY_TASK_MIN == 0 )); then
        I=$((I + 1))
        N=$((N + 1))
    fi
fi
if (( I < 1 || I > N )); then
    echo "slurm_eval.sh: array task $SLURM_ARRAY_TASK_ID is not a shard of $N (set SHARDS to the shard count)" >&2
    exit 2
fi

mkdir -p "$OUT"
dataset_flag=()
[[ -n "${DATASET:-}" ]] && dataset_flag=(--dataset "$DATASET")
# shellcheck disable=SC2086  # EXTRA is a list of flags
exec "$BREC" eval --model "$MODEL" --seeds "$SEEDS" --device "$DEVICE" \
    "${dataset_flag[@]}" --shard "$I/$N" --jobs 1 --torch-threads "${SLURM_CPUS_PER_TASK:-1}" \
    --out "$OUT/$MODEL.shard-$I-of-$N.jsonl" --resume --quiet $EXTRA
