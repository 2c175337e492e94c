#!/bin/sh
# deps.sh [--paper | --fuzz | --slurm] -- is what the build needs here?  If not, install
# Debian's packages when we are root, or print the apt-get line and fail.
#
#   (none)    the compilers (cc; g++ as nvcc's host compiler when NVCC is set),
#             then HDF5 with its high-level library, inih, zlib and cmocka, probed by
#             compiling and linking one program with the Makefile's flags (CC,
#             CFLAGS, LIBS), gnuplot for the figures, and h5py (harness/README.md's
#             Python example, run by the tests)
#   --paper   LaTeX (one file from each package the paper needs), BibTeX and pdffonts
#   --fuzz    clang with libFuzzer and the sanitizers, and inih (FUZZ_CC)
#   --slurm   Slurm's daemons and commands and munge, for a one-box cluster
#             (scripts/slurm-local.sh) that the Slurm scripts are tested on
#
# A probe that still fails after the install shows the compiler's own messages.
# While another apt or dpkg process holds the package locks (unattended-upgrades
# on a freshly booted machine), the install says so and waits for it, at most
# DEPS_LOCK_WAIT seconds (default 600).
set -u

mode=${1:-}
lock_wait=${DEPS_LOCK_WAIT:-600}
probe_log=$(mktemp) || exit 1
apt_log=$(mktemp) || exit 1
trap 'rm -f "$probe_log" "$apt_log"' EXIT

# compile_probe COMPILER FLAGS... -- a C program on stdin: compile and link it,
# keeping the compiler's messages in $probe_log.
compile_probe() {
    dir=$(mktemp -d) || return 1
    cat > "$dir/p.c"
    cc_=$1
    shift
    $cc_ "$dir/p.c" -o "$dir/p" "$@" > "$probe_log" 2>&1
    rc_=$?
    rm -rf "$dir"
    return $rc_
}

probe_main() {
    # shellcheck disable=SC2086  # CFLAGS and LIBS are word lists
    compile_probe "${CC:-cc}" ${CFLAGS:-} ${LIBS:-} -lcmocka <<'C' || return 1
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <ini.h>
#include <zlib.h>
int main(void) { (void)H5TBget_table_info; (void)ini_parse_string; (void)_cmocka_run_group_tests; (void)crc32; return 0; }
C
    command -v gnuplot >/dev/null || { echo "gnuplot: not found" > "$probe_log"; return 1; }
    python3 -c 'import h5py' 2>/dev/null || /usr/bin/python3 -c 'import h5py' 2>/dev/null ||
        { echo "h5py: no python3 here can import it" > "$probe_log"; return 1; }
}

probe_paper() {
    : > "$probe_log"
    for tool in latexmk bibtex pdffonts; do
        command -v $tool >/dev/null || echo "$tool: not found" >> "$probe_log"
    done
    # one file from each package the paper needs (-extra, -recommended, fonts),
    # and the bibliography's (natbib and its plainnat style)
    for f in enumitem.sty microtype.sty mathptmx.sty ptmr8t.tfm pcrr8t.tfm natbib.sty plainnat.bst; do
        [ -n "$(kpsewhich "$f" 2>/dev/null)" ] || echo "$f: not found by kpsewhich" >> "$probe_log"
    done
    [ ! -s "$probe_log" ]
}

probe_fuzz() {
    compile_probe "${FUZZ_CC:-clang}" -fsanitize=fuzzer,address,undefined -linih <<'C'
#include <stddef.h>
#include <stdint.h>
#include <ini.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; (void)ini_parse_string; return 0; }
C
}

probe_slurm() {
    : > "$probe_log"
    for tool in munged munge unmunge slurmctld slurmd sbatch sinfo squeue scontrol scancel; do
        command -v $tool >/dev/null || echo "$tool: not found" >> "$probe_log"
    done
    [ ! -s "$probe_log" ]
}

# apt_get ARGS... -- apt-get ARGS; while another process holds one of apt's or
# dpkg's locks, say so once and try again every 5 s, at most $lock_wait s in
# all.  (apt's own -o DPkg::Lock::Timeout=N waits for the dpkg lock alone, not
# for the lock of `apt-get update`, and without a word under -qq.)
apt_get() {
    waited=0
    while :; do
        apt-get "$@" 2> "$apt_log"
        rc_=$?
        held=$(grep 'Could not get lock' "$apt_log" | head -n 1)
        if [ "$rc_" = 0 ] || [ -z "$held" ] || [ "$waited" -ge "$lock_wait" ]; then
            cat "$apt_log" >&2
            [ "$rc_" = 0 ] || [ -z "$held" ] ||
                echo "deps: gave up waiting for the lock after $waited s (DEPS_LOCK_WAIT=$lock_wait)" >&2
            return "$rc_"
        fi
        [ "$waited" -gt 0 ] ||
            echo "deps: waiting for another apt or dpkg process to finish (at most $lock_wait s):" \
                 "${held#E: }" >&2
        sleep 5
        waited=$((waited + 5))
    done
}

# apt_install PKG... -- as root with apt-get: install, else return 1.
apt_install() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
    echo "deps: installing $*"
    export DEBIAN_FRONTEND=noninteractive
    apt_get update -qq && apt_get install -y -qq --no-install-recommends "$@" >/dev/null
}

# offline_hint -- for a host without a package registry (a GPU host), the way
# that needs none (scripts/README.md, "GPU hosts without a package registry").
offline_hint() {
    [ -z "$mode" ] || return 0
    echo "Without a package registry: scripts/fetch-debs.sh where one is reachable, then" >&2
    echo "  . scripts/offline-env.sh; make test-built (or make reproduce-built)" >&2
    echo "here; those targets install nothing, and draw no figures without gnuplot." >&2
}

# ensure WHAT PROBE PKG... -- run PROBE; when it fails, install PKGs (or say
# how) and run it again.
ensure() {
    what=$1 probe_fn=$2
    shift 2
    $probe_fn && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt_install "$@" || {
            echo "deps: apt-get could not install $*; $what is missing or does not build here:" >&2
            sed 's/^/  /' "$probe_log" >&2
            offline_hint
            exit 1
        }
        # pkg-config may only now exist: the caller's HDF5 flags can be stale.
        if [ "$probe_fn" = probe_main ] && command -v pkg-config >/dev/null; then
            CFLAGS="${CFLAGS:-} $(pkg-config --cflags hdf5)"
            LIBS="$(pkg-config --libs hdf5) ${LIBS:-}"
        fi
        $probe_fn && return 0
        echo "deps: $* installed, but $what still fails; its messages:" >&2
        sed 's/^/  /' "$probe_log" >&2
        exit 1
    fi
    echo "deps: $what is missing or does not build here; its messages:" >&2
    sed 's/^/  /' "$probe_log" >&2
    echo "Install with:" >&2
    echo "  sudo apt-get install $*" >&2
    offline_hint
    exit 1
}

case $mode in
--paper)
    ensure "LaTeX (latexmk, pdffonts and the paper's packages)" probe_paper \
        texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended \
        latexmk poppler-utils
    ;;
--slurm)
    ensure "Slurm (slurmctld, slurmd, sbatch, ...) and munge" probe_slurm slurm-wlm munge
    ;;
--fuzz)
    ensure "${FUZZ_CC:-clang} -fsanitize=fuzzer with inih" probe_fuzz \
        clang libclang-rt-dev libinih-dev
    ;;
'')
    # The compilers first: the C compiler for everything, and g++ as nvcc's
    # host compiler when the CUDA toolkit is used.
    need=
    if ! command -v "${CC:-cc}" >/dev/null; then
        [ "${CC:-cc}" = cc ] || { echo "deps: the C compiler CC='$CC' is not found" >&2; exit 1; }
        need=gcc
    fi
    if [ -n "${NVCC:-}" ] && ! command -v g++ >/dev/null; then need="$need g++"; fi
    if [ -n "$need" ]; then
        # shellcheck disable=SC2086
        apt_install $need || {
            echo "deps: the C compiler '${CC:-cc}'${NVCC:+ or g++ (the host compiler of nvcc)} is" \
                 "missing. Install with:" >&2
            echo "  sudo apt-get install$(printf ' %s' $need)" >&2
            exit 1
        }
    fi
    ensure "a program using HDF5 (with hdf5_hl), inih, zlib and cmocka, gnuplot or h5py" probe_main \
        libhdf5-dev hdf5-tools libinih-dev zlib1g-dev libcmocka-dev pkg-config gnuplot-nox python3-h5py
    ;;
*)
    echo "usage: scripts/deps.sh [--paper | --fuzz | --slurm]" >&2
    exit 2
    ;;
esac
exit 0
