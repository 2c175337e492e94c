/* A helper thread for long host work (filling inputs, the float64 reference, a
 * host rung's calls), so that an interrupt is answered within milliseconds even
 * when one call takes seconds: the caller waits for the job or the stop flag,
 * whichever comes first, and on a stop leaves the job to finish in the
 * background (the process is about to exit). */
#ifndef HARNESS_WORKER_H
#define HARNESS_WORKER_H

#include <signal.h>

struct worker;

/* Start the thread: NULL, or what failed. */
const char *worker_start(struct worker **w);

/* Run fn(arg) on the thread and wait.  Returns 0 when it finished, 1 when *stop
 * was set first: the job then goes on alone, and everything it uses must stay
 * allocated until the process exits (the worker is then "abandoned"). */
int worker_call(struct worker *w, void (*fn)(void *), void *arg, volatile sig_atomic_t *stop);

/* The same in two steps, so that the caller works while the job runs: post
 * fn(arg) to an idle worker (one whose last job has finished), then ask whether
 * it has finished, or wait for it as worker_call does. */
void worker_post(struct worker *w, void (*fn)(void *), void *arg);
int worker_finished(struct worker *w);
int worker_wait(struct worker *w, volatile sig_atomic_t *stop);

/* 1 after a worker_call returned 1. */
int worker_abandoned(const struct worker *w);

/* Stop and free the thread; an abandoned one is left running (and not freed). */
void worker_end(struct worker *w);

#endif
