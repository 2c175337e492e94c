#!/bin/sh
# bench-readers.sh -- every reader of results files timed on one file of many
# rows (make bench-readers): a measurement of this machine, not a test.
#
# usage: scripts/bench-readers.sh [-n ROWS] [-b BIN] [-g GROW] [-o DIR] IN.h5
#
#   IN.h5   a real run, grown to ROWS rows (default 1000000) by GROW
#           (default build/tests/big-run: each copy of its rows a distinct
#           shape, every rate and ratio the real row's) into
#           DIR/big-ROWS.h5 (default DIR build/bench; made once, then reused)
#
# Prints one line per command: its wall time in seconds, its exit status, the
# command; every command's output goes to DIR/NAME.out and .err.  The commands:
# info, export (rows; verified rows; samples; attributes), compare of the file
# with itself, and every table view that reads one file.  Exit status: 0 when
# each command ran (whatever its own status), 1 bad usage or no file to time.
set -eu
prog=bench-readers.sh
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }
rows=1000000 bin=bin/mmladder grow=build/tests/big-run dir=build/bench
while getopts n:b:g:o: opt; do
    case $opt in
    n) rows=$OPTARG ;; b) bin=$OPTARG ;; g) grow=$OPTARG ;; o) dir=$OPTARG ;;
    *) die "usage: $prog [-n ROWS] [-b BIN] [-g GROW] [-o DIR] IN.h5" ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || die "usage: $prog [-n ROWS] [-b BIN] [-g GROW] [-o DIR] IN.h5"
in=$1
case $rows in '' | *[!0-9]*) die "-n: '$rows' is not a count of rows" ;; esac
[ -r "$in" ] || die "cannot read '$in'"
[ -x "$bin" ] || die "no harness binary at '$bin' (make bin/mmladder)"
[ -x "$grow" ] || die "no generator at '$grow' (make build/tests/big-run)"
mkdir -p "$dir" || die "cannot create '$dir'"
big=$dir/big-$rows.h5
# seconds since START (date +%s%N), to the hundredth
since() { t=$((($(date +%s%N) - $1) / 10000000)); printf '%d.%02d' $((t / 100)) $((t % 100)); }
if [ ! -f "$big" ]; then
    start=$(date +%s%N)
    rm -f "$big.part"
    "$grow" "$in" "$big.part" "$rows" || die "'$grow $in $big.part $rows' failed"
    mv "$big.part" "$big" || die "cannot name '$big'"
    printf '%s: %s written in %s s (%s bytes), from %s\n' "$prog" "$big" "$(since "$start")" \
        "$(wc -c < "$big")" "$in"
fi
printf 'seconds\texit\tcommand\n'
# timed NAME ARGS...: BIN ARGS, its output into DIR/NAME.out and .err
timed() {
    name=$1
    shift
    start=$(date +%s%N)
    rc=0
    "$bin" "$@" > "$dir/$name.out" 2> "$dir/$name.err" || rc=$?
    printf '%s\t%d\t%s\n' "$(since "$start")" "$rc" "mmladder $*"
}
timed info info "$big"
timed export export "$big"
timed export-passed export "$big" --passed
timed export-samples export "$big" --samples
timed export-attrs export "$big" --attrs
timed compare compare "$big" "$big"
for view in runs ladder configs speedup samples telemetry transfers shapes suite corpus \
    corpus-classes corpus-cdf estimates; do
    timed "table-$view" table "$view" "$big"
done
