#!/bin/bash
# slurm-shards.sh -- an experiment on a Slurm cluster: its plan cut into N
# shards run as a job array, one shard a task (`mmladder run --shard K/N`, a
# GPU each), and the shards' files merged (`mmladder merge`) by a job that
# starts once every task has succeeded (--dependency=afterok).
#
# usage: scripts/slurm-shards.sh [OPTIONS] -n N EXPERIMENT.ini
#        scripts/slurm-shards.sh --rerun K[,K...] [--wait] DIR
#
#   -n, --shards N      cut the plan into N shards, one array task each (1..1024)
#   -d, --dir DIR       the folder for everything (default data/NAME-UTCSTAMP-slurm);
#                       new or empty, on a file system the nodes share
#   --host              ask for no GPU (a host-only experiment); else each task
#                       asks for one with the GPU option
#   --gpu-option OPT    how a task asks for its GPU (default --gpus-per-task=1;
#                       e.g. --gpu-option=--gres=gpu:1 on clusters without cons_tres)
#   --host-shard K      every host point in shard K (run --host-shard), so that no
#                       two host points share a node's CPUs at once
#   -p, --partition P   sbatch --partition, for both jobs
#   -A, --account A     sbatch --account, for both jobs
#   -t, --time T        sbatch --time of each shard task (Slurm's formats: MM, H:MM:SS, D-H)
#   --merge-time T      sbatch --time of the merge job (default: the tasks')
#   --sbatch OPT        one more sbatch option for both jobs, e.g. --sbatch=--qos=high
#                       (repeatable)
#   --bin PATH          the mmladder to run (default bin/mmladder of this checkout)
#   --wait              wait until the merge job has run, or a shard failed
#   --rerun K[,K...]    submit shards K of DIR again (a task that failed, timed out
#                       or was cancelled), then the merge; refused while an earlier
#                       submission of DIR is still queued or running
#   -h, --help          this text
#
# DIR gets: mmladder and NAME.ini (copies of the binary and the experiment, so
# that every task, and a re-run days later, runs the same build on the same
# plan), shards.sbatch and merge.sbatch (the two batch scripts, options
# included), NAME-shardK-of-N.h5 (each shard's file), NAME-xN.h5 (the merged
# file), logs/ (each job's output), jobs (each submission's job ids).
#
# A task that exits 2 (some point incorrect or failed: its file is whole and
# records them) counts as succeeded; any other failure stops the merge.  A
# failed shard is run again alone with
#     scripts/slurm-shards.sh --rerun K DIR
# which cancels the earlier merge job if it waits on a dependency that can
# never be met, then submits `sbatch --array=K DIR/shards.sbatch` and `sbatch
# --dependency=afterok:JOB,singleton DIR/merge.sbatch`.  By hand, the same
# scancel and two sbatch lines do it.  While a task or the merge job of an
# earlier submission of DIR is still queued or running, --rerun refuses, naming
# them (its tasks would write the files the re-run writes): wait for them, or
# scancel them first.  The merge jobs of DIR share one job name, and
# `singleton` lets only one of them run at a time.  A re-run moves the shard's
# earlier file, and the merge an earlier merged file, into DIR/replaced/ (run
# and merge never overwrite, nor does the move); a task that was killed leaves
# its points in its work file (NAME-shardK-of-N.h5.HOST.PID.part), which no
# later task or merge takes.
#
# For example, the shape suite as 8 shards on partition gpu, 2 hours each:
#     scripts/slurm-shards.sh -n 8 -p gpu -A myproject -t 2:00:00 experiments/shapes.ini
#     squeue --me                                  # the array and the merge job
#     bin/mmladder info data/shapes-*-slurm/shapes-x8.h5   # once the merge has run
#
# Slurm's commands read the cluster from their usual configuration (SLURM_CONF,
# /etc/slurm); a cluster on this one machine: scripts/slurm-local.sh.
#
# Prints the job ids, and with --wait the outcome.  Exit status: 0 submitted
# (with --wait: merged, complete); 1 a command failed (with --wait: a shard or
# the merge failed, or the merged file is incomplete); 2 bad usage.

# shellcheck disable=SC2015  # `test && test || bad ...`: bad exits
set -uo pipefail
prog=slurm-shards.sh
root=$(cd "$(dirname "$0")/.." && pwd -P)

usage() { echo "usage: scripts/$prog [OPTIONS] -n N EXPERIMENT.ini | --rerun K[,K...] [--wait] DIR   (-h: more)" >&2; exit 2; }
help() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
bad() { echo "$prog: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }

# safe_path WHAT PATH: refuse characters that an #SBATCH line or Slurm's %
# patterns would take apart.
safe_path() {
    [[ $2 =~ ^[A-Za-z0-9_./+=,:@-]+$ ]] ||
        bad "$1 '$2': expected letters, digits and _./+=,:@- only (Slurm's #SBATCH lines take no quoting, and % is a pattern)"
}

# sbatch_option OPT VALUE: VALUE is one sbatch option, as an #SBATCH line takes it.
sbatch_option() {
    [[ $2 == -?* && $2 != *[[:space:]]* ]] ||
        bad "$1 '$2': expected one sbatch option, without spaces (e.g. --qos=high)"
}

# slurm_time OPT VALUE: VALUE is a time limit in one of Slurm's formats.
slurm_time() {
    [[ $2 =~ ^(([0-9]+-)?[0-9]+(:[0-9]+){0,2}|UNLIMITED|INFINITE)$ ]] ||
        bad "$1 '$2': expected a time limit in Slurm's format (MM, MM:SS, H:MM:SS, D-H, D-H:MM, D-H:MM:SS, UNLIMITED)"
}

# slurm_name OPT VALUE: VALUE is a partition or account name (or a list of them).
slurm_name() {
    [[ $2 =~ ^[A-Za-z0-9_.,-]+$ ]] ||
        bad "$1 '$2': expected a name (letters, digits and _.,- only)"
}

# ---- options -----------------------------------------------------------------
shards='' dir='' host=0 gpu_option=--gpus-per-task=1 host_shard='' time='' merge_time='' bin='' wait=0 rerun=''
sbatch_opts=()
exp=
# An option's value is the rest of --opt=VALUE, or the next word.
while [ $# -gt 0 ]; do
    opt=$1 val='' has_val=0
    case $opt in
    --*=*) val=${opt#*=} opt=${opt%%=*} has_val=1 ;;
    esac
    case $opt in
    -n | --shards | -d | --dir | --gpu-option | --host-shard | -p | --partition | -A | --account | \
        -t | --time | --merge-time | --sbatch | --bin | --rerun)
        if [ $has_val = 0 ]; then
            [ $# -ge 2 ] || bad "$opt: needs a value"
            val=$2
            shift
        fi
        ;;
    --host | --wait | -h | --help)
        [ $has_val = 0 ] || bad "$opt takes no value (given '$val')" ;;
    -*) bad "'$opt': unknown option (-h lists them)" ;;
    esac
    case $opt in
    -n | --shards) shards=$val ;;
    -d | --dir) dir=$val ;;
    --host) host=1 ;;
    --gpu-option) sbatch_option "$opt" "$val" && gpu_option=$val ;;
    --host-shard) host_shard=$val ;;
    -p | --partition) slurm_name "$opt" "$val" && sbatch_opts+=("--partition=$val") ;;
    -A | --account) slurm_name "$opt" "$val" && sbatch_opts+=("--account=$val") ;;
    -t | --time) slurm_time "$opt" "$val" && time=$val ;;
    --merge-time) slurm_time "$opt" "$val" && merge_time=$val ;;
    --sbatch) sbatch_option "$opt" "$val" && sbatch_opts+=("$val") ;;
    --bin) bin=$val ;;
    --wait) wait=1 ;;
    --rerun) rerun=$val ;;
    -h | --help) help; exit 0 ;;
    *)
        [ -z "$exp" ] || bad "'$opt': one experiment (or, with --rerun, one folder) only; '$exp' given before"
        exp=$opt
        ;;
    esac
    shift
done

[ -n "$merge_time" ] || merge_time=$time

# ---- helpers -------------------------------------------------------------------
need_slurm() {
    command -v sbatch >/dev/null && command -v scontrol >/dev/null && command -v scancel >/dev/null ||
        fail "sbatch, scontrol or scancel not found: no Slurm client here (one cluster on this machine: scripts/slurm-local.sh start)"
}

# job_field ID FIELD: FIELD of `scontrol -o show job ID` (its first line), or fails.
job_field() {
    local line
    line=$(scontrol -o show job "$1" 2>/dev/null | head -n 1) || return 1
    [[ " $line " =~ \ $2=([^ ]*)\  ]] || return 1
    echo "${BASH_REMATCH[1]}"
}

# submit WHAT SBATCH-ARGS...: sbatch --parsable; prints the job id, or fails
# saying what sbatch said.
submit() {
    local what=$1 out id
    shift
    out=$(sbatch --parsable "$@" 2>&1) || fail "sbatch of the $what refused: $out (sbatch --parsable $*)"
    id=${out##*$'\n'}
    id=${id%%;*}
    [[ $id =~ ^[0-9]+$ ]] || fail "sbatch of the $what printed no job id: '$out'"
    echo "$id"
}

# shard_states ARRAY: the tasks of job ARRAY that did not complete, one line
# each ("K STATE EXITCODE"), from scontrol.
shard_states() {
    scontrol -o show job "$1" 2>/dev/null | awk '{
        k = ""; s = ""; x = ""
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^ArrayTaskId=/) k = substr($i, 13)
            if ($i ~ /^JobState=/) s = substr($i, 10)
            if ($i ~ /^ExitCode=/) x = substr($i, 10)
        }
        if (s != "COMPLETED") print k, s, x
    }'
}

# active_tasks JOB: the tasks of job (array) JOB that have not ended, one line
# each ("K STATE"); nothing when every task has ended or slurmctld no longer
# knows the job.
active_tasks() {
    scontrol -o show job "$1" 2>/dev/null | awk '{
        k = "-"; s = ""
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^ArrayTaskId=/) k = substr($i, 13)
            if ($i ~ /^JobState=/) s = substr($i, 10)
        }
        if (s !~ /^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED|REVOKED|SPECIAL_EXIT)$/ && s != "")
            print k, s
    }'
}

# wait_merge ARRAY MERGE: poll until the merge job has ended or can never run;
# says which, and fails unless it completed.
wait_merge() {
    local array=$1 merge=$2 state reason start=$SECONDS pause=1 k s x failed
    echo "$prog: waiting for merge job $merge (and shards job $array)"
    while :; do
        state=$(job_field "$merge" JobState) ||
            fail "merge job $merge: slurmctld no longer knows it; its log: $dir/logs/merge-job$merge.log"
        reason=$(job_field "$merge" Reason) || reason=
        case $state in
        COMPLETED)
            echo "$prog: merged into $merged; waited $((SECONDS - start)) s"
            return 0
            ;;
        PENDING | CANCELLED)
            if [ "$reason" = DependencyNeverSatisfied ]; then
                echo "$prog: a shard failed: merge job $merge cannot run ($state, $reason)" >&2
                failed=''
                while read -r k s x; do
                    echo "$prog:   shard $k: $s (exit $x), log $dir/logs/shard$k-job${array}_$k.log" >&2
                    failed=$failed${failed:+,}$k
                done < <(shard_states "$array")
                echo "$prog: run them again: scripts/$prog --rerun ${failed:-K} $dir" >&2
                return 1
            fi
            [ "$state" = PENDING ] || fail "merge job $merge: CANCELLED ($reason)"
            ;;
        FAILED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE | PREEMPTED | REVOKED)
            echo "$prog: merge job $merge: $state (exit $(job_field "$merge" ExitCode)); its log:" >&2
            tail -n 20 "$dir/logs/merge-job$merge.log" >&2
            return 1
            ;;
        esac
        # every second for two minutes, then every 15 s
        [ $((SECONDS - start)) -lt 120 ] || pause=15
        sleep $pause
    done
}

# ---- a re-run of shards of DIR -----------------------------------------------------
if [ -n "$rerun" ]; then
    dir=${exp:-}
    [ -n "$dir" ] || bad "--rerun: needs the folder of the first submission (usage: --rerun K[,K...] DIR)"
    [ -z "$shards$host_shard$time$merge_time$bin" ] && [ $host = 0 ] && [ ${#sbatch_opts[@]} = 0 ] ||
        bad "--rerun: takes only --wait and DIR (the options are those of DIR/shards.sbatch)"
    dir=$(cd "$dir" 2>/dev/null && pwd -P) || bad "--rerun: '$exp': no such folder"
    for f in shards.sbatch merge.sbatch jobs; do
        [ -r "$dir/$f" ] || bad "--rerun: $dir/$f: not there (expected a folder written by $prog)"
    done
    shards=$(sed -n 's/^shards=\([0-9]*\)$/\1/p' "$dir/shards.sbatch")
    name=$(sed -n 's/^name=\(.*\)$/\1/p' "$dir/shards.sbatch")
    [ -n "$shards" ] && [ -n "$name" ] || fail "$dir/shards.sbatch: no 'shards=' or 'name=' line"
    [[ $rerun =~ ^[0-9]+(,[0-9]+)*$ ]] || bad "--rerun '$rerun': expected shard numbers K[,K...]"
    for k in ${rerun//,/ }; do
        [ "$k" -lt "$shards" ] || bad "--rerun '$rerun': shard $k (expected 0 to $((shards - 1)): the plan is cut into $shards)"
    done
    merged=$dir/$name-x$shards.h5
    need_slurm
    # Refused while an earlier submission of DIR is still at work: its tasks
    # would write the files this one writes, and its merge job would run beside
    # this one's.  A merge job that can never run (a shard of it failed) is
    # what a re-run replaces: it is cancelled first.
    busy='' stale=''
    while read -r what job _; do
        if [ "$what" = shards ]; then
            tasks=$(active_tasks "$job" | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }')
            [ -z "$tasks" ] || busy="$busy${busy:+; }shards job $job (tasks $tasks)"
        elif [ "$what" = merge ] && state=$(job_field "$job" JobState); then
            case $state in
            PENDING)
                if [ "$(job_field "$job" Reason)" = DependencyNeverSatisfied ]; then
                    stale="$stale $job"
                else
                    busy="$busy${busy:+; }merge job $job (PENDING)"
                fi ;;
            RUNNING | CONFIGURING | COMPLETING | SUSPENDED | REQUEUED | REQUEUE_HOLD | RESIZING | SIGNALING | STAGE_OUT)
                busy="$busy${busy:+; }merge job $job ($state)" ;;
            esac
        fi
    done < "$dir/jobs"
    ids=$(printf '%s\n' "$busy" | grep -o 'job [0-9]*' | cut -d' ' -f2 | paste -sd' ')
    [ -z "$busy" ] ||
        fail "--rerun $rerun: an earlier submission of $dir is still queued or running: $busy; wait until it ends (squeue -j ${ids// /,}), or scancel $ids and run --rerun again"
    for job in $stale; do
        scancel "$job" || fail "scancel $job (the earlier merge job, which can never run) failed"
        echo "$prog: cancelled the earlier merge job $job, which could never run"
    done
    array=$(submit "shards $rerun" --array="$rerun" "$dir/shards.sbatch") || exit 1
    # singleton: no two merge jobs of DIR (one job name) ever run at once
    merge=$(submit merge --dependency="afterok:$array,singleton" "$dir/merge.sbatch") ||
        fail "shards job $array submitted, the merge not; by hand: sbatch --dependency=afterok:$array,singleton $dir/merge.sbatch"
    printf 'shards %s %s\nmerge %s\n' "$array" "$rerun" "$merge" >> "$dir/jobs" || fail "could not write $dir/jobs"
    echo "$prog: shards job $array (shards $rerun of $shards again), merge job $merge (into $merged)"
    [ $wait = 0 ] || wait_merge "$array" "$merge" || exit 1
    exit 0
fi

# ---- a first submission ----------------------------------------------------------
[ -n "$exp" ] || usage
[ -n "$shards" ] || bad "-n/--shards: needed (how many shards, one array task each)"
[[ $shards =~ ^[1-9][0-9]*$ ]] && [ "$shards" -le 1024 ] ||
    bad "--shards '$shards': expected a whole number from 1 to 1024"
if [ -n "$host_shard" ]; then
    [[ $host_shard =~ ^[0-9]+$ ]] && [ "$host_shard" -lt "$shards" ] ||
        bad "--host-shard '$host_shard': expected a shard from 0 to $((shards - 1))"
fi
[ -f "$exp" ] && [ -r "$exp" ] || bad "'$exp': no such experiment file (expected EXPERIMENT.ini)"
name=$(basename "$exp" .ini)
safe_path "the experiment's name" "$name"
bin=${bin:-$root/bin/mmladder}
[ -x "$bin" ] && [ -f "$bin" ] || bad "--bin '$bin': no such program (make, or --bin PATH)"
[ -n "$dir" ] || dir=$root/data/$name-$(date -u +%Y%m%dT%H%M%SZ)-slurm
safe_path --dir "$dir"
if [ -e "$dir" ]; then
    [ -d "$dir" ] && [ -z "$(ls -A "$dir")" ] ||
        bad "--dir '$dir': exists and is not an empty folder (expected a new one; shards of it again: --rerun K $dir)"
fi
need_slurm

# Until the array is submitted, a failure removes what this wrote.
made=$([ -e "$dir" ] || echo 1)
# shellcheck disable=SC2317  # run by the trap
undo() {
    rm -rf "${dir:?}/logs" "$dir/mmladder" "$dir/$name.ini" "$dir/shards.sbatch" "$dir/merge.sbatch"
    [ -z "$made" ] || rmdir "$dir"
}
trap undo EXIT
mkdir -p "$dir/logs" || fail "could not create $dir/logs"
dir=$(cd "$dir" && pwd -P) || fail "could not enter $dir"
safe_path "--dir (its links resolved)" "$dir"
merged=$dir/$name-x$shards.h5

cp "$bin" "$dir/mmladder" || fail "could not copy $bin to $dir/mmladder"
cp "$exp" "$dir/$name.ini" || fail "could not copy $exp to $dir/$name.ini"
# The plan, whole and cut as the tasks will cut it: a bad experiment fails
# here, not in the queue.
plan=$("$dir/mmladder" plan "$dir/$name.ini" --shard "0/$shards" ${host_shard:+--host-shard "$host_shard"} 2>&1) ||
    fail "$dir/mmladder plan $dir/$name.ini --shard 0/$shards failed: ${plan##*$'\n'}"
plan=$("$dir/mmladder" plan "$dir/$name.ini" 2>&1) ||
    fail "$dir/mmladder plan $dir/$name.ini failed: ${plan##*$'\n'}"

# sbatch_lines [TIME] [GPU]: the #SBATCH lines both scripts share.
sbatch_lines() {
    local o
    echo "#SBATCH --chdir=$dir"
    echo "#SBATCH --ntasks=1"
    [ -z "$1" ] || echo "#SBATCH --time=$1"
    [ -z "$2" ] || echo "#SBATCH $2"
    for o in "${sbatch_opts[@]}"; do echo "#SBATCH $o"; done
}

{
    echo "#!/bin/bash"
    echo "# Shard \$SLURM_ARRAY_TASK_ID of $shards of $exp, written by scripts/$prog"
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ).  All: sbatch --array=0-$((shards - 1)) $dir/shards.sbatch;"
    echo "# shard K again: sbatch --array=K $dir/shards.sbatch, then the merge."
    echo "#SBATCH --job-name=mmladder-$name"
    echo "#SBATCH --output=$dir/logs/shard%a-job%A_%a.log"
    sbatch_lines "$time" "$([ $host = 1 ] || echo "$gpu_option")"
    echo "set -u"
    echo "dir=$dir"
    echo "name=$name"
    echo "shards=$shards"
    echo "host_shard=$host_shard"
    cat <<'EOF'
k=${SLURM_ARRAY_TASK_ID:?runs as a task of a job array: sbatch --array=K,...}
out=$dir/$name-shard$k-of-$shards.h5
# An earlier attempt's file (a finished task run again, a requeue) goes aside:
# run never overwrites, and the move never replaces a file either.
if [ -e "$out" ]; then
    aside=$dir/replaced/$name-shard$k-of-$shards.before-job$SLURM_JOB_ID-${SLURM_RESTART_COUNT:-0}.h5
    mkdir -p "$dir/replaced" && mv -n "$out" "$aside"
    [ ! -e "$out" ] && [ -e "$aside" ] || { echo "could not move $out aside to $aside" >&2; exit 1; }
fi
echo "shard $k of $shards on $(hostname), CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset}"
"$dir/mmladder" run "$dir/$name.ini" --shard "$k/$shards" ${host_shard:+--host-shard "$host_shard"} -o "$out"
rc=$?
# 2: some point incorrect or failed; the file is whole and records which.
if [ $rc = 2 ]; then
    echo "shard $k: some points incorrect or failed (exit 2); recorded in $out, merged with the rest"
    exit 0
fi
exit $rc
EOF
} > "$dir/shards.sbatch" || fail "could not write $dir/shards.sbatch"

{
    echo "#!/bin/bash"
    echo "# The merge of the $shards shards of $exp, written by scripts/$prog"
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ): sbatch --dependency=afterok:JOB $dir/merge.sbatch"
    echo "#SBATCH --job-name=mmladder-$name-merge-$(printf '%s' "$dir" | cksum | cut -d' ' -f1)"
    echo "#SBATCH --output=$dir/logs/merge-job%j.log"
    sbatch_lines "$merge_time" ""
    echo "set -u"
    echo "dir=$dir"
    echo "name=$name"
    echo "shards=$shards"
    cat <<'EOF'
out=$dir/$name-x$shards.h5
files=()
for ((k = 0; k < shards; k++)); do
    f=$dir/$name-shard$k-of-$shards.h5
    if [ -e "$f" ]; then
        files+=("$f")
    else
        echo "shard $k: no file (a shard without points writes none; merge names any point missing)"
    fi
done
# An earlier merge's file goes aside (merge jobs of DIR never run at once:
# --dependency=singleton), never over another file.
if [ -e "$out" ]; then
    aside=$dir/replaced/$name-x$shards.before-job$SLURM_JOB_ID-${SLURM_RESTART_COUNT:-0}.h5
    mkdir -p "$dir/replaced" && mv -n "$out" "$aside"
    [ ! -e "$out" ] && [ -e "$aside" ] || { echo "could not move $out aside to $aside" >&2; exit 1; }
fi
exec "$dir/mmladder" merge "$out" "${files[@]}"
EOF
} > "$dir/merge.sbatch" || fail "could not write $dir/merge.sbatch"

array=$(submit shards --array="0-$((shards - 1))" "$dir/shards.sbatch") || exit 1
trap - EXIT
merge=$(submit merge --dependency="afterok:$array,singleton" "$dir/merge.sbatch") ||
    fail "shards job $array submitted, the merge not; by hand: sbatch --dependency=afterok:$array,singleton $dir/merge.sbatch"
printf 'shards %s 0-%s\nmerge %s\n' "$array" "$((shards - 1))" "$merge" > "$dir/jobs" ||
    fail "could not write $dir/jobs"
echo "$prog: $exp: ${plan##*$'\n'}; cut into $shards shards"
echo "$prog: shards job $array (array 0-$((shards - 1)), $([ $host = 1 ] && echo "no GPU" || echo "$gpu_option")), merge job $merge (into $merged)"
echo "$prog: logs in $dir/logs; a failed shard K again: scripts/$prog --rerun K $dir"
[ $wait = 0 ] || wait_merge "$array" "$merge" || exit 1
exit 0
