#!/bin/sh
# check-lettering.sh -- every piece of lettering of each figure is at least MIN
# points as drawn: tick labels, keys, axis labels, titles, labels in the plot,
# and the superscripts of enhanced text, at the size they are drawn.  The paper
# places every figure at its own size (paper/main.tex, \placefig), so a size
# drawn is the size printed.
#
# usage: scripts/check-lettering.sh [-m MIN] FIGURE.pdf ...
#
#   -m MIN   the smallest size allowed, in whole points (default 7)
#
# The sizes come from poppler's pdftohtml (-xml), which gives each font's size
# as drawn, transformations included, to a third of a point (its largest zoom,
# 3, rounded to whole units): a size that rounds to fewer than 3 x MIN thirds
# fails.
#
# Exit status: 0 every figure's lettering is at least MIN points; 1 bad usage,
# pdftohtml missing, or a file it cannot read; 2 some lettering is smaller
# (each named on stderr: the figure, the size and the first texts drawn at it).
set -eu
prog=check-lettering.sh
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }

min=7
while getopts m:h opt; do
    case $opt in
    m) min=$OPTARG ;;
    *) sed -n '/^# usage:/,/^#   -m/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
case $min in '' | *[!0-9]*) die "-m takes whole points, got '$min'" ;; esac
[ $# -gt 0 ] || die "no figure given (usage: $prog [-m MIN] FIGURE.pdf ...)"
command -v pdftohtml >/dev/null 2>&1 ||
    die "pdftohtml not found (Debian: apt-get install poppler-utils)"

least=$((3 * min))
small=0
for pdf in "$@"; do
    [ -f "$pdf" ] || die "no such figure: $pdf"
    xml=$(pdftohtml -xml -stdout -i -q -zoom 3 "$pdf") || die "pdftohtml cannot read $pdf"
    # one line per font: its id and its size in thirds of a point
    fonts=$(printf '%s\n' "$xml" | sed -n 's/.*<fontspec id="\([0-9]*\)" size="\([0-9]*\)".*/\1 \2/p')
    [ -n "$fonts" ] || die "$pdf: pdftohtml found no text in it"
    while read -r id size; do
        [ "$size" -lt "$least" ] || continue
        tenths=$((size * 10 / 3))
        texts=$(printf '%s\n' "$xml" | sed -n "s/.*font=\"$id\">\\(.*\\)<\\/text>.*/\\1/p" |
                head -n 3 | sed 's/^/"/; s/$/"/' | tr '\n' ' ')
        printf '%s: %s: lettering at %d.%d pt, under %d pt: %s\n' "$prog" "$pdf" \
            $((tenths / 10)) $((tenths % 10)) "$min" "$texts" >&2
        small=1
    done <<EOF
$fonts
EOF
done
[ "$small" -eq 0 ] || exit 2
