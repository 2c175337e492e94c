#!/bin/sh
# readme.sh [--check] -- the generated blocks of the READMEs, each printed by the
# binary from the registry or the shipped data:
#   README.md          headline   the headline claims' sentences
#                                 (`mmladder claims --text`)
#                      reproduce  how long the paper matrix takes and how close
#                                 the second machines came (the same)
#   kernels/README.md  rungs      the ladder table (`mmladder list --markdown`)
#   paper/README.md    claims     every claim checked against the shipped data
#                                 (`mmladder claims --markdown --history`)
#   data/README.md     runs       each reference run's file, role, GPU, date,
#                                 wall time and points
#                                 (`mmladder table runs --markdown`)
# Each block stands between `<!-- generated: NAME -->` and `<!-- end: NAME -->`.
# Rewrites the files, or with --check exits 1 (naming the file and block) when
# one differs.  BIN (default bin/mmladder), REF_RUNS (ROLE=FILE ..., from the
# Makefile), PENDING (--pending ROLE,... or empty: the roles whose runs are not
# made yet) and HISTORY (default paper/claims-history.tsv: when each claim's
# band was stated).
set -eu
bin=${BIN:-bin/mmladder}
: "${REF_RUNS:?set by the Makefile: ROLE=FILE ...}"
claims=paper/claims.ini
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086  # one word per run
{
    "$bin" claims $claims --text async_copy_vs_cublas,wgmma_vs_cublas_tf32 $REF_RUNS > "$tmp/headline"
    "$bin" claims $claims --text paper_time,reproduction,reproduction_h200 $REF_RUNS > "$tmp/reproduce"
    "$bin" list --markdown > "$tmp/rungs"
    "$bin" claims $claims --markdown --history "${HISTORY:-paper/claims-history.tsv}" ${PENDING:-} $REF_RUNS > "$tmp/claims"
    "$bin" table runs --markdown $REF_RUNS > "$tmp/runs"
}
# replace NAME FILE: FILE with block NAME's lines replaced by $tmp/NAME
replace() {
    grep -qx "<!-- generated: $1 -->" "$2" || { echo "readme.sh: $2 has no block '$1'" >&2; exit 1; }
    awk -v name="$1" -v file="$tmp/$1" '
        $0 == "<!-- generated: " name " -->" { print; while ((getline l < file) > 0) print l; skip = 1; next }
        $0 == "<!-- end: " name " -->" { skip = 0 }
        !skip { print }' "$2"
}
rc=0
for spec in README.md:headline,reproduce kernels/README.md:rungs paper/README.md:claims data/README.md:runs; do
    file=${spec%%:*}
    cp "$file" "$tmp/new"
    for name in $(echo "${spec#*:}" | tr , ' '); do
        replace "$name" "$tmp/new" > "$tmp/next"
        mv "$tmp/next" "$tmp/new"
    done
    if [ "${1:-}" = --check ]; then
        cmp -s "$file" "$tmp/new" && continue
        echo "readme.sh: $file's generated blocks (${spec#*:}) differ from what the binary prints now:" >&2
        diff "$file" "$tmp/new" >&2 || true
        rc=1
    else
        cp "$tmp/new" "$file"
    fi
done
[ $rc = 0 ] || echo "(make readme rewrites them)" >&2
exit $rc
