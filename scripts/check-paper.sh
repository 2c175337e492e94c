#!/bin/sh
# check-paper.sh -- does every number the paper prints come from the data?
#
# usage: scripts/check-paper.sh [-n NUMBERS.tex] [FILE.tex ...]
#
#   -n NUMBERS.tex   the macros written by scripts/paper-numbers.sh
#                    (default build/paper/numbers.tex); the table-*.tex files
#                    next to it are checked too
#   FILE.tex ...     the paper's sources (default paper/*.tex)
#
# Fails, naming each offending macro, when
#   - a source uses a \Num... macro that NUMBERS.tex does not define;
#   - NUMBERS.tex defines a macro with an empty value, or one the generator
#     could not fill from the data (marked \MissingDatum);
#   - a generated table row carries \MissingDatum;
#   - a source defines a \Num... macro itself (numbers are typed by the
#     generator only).
# Exit status: 0 all good; 1 a problem (each on stderr); 2 bad usage or an
# unreadable file.
set -eu

prog=check-paper.sh
numbers=build/paper/numbers.tex
while getopts n:h opt; do
    case $opt in
    n) numbers=$OPTARG ;;
    *) sed -n '3,3p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
    set -- "$(dirname "$0")"/../paper/*.tex
fi
[ -r "$numbers" ] || { printf '%s: cannot read %s (run scripts/paper-numbers.sh first)\n' "$prog" "$numbers" >&2; exit 2; }
for f in "$@"; do
    [ -r "$f" ] || { printf '%s: cannot read %s\n' "$prog" "$f" >&2; exit 2; }
done

tables=
for t in "$(dirname "$numbers")"/table-*.tex; do
    [ -r "$t" ] && tables="$tables $t"
done

# One awk pass: first the generated files, then the sources.  For the sources,
# FILE:LINE of the first use of each macro.
# shellcheck disable=SC2086
awk -v numbers="$numbers" -v prog="$prog" '
BEGIN { bad = 0 }
FILENAME == numbers {
    if (match($0, /^\\newcommand\{\\Num[A-Za-z]*\}/)) {
        name = substr($0, 14, RLENGTH - 14)
        val = substr($0, RLENGTH + 1)
        if (name in def) { printf "%s: \\%s is defined twice in %s\n", prog, name, numbers > "/dev/stderr"; bad = 1 }
        def[name] = 1
        if (val == "{}" || val ~ /^\{[ \t]*\}[ \t]*$/) {
            printf "%s: \\%s is empty in %s\n", prog, name, numbers > "/dev/stderr"; bad = 1
        } else if (val ~ /MissingDatum/) {
            printf "%s: \\%s has no value: the data lacks it (%s)\n", prog, name, numbers > "/dev/stderr"; bad = 1
        }
        ndef++
    }
    next
}
FILENAME ~ /\/table-[^\/]*\.tex$/ && !(FILENAME in src) {
    if ($0 ~ /MissingDatum/) {
        printf "%s: %s:%d: a table cell has no value: the data lacks it\n", prog, FILENAME, FNR > "/dev/stderr"; bad = 1
    }
    line = $0
    while (match(line, /\\Num[A-Za-z]+/)) {
        use[substr(line, RSTART + 1, RLENGTH - 1)] = FILENAME ":" FNR
        line = substr(line, RSTART + RLENGTH)
    }
    next
}
{
    line = $0
    if (line ~ /\\(re|provide)?newcommand\*?\{?\\Num[A-Za-z]/ || line ~ /\\def\\Num[A-Za-z]/) {
        printf "%s: %s:%d: defines a \\Num macro; numbers come from scripts/paper-numbers.sh only\n", prog, FILENAME, FNR > "/dev/stderr"; bad = 1
    }
    while (match(line, /\\Num[A-Za-z]+/)) {
        name = substr(line, RSTART + 1, RLENGTH - 1)
        if (!(name in use)) use[name] = FILENAME ":" FNR
        line = substr(line, RSTART + RLENGTH)
    }
}
END {
    if (ndef == 0) { printf "%s: %s defines no \\Num macros\n", prog, numbers > "/dev/stderr"; exit 1 }
    for (name in use) {
        nuse++
        if (!(name in def)) {
            printf "%s: %s: \\%s is not produced by scripts/paper-numbers.sh\n", prog, use[name], name > "/dev/stderr"
            bad = 1
        }
    }
    if (bad) exit 1
    printf "%s: %d macros used, all of %d generated ones have values\n", prog, nuse, ndef
}' "$numbers" $tables "$@"
