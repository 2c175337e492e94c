#!/bin/bash
# slurm-local.sh -- a real one-box Slurm cluster (munged, slurmctld, slurmd) for
# CI and for trying scripts/slurm-shards.sh on this machine, as root, without
# systemd.  It installs nothing: `make deps-slurm` (scripts/deps.sh --slurm)
# installs Debian's slurm-wlm and munge.
#
# usage (as root): scripts/slurm-local.sh start | stop | status | env
#
#   start    a fresh cluster: a munge key and munged on a socket of its own, a
#            minimal slurm.conf, a gres.conf whose GPUs are stand-in device files
#            (character devices like /dev/null; plain files where mknod is not
#            allowed, and then Slurm sets no CUDA_VISIBLE_DEVICES), slurmctld and
#            slurmd; waits until sinfo shows the node idle.  Already up: says so.
#            On failure: the daemons' logs, the daemons stopped, exit 1.
#   stop     cancels every job, stops the three daemons and waits until they are
#            gone (the folder, logs included, stays until the next start)
#   status   each daemon's process and the node's state; exit 0 only when all
#            three run and the node answers
#   env      the line that points Slurm's commands at this cluster:
#              eval "$(scripts/slurm-local.sh env)"    # export SLURM_CONF=...
#
# One node, named as this host (hostname -s), at 127.0.0.1, in partition
# "debug": CPUs max(4, nproc), GPUs 4 (as GRES gpu, so --gpus-per-task=1 and
# --gres=gpu:1 schedule).  Jobs run as the user who submits them (root here).
#
# Environment:
#   MMLADDER_SLURM_DIR    its folder (default /tmp/mmladder-slurm): conf, key,
#                         state, logs (log/), pid files and socket (run/)
#   MMLADDER_SLURM_PORT   slurmctld's port (default 16817); slurmd takes the next
#                         (ports apart from Slurm's 6817/6818, so that a real
#                         Slurm on this box is left alone)
#   MMLADDER_SLURM_GPUS   how many stand-in GPUs (default 4)
#   MMLADDER_SLURM_WAIT   seconds start waits for the node (default 30)
#
# Exit status: 0 done (status: cluster up); 1 failed (or, for status, not up);
# 2 bad usage, not root, or Slurm or munge not installed.
set -uo pipefail
prog=slurm-local.sh
dir=${MMLADDER_SLURM_DIR:-/tmp/mmladder-slurm}
port=${MMLADDER_SLURM_PORT:-16817}
gpus=${MMLADDER_SLURM_GPUS:-4}
wait_s=${MMLADDER_SLURM_WAIT:-30}
conf=$dir/slurm.conf
socket=$dir/run/munge.socket
node=$(hostname -s)

# help: this header, the comment lines below the first.
help() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
usage() { echo "usage (as root): scripts/$prog start | stop | status | env   (-h: more)" >&2; exit 2; }
bad() { echo "$prog: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }

# whole NAME VALUE MIN: VALUE is a whole number >= MIN, else a usage error
# naming the variable, its value and what it takes.
whole() {
    if ! [[ $2 =~ ^[0-9]+$ ]] || [ "$2" -lt "$3" ]; then
        bad "$1='$2' (expected a whole number >= $3)"
    fi
}
whole MMLADDER_SLURM_PORT "$port" 1024
whole MMLADDER_SLURM_GPUS "$gpus" 1
whole MMLADDER_SLURM_WAIT "$wait_s" 1
case $dir in
/*) ;;
*) bad "MMLADDER_SLURM_DIR='$dir' (expected an absolute path)" ;;
esac
[[ $dir =~ ^[A-Za-z0-9_./-]+$ ]] ||
    bad "MMLADDER_SLURM_DIR='$dir' (expected letters, digits, '_', '.', '-' and '/' only: slurm.conf takes no quoting)"

export SLURM_CONF=$conf

# daemon_pid NAME: the pid in run/NAME.pid when that process is alive and is
# NAME (a pid file can outlive its process, and the pid be reused); else fails.
daemon_pid() {
    local f=$dir/run/$1.pid pid
    [ -r "$f" ] || return 1
    pid=$(cat "$f" 2>/dev/null) || return 1
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] || return 1
    echo "$pid"
}

# node_state: the node's state as sinfo gives it (idle, mixed, ...), or fails.
node_state() {
    local s
    s=$(timeout 5 sinfo -h -n "$node" -o %T 2>/dev/null) || return 1
    [ -n "$s" ] || return 1
    echo "$s"
}

cluster_up() {
    daemon_pid munged >/dev/null && daemon_pid slurmctld >/dev/null &&
        daemon_pid slurmd >/dev/null && node_state >/dev/null
}

show_logs() {
    local f
    for f in "$dir"/log/*.log; do
        [ -f "$f" ] || continue
        echo "---- $f (last 40 lines)" >&2
        tail -n 40 "$f" >&2
    done
}

# alive PID: the process runs (a zombie, killed but not yet reaped, does not).
alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

# stop_daemons NAME...: TERM to each that runs, up to 10 s for them to go,
# then KILL; fails if one stays.
stop_daemons() {
    local name pid pids=() left i rc=0
    for name in "$@"; do
        pid=$(daemon_pid "$name") || continue
        kill -TERM "$pid" 2>/dev/null
        pids+=("$pid")
    done
    for i in $(seq 100); do
        left=()
        for pid in "${pids[@]}"; do ! alive "$pid" || left+=("$pid"); done
        [ ${#left[@]} -gt 0 ] || return 0
        sleep 0.1
    done
    for pid in "${left[@]}"; do
        name=$(cat "/proc/$pid/comm" 2>/dev/null)
        echo "$prog: $name (pid $pid) still running 10 s after SIGTERM: SIGKILL" >&2
        kill -KILL "$pid" 2>/dev/null
        for i in $(seq 20); do alive "$pid" && sleep 0.1; done
        ! alive "$pid" || { echo "$prog: $name (pid $pid) survives SIGKILL" >&2; rc=1; }
    done
    return $rc
}

do_stop() {
    local rc=0 jobs deadline=$((SECONDS + 10))
    if daemon_pid slurmctld >/dev/null && [ -r "$conf" ]; then
        jobs=$(timeout 5 squeue -h -o %A 2>/dev/null | sort -u)
        if [ -n "$jobs" ]; then
            # shellcheck disable=SC2086  # one job id a word
            timeout 5 scancel $jobs || echo "$prog: scancel $jobs failed" >&2
            while [ -n "$(timeout 5 squeue -h -o %A 2>/dev/null)" ] && [ $SECONDS -lt $deadline ]; do
                sleep 0.1
            done
        fi
    fi
    # slurmd and slurmctld together, then munged, which they talk through
    stop_daemons slurmd slurmctld || rc=1
    stop_daemons munged || rc=1
    return $rc
}

do_status() {
    local name pid state rc=0
    for name in munged slurmctld slurmd; do
        if pid=$(daemon_pid $name); then
            echo "$name: running (pid $pid)"
        else
            echo "$name: not running"
            rc=1
        fi
    done
    if [ $rc = 0 ] && state=$(node_state); then
        echo "node $node: $state (SLURM_CONF=$conf)"
        local n
        n=$(find "$dir/gpu" -mindepth 1 -maxdepth 1 | wc -l)
        if [ -c "$dir/gpu/nvidia0" ]; then
            echo "gpus: $n stand-ins, character devices (jobs get CUDA_VISIBLE_DEVICES)"
        else
            echo "gpus: $n stand-ins, plain files (jobs get no CUDA_VISIBLE_DEVICES)"
        fi
    else
        echo "node $node: no answer"
        rc=1
    fi
    return $rc
}

write_conf() {
    local cpus mem
    cpus=$(nproc)
    [ "$cpus" -ge 4 ] || cpus=4
    # nine tenths of this machine's memory, in MB, for jobs that ask (--mem)
    mem=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
    [ -n "$mem" ] || mem=1
    cat > "$conf" <<EOF
# A one-box cluster for tests, written by scripts/slurm-local.sh: every
# daemon as root, no cgroups, no accounting; GPUs are stand-in device files.
ClusterName=mmladder-local
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# The node's CPUs as written here, not as counted (CI machines have 2).
SlurmdParameters=config_overrides
# Finished jobs stay visible to scontrol for 10 minutes.
MinJobAge=600
GresTypes=gpu
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem Gres=gpu:$gpus State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    {
        echo "AutoDetect=off"
        echo "NodeName=$node Name=gpu File=$dir/gpu/nvidia[0-$((gpus - 1))]"
    } > "$dir/gres.conf"
}

do_start() {
    local tool i state devices=char
    for tool in munged munge unmunge slurmctld slurmd sinfo squeue scancel; do
        command -v $tool >/dev/null ||
            bad "$tool is not installed: make deps-slurm (or apt-get install slurm-wlm munge)"
    done
    if cluster_up; then
        echo "$prog: already up: $(node_state) (SLURM_CONF=$conf)"
        return 0
    fi
    do_stop || fail "could not stop what was left of an earlier cluster in $dir"
    rm -rf "$dir" || fail "could not remove $dir"
    mkdir -p "$dir"/{run,log,state,spool,gpu} || fail "could not create $dir"
    chmod 700 "$dir" || fail "could not make $dir private"

    # munge: a key of our own and a socket of our own (AuthInfo names it).
    (umask 077 && head -c 1024 /dev/urandom > "$dir/munge.key") || fail "could not write $dir/munge.key"
    munged --force --key-file="$dir/munge.key" --socket="$socket" \
        --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
        --seed-file="$dir/state/munged.seed" || { show_logs; fail "munged did not start"; }
    for i in $(seq 50); do
        munge -n -S "$socket" 2>/dev/null | unmunge -S "$socket" >/dev/null 2>&1 && break
        sleep 0.1
    done
    munge -n -S "$socket" | unmunge -S "$socket" >/dev/null ||
        { show_logs; do_stop; fail "munged does not answer on $socket"; }

    # Stand-in GPUs: character devices 1:3, as /dev/null is; plain files
    # where mknod is refused (Slurm then schedules them but sets no
    # CUDA_VISIBLE_DEVICES, and logs that they are not devices).
    for i in $(seq 0 $((gpus - 1))); do
        if ! mknod "$dir/gpu/nvidia$i" c 1 3 2>/dev/null; then
            : > "$dir/gpu/nvidia$i" || fail "could not create $dir/gpu/nvidia$i"
            devices=plain
        fi
    done
    [ $devices = char ] ||
        echo "$prog: mknod refused: the stand-in GPUs are plain files (no CUDA_VISIBLE_DEVICES in jobs)" >&2
    write_conf || fail "could not write $conf"

    slurmctld -c -f "$conf" || { show_logs; do_stop; fail "slurmctld did not start"; }
    slurmd -f "$conf" || { show_logs; do_stop; fail "slurmd did not start"; }
    local deadline=$((SECONDS + wait_s))
    while :; do
        state=$(node_state) && [ "$state" = idle ] && break
        [ $SECONDS -lt $deadline ] || break
        sleep 0.2
    done
    if [ "${state:-}" != idle ]; then
        echo "$prog: node $node not idle after $wait_s s (sinfo: '${state:-no answer}')" >&2
        timeout 5 scontrol show node "$node" >&2
        show_logs
        do_stop
        exit 1
    fi
    echo "$prog: up: node $node idle with $gpus GPUs ($devices devices), in $dir"
    echo "$prog: for Slurm's commands: export SLURM_CONF=$conf"
}

[ $# = 1 ] || usage
case $1 in
start | stop | status) [ "$(id -u)" = 0 ] || bad "$1 needs root (the daemons run as root)" ;;
env) ;;
-h | --help) help; exit 0 ;;
*) echo "$prog: '$1': unknown command (expected start, stop, status or env)" >&2; usage ;;
esac
case $1 in
start) do_start ;;
stop) do_stop || fail "a daemon would not stop (see above)"; echo "$prog: stopped" ;;
status) do_status ;;
env) echo "export SLURM_CONF=$conf" ;;
esac
