#!/bin/sh
# `make fuzz`: run a libFuzzer target for a bounded time and say what it found.
#
#   scripts/fuzz.sh [--fork] BINARY SRC WORK SECONDS [SEED]
#
# SEED (a whole number; none or 0: libFuzzer picks one) fixes the sequence of
# inputs, so that what a run found is found again by the same command; CI
# gives one.  (In fork mode the jobs' timing also decides which inputs each
# job tries, so a seed repeats a run less exactly.)
#
# SRC holds the committed seed corpus (SRC/corpus/) and, if there is one, a
# dictionary (SRC/dict); both are only read.  Inputs may be as long as the longest seed (at least 16 KiB).
# New inputs go to the scratch corpus WORK/corpus/ (kept between runs, so
# later runs start further on), crash, timeout, out-of-memory and leak
# reproducers to WORK/artifacts/, libFuzzer's log to WORK/fuzz.log.  Prints
# executions, exec/s, coverage, crashes, leaks and the corpus size; exits
# non-zero on any crash, leak, timeout or out-of-memory of ours, or if the
# committed corpus changed.  scripts/fuzz-triage.sh says whose each crash,
# timeout and out-of-memory is: those of the HDF5 library (a file the tools
# report as damaged) are listed, last, and do not fail.
#
# --fork: for a target that runs the HDF5 library in its own process
# (fuzz_results), where the library may crash or hang: libFuzzer's fork mode
# (-fork=FUZZ_JOBS, by default one job per core), in which the fuzzing runs in
# jobs, each a process of its own, and
# a job that crashes, hangs past FUZZ_TIMEOUT seconds (default 3) or runs out
# of memory leaves its reproducer and is replaced while the run goes on.  The
# jobs' logs are not kept (libFuzzer's parent prints only their ERROR lines), so
# each reproducer is then replayed alone, its log beside it
# (WORK/artifacts/NAME.log), and that log is triaged.  One that does not fail
# again alone is listed: a timeout then is the machine's load (not a failure),
# a crash or out-of-memory a failure (it depended on what the job ran before).
set -u
fork=0
if [ "${1:-}" = --fork ]; then fork=1; shift; fi
if [ $# -ne 4 ] && [ $# -ne 5 ]; then
    echo "usage: scripts/fuzz.sh [--fork] BINARY SRC WORK SECONDS [SEED]" >&2
    exit 1
fi
bin=$1 src=$2 work=$3 secs=$4 seed=${5:-0} timeout=${FUZZ_TIMEOUT:-3}
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $seed in
    '' | *[!0-9]*) echo "fuzz: FUZZ_SEED '$seed' (expected a whole number)" >&2; exit 1 ;;
esac
case $jobs in
    '' | 0 | *[!0-9]*) echo "fuzz: FUZZ_JOBS '$jobs' (expected a whole number of jobs, at least 1)" >&2; exit 1 ;;
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
mode="-timeout=10"
[ "$fork" = 1 ] && mode="-fork=$jobs -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -timeout=$timeout"

seeds_sum() { find "$src/corpus" -type f | LC_ALL=C sort | xargs cat | cksum; }
mkdir -p "$work/corpus" "$work/artifacts" || exit 1
rm -rf "$work/artifacts"/crash-* "$work/artifacts"/leak-* "$work/artifacts"/timeout-* \
       "$work/artifacts"/oom-* "$work/artifacts"/slow-unit-* "$work/replay"
log=$work/fuzz.log
before=$(seeds_sum)
echo "fuzz: $bin for $secs s (seed $([ "$seed" = 0 ] && echo "libFuzzer's" || echo "$seed")$([ "$fork" = 1 ] && echo "; fork mode, $jobs jobs")) from $(ls "$src/corpus" | wc -l) seeds" \
     "and $(ls "$work/corpus" | wc -l) inputs of earlier runs; log in $log"

# Leaks fail the run (LeakSanitizer, part of ASan); so does any UBSan report.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
# shellcheck disable=SC2086  # $mode and $dict are lists of flags
"$bin" -seed="$seed" -max_total_time="$secs" $mode -rss_limit_mb=2048 -max_len="$max_len" \
    -detect_leaks=1 -print_final_stats=1 $dict \
    -artifact_prefix="$work/artifacts/" "$work/corpus" "$src/corpus" > "$log" 2>&1
rc=$?

count() { ls "$work/artifacts" | grep -c "^$1-[0-9a-f]*$"; }
crashes=$(count crash) leaks=$(count leak) timeouts=$(count timeout) ooms=$(count oom)
if [ "$fork" = 1 ]; then
    # The parent's line after each job: #RUNS: cov: C ft: F corp: N exec/s E ... time: Ts
    last=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -n 1)
    execs=$(printf '%s' "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
    took=$(printf '%s' "$last" | sed -n 's/.* time: \([0-9]*\)s.*/\1/p')
    rate=$([ -n "$execs" ] && [ "${took:-0}" -gt 0 ] && echo $((execs / took)))
    cov=$(printf '%s' "$last" | sed -n 's/.* cov: \([0-9]*\) .*/\1/p')
    ft=$(printf '%s' "$last" | sed -n 's/.* ft: \([0-9]*\) .*/\1/p')
    units=$(printf '%s' "$last" | sed -n 's/.* corp: \([0-9]*\) .*/\1/p')
    grep -q '^INFO: exiting: ' "$log" && rc=0   # the exit status is the last job's
    # Each reproducer alone, its log beside it, triaged.
    triage=
    for f in "$work/artifacts"/crash-* "$work/artifacts"/timeout-* "$work/artifacts"/oom-* \
             "$work/artifacts"/leak-*; do
        case $f in *'*'*|*.log) continue ;; esac
        # As a one-input corpus: libFuzzer names what it writes only then, not
        # for an input run by its name.
        rm -rf "$work/replay" && mkdir -p "$work/replay/in" && cp "$f" "$work/replay/in/" &&
            "$bin" -runs=0 -timeout="$timeout" -rss_limit_mb=2048 -detect_leaks=1 \
                -artifact_prefix="$work/replay/" "$work/replay/in" > "$f.log" 2>&1
        case $f in */leak-*) continue ;; esac
        one=$(scripts/fuzz-triage.sh "$f.log" "$bin")
        name=$(basename "$f")
        if [ -z "$one" ]; then
            case $name in
                timeout-*) one="$name	load	did not hang again alone (the machine's load)" ;;
                *) one="$name	ours	did not fail again alone (it depended on the inputs its job ran before): see $f.log" ;;
            esac
        fi
        triage=$(printf '%s\n%s' "$triage" "$(printf '%s' "$one" | sed "s/^[^	]*/$name/")")
    done
    triage=$(printf '%s\n' "$triage" | sed '/^$/d' | sort -u)
else
    stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
    execs=$(stat number_of_executed_units)
    rate=$(stat average_exec_per_sec)
    done_line=$(grep 'DONE .*corp:' "$log" | tail -n 1)
    units=$(printf '%s' "$done_line" | sed -n 's/.*corp: \([0-9]*\)\/.*/\1/p')
    cov=$(printf '%s' "$done_line" | sed -n 's/.* cov: \([0-9]*\) .*/\1/p')
    ft=$(printf '%s' "$done_line" | sed -n 's/.* ft: \([0-9]*\) .*/\1/p')
    triage=$(scripts/fuzz-triage.sh "$log" "$bin" | sort -u)
fi
verdicts() { printf '%s\n' "$triage" | awk -F '\t' -v w="$1" -v k="$2" '$2 == w && $1 ~ "^" k "-"' | wc -l; }
library=$(( $(verdicts library crash) + $(verdicts library timeout) + $(verdicts library oom) ))
load=$(verdicts load timeout)
ours_crashes=$((crashes - $(verdicts library crash)))
ours_timeouts=$((timeouts - $(verdicts library timeout) - load))
ours_ooms=$((ooms - $(verdicts library oom)))
echo "fuzz: ${execs:-?} executions in $secs s (${rate:-?} exec/s): $ours_crashes crashes," \
     "$leaks leaks, $ours_timeouts timeouts, $ours_ooms out-of-memory of ours" \
     "(and $library of the HDF5 library's$([ "$load" -gt 0 ] && echo ", $load timeouts not again alone"));" \
     "cov ${cov:-?}, ft ${ft:-?}; corpus ${units:-?} inputs ($(ls "$work/corpus" | wc -l) files in $work/corpus)"

fail=0
if [ "$(seeds_sum)" != "$before" ]; then
    echo "fuzz: the committed corpus $src/corpus changed during the run" >&2
    fail=1
fi
if [ "$rc" -ne 0 ] || [ $((ours_crashes + leaks + ours_timeouts + ours_ooms)) -gt 0 ] || [ -z "$execs" ]; then
    echo "fuzz: FAILED (libFuzzer exit $rc); the end of $log:" >&2
    tail -n 60 "$log" >&2
    for f in "$work/artifacts"/*; do
        case $f in *.log) continue ;; esac
        [ -f "$f" ] && echo "fuzz: reproducer: $f (run: $bin $f)" >&2
    done
    fail=1
fi
# Last, so that it ends what CI shows: ours one by one, the library's by kind.
if [ -n "$triage" ]; then
    printf '%s\n' "$triage" | awk -F '\t' '$2 == "ours" {
        if (!($3 in n)) first[$3] = $1
        n[$3]++ }
        END { for (w in n) printf "fuzz: ours: %d like %s: %s\n", n[w], first[w], w }' >&2
    printf '%s\n' "$triage" | awk -F '\t' '$2 == "load" { print "fuzz: " $1 ": " $3 }' >&2
    printf '%s\n' "$triage" | awk -F '\t' '$2 == "library" { print $3 }' | sort | uniq -c |
        sed 's/^ */fuzz: the HDF5 library'"'"'s (not failures), how many and what: /' >&2
fi
exit $fail
