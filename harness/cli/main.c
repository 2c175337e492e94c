/* mmladder: the command line (cli.h) as a process.  See `mmladder --help`. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

/* The one global: a signal handler can reach nothing else. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* From here on SIGINT and SIGTERM stop a run between points (run asks for it
 * before anything else, so that an interrupt before the run begins writes
 * nothing) and a merge between rows (which then removes what it wrote);
 * every other command is ended by them at once. */
static void catch_interrupts(void)
{
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv)
{
    /* A closed pipe or a file grown past its limit is an error to report, not a
     * signal to die of: the writes then fail with EPIPE or EFBIG. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    const struct cli c = {.out = stdout, .err = stderr, .interrupted = &interrupted,
                          .catch_interrupts = catch_interrupts};
    const int rc = cli_main(&c, argc, argv);
    /* After an interrupt, leave at once: the CUDA runtime's clean-up at exit would
     * wait for a kernel still running on the device. */
    if (rc == EXIT_INTERRUPTED) {
        fflush(stderr);
        _exit(rc);
    }
    return rc;
}
