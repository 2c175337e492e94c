/* A libFuzzer target that makes one sanitizer report of each kind that
 * scripts/fuzz-triage.sh tells apart, each in a forked child as the results
 * readers' children are (so the fuzzer goes on and the child writes the
 * crash-* reproducer).  The input's second byte picks the report:
 *   L  the HDF5 library's: a double free inside libhdf5 (a name it returned,
 *      freed twice through H5free_memory) -- every stack starts in the library;
 *   B  ours, through the library: H5Dread of 64 values into our buffer of 16
 *      -- the library's memcpy overflows memory that we allocated;
 *   O  ours: a heap overflow in our own code;
 *   U  ours: a signed overflow (UBSan).
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8 || data[0] != 'X') return 0;
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
