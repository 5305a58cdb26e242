#!/usr/bin/env bash
# slurm.sh: the README's Slurm job array (tests/cluster/schelleng.sbatch, the file the README
# shows) on a one-node Slurm cluster started here from Debian's packages: munged, slurmctld and
# slurmd as root, each with its key, configuration, state, spool, logs and sockets in this
# test's scratch folder (nothing in /etc), stopped and removed at the end. Stand-in cells in 3
# array tasks; task 2 is sent SIGTERM midway (scancel --batch --signal=TERM), keeps whole rows,
# is requeued (scontrol requeue) and resumes its part; the README's --merge line then merges the
# parts into the file of a single-machine run.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
S=$BINDIR/schelleng
for p in munged slurmctld slurmd sbatch scontrol scancel squeue sinfo; do
    if ! PATH=$PATH:/usr/sbin command -v $p >/dev/null; then
        fail "slurm: $p is not installed (make deps-cluster installs slurm-wlm and munge)"
        exit 1
    fi
done
if [ "$(id -u)" != 0 ]; then
    fail "slurm: slurmd must run as root to start jobs as this user; run the cluster tests as root"
    exit 1
fi
C=$TMP/slurm PORT=${SLURM_TEST_PORT:-16817}
if ss -ltn 2>/dev/null | grep -qE ":($PORT|$((PORT + 1)))\b"; then
    fail "slurm: port $PORT or $((PORT + 1)) is taken; set SLURM_TEST_PORT to a free pair"
    exit 1
fi
mkdir -p "$C/munge" "$C/state" "$C/spool"
chmod 755 "$C/munge"
head -c 1024 /dev/urandom >"$C/munge/munge.key"
chmod 400 "$C/munge/munge.key"
: >"$C/plugstack.conf"
H=$(hostname -s)
cat >"$C/slurm.conf" <<CONF
ClusterName=ivplab-test
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$C/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$C/state
SlurmdSpoolDir=$C/spool
SlurmctldPidFile=$C/slurmctld.pid
SlurmdPidFile=$C/slurmd.pid
SlurmctldLogFile=$C/slurmctld.log
SlurmdLogFile=$C/slurmd.log
PlugStackConfig=$C/plugstack.conf
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
JobRequeue=1
KillWait=5
MinJobAge=600
NodeName=$H NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$C/slurm.conf
pids=()
stop_all() {
    [ -n "${jid:-}" ] && scancel "$jid" 2>/dev/null
    local p
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    rm -rf "$TMP"
}
trap stop_all EXIT
/usr/sbin/munged -F --force --key-file="$C/munge/munge.key" --socket="$C/munge/munge.socket" \
    --pid-file="$C/munge/munged.pid" --log-file="$C/munge/munged.log" --seed-file="$C/munge/munged.seed" \
    >"$C/munged.out" 2>&1 &
pids+=($!)
for t in $(seq 100); do [ -S "$C/munge/munge.socket" ] && break; sleep 0.1; done
/usr/sbin/slurmctld -D -f "$C/slurm.conf" >"$C/slurmctld.out" 2>&1 &
pids+=($!)
/usr/sbin/slurmd -D -f "$C/slurm.conf" >"$C/slurmd.out" 2>&1 &
pids+=($!)
up=0
for t in $(seq 150); do
    sinfo -h -o %T 2>/dev/null | grep -qx idle && { up=1; break; }
    sleep 0.2
done
if [ "$up" != 1 ]; then
    fail "slurm: the one-node cluster did not come up in 30 s: $(tail -n 3 "$C"/*.out | tr '\n' ' ' | head -c 600)"
    exit 1
fi
pass "slurm: munged, slurmctld and slurmd up, node $H idle"

# the README shows the job script verbatim
if [ "$(readme_block "tests/cluster/slurm.sh submits this file")" = "$(cat "$ROOT/tests/cluster/schelleng.sbatch")" ]
then pass "README: the job script shown is tests/cluster/schelleng.sbatch, verbatim"
else fail "README: the job script shown differs from tests/cluster/schelleng.sbatch"; fi

# The checkout as the job sees it: its bin/ and tests/ in a scratch folder (the job's output
# files land there).
W=$TMP/ivplab
mkdir -p "$W"
ln -s "$BINDIR" "$W/bin"
ln -s "$ROOT/tests" "$W/tests"
F="--stand_in --what sweep --nx 12 --nf 8" D=$TMP/parts N=3 P2=$TMP/parts/part-2-of-3.tsv
mkdir -p "$D"
t0=$SECONDS
jid=$(cd "$W" && F=$F D=$D sbatch --parsable --array=1-$N tests/cluster/schelleng.sbatch)
check_num "sbatch: the job array submitted (job $jid)" "$jid" gt 0
if pid=$(running_with "$P2" 3) && scancel --batch --signal=TERM "${jid}_2"; then
    pass "array task 2 sent SIGTERM midway by scancel ($(nrows "$P2") rows then)"
else
    fail "array task 2 could not be stopped midway (it ended first or never started)"
fi
state() { scontrol -o show job "${jid}_$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1; }
for t in $(seq 300); do case $(state 2) in *RUNNING*|*PENDING*|*COMPLETING*) sleep 0.1;; *) break;; esac; done
kept=$(nrows "$P2")
check_text "array task 2 ended by the signal" "$(state 2)" "JobState=FAILED"
check_num "array task 2 kept whole rows only" "$(tail -n +2 "$P2" | awk -F'\t' 'NF != 25' | wc -l)" near 0 0
check_num "array task 2 kept fewer rows than its 32 cells" "$kept" lt 32
check_text "array task 2 said how it ended" "$(cat "$W"/slurm-*_2.out 2>/dev/null)" "stopped by SIGTERM after"
scontrol requeue "${jid}_2" && scontrol update JobId="${jid}_2" StartTime=now
check_num "scontrol requeue of array task 2: exit 0" "$?" near 0 0
for t in $(seq 1200); do [ -z "$(squeue -h -j "$jid" 2>/dev/null)" ] && break; sleep 0.1; done
check_num "the job array done (nothing queued)" "$(squeue -h -j "$jid" | wc -l)" near 0 0
for k in 1 2 3; do check_text "array task $k completed" "$(state $k)" "JobState=COMPLETED"; done
check_text "array task 2 ran twice" "$(scontrol -o show job "${jid}_2")" "Restarts=1"
check_text "array task 2 resumed its part" "$(cat "$W"/slurm-*_2.out)" \
    "32 cells ($kept already in the results, $((32 - kept)) computed)"
merge=$(readme_block "tests/cluster/parallel.sh runs this block" | grep '^bin/schelleng --merge')
check_text "README: the merge line" "$merge" "bin/schelleng --merge"
(cd "$W" && N=$N D=$D bash -c "$merge") >"$TMP/merge.out" 2>"$TMP/merge.err"
check_num "the README's merge of the 3 parts: exit 0" "$?" near 0 0
"$S" $F --results "$TMP/single.tsv" --out "$TMP/single" >/dev/null 2>&1
same_as_single "Slurm job array, task 2 stopped and requeued" "$D/results-full.tsv" "$TMP/single.tsv"
echo "Slurm job array: $((SECONDS - t0)) s"
