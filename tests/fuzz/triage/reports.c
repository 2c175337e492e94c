/* A libFuzzer target that makes one report of each kind that
 * scripts/fuzz-triage.sh tells apart.  The input's second byte picks it.  In a
 * forked child, as the tools' readers run the library (so the fuzzer goes on
 * and the child writes the crash-* reproducer):
 *   L  the HDF5 library's: a double free inside libhdf5 (a name it returned,
 *      freed twice through H5free_memory) -- every stack starts in the library;
 *   B  ours, through the library: H5Dread of 64 values into our buffer of 16
 *      -- the library's memcpy overflows memory that we allocated;
 *   O  ours: a heap overflow in our own code;
 *   U  ours: a signed overflow (UBSan).
 * In this process, as the results fuzzer reads (results_wire.c:
 * RESULTS_READ_IN_PROCESS):
 *   S  the library's: a segfault inside libhdf5 (H5Aiterate2 over the damaged
 *      file REPORTS_DAMAGED, on which HDF5 1.10.8 dereferences a null pointer);
 *   T  the library's: a timeout inside libhdf5 (one H5Tconvert of 32 million
 *      doubles to a type with another exponent bias: the library's bit-by-bit
 *      conversion takes seconds);
 *   M  the library's: an allocation over libFuzzer's malloc limit, made by the
 *      library (H5allocate_memory of REPORTS_MB megabytes);
 *   A  ours: a deadly signal, abort() in our code (as a broken promise of a
 *      fuzz target ends).
 * make-logs.sh builds it and writes the logs the tests read. */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hdf5.h>

static void library_double_free(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, 8);
    H5Tinsert(t, "a", 0, H5T_NATIVE_INT);
    char *name = H5Tget_member_name(t, 0);
    H5free_memory(name);
    H5free_memory(name);
}

static void our_short_buffer(const char *path)
{
    hsize_t n = 64;
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t s = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(f, "d", H5T_NATIVE_INT, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int *w = calloc(64, sizeof *w);
    H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, w);
    int *r = malloc(16 * sizeof *r);
    H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, r);
    free(r);
    free(w);
}

static void our_overflow(const uint8_t *data)
{
    char *volatile p = malloc(4);
    memcpy(p, data, 8);
    free(p);
}

static herr_t ignore_attr(hid_t loc, const char *name, const H5A_info_t *info, void *op)
{
    (void)loc, (void)name, (void)info, (void)op;
    return 0;
}

static void library_segfault(const char *path)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hsize_t idx = 0;
    H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, &idx, ignore_attr, NULL);
    H5Fclose(f);
}

static void library_slow(void)
{
    const size_t n = (size_t)32 << 20;
    double *v = calloc(n, sizeof *v);
    hid_t t = H5Tcopy(H5T_NATIVE_DOUBLE);
    H5Tset_ebias(t, 1000);
    H5Tconvert(H5T_NATIVE_DOUBLE, t, n, v, NULL, H5P_DEFAULT);
    H5Tclose(t);
    free(v);
}

static void our_abort(void)
{
    abort();
}

/* The kinds made in this process; 0 if `kind` is none of them. */
static int in_process(char kind)
{
    if (kind == 'S') library_segfault(getenv("REPORTS_DAMAGED"));
    if (kind == 'T') library_slow();
    if (kind == 'M') H5free_memory(H5allocate_memory((size_t)atoi(getenv("REPORTS_MB")) << 20, 0));
    if (kind == 'A') our_abort();
    return kind == 'S' || kind == 'T' || kind == 'M' || kind == 'A';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8 || data[0] != 'X' || in_process((char)data[1])) return 0;
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        signal(SIGABRT, SIG_DFL);
        if (data[1] == 'L') library_double_free();
        if (data[1] == 'B') our_short_buffer(getenv("REPORTS_H5"));
        if (data[1] == 'O') our_overflow(data);
        if (data[1] == 'U') {
            volatile int big = 0x7fffffff;
            volatile int sum = big + data[2];
            (void)sum;
        }
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    return 0;
}
