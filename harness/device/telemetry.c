/* GPU telemetry from NVML, sampled on a thread: see telemetry.h. */
#define _POSIX_C_SOURCE 200809L
#include "telemetry.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"

struct telemetry {
    struct telemetry_source src;
    char name[96];
    char serial[32];
    double period_ms;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;            /* a reading was added, or sampling stopped */
    struct telemetry_reading *ring;
    size_t cap, total;            /* reading number i lives at ring[i % cap] */
    int synchronised;             /* mu and cv exist */
    int quit, stopped;
    char error[256];              /* set once, before `stopped` */
};

/* ---- NVML, declared here: there is no nvml.h on the build machines ---------- */

typedef void *nvml_device;
enum { NVML_SUCCESS = 0, NVML_ERROR_NOT_SUPPORTED = 3, NVML_CLOCK_SM = 1, NVML_TEMPERATURE_GPU = 0 };
/* nvml.h's nvmlFieldValue_t, and the field of the instant board power (mW). */
struct nvml_field_value {
    unsigned field_id, scope_id;
    long long timestamp, latency_us;
    int value_type, nvml_return;
    union { double d; unsigned ui; unsigned long ul; unsigned long long ull; long long sll; int si; } value;
};
enum { NVML_FI_DEV_POWER_INSTANT = 186 };

struct nvml {
    void *lib;
    nvml_device dev;
    int (*init)(void);
    int (*shutdown)(void);
    int (*by_bus_id)(const char *, nvml_device *);
    int (*clock)(nvml_device, int, unsigned *);
    int (*max_clock)(nvml_device, int, unsigned *);
    int (*power)(nvml_device, unsigned *);
    int (*temp)(nvml_device, int, unsigned *);
    int (*reasons)(nvml_device, unsigned long long *);
    int (*field_values)(nvml_device, int, struct nvml_field_value *);   /* NULL: no instant power */
    const char *reasons_name;     /* which of the two names `reasons` is */
    const char *(*error_string)(int);
    int initialised;              /* nvmlInit_v2 succeeded: nvmlShutdown on close */
};

/* 0, or -1 with "<call>: <NVML's message>" in why. */
static int nvml_ck(const struct nvml *m, int e, const char *call, char *why, size_t len)
{
    if (e == NVML_SUCCESS) return 0;
    snprintf(why, len, "%s: %s (%d)", call, m->error_string(e), e);
    return -1;
}

/* A quantity some GPUs do not report is NAN there; any other failure fails. */
static int nvml_optional(const struct nvml *m, int e, unsigned v, double *out, const char *call,
                         char *why, size_t len)
{
    *out = e == NVML_ERROR_NOT_SUPPORTED ? NAN : (double)v;
    return e == NVML_ERROR_NOT_SUPPORTED ? 0 : nvml_ck(m, e, call, why, len);
}

static int nvml_read(void *ctx, struct telemetry_reading *r, char *why, size_t len)
{
    const struct nvml *m = ctx;
    unsigned clock = 0, mw = 0, c = 0;
    r->t_ms = now_ms();
    if (nvml_ck(m, m->clock(m->dev, NVML_CLOCK_SM, &clock), "nvmlDeviceGetClockInfo", why, len)) return -1;
    r->clock_mhz = clock;
    /* Each call before its value is read: the order in which a function's
     * arguments are evaluated is unspecified. */
    int e = m->power(m->dev, &mw);
    if (nvml_optional(m, e, mw, &r->power_w, "nvmlDeviceGetPowerUsage", why, len)) return -1;
    r->power_w *= 1e-3;
    e = m->temp(m->dev, NVML_TEMPERATURE_GPU, &c);
    if (nvml_optional(m, e, c, &r->temp_c, "nvmlDeviceGetTemperature", why, len)) return -1;
    r->power_instant_w = NAN;
    if (m->field_values) {
        struct nvml_field_value f = {.field_id = NVML_FI_DEV_POWER_INSTANT};
        if (nvml_ck(m, m->field_values(m->dev, 1, &f), "nvmlDeviceGetFieldValues", why, len)) return -1;
        if (f.nvml_return == NVML_SUCCESS) r->power_instant_w = f.value.ui * 1e-3;
    }
    return nvml_ck(m, m->reasons(m->dev, &r->reasons), m->reasons_name, why, len);
}

static void nvml_close(void *ctx)
{
    struct nvml *m = ctx;
    if (m->initialised) m->shutdown();
    dlclose(m->lib);
    free(m);
}

/* Resolve `name` into *fn; 0, or -1 with why. */
static int nvml_sym(struct nvml *m, void *fn, const char *name, char *why, size_t len)
{
    void *p = dlsym(m->lib, name);
    memcpy(fn, &p, sizeof p);   /* a data pointer into a function pointer, as POSIX allows */
    if (p) return 0;
    const char *e = dlerror();
    snprintf(why, len, "NVML lacks %s: %s", name, e ? e : "no such symbol");
    return -1;
}

struct telemetry *telemetry_start(const char *pci_bus_id, double period_ms, char *why, size_t whylen)
{
    struct nvml *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(why, whylen, "out of memory for NVML");
        return NULL;
    }
    if (!(m->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL))) {
        const char *e = dlerror();
        snprintf(why, whylen, "NVML not found: %s", e ? e : "libnvidia-ml.so.1: dlopen failed");
        free(m);
        return NULL;
    }
    const struct { void *fn; const char *name; } need[] = {
        {&m->init, "nvmlInit_v2"}, {&m->shutdown, "nvmlShutdown"},
        {&m->by_bus_id, "nvmlDeviceGetHandleByPciBusId_v2"}, {&m->clock, "nvmlDeviceGetClockInfo"},
        {&m->max_clock, "nvmlDeviceGetMaxClockInfo"}, {&m->power, "nvmlDeviceGetPowerUsage"},
        {&m->temp, "nvmlDeviceGetTemperature"}, {&m->error_string, "nvmlErrorString"}};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (nvml_sym(m, need[i].fn, need[i].name, why, whylen)) goto fail;
    /* The newer name, or the one drivers before 535 have. */
    m->reasons_name = "nvmlDeviceGetCurrentClocksEventReasons";
    if (nvml_sym(m, &m->reasons, m->reasons_name, why, whylen)) {
        m->reasons_name = "nvmlDeviceGetCurrentClocksThrottleReasons";
        if (nvml_sym(m, &m->reasons, m->reasons_name, why, whylen)) goto fail;
    }
    if (nvml_ck(m, m->init(), "nvmlInit_v2", why, whylen)) goto fail;
    m->initialised = 1;
    char e[200];
    if (nvml_ck(m, m->by_bus_id(pci_bus_id, &m->dev), "nvmlDeviceGetHandleByPciBusId_v2", e, sizeof e)) {
        snprintf(why, whylen, "no NVML device for PCI bus id %s: %s", pci_bus_id, e);
        goto fail;
    }
    char name[96] = "NVML", version[80];   /* NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE */
    int (*get_version)(char *, unsigned) = NULL;
    if (!nvml_sym(m, &get_version, "nvmlSystemGetNVMLVersion", e, sizeof e) &&
        get_version(version, sizeof version) == NVML_SUCCESS)
        snprintf(name, sizeof name, "NVML %s", version);
    /* The instant power where this driver and GPU give it (field 186). */
    struct nvml_field_value f = {.field_id = NVML_FI_DEV_POWER_INSTANT};
    if (!nvml_sym(m, &m->field_values, "nvmlDeviceGetFieldValues", e, sizeof e) &&
        (m->field_values(m->dev, 1, &f) != NVML_SUCCESS || f.nvml_return != NVML_SUCCESS))
        m->field_values = NULL;
    unsigned max = 0;   /* 1.5 ms a call: once, here */
    int got_max = m->max_clock(m->dev, NVML_CLOCK_SM, &max) == NVML_SUCCESS && max > 0;
    unsigned limit_mw = 0;
    int (*power_limit)(nvml_device, unsigned *) = NULL;
    const int got_limit = !nvml_sym(m, &power_limit, "nvmlDeviceGetEnforcedPowerLimit", e, sizeof e) &&
                          power_limit(m->dev, &limit_mw) == NVML_SUCCESS && limit_mw > 0;
    /* The board's serial, where this GPU has one (NVML_DEVICE_SERIAL_BUFFER_SIZE). */
    char serial[30];
    int (*get_serial)(nvml_device, char *, unsigned) = NULL;
    const int got_serial = !nvml_sym(m, &get_serial, "nvmlDeviceGetSerial", e, sizeof e) &&
                           get_serial(m->dev, serial, sizeof serial) == NVML_SUCCESS;
    struct telemetry_source src = {.read = nvml_read, .close = nvml_close, .ctx = m, .name = name,
                                   .serial = got_serial ? serial : NULL,
                                   .max_clock_mhz = got_max ? max : NAN,
                                   .power_limit_w = got_limit ? limit_mw * 1e-3 : NAN};
    return telemetry_start_source(src, period_ms, why, whylen);
fail:
    nvml_close(m);
    return NULL;
}

/* ---- the sampler ------------------------------------------------------------ */

static struct timespec timespec_of_ms(double ms)
{
    double s = floor(ms * 1e-3);
    return (struct timespec){(time_t)s, (long)((ms - s * 1e3) * 1e6)};
}

/* Take one reading into the ring (or the error); under no lock while reading. */
static int sample(struct telemetry *t)
{
    struct telemetry_reading r = {0};
    char e[200] = "";
    int rc = t->src.read(t->src.ctx, &r, e, sizeof e);
    pthread_mutex_lock(&t->mu);
    if (rc) {
        snprintf(t->error, sizeof t->error, "read: %s", e[0] ? e : "failed");
        t->stopped = 1;
    } else {
        t->ring[t->total++ % t->cap] = r;
    }
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    return rc;
}

static void *sampler(void *p)
{
    struct telemetry *t = p;
    double next = now_ms();
    for (;;) {
        next += t->period_ms;
        if (next < now_ms()) next = now_ms();   /* late: skip the missed periods */
        struct timespec ts = timespec_of_ms(next);
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        pthread_mutex_lock(&t->mu);
        int quit = t->quit;
        pthread_mutex_unlock(&t->mu);
        if (quit || sample(t)) return NULL;
    }
}

/* 0, or e with "<call>: <strerror(e)>" in why. */
static int posix_ck(int e, const char *call, char *why, size_t len)
{
    if (e) snprintf(why, len, "%s: %s", call, strerror(e));
    return e;
}

/* Free what start_source made; the source is closed too. */
static void destroy(struct telemetry *t)
{
    if (t->synchronised) {
        pthread_cond_destroy(&t->cv);
        pthread_mutex_destroy(&t->mu);
    }
    if (t->src.close) t->src.close(t->src.ctx);
    free(t->ring);
    free(t);
}

struct telemetry *telemetry_start_source(struct telemetry_source src, double period_ms, char *why,
                                         size_t whylen)
{
    struct telemetry *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(why, whylen, "out of memory for telemetry");
        if (src.close) src.close(src.ctx);
        return NULL;
    }
    t->src = src;
    t->cap = src.capacity ? src.capacity : TELEMETRY_CAPACITY;
    t->period_ms = period_ms;
    snprintf(t->name, sizeof t->name, "%s", src.name ? src.name : "");
    snprintf(t->serial, sizeof t->serial, "%s", src.serial ? src.serial : "");
    pthread_condattr_t ca;
    int e;
    if (!(period_ms > 0)) {
        snprintf(why, whylen, "telemetry period must be above 0 ms, not %g", period_ms);
        goto fail;
    }
    if (!(t->ring = malloc(t->cap * sizeof *t->ring))) {
        snprintf(why, whylen, "out of memory for %zu telemetry readings", t->cap);
        goto fail;
    }
    /* The condition variable waits on now_ms()'s clock (telemetry_sync). */
    if (posix_ck(pthread_condattr_init(&ca), "pthread_condattr_init", why, whylen)) goto fail;
    e = posix_ck(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC), "pthread_condattr_setclock", why, whylen) ||
        posix_ck(pthread_cond_init(&t->cv, &ca), "pthread_cond_init", why, whylen);
    pthread_condattr_destroy(&ca);
    if (e) goto fail;
    if (posix_ck(pthread_mutex_init(&t->mu, NULL), "pthread_mutex_init", why, whylen)) {
        pthread_cond_destroy(&t->cv);
        goto fail;
    }
    t->synchronised = 1;
    if (sample(t)) {
        snprintf(why, whylen, "%s", t->error);
        goto fail;
    }
    /* Signals go to the main thread, as the worker's do (worker.c). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    e = pthread_create(&t->thread, NULL, sampler, t);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!posix_ck(e, "pthread_create", why, whylen)) return t;
fail:
    destroy(t);
    return NULL;
}

void telemetry_stop(struct telemetry *t)
{
    if (!t) return;
    pthread_mutex_lock(&t->mu);
    t->quit = 1;
    pthread_mutex_unlock(&t->mu);
    int e = pthread_join(t->thread, NULL);
    if (e) fprintf(stderr, "telemetry: pthread_join: %s\n", strerror(e));
    destroy(t);
}

const char *telemetry_error(struct telemetry *t)
{
    if (!t) return NULL;
    pthread_mutex_lock(&t->mu);
    const char *e = t->stopped ? t->error : NULL;
    pthread_mutex_unlock(&t->mu);
    return e;
}

double telemetry_max_clock_mhz(const struct telemetry *t) { return t ? t->src.max_clock_mhz : NAN; }

double telemetry_power_limit_w(const struct telemetry *t) { return t ? t->src.power_limit_w : NAN; }

const char *telemetry_source_name(const struct telemetry *t) { return t ? t->name : ""; }

const char *telemetry_serial(const struct telemetry *t) { return t ? t->serial : ""; }

/* ---- windows ------------------------------------------------------------------ */

/* The first reading number in [lo, hi) whose time is > t (strict) or >= t. */
static size_t first_after(const struct telemetry *t, size_t lo, size_t hi, double ms, int strict)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        double tm = t->ring[mid % t->cap].t_ms;
        if (strict ? tm > ms : tm >= ms) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

static void summarise(const struct telemetry *t, size_t from, size_t to, struct telemetry_summary *s)
{
    double clock_sum = 0, power_sum = 0, instant_sum = 0;
    int powers = 0, instants = 0;
    s->n = (int)(to - from);
    s->clock_min = INFINITY;
    s->clock_max = -INFINITY;
    for (size_t i = from; i < to; i++) {
        const struct telemetry_reading *r = &t->ring[i % t->cap];
        clock_sum += r->clock_mhz;
        s->clock_min = fmin(s->clock_min, r->clock_mhz);
        s->clock_max = fmax(s->clock_max, r->clock_mhz);
        if (!isnan(r->power_w)) {
            power_sum += r->power_w;
            powers++;
            s->power_max = isnan(s->power_max) ? r->power_w : fmax(s->power_max, r->power_w);
        }
        if (!isnan(r->power_instant_w)) {
            instant_sum += r->power_instant_w, instants++;
            s->instant_max = isnan(s->instant_max) ? r->power_instant_w
                                                   : fmax(s->instant_max, r->power_instant_w);
        }
        if (!isnan(r->temp_c)) s->temp_max = isnan(s->temp_max) ? r->temp_c : fmax(s->temp_max, r->temp_c);
        s->reasons |= r->reasons;
    }
    s->clock_mean = clock_sum / s->n;
    s->power_mean = powers ? power_sum / powers : NAN;
    s->instant_mean = instants ? instant_sum / instants : NAN;
}

void telemetry_window(struct telemetry *t, double t0_ms, double t1_ms, struct telemetry_summary *out)
{
    *out = (struct telemetry_summary){.clock_min = NAN, .clock_mean = NAN, .clock_max = NAN,
                                      .power_mean = NAN, .power_max = NAN, .instant_mean = NAN,
                                      .instant_max = NAN,
                                      .temp_max = NAN};
    if (!t || !(t0_ms <= t1_ms)) return;
    pthread_mutex_lock(&t->mu);
    size_t oldest = t->total > t->cap ? t->total - t->cap : 0;
    size_t from = first_after(t, oldest, t->total, t0_ms, 0);
    size_t to = first_after(t, from, t->total, t1_ms, 1);
    if (from == to && t->total > 0 && !(from == oldest && oldest > 0)) {
        /* No reading inside: the nearest one, when within 2 periods. */
        double before = from > oldest ? t0_ms - t->ring[(from - 1) % t->cap].t_ms : INFINITY;
        double after = to < t->total ? t->ring[to % t->cap].t_ms - t1_ms : INFINITY;
        if (fmin(before, after) <= 2 * t->period_ms) {
            from = before <= after ? from - 1 : to;
            to = from + 1;
        }
    }
    if (to > from) summarise(t, from, to, out);
    pthread_mutex_unlock(&t->mu);
}

static double quantity(const struct telemetry_reading *r, enum telemetry_quantity q)
{
    return q == TELEMETRY_INSTANT ? r->power_instant_w : r->power_w;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The times in [t0_ms, t1_ms] at which quantity q took a new value (a reading
 * that differs from the one before it, the one before t0_ms included), the
 * first `max` of them into at[]; returns how many. */
static size_t change_times(struct telemetry *t, double t0_ms, double t1_ms,
                           enum telemetry_quantity q, double *at, size_t max)
{
    pthread_mutex_lock(&t->mu);
    const size_t oldest = t->total > t->cap ? t->total - t->cap : 0;
    const size_t from = first_after(t, oldest, t->total, t0_ms, 0);
    const size_t to = first_after(t, from, t->total, t1_ms, 1);
    size_t n = 0;
    double last = from > oldest ? quantity(&t->ring[(from - 1) % t->cap], q) : NAN;
    for (size_t i = from; i < to && n < max; i++) {
        const struct telemetry_reading *r = &t->ring[i % t->cap];
        const double v = quantity(r, q);
        if (isnan(v)) continue;
        if (!isnan(last) && v != last) at[n++] = r->t_ms;
        last = v;
    }
    pthread_mutex_unlock(&t->mu);
    return n;
}

double telemetry_refresh_ms(struct telemetry *t, double t0_ms, double t1_ms,
                            enum telemetry_quantity q)
{
    if (!t || !(t0_ms <= t1_ms)) return NAN;
    double *at = malloc(t->cap * sizeof *at);
    const size_t n = at ? change_times(t, t0_ms, t1_ms, q, at, t->cap) : 0;
    double median = NAN;
    if (n >= 4) {   /* the intervals between changes, in place */
        for (size_t i = 0; i + 1 < n; i++) at[i] = at[i + 1] - at[i];
        const size_t g = n - 1;
        qsort(at, g, sizeof *at, cmp_double);
        median = g % 2 ? at[g / 2] : (at[g / 2 - 1] + at[g / 2]) / 2;
    }
    free(at);
    return median;
}

double telemetry_first_change_ms(struct telemetry *t, double t0_ms, double t1_ms,
                                 enum telemetry_quantity q)
{
    double at = NAN;
    if (!t || !(t0_ms <= t1_ms) || change_times(t, t0_ms, t1_ms, q, &at, 1) == 0) return NAN;
    return at;
}

void telemetry_sync(struct telemetry *t, double t_ms)
{
    if (!t) return;
    struct timespec deadline = timespec_of_ms(now_ms() + 3 * t->period_ms);
    pthread_mutex_lock(&t->mu);
    while (!t->stopped && !(t->total > 0 && t->ring[(t->total - 1) % t->cap].t_ms > t_ms))
        if (pthread_cond_timedwait(&t->cv, &t->mu, &deadline) == ETIMEDOUT) break;
    pthread_mutex_unlock(&t->mu);
}

const char *telemetry_reasons_text(unsigned long long reasons, char *buf, size_t len)
{
    static const char *const names[] = {"gpu_idle", "applications_clocks_setting", "sw_power_cap",
                                        "hw_slowdown", "sync_boost", "sw_thermal_slowdown",
                                        "hw_thermal_slowdown", "hw_power_brake_slowdown",
                                        "display_clock_setting"};
    enum { KNOWN = sizeof names / sizeof names[0] };
    size_t used = 0;
    if (len) buf[0] = '\0';
    for (int b = 0; b < KNOWN && used < len; b++)
        if (reasons >> b & 1)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "+" : "", names[b]);
    unsigned long long unknown = reasons >> KNOWN << KNOWN;
    if (unknown && used < len) snprintf(buf + used, len - used, "%s0x%llx", used ? "+" : "", unknown);
    if (!reasons && len) snprintf(buf, len, "none");
    return buf;
}
