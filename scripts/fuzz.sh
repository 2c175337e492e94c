#!/bin/sh
# `make fuzz`: run a libFuzzer target for a bounded time and say what it found.
#
#   scripts/fuzz.sh BINARY SRC WORK SECONDS [SEED]
#
# SEED (a whole number; none or 0: libFuzzer picks one) fixes the sequence of
# inputs, so that what a run found is found again by the same command; CI
# gives one.
#
# SRC holds the committed seed corpus (SRC/corpus/) and, if there is one, a
# dictionary (SRC/dict); both are only read.  Inputs may be as long as the
# longest seed (at least 16 KiB).  New inputs go to the scratch
# corpus WORK/corpus/ (kept between runs, so later runs start further on),
# crash and leak reproducers to WORK/artifacts/, libFuzzer's log to
# WORK/fuzz.log.  Prints executions, exec/s, crashes, leaks and the corpus
# size; exits non-zero on any crash, leak, timeout or out-of-memory, or if the
# committed corpus changed -- except a crash that scripts/fuzz-triage.sh finds
# to be the HDF5 library's, in a reader's child process (the tools report such
# a file as damaged and go on): those are listed, last, and do not fail.
set -u
if [ $# -ne 4 ] && [ $# -ne 5 ]; then
    echo "usage: scripts/fuzz.sh BINARY SRC WORK SECONDS [SEED]" >&2
    exit 1
fi
bin=$1 src=$2 work=$3 secs=$4 seed=${5:-0}
case $seed in
    '' | *[!0-9]*) echo "fuzz: FUZZ_SEED '$seed' (expected a whole number)" >&2; exit 1 ;;
esac
case $secs in
    '' | *[!0-9]*) echo "fuzz: FUZZ_SECONDS '$secs' (expected a whole number of seconds)" >&2; exit 1 ;;
esac
[ "$secs" -gt 0 ] || { echo "fuzz: FUZZ_SECONDS '$secs' (expected at least 1)" >&2; exit 1; }
[ -x "$bin" ] || { echo "fuzz: $bin: no such program (make build/fuzz/fuzz_experiment)" >&2; exit 1; }
[ -d "$src/corpus" ] || { echo "fuzz: $src/corpus: no seed corpus" >&2; exit 1; }
dict=
[ -f "$src/dict" ] && dict=-dict=$src/dict
max_len=$(find "$src/corpus" -type f -printf '%s\n' | sort -n | tail -n 1)
[ "${max_len:-0}" -gt 16384 ] || max_len=16384

seeds_sum() { find "$src/corpus" -type f | LC_ALL=C sort | xargs cat | cksum; }
mkdir -p "$work/corpus" "$work/artifacts" || exit 1
rm -f "$work/artifacts"/crash-* "$work/artifacts"/leak-* "$work/artifacts"/timeout-* \
      "$work/artifacts"/oom-* "$work/artifacts"/slow-unit-*
log=$work/fuzz.log
before=$(seeds_sum)
echo "fuzz: $bin for $secs s (seed $([ "$seed" = 0 ] && echo "libFuzzer's" || echo "$seed")) from $(ls "$src/corpus" | wc -l) seeds" \
     "and $(ls "$work/corpus" | wc -l) inputs of earlier runs; log in $log"

# Leaks fail the run (LeakSanitizer, part of ASan); so does any UBSan report.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
"$bin" -seed="$seed" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -detect_leaks=1 -print_final_stats=1 $dict \
    -artifact_prefix="$work/artifacts/" "$work/corpus" "$src/corpus" > "$log" 2>&1
rc=$?

stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
count() { ls "$work/artifacts" | grep -c "^$1-"; }
execs=$(stat number_of_executed_units)
rate=$(stat average_exec_per_sec)
units=$(sed -n 's/.*DONE .*corp: \([0-9]*\)\/.*/\1/p' "$log" | tail -n 1)
crashes=$(count crash) leaks=$(count leak) timeouts=$(count timeout) ooms=$(count oom)
triage=$(scripts/fuzz-triage.sh "$log" "$bin" | sort -u)
library=$(printf '%s\n' "$triage" | awk -F '\t' '$2 == "library"' | wc -l)
ours=$((crashes - library))
echo "fuzz: ${execs:-?} executions in $secs s (${rate:-?} exec/s): $ours crashes" \
     "(and $library of the HDF5 library's, in a reader's child), $leaks leaks," \
     "$timeouts timeouts, $ooms out-of-memory; corpus ${units:-?} inputs" \
     "($(ls "$work/corpus" | wc -l) files in $work/corpus)"

fail=0
if [ "$(seeds_sum)" != "$before" ]; then
    echo "fuzz: the committed corpus $src/corpus changed during the run" >&2
    fail=1
fi
if [ "$rc" -ne 0 ] || [ $((ours + leaks + timeouts + ooms)) -gt 0 ] || [ -z "$execs" ]; then
    echo "fuzz: FAILED (libFuzzer exit $rc); the end of $log:" >&2
    tail -n 60 "$log" >&2
    for f in "$work/artifacts"/*; do
        [ -f "$f" ] && echo "fuzz: reproducer: $f (run: $bin $f)" >&2
    done
    fail=1
fi
# Last, so that it ends what CI shows: ours one by one, the library's by kind.
if [ -n "$triage" ]; then
    printf '%s\n' "$triage" | awk -F '\t' '$2 != "library" {
        if (!($3 in n)) first[$3] = $1
        n[$3]++ }
        END { for (w in n) printf "fuzz: crashes of ours: %d like %s: %s\n", n[w], first[w], w }' >&2
    printf '%s\n' "$triage" | awk -F '\t' '$2 == "library" { print $3 }' | sort | uniq -c |
        sed 's/^ */fuzz: crashes of the HDF5 library (not failures), how many and what: /' >&2
fi
exit $fail
