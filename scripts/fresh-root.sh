#!/bin/bash
# fresh-root.sh -- follow the README as a new user would, on a fresh minimal
# Debian root: its set-up line, then its commands, and nothing else.
#
# usage (as root): scripts/fresh-root.sh [--cuda DIR] COMMAND...
#
#   --cuda DIR   bind the CUDA toolkit at DIR (its prefix, the folder above nvcc's bin/) into
#                the root read-only, at the same path and as /usr/local/cuda,
#                with its bin/ on PATH; without it the root has no nvcc
#   COMMAND...   what to run in the clone after the set-up line, each a shell
#                command (e.g. 'make test' 'make reproduce')
#
# The root is made by debootstrap (variant minbase: essential packages and apt,
# no compiler, no make) from the mirror apt's own sources name for this
# machine's release, so no registry host is written here.  The repository is
# cloned into a reviewer's home in it (as `git clone` would give a user), the
# README's set-up line (its first indented line that runs `apt-get install`)
# runs as root, and then each COMMAND.  Finally `make clean` must leave the
# clone as cloned, but for data/reproduce-NAME-MACHINE-UTCSTAMP.h5 that `make
# reproduce` adds.
#
# Each stage prints its wall time.  The root lives under ${TMPDIR:-/tmp} and is
# removed at the end, after everything mounted in it has been unmounted.
# Exit status: 0 every stage passed; 1 a stage failed (its output is above);
# 2 bad usage or this machine cannot build a root (not root, no apt sources).
set -uo pipefail
prog=fresh-root.sh
die() { echo "$prog: $*" >&2; exit 2; }

cuda=
if [ "${1:-}" = --cuda ]; then
    cuda=${2:?--cuda needs a folder}
    shift 2
    [ -x "$cuda/bin/nvcc" ] || die "--cuda '$cuda': no bin/nvcc there"
    cuda=$(cd "$cuda" && pwd -P)
fi
[ $# -gt 0 ] || die "usage: scripts/fresh-root.sh [--cuda DIR] COMMAND..."
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mount)"
repo=$(cd "$(dirname "$0")/.." && pwd -P)

# This machine's release, and the first mirror apt's sources give for it
# (deb822 .sources files, or one-line sources.list entries).
. /etc/os-release
suite=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
mirror=$(
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && awk -v s="$suite" '
            /^URIs:/ { u = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) ok = 1 }
            /^$/ { if (ok && u) { print u; exit } u = ""; ok = 0 }
            END { if (ok && u) print u }' "$f"
    done
    [ -f /etc/apt/sources.list ] &&
        awk -v s="$suite" '$1 == "deb" && $3 == s { print $2 }' /etc/apt/sources.list
    true
)
mirror=${mirror%%$'\n'*}
[ -n "$mirror" ] || die "apt's sources name no mirror for '$suite'"

# The README's set-up line, as written there: its first indented line that
# runs apt-get install.
setup=$(grep -m 1 -E '^ {4}.*apt-get install' "$repo/README.md" | sed 's/^ *//')
[ -n "$setup" ] || die "README.md has no indented 'apt-get install' line"

stage_start=0
stage() { stage_start=$SECONDS; echo; echo "== $prog: $*"; }
stage_end() { echo "== $prog: $(( SECONDS - stage_start )) s"; }

if ! command -v debootstrap >/dev/null; then
    stage "installing debootstrap on this machine"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null ||
        die "cannot install debootstrap"
    stage_end
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/mmladder-root.XXXXXX") || die "mktemp failed"
cleanup() {
    # Unmount (innermost first) before removing; --one-file-system keeps rm
    # off anything still mounted.
    findmnt -rn -o TARGET | grep "^$root/" | sort -r | while read -r m; do umount "$m"; done
    if findmnt -rn -o TARGET | grep -q "^$root/"; then
        echo "$prog: still mounted under $root; left in place" >&2
    else
        rm -rf --one-file-system "$root"
    fi
}
trap cleanup EXIT

stage "debootstrap --variant=minbase $suite from apt's mirror"
debootstrap --variant=minbase "$suite" "$root" "$mirror" > "$root.debootstrap.log" 2>&1 || {
    tail -n 20 "$root.debootstrap.log" >&2; rm -f "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"
stage_end

# What a networked machine has: name resolution, and apt's proxy settings if any.
cp /etc/resolv.conf /etc/hosts "$root/etc/"
for f in /etc/apt/apt.conf.d/*; do
    [ -f "$f" ] && grep -qi 'proxy' "$f" && cp "$f" "$root/etc/apt/apt.conf.d/"
done
mount -t proc proc "$root/proc" || exit 1
path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
if [ -n "$cuda" ]; then
    mkdir -p "$root$cuda"
    mount --bind "$cuda" "$root$cuda" && mount -o remount,bind,ro "$root$cuda" || exit 1
    [ "$cuda" = /usr/local/cuda ] || ln -s "$cuda" "$root/usr/local/cuda"
    path=/usr/local/cuda/bin:$path
fi
# The root's own home for the reviewer (a path inside the root, none of this
# machine's): HOME for every command, the clone in it.
home=/home/reviewer
mkdir -p "$root$home" && git clone -q "$repo" "$root$home/mmladder" || exit 1

# in_root COMMAND: run COMMAND in the clone, in a clean environment.
in_root() {
    chroot "$root" /usr/bin/env -i HOME="$home" PATH="$path" TERM=dumb \
        /bin/sh -c "cd $home/mmladder && $1"
}

stage "the README's set-up line: $setup"
chroot "$root" /usr/bin/env -i HOME="$home" PATH="$path" DEBIAN_FRONTEND=noninteractive \
    /bin/sh -c "$setup" > "$root/setup.log" 2>&1 || { tail -n 20 "$root/setup.log" >&2; exit 1; }
stage_end

for cmd in "$@"; do
    stage "$cmd${cuda:+ (CUDA toolkit at $cuda)}"
    in_root "$cmd" || { echo "$prog: '$cmd' failed" >&2; exit 1; }
    stage_end
done

stage "make clean leaves the clone as cloned"
in_root "make clean > /dev/null" || exit 1
left=$(in_root "git status --porcelain --ignored" | grep -v '^?? data/reproduce-[a-z0-9-]*-[0-9]*T[0-9]*Z\.h5$')
if [ -n "$left" ]; then
    echo "$prog: after make clean, the clone still has:" >&2
    echo "$left" >&2
    exit 1
fi
stage_end
exit 0
