#!/bin/sh
# Checks that the C libraries the build needs can be compiled against and linked
# (HDF5 with its high-level library, inih, cmocka) and that gnuplot is there (the
# figures), and installs Debian's packages
# when they cannot and we are root; otherwise prints the apt-get line.
# CC, CFLAGS and LIBS come from the Makefile, so overridden locations count.
set -u
# `deps.sh --paper`: LaTeX for the paper instead.
if [ "${1:-}" = --paper ]; then
    TEX="texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended latexmk"
    have=1
    command -v latexmk >/dev/null || have=0
    # one style from each package the paper needs (-extra, -recommended, fonts)
    for sty in enumitem.sty microtype.sty mathptmx.sty ptmr8t.tfm; do
        [ "$have" = 1 ] && [ -n "$(kpsewhich "$sty" 2>/dev/null)" ] || have=0
    done
    [ "$have" = 1 ] && exit 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "deps: installing $TEX"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq --no-install-recommends $TEX >/dev/null && exit 0
        exit 1
    fi
    echo "deps: LaTeX is missing. Install it with:" >&2
    echo "  sudo apt-get install $TEX" >&2
    exit 1
fi
# `deps.sh --fuzz`: clang with libFuzzer and the sanitizers (`make fuzz`), and
# inih to link the parser against; FUZZ_CC comes from the Makefile.
if [ "${1:-}" = --fuzz ]; then
    FUZZ_PKGS="clang libclang-rt-dev libinih-dev"
    fuzz_probe() {
        dir=$(mktemp -d) || return 1
        cat > "$dir/f.c" <<'C'
#include <stddef.h>
#include <stdint.h>
#include <ini.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; (void)ini_parse_string; return 0; }
C
        ${FUZZ_CC:-clang} -fsanitize=fuzzer,address,undefined "$dir/f.c" -o "$dir/f" -linih \
            >/dev/null 2>&1
        rc=$?
        rm -rf "$dir"
        return $rc
    }
    fuzz_probe && exit 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "deps: installing $FUZZ_PKGS"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq $FUZZ_PKGS >/dev/null || exit 1
        fuzz_probe && exit 0
        echo "deps: installed, but ${FUZZ_CC:-clang} -fsanitize=fuzzer still does not build" >&2
        exit 1
    fi
    echo "deps: clang with libFuzzer (or inih) is missing. Install them with:" >&2
    echo "  sudo apt-get install $FUZZ_PKGS" >&2
    exit 1
fi
PKGS="libhdf5-dev hdf5-tools libinih-dev libcmocka-dev pkg-config gnuplot-nox"
probe() {
    dir=$(mktemp -d) || return 1
    cat > "$dir/p.c" <<'C'
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <ini.h>
int main(void) { (void)H5TBget_table_info; (void)ini_parse_string; (void)_cmocka_run_group_tests; return 0; }
C
    ${CC:-cc} ${CFLAGS:-} "$dir/p.c" -o "$dir/p" ${LIBS:-} -lcmocka >/dev/null 2>&1
    rc=$?
    command -v gnuplot >/dev/null || rc=1
    rm -rf "$dir"
    return $rc
}
probe && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "deps: installing $PKGS"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq $PKGS >/dev/null || exit 1
    # pkg-config may only now exist: the caller's HDF5 flags can be stale.
    CFLAGS="${CFLAGS:-} $(pkg-config --cflags hdf5)"
    LIBS="$(pkg-config --libs hdf5) ${LIBS:-}"
    probe && exit 0
    echo "deps: installed, but a test program still does not build" >&2
    exit 1
fi
echo "deps: HDF5 (with hdf5_hl), inih, cmocka or gnuplot is missing. Install them with:" >&2
echo "  sudo apt-get install $PKGS" >&2
exit 1
