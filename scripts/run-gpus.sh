#!/bin/sh
# One process per GPU on one host: an experiment cut into one shard per GPU
# (`mmladder run --shard K/N`), each shard on a GPU of its own
# (CUDA_VISIBLE_DEVICES), every host point in shard 0 alone (host points would
# share the CPUs), then the shards merged (`mmladder merge`) into one file.
#
#   scripts/run-gpus.sh EXPERIMENT.ini [OUTDIR]
#
# The GPUs: those CUDA_VISIBLE_DEVICES lists when it is set, else every GPU
# `nvidia-smi -L` lists.  OUTDIR (default data) gets NAME-UTCSTAMP-shardK-of-N.h5
# for each shard, their logs (.log), and the merged NAME-UTCSTAMP-xN.h5.
# A shard that fails stops the merge; the script prints the command that runs
# it again alone, and the merge to run after it.  Exit status: the merge's
# (0 complete), or the first failed shard's.
set -u
usage="usage: scripts/run-gpus.sh EXPERIMENT.ini [OUTDIR]"
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "$usage" >&2; exit 1; }
exp=$1 dir=${2:-data}
bin=${MMLADDER:-bin/mmladder}
[ -f "$exp" ] || { echo "run-gpus: $exp: no such experiment file" >&2; exit 1; }
[ -d "$dir" ] || { echo "run-gpus: $dir: no such folder (expected an existing output folder)" >&2; exit 1; }
[ -x "$bin" ] || { echo "run-gpus: $bin: no such program (make, or MMLADDER=PATH)" >&2; exit 1; }

if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
    gpus=$(printf '%s\n' "$CUDA_VISIBLE_DEVICES" | tr ',' ' ')
else
    gpus=$(nvidia-smi -L 2>/dev/null | sed -n 's/^GPU \([0-9]*\):.*/\1/p' | tr '\n' ' ')
fi
n=$(printf '%s\n' $gpus | grep -c .)
[ "$n" -ge 1 ] || { echo "run-gpus: no GPU found (nvidia-smi -L lists none; CUDA_VISIBLE_DEVICES unset)" >&2; exit 3; }

name=$(basename "$exp" .ini)-$(date -u +%Y%m%dT%H%M%SZ)
echo "run-gpus: $exp as $n shard(s) on GPU(s) $gpus -> $dir/$name-x$n.h5"
k=0 pids=
for g in $gpus; do
    out=$dir/$name-shard$k-of-$n.h5
    CUDA_VISIBLE_DEVICES=$g "$bin" run "$exp" --shard "$k/$n" --host-shard 0 -o "$out" \
        > "$dir/$name-shard$k-of-$n.log" 2>&1 &
    pids="$pids $!"
    k=$((k + 1))
done
k=0 failed=0 shards=
for p in $pids; do
    wait "$p"
    rc=$?
    out=$dir/$name-shard$k-of-$n.h5
    # 2: some point incorrect or failed (its file is whole, and says which)
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
        echo "run-gpus: shard $k/$n exited $rc; its log: $dir/$name-shard$k-of-$n.log" >&2
        echo "run-gpus: again alone: CUDA_VISIBLE_DEVICES=<gpu> $bin run $exp --shard $k/$n --host-shard 0 -o $out" >&2
        [ "$failed" -ne 0 ] || failed=$rc
    fi
    [ -f "$out" ] && shards="$shards $out"
    k=$((k + 1))
done
if [ "$failed" -ne 0 ]; then
    echo "run-gpus: not merged; then: $bin merge $dir/$name-x$n.h5 $dir/$name-shard*-of-$n.h5" >&2
    exit "$failed"
fi
# shellcheck disable=SC2086 # one word a shard file
"$bin" merge "$dir/$name-x$n.h5" $shards
