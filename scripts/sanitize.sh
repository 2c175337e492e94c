#!/bin/sh
# sanitize.sh -- compute-sanitizer over every hand-written GPU rung of the ladder, at one to
# three configurations each (make sanitize).
#
# usage: scripts/sanitize.sh [OUT.tsv]      (default data/sanitizer-<gpu>.tsv)
#
# Runs build/tests/sanitize-one (one kernel, once, with nothing else on the GPU;
# its result verified against float64) under each of compute-sanitizer's tools
# memcheck, racecheck, initcheck and synccheck, for every hand-written GPU rung
# (one configuration each: the one the paper's runs find fastest at large n;
# the rungs that divide K also with K split in 3, each stream-K tile, and the
# dispatch rows, which run what their rule picks at each shape) and
# for the test-only kernel test_racy_tiled (seed 002's exercise: the tiled
# kernel without __syncthreads), at the shapes 1x1x1, 17x33x65, 1000x999x1001
# (square nowhere, a multiple of no tile) and 256x256x256 (a multiple of every
# tile: 8 to 256).  The cuBLAS reference lines are library code and not run.
#
# Writes one row per kernel configuration x tool x shape, tab-separated, with the
# header
#     kernel  config  tool  shape  errors  expected_errors  commit
# (config: tile/WPT, and the split where one is given; commit: the one
# build/tests/sanitize-one was built from, build/buildinfo.h's, with "-dirty"
# when the tree had local changes)
# where errors is the count in the tool's summary line and expected_errors is 0
# for every ladder kernel and ">0" for test_racy_tiled under racecheck.  Each
# run's full output is kept in build/sanitize/.  Exit status: 0 when every row
# is as expected, 1 otherwise (or when the sanitizer or a GPU is missing).
set -u
prog=sanitize.sh
SAN=${COMPUTE_SANITIZER:-compute-sanitizer}
SAN_TIMEOUT=${SAN_TIMEOUT:-600}   # seconds per run; a run cut off has no summary: NA
ONE=build/tests/sanitize-one
JOBS=${JOBS:-8}
command -v "$SAN" >/dev/null 2>&1 || { echo "$prog: $SAN not found (CUDA toolkit)" >&2; exit 1; }
[ -x "$ONE" ] || { echo "$prog: $ONE not built (make build/tests/sanitize-one)" >&2; exit 1; }
gpu=$(bin/mmladder device 2>&1) || { echo "$prog: no GPU: $gpu" >&2; exit 1; }
slug=$(printf '%s\n' "${gpu%% (*}" | sed 's/^NVIDIA //' | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9][^a-z0-9]*/-/g; s/-$//')
out=${1:-data/sanitizer-$slug.tsv}
logs=build/sanitize
mkdir -p "$logs" "$(dirname "$out")"

# kernel tile wpt split: one configuration per rung, in ladder order (a list of
# such lines in SANITIZE_KERNELS replaces it)
KERNELS="gpu_naive_global 0 0
gpu_naive 0 0
gpu_tiled 32 0
gpu_tiled_unrolled 32 0
gpu_tiled_wpt 32 16
gpu_regblock 128 64
gpu_vectorized 128 64
gpu_double_buffered 128 64
gpu_warptiled 128 128
gpu_async_copy 128 64
tf32_mma_sync 128 128
tf32_wgmma_tma 256 0
gpu_splitk 16 32 0
gpu_splitk 32 32 3
gpu_splitk 128 64 0
gpu_streamk 64 64
gpu_streamk 128 64
tf32_splitk_tma 16 0 3
tf32_splitk_tma 128 0 0
gpu_gemv 256 8 0
gpu_gemv 32 8 3
gpu_short_k 64 0
tf32_persistent_tma 256 1
tf32_persistent_tma 256 7
tf32_persistent_tma 128 39
gpu_tail_split 32 32 0
gpu_tail_split 64 32 0
gpu_tail_split 64 64 3
gpu_tail_split 128 64 0
gpu_tail_split 128 16 3
gpu_shallow_slices 64 32 0
gpu_shallow_slices 64 32 3
dispatch_fp32 0 0
dispatch_tf32 0 0
test_racy_tiled 16 0"
KERNELS=${SANITIZE_KERNELS:-$KERNELS}
TOOLS="memcheck racecheck initcheck synccheck"
SHAPES="1x1x1 17x33x65 1000x999x1001 256x256x256"

# one job per line: kernel tile wpt split tool shape (the name: kernel, with the
# split when one is given)
jobs=$(printf '%s\n' "$KERNELS" | while read -r k t w x; do
    for tool in $TOOLS; do for s in $SHAPES; do echo "$k $t $w ${x:--} $tool $s"; done; done
done)
export SAN ONE logs SAN_TIMEOUT
printf '%s\n' "$jobs" | xargs -P "$JOBS" -L 1 sh -c '
    log="$logs/$0-$1-$2-$3-$4-$5.log"
    split=$3; [ "$split" = - ] && split=0
    timeout "${SAN_TIMEOUT:-600}" "$SAN" --tool "$4" --error-exitcode 0 "$ONE" "$0" "$1" "$2" "$5" "$split" > "$log" 2>&1
    echo "exit $?" >> "$log"'

commit=$(sed -n 's/^#define MM_GIT_COMMIT "\(.*\)"$/\1/p' build/buildinfo.h 2>/dev/null)
[ -n "$commit" ] || commit=unknown
[ "$(sed -n 's/^#define MM_GIT_DIRTY //p' build/buildinfo.h 2>/dev/null)" = 1 ] && commit=$commit-dirty
status=0
{
    printf 'kernel\tconfig\ttool\tshape\terrors\texpected_errors\tcommit\n'
    printf '%s\n' "$jobs" | while read -r k t w x tool s; do
        log="$logs/$k-$t-$w-$x-$tool-$s.log"
        # "ERROR SUMMARY: N errors", or racecheck's
        # "RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)"
        n=$(sed -n 's/.*ERROR SUMMARY: \([0-9][0-9]*\) error.*/\1/p; s/.*RACECHECK SUMMARY: .*(\([0-9][0-9]*\) error.*/\1/p' "$log" | tail -1)
        # no summary line: racecheck's reports still count; else the run failed
        [ -n "$n" ] || { r=$(grep -c 'Error: Race reported' "$log"); [ "$r" -gt 0 ] && n=$r; }
        [ -n "$n" ] || n=NA
        expect=0
        [ "$k" = test_racy_tiled ] && [ "$tool" = racecheck ] && expect='>0'
        config="$t/$w"; [ "$x" = - ] || config="$config split $x"
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$config" "$tool" "$s" "$n" "$expect" "$commit"
    done
} > "$out"

# every row as expected?  (errors 0 where 0 is expected, > 0 where ">0" is)
bad=$(awk -F'\t' 'NR > 1 && !(($6 == "0" && $5 == "0") || ($6 == ">0" && $5 ~ /^[0-9]+$/ && $5 > 0))' "$out")
if [ -n "$bad" ]; then
    echo "$prog: rows not as expected (logs in $logs/):" >&2
    printf '%s\n' "$bad" >&2
    status=1
fi
# a ladder kernel must also have computed the right result under every tool
for log in "$logs"/*.log; do
    case $log in *test_racy_tiled*) continue ;; esac
    grep -q '^exit 0$' "$log" || { echo "$prog: $log: the kernel did not pass verification" >&2; status=1; }
done
echo "$prog: $(($(wc -l < "$out") - 1)) rows -> $out"
exit $status
