#!/bin/bash
# A part of a reference set on a GPU host whose copy of the repository does not
# carry the set's commit as its git state: the commit's own files, from an
# archive of it, checked there before anything is built.
#
# usage: scripts/reference-from-archive.sh ARCHIVE COMMIT TREE OUTDIR PART
#   ARCHIVE  `git archive COMMIT | xz > ARCHIVE`, made where the repository is
#            (data/ included: make reproduce compares with the shipped runs)
#   COMMIT   the commit's full hash, and TREE its tree's:
#            git rev-parse COMMIT 'COMMIT^{tree}'
#   OUTDIR   where the results files and logs go
#   PART     reproduce   make reproduce-built (on a freshly started machine)
#            sanitize    make sanitize; the table it writes, if changed
#            verify      only unpack and check
#            test, measure, check, heldout, heldout-kt: scripts/reference-runs.sh's
#
# The archive is unpacked into a fresh directory, the files `git archive`
# substituted (export-subst in .gitattributes) are given their placeholders
# back, and the whole is committed there; its tree must equal TREE, or nothing
# runs.  The build then records COMMIT (MM_GIT_COMMIT, MM_GIT_DIRTY=0).  The
# Debian packages of .deps/debs (scripts/fetch-debs.sh) are copied along for
# scripts/offline-env.sh; the directory is removed at the end, the results and
# logs being in OUTDIR.  Exit status: the part's; 2 bad usage or a tree that
# is not the commit's.
set -uo pipefail
prog=reference-from-archive.sh
usage="usage: scripts/$prog ARCHIVE COMMIT TREE OUTDIR reproduce|sanitize|verify|PART"
[ $# = 5 ] || { echo "$usage" >&2; exit 2; }
archive=$1 commit=$2 tree=$3 out=$4 part=$5
for h in "$commit" "$tree"; do
    [[ $h =~ ^[0-9a-f]{40}$ ]] || { echo "$prog: '$h' is not a full 40-digit hash" >&2; exit 2; }
done
[ -r "$archive" ] || { echo "$prog: cannot read the archive '$archive'" >&2; exit 2; }
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd) || exit 2
here=$(pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/reference-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
echo "$prog: unpacking $archive into $dir"
xz -dc "$archive" | tar -x -C "$dir" || { echo "$prog: $archive did not unpack" >&2; exit 2; }
if [ -d "$here/.deps/debs" ]; then
    mkdir -p "$dir/.deps" && cp -r "$here/.deps/debs" "$dir/.deps/" || exit 2
fi
cd "$dir" || exit 2
# `git archive` wrote the commit in place of each export-subst file's %H
# placeholder; the commit's blob holds the placeholder.
if [ -f .gitattributes ]; then
    awk '$2 == "export-subst" { print $1 }' .gitattributes | while read -r f; do
        [ -f "$f" ] && sed -i "s/$commit/\$Format:%H\$/g" "$f"
    done
fi
if ! { git init -q && git add -A &&
        git -c user.name=reference -c user.email=reference@localhost commit -q -m "$commit"; }; then
    echo "$prog: git could not commit the unpacked tree" >&2
    exit 2
fi
got=$(git rev-parse 'HEAD^{tree}')
if [ "$got" != "$tree" ]; then
    echo "$prog: the unpacked tree is $got, not $commit's tree $tree: nothing run" >&2
    exit 2
fi
echo "$prog: $(git ls-files | wc -l) files, tree $got: commit $commit's"
export MM_GIT_COMMIT=$commit MM_GIT_DIRTY=0
rc=0
case $part in
verify) ;;
reproduce | sanitize)
    # shellcheck source=scripts/offline-env.sh
    . scripts/offline-env.sh || exit 1
    targets=bin/mmladder
    [ "$part" = sanitize ] && targets="bin/mmladder build/tests/sanitize-one"
    # shellcheck disable=SC2086  # $targets is one or two words
    make -j"$(nproc)" $targets > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
    start=$(date +%s)
    if [ "$part" = reproduce ]; then
        make reproduce-built > "$out/reproduce.log" 2>&1 || rc=$?
        echo "make reproduce-built: exit $rc after $(( $(date +%s) - start )) s"; tail -20 "$out/reproduce.log"
        for f in data/reproduce-*.h5; do
            git ls-files --error-unmatch "$f" > /dev/null 2>&1 || cp "$f" "$out/" || rc=1
        done
    else
        JOBS=$(nproc) make sanitize > "$out/sanitize.log" 2>&1 || rc=$?
        echo "make sanitize: exit $rc after $(( $(date +%s) - start )) s"; tail -2 "$out/sanitize.log"
        for f in data/sanitizer-*.tsv; do
            git diff --quiet -- "$f" 2>/dev/null && git ls-files --error-unmatch "$f" > /dev/null 2>&1 && continue
            cp "$f" "$out/" || rc=1
        done
    fi
    ;;
*) scripts/reference-runs.sh "$out" "$part" || rc=$? ;;
esac
exit $rc
