# Source this on a machine with nvcc but no package registry (such as a rented
# GPU host): it unpacks Debian's packages of HDF5, inih and cmocka, carried in
# .deps/debs (fetch them beforehand with scripts/fetch-debs.sh), into
# ${MM_DEPS_ROOT:-/tmp/mmladder-deps} and exports the Makefile's variables so
# that the build links them statically (cmocka: shared, found through rpath).
#     . scripts/offline-env.sh && make test
MM_DEPS_ROOT=${MM_DEPS_ROOT:-/tmp/mmladder-deps}
mkdir -p "$MM_DEPS_ROOT"
for d in .deps/debs/*.deb; do dpkg -x "$d" "$MM_DEPS_ROOT" || return 1; done
_L=$MM_DEPS_ROOT/usr/lib/x86_64-linux-gnu
export HDF5_CFLAGS="-I$MM_DEPS_ROOT/usr/include/hdf5/serial -I$MM_DEPS_ROOT/usr/include"
export HDF5_LIBS="$_L/hdf5/serial/libhdf5_hl.a $_L/hdf5/serial/libhdf5.a $_L/libsz.a $_L/libaec.a $_L/libz.a -ldl -lm"
export INIH_LIBS="$_L/libinih.a"
export ZLIB_LIBS="$_L/libz.a"
export CMOCKA_CFLAGS="-I$MM_DEPS_ROOT/usr/include"
export CMOCKA_LIBS="-L$_L -lcmocka -Xlinker -rpath=$_L"
unset _L
