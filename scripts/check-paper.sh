#!/bin/sh
# check-paper.sh -- what LaTeX and BibTeX let through but a reader would see:
# a line or table past the margin, a reference or citation printed as "??",
# a bibliography entry a reader cannot follow, a PDF without its title, a
# body longer than its page limit, a sentence printed twice.
#
# usage: scripts/check-paper.sh [-l LOG] [-b BIB] [-p PDF] [-w POINTS]
#                               [-a AUX [-n PAGES] [-L LABEL]] [-r WORDS [-F DIR]]
#
#   -l LOG     LaTeX's log of the last run (build/paper/main.log): fails on an
#              overfull \hbox more than POINTS wide, and on an undefined
#              reference or citation
#   -b BIB     a BibTeX file (paper/references.bib): fails on an entry without
#              an author (a person, or an organisation in braces such as
#              {NVIDIA}; a book's editor or a manual's organization does too:
#              plainnat prints them in its place, and the key where there is
#              none), without a four-digit year, or without a url (https://...)
#              or doi; an entry whose source could not be found instead says
#              why in an `unlocated' field, and is named (not failed) each run
#   -p PDF     the paper (build/paper/main.pdf): fails when pdfinfo shows no
#              Title or no Author
#   -w POINTS  how far a box may run over, in pt (default 3)
#   -a AUX     LaTeX's aux file (build/paper/main.aux): fails when the label
#              LABEL (default body-end, set at the end of the body, before
#              the bibliography and the appendices) is missing or on a page
#              past PAGES (default 14)
#   -r WORDS   with -p: fails on each sentence of WORDS or more words that the
#              PDF's text (pdftotext) prints more than once.  Lines broken at
#              a hyphen are joined and white space is made one space; a
#              sentence ends at . ? or ! before a capital letter, and a clause
#              (compared as a sentence) at a colon or a semicolon; words are
#              compared in lower case with their punctuation (hyphens too)
#              dropped, and a number (digits, and x between them as in a
#              shape, 8192x4096x128) is no word, so two sentences that differ
#              only in their numbers are the same; FP32 and TF32 are words
#   -F DIR     with -r: the figures the PDF includes are DIR/*.pdf; a line of
#              the PDF's text that is a line of a figure's own text (its
#              lettering, which two figures drawn alike share) is left out
#
# Each problem is one line on stderr, FILE:LINE first (the source line LaTeX
# names for a box or a warning, with the log's own line after it).
# Exit status: 0 nothing found; 1 a problem found; 2 bad usage or an unreadable
# file.
set -u
LC_ALL=C
export LC_ALL

prog=check-paper.sh
usage() {
    printf 'usage: %s [-l LOG] [-b BIB] [-p PDF] [-w POINTS] [-a AUX [-n PAGES] [-L LABEL]] [-r WORDS [-F DIR]]\n' \
        "$prog" >&2
    exit 2
}

log= bib= pdf= width=3 aux= pages=14 label=body-end repeats= figdir=
while getopts l:b:p:w:a:n:L:r:F: opt; do
    case $opt in
        l) log=$OPTARG ;;
        b) bib=$OPTARG ;;
        p) pdf=$OPTARG ;;
        w) width=$OPTARG ;;
        a) aux=$OPTARG ;;
        n) pages=$OPTARG ;;
        L) label=$OPTARG ;;
        r) repeats=$OPTARG ;;
        F) figdir=$OPTARG ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
[ -n "$log$bib$pdf$aux" ] || usage
case $width in
    '' | *[!0-9.]* | *.*.*) printf '%s: -w %s: not a number of points\n' "$prog" "$width" >&2; exit 2 ;;
esac
case $pages in
    '' | *[!0-9]*) printf '%s: -n %s: not a number of pages\n' "$prog" "$pages" >&2; exit 2 ;;
esac
case $repeats in
    *[!0-9]*) printf '%s: -r %s: not a number of words\n' "$prog" "$repeats" >&2; exit 2 ;;
esac
if [ -n "$figdir" ] && [ ! -d "$figdir" ]; then
    printf '%s: -F %s: not a folder\n' "$prog" "$figdir" >&2
    exit 2
fi
if [ -n "$repeats" ] && [ -z "$pdf" ]; then
    printf '%s: -r needs -p PDF\n' "$prog" >&2
    exit 2
fi
for f in "$log" "$bib" "$pdf" "$aux"; do
    if [ -n "$f" ] && [ ! -r "$f" ]; then
        printf '%s: %s: cannot read it\n' "$prog" "$f" >&2
        exit 2
    fi
done

status=0

# ---- the log: boxes past the margin, undefined references and citations ------------
# TeX writes "(FILE" when it starts reading a file and ")" when it is done, so
# the file a message is about is the innermost one open.  A box's contents,
# printed after its "Overfull" line up to an empty line, are typeset text whose
# parentheses are not files'.
check_log() {
    awk -v logname="$1" -v limit="$2" '
    function file_here(   i) {
        for (i = depth; i > 0; i--) if (open[i] != "") return open[i]
        return ""
    }
    function tidy(f) {
        sub(/^\.\//, "", f)
        while (sub(/\/\/+/, "/", f)) {}
        return f
    }
    function follow_files(s,   i, c, tok) {
        for (i = 1; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (c == "(") {
                tok = substr(s, i + 1)
                sub(/[ ()\t].*$/, "", tok)
                open[++depth] = (tok ~ /\.(tex|bbl|aux|sty|cls|cfg|def|clo|fd|ldf|out|toc)$/ ||
                                 tok ~ /^\.?\//) ? tidy(tok) : ""
            } else if (c == ")" && depth > 0) {
                depth--
            }
        }
    }
    function where(srcline,   f) {
        f = file_here()
        return (f != "" && srcline != "") ? f ":" srcline : logname ":" NR
    }
    function report(msg) {
        print msg > "/dev/stderr"
        found++
    }
    in_box && /^$/ { in_box = 0; next }
    in_box { next }
    /^(Over|Under)full \\[hv]box/ {
        in_box = 1
        if ($0 !~ /^Overfull \\hbox/) next
        amount = $0
        sub(/^Overfull \\hbox \(/, "", amount)
        sub(/pt too wide\).*$/, "", amount)
        lines = ""
        if (match($0, /at lines? [0-9]+(--[0-9]+)?/)) {
            lines = substr($0, RSTART, RLENGTH)
            sub(/^at lines? /, "", lines)
        }
        first = lines
        sub(/--.*/, "", first)
        if (amount + 0 > limit + 0)
            report(sprintf("%s: overfull \\hbox, %.1fpt past the margin (at most %gpt allowed)%s [%s:%d]",
                           where(first), amount, limit,
                           lines ~ /--/ ? ", lines " lines : "", logname, NR))
        next
    }
    /Warning: (Citation|Reference) `[^'"'"']*'"'"' on page [0-9]+ undefined/ {
        what = ($0 ~ /Warning: Citation/) ? "citation" : "reference"
        name = $0
        sub(/^.*Warning: (Citation|Reference) `/, "", name)
        sub(/'"'"'.*$/, "", name)
        srcline = ""
        if (match($0, /on input line [0-9]+/)) {
            srcline = substr($0, RSTART + 14, RLENGTH - 14)
        }
        report(sprintf("%s: %s `%s'"'"' is undefined (it prints as ??): expected %s [%s:%d]",
                       where(srcline), what, name,
                       what == "citation" ? "an entry of that key in the bibliography" : "a \\label of that name",
                       logname, NR))
        named++
        next
    }
    /There were undefined (references|citations)/ { undefined = 1 }
    { follow_files($0) }
    END {
        if (undefined && !named)
            report(sprintf("%s: LaTeX says there were undefined references or citations", logname))
        exit found ? 1 : 0
    }' "$1"
}

# ---- the bibliography: author, year and url of every entry --------------------------
# A small reader of BibTeX's syntax: @type{key, field = {..} or ".." or a word,
# joined by #; @comment, @preamble and @string are skipped; text between
# entries is a comment.
check_bib() {
    awk -v bib="$1" '
    { text = text $0 "\n" }
    function ch() { return substr(text, pos, 1) }
    function adv() { if (ch() == "\n") line++; pos++ }
    function skip_space() { while (pos <= n && ch() ~ /[ \t\r\n]/) adv() }
    function word(   s) {
        s = ""
        while (pos <= n && ch() ~ /[A-Za-z0-9_:.+\/-]/) { s = s ch(); adv() }
        return s
    }
    # the text of a balanced {...} (pos at "{"), braces inside kept
    function braced(   d, s) {
        d = 0; s = ""
        do {
            if (ch() == "{") d++
            else if (ch() == "}") d--
            if (d > 0 && !(d == 1 && ch() == "{")) s = s ch()
            adv()
        } while (pos <= n && d > 0)
        return s
    }
    function quoted(   d, s) {
        adv(); d = 0; s = ""
        while (pos <= n && !(ch() == "\"" && d == 0)) {
            if (ch() == "{") d++
            else if (ch() == "}") d--
            s = s ch(); adv()
        }
        adv()
        return s
    }
    function value(   s) {
        s = ""
        for (;;) {
            skip_space()
            if (ch() == "{") s = s braced()
            else if (ch() == "\"") s = s quoted()
            else s = s word()
            skip_space()
            if (ch() != "#") return s
            adv()
        }
    }
    function bare(s) {
        gsub(/[{}]/, "", s)
        gsub(/^[ \t\n]+|[ \t\n]+$/, "", s)
        return s
    }
    function report(msg) {
        print msg > "/dev/stderr"
        found++
    }
    # a field of the entry, "" when it has none (a lookup of a missing one
    # would add it)
    function field(name) { return (name in f) ? bare(f[name]) : "" }
    function check_entry(   a, y, u, why) {
        # a source that could not be found says so, and why, in an
        # unlocated field: named on every run, not failed
        why = field("unlocated")
        if (why != "") {
            if (field("author") != "" && field("year") != "" && (field("url") != "" || field("doi") != ""))
                report(sprintf("%s:%d: entry `%s'"'"' has an author, a year and a url: remove its unlocated field",
                               bib, start, key))
            else {
                gsub(/[ \t\n]+/, " ", why)
                printf "%s:%d: note: entry `%s'"'"' is unlocated, so without author, year or url: %s\n",
                       bib, start, key, why > "/dev/stderr"
            }
            return
        }
        # who plainnat names in place of the entry: the author; for a book
        # its editor, for a manual its organization
        a = field("author") != "" ||
            (type ~ /^(book|inbook|proceedings)$/ && field("editor") != "") ||
            (type ~ /^(manual|proceedings)$/ && field("organization") != "")
        if (!a)
            report(sprintf("%s:%d: entry `%s'"'"' has no author: expected author = {A. Person}, or for a body author = {{NVIDIA}}%s",
                           bib, start, key, ("key" in f) ? "; key = {" field("key") "} would be printed in its place" : ""))
        y = field("year")
        if (y !~ /^[12][0-9][0-9][0-9]$/)
            report(sprintf("%s:%d: entry `%s'"'"' has %s: expected year = {YYYY}, the year it was published",
                           bib, start, key, ("year" in f) ? "year `" y "'"'"'" : "no year"))
        u = field("url")
        if (u !~ /^https?:\/\/[^ ]+$/ && field("doi") == "")
            report(sprintf("%s:%d: entry `%s'"'"' has %s: expected url = {https://...} where a reader finds it (or a doi)",
                           bib, start, key, ("url" in f) ? "url `" u "'"'"'" : "no url"))
    }
    END {
        n = length(text); pos = 1; line = 1
        while (pos <= n) {
            if (ch() != "@") { adv(); continue }
            start = line
            adv()
            type = tolower(word())
            skip_space()
            if (ch() != "{" && ch() != "(") continue
            close_ch = (ch() == "{") ? "}" : ")"
            if (type == "comment" || type == "preamble" || type == "string") {
                braced()
                continue
            }
            adv()
            skip_space()
            key = ""
            while (pos <= n && ch() !~ /[,} \t\r\n]/) { key = key ch(); adv() }
            split("", f)
            for (;;) {
                skip_space()
                while (ch() == ",") { adv(); skip_space() }
                if (pos > n || ch() == close_ch) { adv(); break }
                name = tolower(word())
                skip_space()
                if (name == "" || ch() != "=") {
                    report(sprintf("%s:%d: entry `%s'"'"': cannot read field `%s'"'"' (expected NAME = {VALUE})",
                                   bib, line, key, name))
                    break
                }
                adv()
                f[name] = value()
            }
            entries++
            check_entry()
        }
        if (!entries) report(sprintf("%s:1: no entries", bib))
        exit found ? 1 : 0
    }' "$1"
}

# ---- the PDF: title and author in its metadata ---------------------------------------
check_pdf() {
    if ! command -v pdfinfo >/dev/null 2>&1; then
        printf '%s: pdfinfo not found (Debian: apt-get install poppler-utils)\n' "$prog" >&2
        return 2
    fi
    info=$(pdfinfo "$1") || { printf '%s: %s: pdfinfo cannot read it\n' "$prog" "$1" >&2; return 2; }
    rc=0
    for field in Title Author; do
        v=$(printf '%s\n' "$info" | sed -n "s/^$field: *//p")
        if [ -z "$v" ]; then
            printf '%s: no %s in the PDF'"'"'s metadata (hyperref: pdftitle, pdfauthor)\n' "$1" "$field" >&2
            rc=1
        fi
    done
    return $rc
}

# ---- the body's length: the page of its closing label ------------------------------
# hyperref writes \newlabel{NAME}{{NUMBER}{PAGE}{TITLE}{ANCHOR}{}}, plain
# LaTeX \newlabel{NAME}{{NUMBER}{PAGE}}: the page is the second group.
check_pages() {
    awk -v aux="$1" -v label="$2" -v limit="$3" '
    index($0, "\\newlabel{" label "}{") == 1 {
        s = substr($0, length("\\newlabel{" label "}{") + 1)
        # skip the first group {NUMBER}, balanced
        d = 0
        for (i = 1; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (c == "{") d++
            else if (c == "}" && --d == 0) break
        }
        s = substr(s, i + 1)
        if (match(s, /^\{[^{}]*\}/)) page = substr(s, 2, RLENGTH - 2)
        found = 1
    }
    END {
        if (!found) {
            printf "%s: no label `%s'"'"' (\\label{%s} at the end of the body, before the bibliography)\n",
                   aux, label, label > "/dev/stderr"
            exit 1
        }
        if (page !~ /^[0-9]+$/) {
            printf "%s: label `%s'"'"' is on page `%s'"'"', not a number\n", aux, label, page > "/dev/stderr"
            exit 1
        }
        if (page + 0 > limit + 0) {
            printf "%s: the body ends on page %d, past the %d pages allowed (label `%s'"'"')\n",
                   aux, page, limit, label > "/dev/stderr"
            exit 1
        }
    }' "$1"
}

# ---- sentences printed twice ------------------------------------------------------------
check_repeats() {
    if ! command -v pdftotext >/dev/null 2>&1; then
        printf '%s: pdftotext not found (Debian: apt-get install poppler-utils)\n' "$prog" >&2
        return 2
    fi
    tmp=$(mktemp -d) || return 2
    pdftotext -enc ASCII7 "$1" "$tmp/paper.txt" 2>/dev/null ||
        { printf '%s: %s: pdftotext cannot read it\n' "$prog" "$1" >&2; rm -rf "$tmp"; return 2; }
    : >"$tmp/figures.txt"
    if [ -n "$figdir" ]; then
        for f in "$figdir"/*.pdf; do
            [ -r "$f" ] && pdftotext -enc ASCII7 "$f" - 2>/dev/null >>"$tmp/figures.txt"
        done
    fi
    awk -v pdf="$1" -v least="$2" '
    # a figure'"'"'s lettering: its lines are left out of the paper'"'"'s text
    FILENAME == ARGV[1] { sub(/^[ \t\f]+/, ""); sub(/[ \t]+$/, ""); if ($0 != "") fig[$0] = 1; next }
    { line = $0; sub(/^[ \t\f]+/, "", line); sub(/[ \t]+$/, "", line); if (line in fig) next }
    # the whole text as one line: a word broken at a hyphen joined again
    { gsub(/\f/, " "); text = text $0 "\n" }
    function words(s,   n, i, t, w, k, v) {
        n = split(tolower(s), t, /[ ]+/)
        k = ""; nw = 0
        for (i = 1; i <= n; i++) {
            w = t[i]
            gsub(/[^a-z0-9]/, "", w)
            if (w == "") continue
            # a number, a shape (8192x4096x128): digits, and x between them
            v = w
            gsub(/[0-9]x/, "", v)
            if (w ~ /[0-9]/ && v !~ /[a-z]/) continue
            k = k (nw++ ? " " : "") w
        }
        return k
    }
    function add(s,   k) {
        gsub(/^ +| +$/, "", s)
        k = words(s)
        if (nw < least + 0) return
        if (!(k in seen)) { seen[k] = s; order[++nk] = k }
        count[k]++
    }
    END {
        gsub(/-\n/, "", text)
        gsub(/[ \t\n]+/, " ", text)
        while (match(text, /[.?!] +[A-Z]|[:;] +/)) {
            add(substr(text, 1, RSTART))
            text = substr(text, RSTART + RLENGTH - (substr(text, RSTART, 1) ~ /[.?!]/))
        }
        add(text)
        bad = 0
        for (i = 1; i <= nk; i++)
            if (count[order[i]] > 1) {
                printf "%s: printed %d times: %s\n", pdf, count[order[i]], seen[order[i]] > "/dev/stderr"
                bad = 1
            }
        exit bad
    }' "$tmp/figures.txt" "$tmp/paper.txt"
    rc=$?
    rm -rf "$tmp"
    return $rc
}

worst() { [ "$1" -gt "$status" ] && status=$1; return 0; }

if [ -n "$log" ]; then check_log "$log" "$width"; worst $?; fi
if [ -n "$bib" ]; then check_bib "$bib"; worst $?; fi
if [ -n "$pdf" ]; then check_pdf "$pdf"; worst $?; fi
if [ -n "$aux" ]; then check_pages "$aux" "$label" "$pages"; worst $?; fi
if [ -n "$repeats" ]; then check_repeats "$pdf" "$repeats"; worst $?; fi
exit "$status"
