#!/bin/sh
# One process per GPU on one host: an experiment cut into one shard per GPU
# (`mmladder run --shard K/N`), each shard on a GPU of its own
# (CUDA_VISIBLE_DEVICES), every host point in shard 0 alone (host points would
# share the CPUs), then the shards merged (`mmladder merge`) into one file.
#
#   scripts/run-gpus.sh EXPERIMENT.ini [OUTDIR]
#
# The GPUs: those CUDA_VISIBLE_DEVICES lists when it is set (GPU numbers or
# UUIDs, comma-separated, each once), else every GPU `nvidia-smi -L` lists.
# OUTDIR (default data) gets NAME-UTCSTAMP-shardK-of-N.h5 for each shard, their
# logs (.log), and the merged NAME-UTCSTAMP-xN.h5; a second invocation in the
# same second takes NAME-UTCSTAMP-2, -3, ...  A shard that fails stops the
# merge; the script prints the command that runs it again alone, and the merge
# to run after it.  SIGINT, SIGTERM or SIGHUP to the script stops its shards
# (each keeps the points it recorded in its work file, harness/results/outname.h) and
# the merge.  Exit status: the merge's (0 complete), or the first failed
# shard's; 2 for bad usage or a bad GPU list; 128+N when stopped by signal N.
set -u
set -f   # no word of a GPU list is a file pattern
usage="usage: scripts/run-gpus.sh EXPERIMENT.ini [OUTDIR]"
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "$usage" >&2; exit 2; }
exp=$1 dir=${2:-data}
bin=${MMLADDER:-bin/mmladder}
[ -f "$exp" ] || { echo "run-gpus: $exp: no such experiment file" >&2; exit 2; }
[ -d "$dir" ] || { echo "run-gpus: $dir: no such folder (expected an existing output folder)" >&2; exit 2; }
[ -x "$bin" ] || { echo "run-gpus: $bin: no such program (make, or MMLADDER=PATH)" >&2; exit 2; }

bad_list() {
    echo "run-gpus: CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES': $1 (expected GPU numbers or UUIDs, comma-separated, each once, e.g. 0,1 or GPU-8f6e...; unset: every GPU nvidia-smi -L lists)" >&2
    exit 2
}
if [ "${CUDA_VISIBLE_DEVICES+set}" = set ]; then
    [ -n "$CUDA_VISIBLE_DEVICES" ] || bad_list "set but empty, so no GPU is visible"
    case $CUDA_VISIBLE_DEVICES in ,* | *, | *,,*) bad_list "an empty entry" ;; esac
    gpus=
    old_ifs=$IFS
    IFS=,
    for g in $CUDA_VISIBLE_DEVICES; do
        case $g in
        *[!0-9]*)
            printf '%s\n' "$g" | grep -Eq '^(GPU|MIG)-[0-9A-Za-z/-]+$' ||
                bad_list "'$g' is neither a GPU number nor a UUID" ;;
        esac
        for h in $gpus; do [ "$h" != "$g" ] || bad_list "GPU '$g' named twice (one shard a GPU)"; done
        gpus="$gpus${gpus:+,}$g"
    done
    IFS=$old_ifs
    gpus=$(printf '%s\n' "$gpus" | tr ',' ' ')
else
    gpus=$(nvidia-smi -L 2>/dev/null | sed -n 's/^GPU \([0-9]*\):.*/\1/p' | tr '\n' ' ')
fi
n=$(printf '%s\n' $gpus | grep -c .)
[ "$n" -ge 1 ] || { echo "run-gpus: no GPU found (nvidia-smi -L lists none, and CUDA_VISIBLE_DEVICES is not set)" >&2; exit 3; }

# This invocation's name: NAME-UTCSTAMP, or -2, -3, ... when another one of the
# same second has it (claimed by creating shard 0's log, which fails if it exists).
stem=$(basename "$exp" .ini)-$(date -u +%Y%m%dT%H%M%SZ)
name=$stem k=1
while ! (set -C; : > "$dir/$name-shard0-of-$n.log") 2>/dev/null; do
    k=$((k + 1))
    [ "$k" -le 99 ] || { echo "run-gpus: $dir/$stem-*: no free name" >&2; exit 1; }
    name=$stem-$k
done
echo "run-gpus: $exp as $n shard(s) on GPU(s) $gpus -> $dir/$name-x$n.h5"

pids=
stop() {
    sig=$1
    trap '' INT TERM HUP
    echo "run-gpus: $sig: stopping the shards and the merge" >&2
    # shellcheck disable=SC2086 # one word a pid
    [ -z "$pids" ] || kill -TERM $pids 2>/dev/null
    for p in $pids; do wait "$p" 2>/dev/null; done
    case $sig in INT) exit 130 ;; HUP) exit 129 ;; *) exit 143 ;; esac
}
trap 'stop INT' INT
trap 'stop TERM' TERM
trap 'stop HUP' HUP

k=0
for g in $gpus; do
    out=$dir/$name-shard$k-of-$n.h5 log=$dir/$name-shard$k-of-$n.log
    [ "$k" = 0 ] || (set -C; : > "$log") ||
        { echo "run-gpus: $log: taken by another run" >&2; stop TERM; }
    CUDA_VISIBLE_DEVICES=$g "$bin" run "$exp" --shard "$k/$n" --host-shard 0 -o "$out" \
        >> "$log" 2>&1 &
    pids="$pids $!"
    k=$((k + 1))
done
k=0 failed=0 shards=
set -- $gpus
for p in $pids; do
    g=$1
    shift
    # A signal to the script interrupts this wait; the trap then stops the rest.
    wait "$p"
    rc=$?
    out=$dir/$name-shard$k-of-$n.h5
    # 2: some point incorrect or failed (its file is whole, and says which)
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
        echo "run-gpus: shard $k/$n exited $rc; its log: $dir/$name-shard$k-of-$n.log" >&2
        aside=
        [ ! -e "$out" ] || aside="mkdir -p $dir/replaced && mv -n $out $dir/replaced/ && "
        echo "run-gpus: again alone: ${aside}CUDA_VISIBLE_DEVICES=$g $bin run $exp --shard $k/$n --host-shard 0 -o $out" >&2
        [ "$failed" -ne 0 ] || failed=$rc
    fi
    [ -f "$out" ] && shards="$shards $out"
    k=$((k + 1))
done
pids=
if [ "$failed" -ne 0 ]; then
    echo "run-gpus: not merged; then: $bin merge $dir/$name-x$n.h5 $dir/$name-shard*-of-$n.h5" >&2
    exit "$failed"
fi
# shellcheck disable=SC2086 # one word a shard file
"$bin" merge "$dir/$name-x$n.h5" $shards &
pids=$!
wait "$pids"
