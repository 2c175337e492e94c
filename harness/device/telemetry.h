/* GPU telemetry: the SM clock, power, temperature and clock-event reasons of
 * one GPU, read from NVML every period on a thread of its own and kept in a
 * ring buffer, so that a measurement can ask what the GPU did during its own
 * time window.
 *
 * NVML is the NVIDIA driver's libnvidia-ml.so.1, opened at run time with
 * dlopen: the build needs nothing of it, and a host without it gets "no
 * telemetry" with the reason (callers then record "unavailable", never 0).
 * Times are now_ms()'s (core/sampling.h: CLOCK_MONOTONIC in ms).
 *
 * A read that fails stops the sampling; telemetry_error() then says why, and
 * the readings taken before it stay available to telemetry_window(). */
#ifndef HARNESS_TELEMETRY_H
#define HARNESS_TELEMETRY_H

#include <stddef.h>

/* Readings the ring keeps unless a source asks for another number. */
#define TELEMETRY_CAPACITY ((size_t)1 << 16)

struct telemetry_reading {
    double t_ms;                  /* when it was read (now_ms() clock) */
    double clock_mhz;             /* SM clock */
    double power_w;               /* board power (NVML's average over about a second);
                                     NAN when the GPU does not report it */
    double power_instant_w;       /* the instant board power (NVML field 186); NAN when
                                     the driver does not give it */
    double temp_c;                /* GPU temperature; NAN when the GPU does not report it */
    unsigned long long reasons;   /* clock-event reasons (NVML's bits, see below) */
};

/* Where readings come from: NVML, or a test's fake. */
struct telemetry_source {
    /* Fill one reading, t_ms included (times must not go backwards): 0, or -1
     * with what was called and its result in `why`. */
    int (*read)(void *ctx, struct telemetry_reading *r, char *why, size_t whylen);
    void (*close)(void *ctx);     /* may be NULL */
    void *ctx;
    const char *name;             /* e.g. "test"; copied */
    double max_clock_mhz;         /* NAN when unknown */
    double power_limit_w;         /* the enforced power limit; NAN when unknown */
    const char *serial;           /* the board's serial number; NULL when unknown; copied */
    size_t capacity;              /* readings the ring keeps; 0: TELEMETRY_CAPACITY */
};

struct telemetry;

/* NVML for the GPU with this PCI bus id (as cudaDeviceGetPCIBusId writes it),
 * sampled every period_ms on a thread of its own; the first reading is taken
 * before this returns.  NULL with `why` when unavailable: "NVML not found:
 * libnvidia-ml.so.1: ...", "nvmlInit_v2: ...", "no NVML device for PCI bus id
 * ...", or the first read's failure. */
struct telemetry *telemetry_start(const char *pci_bus_id, double period_ms, char *why, size_t whylen);

/* The same over any source; period_ms must be above 0.  The first reading is
 * taken before this returns; when it fails, the source is closed and NULL
 * returned with its why.  On any other failure the source is closed too. */
struct telemetry *telemetry_start_source(struct telemetry_source src, double period_ms, char *why,
                                         size_t whylen);

/* Stop the sampler (within one period), join it, close the source, free.
 * NULL is fine. */
void telemetry_stop(struct telemetry *t);

/* NULL while sampling goes on; after a failed read, what failed ("read: ..."). */
const char *telemetry_error(struct telemetry *t);

/* The GPU's maximum SM clock, read once at start; NAN when unknown or t is NULL. */
double telemetry_max_clock_mhz(const struct telemetry *t);

/* The GPU's enforced power limit (W), read once at start; NAN when unknown. */
double telemetry_power_limit_w(const struct telemetry *t);

/* "NVML 13.580.159.04" (NVML's version), or the source's name; "" for NULL. */
const char *telemetry_source_name(const struct telemetry *t);

/* The board's serial number as NVML gives it; "" when it does not (or t is NULL). */
const char *telemetry_serial(const struct telemetry *t);

struct telemetry_summary {
    int n;                         /* readings in the window (0: none, every field NAN, reasons 0) */
    double clock_min, clock_mean, clock_max;   /* MHz */
    double power_mean, power_max;              /* W; NAN when no reading has power */
    double instant_mean;                       /* W, instant power; NAN when none has it */
    double instant_max;                        /* W */
    double temp_max;                           /* C; NAN when no reading has a temperature */
    unsigned long long reasons;                /* OR of the readings' reasons */
};

/* Readings with t0_ms <= t <= t1_ms.  A window shorter than the period may
 * hold no reading: then the one reading nearest the window (the newest before
 * t0 or the first after t1, whichever is closer), with n = 1.  n = 0 when
 * t1_ms < t0_ms, when the nearest reading is more than 2 periods away, or when
 * the window lies before the oldest reading the ring still holds (older ones
 * have been overwritten).  A window that reaches back past the oldest held
 * reading summarises those it still holds.  Thread-safe against the sampler. */
void telemetry_window(struct telemetry *t, double t0_ms, double t1_ms, struct telemetry_summary *out);

/* How often the source's values change, from the readings in [t0_ms, t1_ms]
 * taken while the GPU worked: the median interval between two changes of one
 * quantity (TELEMETRY_POWER: the average power, which moves under any load;
 * TELEMETRY_INSTANT: the instant power), in ms.  A window shorter than this
 * can hold one value twice.  NAN when the window holds fewer than 4 changes. */
enum telemetry_quantity { TELEMETRY_POWER, TELEMETRY_INSTANT };
double telemetry_refresh_ms(struct telemetry *t, double t0_ms, double t1_ms,
                            enum telemetry_quantity q);

/* When quantity q first took a new value at or after t0_ms (a reading that
 * differs from the one before it), up to t1_ms: the first reading that can
 * show what the GPU has done since t0_ms, where the field refreshes more
 * slowly than it is read.  NAN when there is none yet. */
double telemetry_first_change_ms(struct telemetry *t, double t0_ms, double t1_ms,
                                 enum telemetry_quantity q);
/* Block until a reading newer than t_ms exists, sampling has stopped, or 3
 * periods pass; lets a caller ask for a window that ends now and be sure the
 * sampler has caught up. */
void telemetry_sync(struct telemetry *t, double t_ms);

/* NVML's clock-event reason bits. */
#define TELEMETRY_GPU_IDLE             0x1ull
#define TELEMETRY_APPLICATIONS_CLOCKS  0x2ull
#define TELEMETRY_SW_POWER_CAP         0x4ull
#define TELEMETRY_HW_SLOWDOWN          0x8ull
#define TELEMETRY_SYNC_BOOST           0x10ull
#define TELEMETRY_SW_THERMAL           0x20ull
#define TELEMETRY_HW_THERMAL           0x40ull
#define TELEMETRY_HW_POWER_BRAKE       0x80ull
#define TELEMETRY_DISPLAY_CLOCKS       0x100ull
/* Reasons that lower the clock for power or heat:
 * sw_power_cap | hw_slowdown | sw_thermal | hw_thermal | hw_power_brake. */
#define TELEMETRY_THROTTLE_REASONS 0xECull

/* The reasons as text into buf: "sw_power_cap+hw_slowdown", "none" for 0,
 * unknown bits as one "0x..." term.  Returns buf (cut short if len is). */
const char *telemetry_reasons_text(unsigned long long reasons, char *buf, size_t len);

#endif
