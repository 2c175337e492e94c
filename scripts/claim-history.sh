#!/bin/bash
# claim-history.sh -- when each claim's band was stated, from git: for every
# claim of CLAIMS.ini (default paper/claims.ini), the commit since which its
# `expect` band has been what it is now (the oldest of the unbroken run of
# commits of the file that give the claim this band; spaces aside), that
# commit's author time (UTC: when the change was written; a rebase moves the
# committer time, not this), and the band the claim had just before ("-" where
# it had none: the claim was new then).  `mmladder claims --history` reads this to tell
# the claims whose band was stated before the runs that judge it from those
# revised after them (which must say so in a `revised` record) and those stated
# after their data; git alone knows the dates, the binary alone reads the runs.
#
#   scripts/claim-history.sh [CLAIMS.ini] > history.tsv
#
# A line not yet committed counts as stated now, its band before it HEAD's.
# Output: a header, then one line a claim: ID, STATED_UTC, COMMIT, PREVIOUS
# (tab-separated).  Exit status: 0; 3 where there is no git history to read (a
# tree without its repository, a shallow clone, a repository of one commit),
# said on stderr; 1 other errors.
set -uo pipefail
prog=claim-history.sh
file=${1:-paper/claims.ini}
[ -f "$file" ] || { echo "$prog: $file: no such claims file" >&2; exit 1; }
if ! git rev-parse --git-dir >/dev/null 2>&1 || ! git ls-files --error-unmatch "$file" >/dev/null 2>&1; then
    echo "$prog: $file has no git history here (not a git checkout, or the file is not tracked): claims cannot be told predicted or revised" >&2
    exit 3
fi
if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
    echo "$prog: a shallow clone: the history of $file is cut, so the dates of its bands are not known (git fetch --unshallow)" >&2
    exit 3
fi
if [ "$(git rev-list --count HEAD 2>/dev/null)" = 1 ]; then
    echo "$prog: a repository of one commit (a tree committed anew, as scripts/reference-from-archive.sh does): the history of $file is not here, so the dates of its bands are not known" >&2
    exit 3
fi

# The bands of the claims of a claims file on stdin: "ID<TAB>BAND" lines.
bands() {
    awk '
        /^\[/ { id = $0; gsub(/^\[|\].*$/, "", id); next }
        /^[ \t]*expect[ \t]*=/ && id != "roles" {
            b = $0; sub(/^[^=]*=[ \t]*/, "", b); sub(/[ \t]+$/, "", b); gsub(/[ \t]+/, " ", b)
            print id "\t" b
        }'
}

# Every version of the file, newest first: the working tree's (time now), then
# each commit that changed it: "VERSION<TAB>COMMIT<TAB>TIME<TAB>ID<TAB>BAND".
{
    bands < "$file" | sed "s/^/0\tuncommitted\t$(date -u +%s)\t/"
    k=0
    git log --format='%H %at' -- "$file" | while read -r commit time; do
        k=$((k + 1))
        git show "$commit:$file" 2>/dev/null | bands | sed "s/^/$k\t$commit\t$time\t/"
    done
} > "${TMPDIR:-/tmp}/claim-history.$$" || { echo "$prog: reading the history of $file failed" >&2; exit 1; }
trap 'rm -f "${TMPDIR:-/tmp}/claim-history.$$"' EXIT

# For each claim of the working tree's file: the oldest version of the unbroken
# run of versions with its present band (when that band was stated), and the
# band of the version before that run ("-": the claim did not exist there).
printf 'claim\tstated_utc\tcommit\tprevious_band\n'
awk -F'\t' '
    { band[$1, $4] = $5; commit[$1] = $2; when[$1] = $3; if ($1 > last) last = $1
      if ($1 == 0) order[++n] = $4 }
    END {
        for (i = 1; i <= n; i++) {
            id = order[i]; now = band[0, id]; v = 0
            while (v + 1 <= last && ((v + 1, id) in band) && band[v + 1, id] == now) v++
            prev = (v + 1 <= last && ((v + 1, id) in band)) ? band[v + 1, id] : "-"
            printf "%s\t%s\t%s\t%s\n", id, when[v], commit[v], prev
        }
    }' "${TMPDIR:-/tmp}/claim-history.$$" | while IFS=$'\t' read -r id t c prev; do
    printf '%s\t%s\t%s\t%s\n' "$id" "$(date -u -d "@$t" +%Y-%m-%dT%H:%M:%SZ)" "$c" "$prev"
done
