/* The helper thread: see worker.h. */
#define _POSIX_C_SOURCE 200809L
#include "worker.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { WAIT_STEP_MS = 10 };   /* how often a waiting caller looks at the stop flag */

struct worker {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    void (*fn)(void *);       /* the job to run; NULL when there is none */
    void *arg;
    int done;                 /* the job has returned */
    int quit;
    int abandoned;
};

static void *loop(void *p)
{
    struct worker *w = p;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->fn && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
        if (w->quit) break;
        void (*fn)(void *) = w->fn;
        void *arg = w->arg;
        pthread_mutex_unlock(&w->mu);
        fn(arg);
        pthread_mutex_lock(&w->mu);
        w->fn = NULL;
        w->done = 1;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

const char *worker_start(struct worker **out)
{
    *out = NULL;
    struct worker *w = calloc(1, sizeof *w);
    if (!w) return "out of memory for the worker thread";
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    /* Signals go to the main thread, which decides what an interrupt stops. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int e = pthread_create(&w->thread, NULL, loop, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (e) {
        free(w);
        return "cannot start the worker thread";
    }
    *out = w;
    return NULL;
}

void worker_post(struct worker *w, void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&w->mu);
    w->fn = fn;
    w->arg = arg;
    w->done = 0;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

int worker_finished(struct worker *w)
{
    pthread_mutex_lock(&w->mu);
    const int done = w->done;
    pthread_mutex_unlock(&w->mu);
    return done;
}

int worker_wait(struct worker *w, volatile sig_atomic_t *stop)
{
    pthread_mutex_lock(&w->mu);
    while (!w->done) {
        if (stop && *stop) {
            w->abandoned = 1;
            pthread_mutex_unlock(&w->mu);
            return 1;
        }
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += WAIT_STEP_MS * 1000000L;
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&w->cv, &w->mu, &t);
    }
    pthread_mutex_unlock(&w->mu);
    return 0;
}

int worker_call(struct worker *w, void (*fn)(void *), void *arg, volatile sig_atomic_t *stop)
{
    worker_post(w, fn, arg);
    return worker_wait(w, stop);
}

int worker_abandoned(const struct worker *w) { return w && w->abandoned; }

void worker_end(struct worker *w)
{
    if (!w || w->abandoned) return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
