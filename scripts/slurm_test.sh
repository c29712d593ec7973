#!/bin/bash
# End-to-end test of scripts/slurm_eval.sh on a real (single-node) Slurm cluster started here.
#
#   sudo bash scripts/slurm_test.sh build/bin/brec [WORKDIR]
#
# Needs root: installs Debian's slurm-wlm and munge if missing, then starts munged, slurmctld
# and slurmd with a minimal configuration in a temporary directory (2 CPUs, proctrack/linuxproc,
# task/none, no accounting: it runs in containers without systemd or cgroups). It builds
# nothing: the brec binary is the first argument (brec-eval next to it).
#
# What it does:
#   1. submits slurm_eval.sh as a job array of SHARDS shards (MODEL on PAIRS with SEEDS);
#   2. once the shards are under way, cancels one task (scancel) and requeues another
#      (scontrol requeuehold, then release); the cancelled shard is resubmitted on its own
#      (SHARDS=N sbatch --array=K); both must resume from what they kept;
#   3. waits for every shard, checks that each shard file holds each of its records once, merges
#      the shards with `brec report` and compares with a single-process `brec eval` of the same
#      pairs and seeds: the per-pair records (timings set to 0) and the report must be identical.
# The daemons are stopped and the temporary directory removed on exit (WORKDIR is kept).
# Environment: MODEL (ppgn), PAIRS (0-59,60-109,160-209), SEEDS (1,2), SHARDS (4), PORT (6917: the
# controller's port, slurmd uses PORT+1).
set -euo pipefail

if [[ $# -lt 1 || ! -x "$1" ]]; then
    echo "usage: $0 BREC_BINARY [WORKDIR]  (BREC_BINARY: an executable brec)" >&2
    exit 2
fi
BREC=$(readlink -f "$1")
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=${2:-$(mktemp -d /tmp/brec-slurm-work.XXXXXX)}
mkdir -p "$WORK"
WORK=$(readlink -f "$WORK")
MODEL=${MODEL:-ppgn}
PAIRS=${PAIRS:-0-59,60-109,160-209}
SEEDS=${SEEDS:-1,2}
SHARDS=${SHARDS:-4}
PORT=${PORT:-6917}

if [[ $(id -u) -ne 0 ]]; then
    echo "$0: needs root (installs packages and starts the Slurm daemons)" >&2
    exit 2
fi
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    echo "== installing slurm-wlm and munge"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge > /dev/null
fi

CLUSTER=$(mktemp -d /tmp/brec-slurm.XXXXXX)
chmod 755 "$CLUSTER"
cleanup() {
    set +e
    for pidfile in "$CLUSTER/slurmd.pid" "$CLUSTER/slurmctld.pid" "$CLUSTER/munged.pid"; do
        [[ -s "$pidfile" ]] && kill "$(cat "$pidfile")" 2> /dev/null
    done
    sleep 2
    for pidfile in "$CLUSTER/slurmd.pid" "$CLUSTER/slurmctld.pid" "$CLUSTER/munged.pid"; do
        [[ -s "$pidfile" ]] && kill -9 "$(cat "$pidfile")" 2> /dev/null
    done
    rm -rf "$CLUSTER"
}
trap cleanup EXIT

# --- munge: its own key and socket, nothing under /etc or /run is touched.
mkdir -m 700 "$CLUSTER/munge"
dd if=/dev/urandom of="$CLUSTER/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$CLUSTER/munge/munge.key"
MUNGE_SOCKET=$CLUSTER/munge/munge.socket
munged --force --key-file="$CLUSTER/munge/munge.key" --socket="$MUNGE_SOCKET" \
    --pid-file="$CLUSTER/munged.pid" --log-file="$CLUSTER/munged.log" --seed-file="$CLUSTER/munge/seed"

# --- slurm: one node, this machine, 2 CPUs.
HOST=$(hostname -s)
mkdir -p "$CLUSTER/state" "$CLUSTER/spool"
export SLURM_CONF=$CLUSTER/slurm.conf
cat > "$SLURM_CONF" << EOF
ClusterName=brectest
SlurmctldHost=$HOST
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmctldPidFile=$CLUSTER/slurmctld.pid
SlurmdPidFile=$CLUSTER/slurmd.pid
SlurmdSpoolDir=$CLUSTER/spool
StateSaveLocation=$CLUSTER/state
SlurmctldLogFile=$CLUSTER/slurmctld.log
SlurmdLogFile=$CLUSTER/slurmd.log
KillWait=10
NodeName=$HOST CPUs=2 RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -c -i
slurmd -c
for _ in $(seq 1 60); do
    sinfo -h -o %T 2> /dev/null | grep -q idle && break
    sleep 1
done
sinfo -h -o "%P %D %c %T" | sed 's/^/== sinfo: /'
sinfo -h -o %T | grep -q idle || {
    echo "$0: the node did not come up; logs in $CLUSTER" >&2
    tail -5 "$CLUSTER/slurmctld.log" "$CLUSTER/slurmd.log" >&2
    exit 1
}

lines() { if [[ -f "$1" ]]; then wc -l < "$1"; else echo 0; fi; }
task_state() { squeue -h -j "$1" -o %T 2> /dev/null | head -1; }
wait_for_lines() {  # FILE N SECONDS
    for _ in $(seq 1 "$3"); do
        (($(lines "$1") >= $2)) && return 0
        sleep 1
    done
    return 1
}
wait_jobs() {  # JOB... : until none is pending or running
    local left
    for _ in $(seq 1 1200); do
        left=$(squeue -h -j "$(
            IFS=,
            echo "$*"
        )" 2> /dev/null | wc -l)
        ((left == 0)) && return 0
        sleep 1
    done
    echo "$0: jobs $* did not finish" >&2
    return 1
}

# --- the reference: one process, every pair and seed.
cd "$WORK"
rm -rf shards single.jsonl single.jsonl.summary.json brec-eval-*.log
echo "== single-process run: brec eval --model $MODEL --pairs $PAIRS --seeds $SEEDS"
t0=$SECONDS
"$BREC" eval --model "$MODEL" --pairs "$PAIRS" --seeds "$SEEDS" --jobs 1 --torch-threads 1 --quiet \
    --out single.jsonl > /dev/null
t_single=$((SECONDS - t0))

# --- the job array; the tasks ask for one CPU each (the script's 4 CPUs and 16G would not fit).
export MODEL SEEDS OUT=$WORK/shards BREC EXTRA="--pairs $PAIRS" SHARDS
t0=$SECONDS
job=$(sbatch --parsable --array=1-"$SHARDS" --cpus-per-task=1 --mem=1G "$REPO/scripts/slurm_eval.sh")
echo "== submitted job array $job (shards 1-$SHARDS)"
shard_file() { echo "$OUT/$MODEL.shard-$1-of-$SHARDS.jsonl"; }

# Cancel shard 1 and requeue shard 2 once each has written a record. What each kept is copied
# while it is stopped: the final shard file must start with exactly those bytes (resumed, not
# recomputed or truncated).
wait_for_lines "$(shard_file 1)" 1 600 || {
    echo "$0: shard 1 wrote nothing" >&2
    exit 1
}
scancel "${job}_1"
for _ in $(seq 1 120); do
    [[ -z "$(task_state "${job}_1")" ]] && break
    sleep 1
done
cp "$(shard_file 1)" kept-1.jsonl
echo "== scancel ${job}_1: $(lines kept-1.jsonl) records kept"
wait_for_lines "$(shard_file 2)" 1 600 || {
    echo "$0: shard 2 wrote nothing" >&2
    exit 1
}
# Requeued and held, so that what it kept can be copied before it runs again.
scontrol requeuehold "${job}_2"
for _ in $(seq 1 120); do
    [[ "$(task_state "${job}_2")" == PENDING ]] && break
    sleep 1
done
cp "$(shard_file 2)" kept-2.jsonl
scontrol release "${job}_2"
echo "== scontrol requeuehold/release ${job}_2: $(lines kept-2.jsonl) records kept"
resub=$(sbatch --parsable --array=1 --cpus-per-task=1 --mem=1G "$REPO/scripts/slurm_eval.sh")
echo "== resubmitted shard 1 alone (SHARDS=$SHARDS sbatch --array=1): job $resub"
wait_jobs "$job" "$resub"
t_array=$((SECONDS - t0))

# --- checks
status=0
echo "== shard files"
for k in $(seq 1 "$SHARDS"); do
    f=$(shard_file "$k")
    dup=$(sort "$f" | uniq -d | wc -l)
    printf '   %s: %s records, %s repeated, log: %s\n' "$(basename "$f")" "$(lines "$f")" "$dup" \
        "$(ls brec-eval-*_"$k".log 2> /dev/null | tr '\n' ' ')"
    ((dup == 0)) || status=1
done
for k in 1 2; do
    if [[ "$(head -c "$(stat -c %s kept-$k.jsonl)" "$(shard_file "$k")" | md5sum)" != "$(md5sum < kept-$k.jsonl)" ]]; then
        echo "   shard $k: the records kept when it was stopped are not the start of its final file"
        status=1
    else
        echo "   shard $k: its $(lines kept-$k.jsonl) records kept when stopped are the start of its final file"
    fi
done
grep -h "interrupted\|error" brec-eval-*.log | sed 's/^/   log: /' || true

norm() { sed -E 's/"([A-Za-z_]*seconds)":-?[0-9][0-9.eE+-]*/"\1":0/g' "$@" | sort; }
merged_records=$(cat shards/*.jsonl | norm | md5sum | cut -c1-12)
single_records=$(norm single.jsonl | md5sum | cut -c1-12)
"$BREC" report --format json shards/*.jsonl > merged.report.json
"$BREC" report --format json single.jsonl > single.report.json
# The report names its input files; everything else must agree.
filter='import json,sys
def strip(x):
    if isinstance(x, dict): return {k: strip(v) for k, v in x.items() if k not in ("source", "inputs")}
    if isinstance(x, list): return [strip(v) for v in x]
    return x
print(json.dumps(strip(json.load(sys.stdin)), sort_keys=True))'
merged_report=$(python3 -c "$filter" < merged.report.json | md5sum | cut -c1-12)
single_report=$(python3 -c "$filter" < single.report.json | md5sum | cut -c1-12)
"$BREC" report shards/*.jsonl > merged.report.md
echo "== merged report (brec report shards/*.jsonl)"
grep -E "^\|" merged.report.md | head -8 | sed 's/^/   /'

printf '\n%-34s %8s %10s %14s %14s\n' "run" "records" "seconds" "records md5" "report md5"
printf '%-34s %8s %10s %14s %14s\n' "single process" "$(lines single.jsonl)" "$t_single" "$single_records" \
    "$single_report"
printf '%-34s %8s %10s %14s %14s\n' "$SHARDS shards (1 cancelled, 1 requeued)" "$(cat shards/*.jsonl | wc -l)" \
    "$t_array" "$merged_records" "$merged_report"
if [[ "$merged_records" == "$single_records" && "$merged_report" == "$single_report" ]]; then
    echo "identical: yes"
else
    echo "identical: NO"
    status=1
fi
exit $status
