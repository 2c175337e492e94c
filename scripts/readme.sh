#!/bin/sh
# readme.sh [--check] -- the README's generated blocks: the ladder table (from
# the registry: `mmladder list --markdown`) and the claims table (every claim
# checked against the shipped data: `mmladder claims --markdown`).  Each block
# stands between `<!-- generated: NAME -->` and `<!-- end: NAME -->`.  Rewrites
# README.md, or with --check exits 1 (naming the block) when it differs.
# BIN (default bin/mmladder), REF_RUNS (ROLE=FILE ..., from the Makefile) and
# HISTORY (default paper/claims-history.tsv: when each claim's band was stated).
set -eu
bin=${BIN:-bin/mmladder}
: "${REF_RUNS:?set by the Makefile: ROLE=FILE ...}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" list --markdown > "$tmp/rungs"
# shellcheck disable=SC2086  # one word per run
"$bin" claims paper/claims.ini --markdown --history "${HISTORY:-paper/claims-history.tsv}" $REF_RUNS > "$tmp/claims"
# replace NAME: the README with block NAME's lines replaced by $tmp/NAME
replace() {
    awk -v name="$1" -v file="$tmp/$1" '
        $0 == "<!-- generated: " name " -->" { print; while ((getline l < file) > 0) print l; skip = 1; next }
        $0 == "<!-- end: " name " -->" { skip = 0 }
        !skip { print }' "$2"
}
replace rungs README.md > "$tmp/a"
replace claims "$tmp/a" > "$tmp/README.md"
for name in rungs claims; do
    grep -qx "<!-- generated: $name -->" README.md || { echo "readme.sh: README.md has no block '$name'" >&2; exit 1; }
done
if [ "${1:-}" = --check ]; then
    cmp -s README.md "$tmp/README.md" && exit 0
    echo "readme.sh: README.md's generated blocks differ from what the binary prints now:" >&2
    diff README.md "$tmp/README.md" >&2 || true
    echo "(make readme rewrites them)" >&2
    exit 1
fi
cp "$tmp/README.md" README.md
