/* Experiment files: see experiment.h.
 *
 * inih does the INI parsing; this file supplies the reader it pulls lines
 * from, so that every line is known before inih sees it.  That is needed
 * because the installed inih (Debian's build of release 55) tells the handler
 * neither the line number nor where a section begins, and it mishandles long
 * lines:
 *   - INI_HANDLER_LINENO is 0, so the handler gets (section, name, value) only;
 *     the reader counts lines and the handler reads the count.
 *   - No handler call marks a section header (INI_CALL_HANDLER_ON_NEW_SECTION
 *     is 0): an empty section is invisible, and a header repeated later simply
 *     resumes the same section name.  The reader recognises headers itself.
 *   - Lines are read into a 200-byte buffer; a longer line is split and its
 *     tail parsed as a further line (values silently lost, later line numbers
 *     off by one).  The reader refuses a line that does not fit instead.
 *   - Multi-line values are on: an indented non-blank line after a key is
 *     handed over as more value for that key, even one that reads
 *     "[section]" or "key = value".  Lists accept such continuation lines
 *     (a 64-entry list does not fit in one line); an indented line that looks
 *     like a header or a key is refused, as is a continuation of a key that
 *     takes one value.
 *   - ';' starts an inline comment only after whitespace ("8;16" is one
 *     value); '#' and ';' start a comment only at the start of a line.
 *     inih 55 does not strip inline comments from continuation lines; the
 *     handler does.
 * To know what inih will do with a line, the reader classifies it by the same
 * rules; the handler checks that inih agrees and reports an internal error if
 * not. */
#include "experiment.h"

#include <ini.h>

#include "files.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXP_MAX_DIM 1000000            /* sizes and shape dimensions */
#define EXP_MAX_AXIS 1024              /* tiles, wpts, opt_levels, splits */
#define EXP_MAX_FILE_BYTES (1L << 20)
#define INIH_SECTION_LEN 49            /* inih keeps section names in 50 bytes */

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

enum section_kind { SEC_NONE, SEC_EXPERIMENT, SEC_SAMPLING, SEC_SWEEP };
enum line_kind { LINE_BLANK, LINE_HEADER, LINE_KEY, LINE_CONT, LINE_BAD };

enum { K_NAME, K_DESCRIPTION, K_SEED, N_EXP_KEYS };
static const char *const exp_keys[N_EXP_KEYS] = {"name", "description", "seed"};

enum {
    S_GPU_MIN_SAMPLES,
    S_GPU_MAX_SAMPLES,
    S_GPU_MIN_TIME_MS,
    S_GPU_TIMEOUT_MS,
    S_HOST_MIN_SAMPLES,
    S_HOST_MAX_SAMPLES,
    S_HOST_MIN_TIME_MS,
    S_HOST_TIMEOUT_MS,
    S_HOST_LONG_POINT_MS,
    S_TARGET_REL_STDDEV,
    S_HOST_POINT_BUDGET_S,
    S_GPU_MIN_SAMPLE_MS,
    S_GPU_WARMUP_MIN_MS,
    S_GPU_WARMUP_MAX_MS,
    S_GPU_CAPPED_SAMPLE_MS,
    S_GPU_WARMUP_WINDOW_MS,
    S_GPU_SHAPE_WARMUP_MS,
    S_GPU_PARITY_TIMEOUT_MS,
    S_KERNEL_TIMER,
    N_SAMPLING_KEYS
};
static const char *const sampling_keys[N_SAMPLING_KEYS] = {
    "gpu_min_samples",  "gpu_max_samples",  "gpu_min_time_ms",  "gpu_timeout_ms",
    "host_min_samples", "host_max_samples", "host_min_time_ms", "host_timeout_ms",
    "host_long_point_ms", "target_rel_stddev", "host_point_budget_s", "gpu_min_sample_ms",
    "gpu_warmup_min_ms", "gpu_warmup_max_ms", "gpu_capped_sample_ms", "gpu_warmup_window_ms",
    "gpu_shape_warmup_ms", "gpu_parity_timeout_ms", "kernel_timer"};

enum { W_VARIANTS, W_SIZES, W_SHAPES, W_TILES, W_WPTS, W_OPT_LEVELS, W_HOST_MEMORY, W_SPLITS,
       W_CONFIGS, W_PAIRING, W_CORPUS, W_CORPUS_SEED, W_CORPUS_RANGE, W_CORPUS_FLOPS,
       N_SWEEP_KEYS };
static const char *const sweep_keys[N_SWEEP_KEYS] = {
    "variants", "sizes",   "shapes",  "tiles",       "wpts",         "opt_levels",   "host_memory",
    "splits",   "configs", "pairing", "corpus",      "corpus_seed",  "corpus_range", "corpus_flops"};
/* How many values each corpus key takes (0: a list of any length). */
static const int sweep_key_values[N_SWEEP_KEYS] = {[W_CORPUS] = 2, [W_CORPUS_SEED] = 1,
                                                   [W_CORPUS_RANGE] = 2, [W_CORPUS_FLOPS] = 2};

struct parse_ctx {
    struct experiment *e;
    const char *text;
    size_t len, pos;

    int line;                     /* the line last handed to inih */
    enum line_kind kind;          /* how that line reads */
    int after_key;                /* a named key since the last header (inih's prev_name) */

    enum section_kind sec;
    int sweep;                    /* index into e->sweeps when sec == SEC_SWEEP */
    int experiment_line, sampling_line;
    int exp_lines[N_EXP_KEYS];
    int sampling_lines[N_SAMPLING_KEYS];
    int sweep_lines[EXP_MAX_SWEEPS][N_SWEEP_KEYS];

    int key;                      /* the key being read in the current section, or -1 */
    int key_line;
    int key_values;               /* list entries it has received so far */

    int err_line;                 /* 0: file-level */
    int have_err;
    char msg[1024];
};

/* Record an error; the one on the earliest line wins. */
PRINTF_LIKE(3, 4)
static void fail(struct parse_ctx *c, int line, const char *fmt, ...)
{
    if (c->have_err && line >= c->err_line) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    c->err_line = line;
    c->have_err = 1;
}

static int find_name(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

static void join_names(char *buf, size_t len, const char *const *names, int n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && at < len; i++) {
        int w = snprintf(buf + at, len - at, "%s%s", i ? " " : "", names[i]);
        if (w < 0) break;
        at += (size_t)w;
    }
}

static int is_name_char(char ch, int dash_ok)
{
    return isalnum((unsigned char)ch) || ch == '_' || (dash_ok && ch == '-');
}

/* Non-empty and made of [A-Za-z0-9_] (plus '-' when dash_ok). */
static int is_name(const char *s, size_t n, int dash_ok)
{
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_name_char(s[i], dash_ok)) return 0;
    return 1;
}

/* Base-10 digits only, no sign, value <= max. */
static int parse_uint(const char *s, size_t n, unsigned long long max, unsigned long long *out)
{
    unsigned long long v = 0;
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (max - d) / 10) return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

/* MxNxK with each dimension in 1..EXP_MAX_DIM. */
static int parse_shape(const char *s, size_t n, int dims[3])
{
    size_t at = 0;
    for (int d = 0; d < 3; d++) {
        size_t end = at;
        while (end < n && s[end] != 'x') end++;
        if ((d < 2) != (end < n)) return 0;
        unsigned long long v;
        if (!parse_uint(s + at, end - at, EXP_MAX_DIM, &v) || v < 1) return 0;
        dims[d] = (int)v;
        at = end + 1;
    }
    return 1;
}

/* The next whitespace-separated token of *p, or NULL at the end. */
static const char *next_token(const char **p, size_t *n)
{
    const char *s = *p;
    while (*s && isspace((unsigned char)*s)) s++;
    if (!*s) return NULL;
    const char *t = s;
    while (*s && !isspace((unsigned char)*s)) s++;
    *n = (size_t)(s - t);
    *p = s;
    return t;
}

/* inih's inline comment rule: the first of `chars`, or a ';' that follows
 * whitespace, whichever comes first; the terminating NUL if neither. */
static const char *find_chars_or_comment(const char *s, const char *chars)
{
    int was_space = 0;
    while (*s && !(chars && strchr(chars, *s)) && !(was_space && *s == ';')) {
        was_space = isspace((unsigned char)*s);
        s++;
    }
    return s;
}

static const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    return s;
}

/* Length of s[0..n) without trailing whitespace. */
static size_t rtrim_len(const char *s, size_t n)
{
    while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    return n;
}

static const char *section_label(const struct parse_ctx *c, char *buf, size_t len)
{
    switch (c->sec) {
    case SEC_EXPERIMENT: return "[experiment]";
    case SEC_SAMPLING: return "[sampling]";
    case SEC_SWEEP: snprintf(buf, len, "sweep [%s]", c->e->sweeps[c->sweep].name); return buf;
    case SEC_NONE: break;
    }
    return "no section";
}

/* ---- the end of a key: lists may not stay empty ------------------------ */

static const char *const corpus_examples[N_SWEEP_KEYS] = {
    [W_CORPUS] = "loguniform 200' or 'corpus = llama3 tuning", [W_CORPUS_SEED] = "7",
    [W_CORPUS_RANGE] = "1 16384",
    [W_CORPUS_FLOPS] = "1e6 1e12"};

static void finish_key(struct parse_ctx *c)
{
    if (c->key >= 0 && c->sec == SEC_SWEEP && c->key_values == 0)
        fail(c, c->key_line, "%s: empty list", sweep_keys[c->key]);
    else if (c->key >= 0 && c->sec == SEC_SWEEP && sweep_key_values[c->key] &&
             c->key_values < sweep_key_values[c->key])
        fail(c, c->key_line, "%s: %d value%s where it takes %d (expected e.g. '%s = %s')",
             sweep_keys[c->key], c->key_values, c->key_values == 1 ? "" : "s",
             sweep_key_values[c->key], sweep_keys[c->key], corpus_examples[c->key]);
    c->key = -1;
}

/* ---- section headers, seen by the reader ------------------------------- */

static void begin_section(struct parse_ctx *c, const char *name, size_t n, const char *rest)
{
    int line = c->line;
    finish_key(c);
    c->sec = SEC_NONE;
    if (n > INIH_SECTION_LEN) {
        fail(c, line, "section name '%.*s' is longer than %d characters", (int)n, name,
             INIH_SECTION_LEN);
        return;
    }
    if (!is_name(name, n, 1)) {
        fail(c, line, "section name '%.*s' (expected letters, digits, '_' or '-')", (int)n,
             name);
        return;
    }
    rest = skip_space(rest);
    if (*rest && *rest != ';') {
        fail(c, line, "[%.*s]: text after the header '%.*s' (expected nothing or a ';' comment)",
             (int)n, name, (int)rtrim_len(rest, strlen(rest)), rest);
        return;
    }
    char sname[INIH_SECTION_LEN + 1];
    memcpy(sname, name, n);
    sname[n] = '\0';

    if (strcmp(sname, "experiment") == 0) {
        if (c->experiment_line) {
            fail(c, line, "section [experiment] appears twice (first at line %d)",
                 c->experiment_line);
            return;
        }
        c->experiment_line = line;
        c->sec = SEC_EXPERIMENT;
        return;
    }
    if (strcmp(sname, "sampling") == 0) {
        if (c->sampling_line) {
            fail(c, line, "section [sampling] appears twice (first at line %d)",
                 c->sampling_line);
            return;
        }
        c->sampling_line = line;
        c->sec = SEC_SAMPLING;
        return;
    }
    struct experiment *e = c->e;
    for (int i = 0; i < e->n_sweeps; i++) {
        if (strcmp(e->sweeps[i].name, sname) == 0) {
            fail(c, line, "section [%s] appears twice (first at line %d)", sname,
                 e->sweeps[i].line);
            return;
        }
    }
    if (e->n_sweeps == EXP_MAX_SWEEPS) {
        fail(c, line, "sweep [%s]: more than %d sweeps (sections other than [experiment] "
                      "and [sampling])", sname, EXP_MAX_SWEEPS);
        return;
    }
    struct sweep *s = &e->sweeps[e->n_sweeps];
    memcpy(s->name, sname, n + 1);
    s->line = line;
    corpus_defaults(&s->corpus);
    c->sweep = e->n_sweeps++;
    c->sec = SEC_SWEEP;
}

/* Classify one line as inih 55 will read it (defaults of the Debian build:
 * multi-line values, ';' inline comments, ';' and '#' line comments, UTF-8 BOM
 * skipped), and act on section headers. */
static void classify(struct parse_ctx *c, const char *line)
{
    const char *s = line;
    if (c->line == 1 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
        (unsigned char)s[2] == 0xBF)
        s += 3;
    const char *start = skip_space(s);
    size_t n = rtrim_len(start, strlen(start));

    if (n == 0 || *start == ';' || *start == '#') {
        c->kind = LINE_BLANK;
    } else if (c->after_key && start > line) {
        c->kind = LINE_CONT;
    } else if (*start == '[') {
        const char *end = find_chars_or_comment(start + 1, "]");
        if (*end != ']') {
            c->kind = LINE_BAD;
            fail(c, c->line, "syntax error: '%.*s' (expected ']' to close the section name)",
                 (int)n, start);
            return;
        }
        c->kind = LINE_HEADER;
        c->after_key = 0;
        begin_section(c, start + 1, (size_t)(end - (start + 1)), end + 1);
    } else {
        const char *end = find_chars_or_comment(start, "=:");
        if (*end != '=' && *end != ':') {
            c->kind = LINE_BAD;
            fail(c, c->line,
                 "syntax error: '%.*s' (expected 'key = value', '[section]' or a ';' comment)",
                 (int)n, start);
            return;
        }
        c->kind = LINE_KEY;
        c->after_key = rtrim_len(start, (size_t)(end - start)) > 0;
    }
}

/* Length of the UTF-8 sequence at s (at most n bytes), or 0 if it is not one:
 * no overlong forms, no surrogates, nothing past U+10FFFF. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2
                 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (len == 0 || len > n) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) ||
        (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    return len;
}

/* A line (without its '\n') must be UTF-8 text; of the control characters,
 * tab anywhere and CR at the end (CRLF) only. */
static int check_text(struct parse_ctx *c, const char *line, size_t n)
{
    const unsigned char *s = (const unsigned char *)line;
    for (size_t i = 0; i < n;) {
        int cr_at_end = s[i] == '\r' && i + 1 == n;
        if (s[i] < 0x20 ? s[i] != '\t' && !cr_at_end : s[i] == 0x7F) {
            fail(c, c->line, "control character 0x%02x at column %zu (expected text: tab is "
                             "the only control character, and CR only before the newline)",
                 s[i], i + 1);
            return 0;
        }
        size_t len = utf8_len(s + i, n - i);
        if (len == 0) {
            fail(c, c->line, "byte 0x%02x at column %zu is not UTF-8 (expected UTF-8 text)",
                 s[i], i + 1);
            return 0;
        }
        i += len;
    }
    return 1;
}

/* inih's reader: one line of the text per call, refusing lines that do not fit
 * its buffer or are not text, and stopping at the first error. */
static char *read_line(char *buf, int num, void *stream)
{
    struct parse_ctx *c = stream;
    if (c->have_err || c->pos >= c->len) return NULL;
    const char *p = c->text + c->pos;
    size_t rem = c->len - c->pos;
    const char *nl = memchr(p, '\n', rem);
    size_t content = nl ? (size_t)(nl - p) : rem;
    size_t take = nl ? content + 1 : content;
    c->line++;
    if (!check_text(c, p, content)) return NULL;
    /* A CRLF line end is a line end: the CR is not handed on (nor counted). */
    if (content > 0 && p[content - 1] == '\r') content--;
    /* Room for the line, its '\n' and the NUL. */
    if (num < 3 || content > (size_t)num - 2) {
        size_t shown = content < 40 ? content : 40;   /* its start, cut between characters */
        while (shown > 0 && shown < content && (p[shown] & 0xC0) == 0x80) shown--;
        fail(c, c->line,
             "line longer than %d characters (%zu; split a long list over indented "
             "continuation lines): '%.*s...'",
             num < 3 ? 0 : num - 2, content, (int)shown, p);
        return NULL;
    }
    memcpy(buf, p, content);
    if (nl) buf[content++] = '\n';
    buf[content] = '\0';
    c->pos += take;
    classify(c, buf);
    return c->have_err ? NULL : buf;
}

/* ---- values ------------------------------------------------------------- */

static void experiment_value(struct parse_ctx *c, int key, const char *v, int cont)
{
    struct experiment *e = c->e;
    int line = c->line;
    size_t n = strlen(v);
    if (cont && key != K_DESCRIPTION) {
        fail(c, line, "%s: indented line '%s' would continue a key that takes one value "
                      "(remove the indentation)", exp_keys[key], v);
        return;
    }
    switch (key) {
    case K_NAME:
        if (n >= EXP_NAME_LEN) {
            fail(c, line, "name: '%s' is longer than %d characters", v, EXP_NAME_LEN - 1);
            return;
        }
        if (!is_name(v, n, 1)) {
            fail(c, line, "name: '%s' (expected letters, digits, '_' or '-')", v);
            return;
        }
        memcpy(e->name, v, n + 1);
        break;
    case K_DESCRIPTION: {
        size_t have = strlen(e->description);
        size_t sep = (cont && have > 0 && n > 0) ? 1 : 0;
        if (have + sep + n >= sizeof e->description) {
            fail(c, line, "description: longer than %zu characters",
                 sizeof e->description - 1);
            return;
        }
        if (sep) e->description[have++] = ' ';
        memcpy(e->description + have, v, n + 1);
        break;
    }
    case K_SEED: {
        unsigned long long seed;
        if (!parse_uint(v, n, UINT64_MAX, &seed)) {
            fail(c, line, "seed: '%s' is not an unsigned 64-bit integer", v);
            return;
        }
        e->seed = (uint64_t)seed;
        break;
    }
    }
}

static void sampling_value(struct parse_ctx *c, int key, const char *v, int cont)
{
    struct experiment *e = c->e;
    int line = c->line;
    const char *kname = sampling_keys[key];
    if (cont) {
        fail(c, line, "[sampling] %s: indented line '%s' would continue a key that takes "
                      "one value (remove the indentation)", kname, v);
        return;
    }
    switch (key) {
    case S_KERNEL_TIMER:
        if (!strcmp(v, "cupti") || !strcmp(v, "none"))
            e->kernel_timer = !strcmp(v, "cupti");
        else
            fail(c, line, "[sampling] %s: '%s' (expected cupti or none)", kname, v);
        break;
    case S_GPU_MIN_SAMPLES:
    case S_GPU_MAX_SAMPLES:
    case S_HOST_MIN_SAMPLES:
    case S_HOST_MAX_SAMPLES: {
        unsigned long long x;
        if (!parse_uint(v, strlen(v), ULLONG_MAX, &x) || x < 1) {
            fail(c, line, "[sampling] %s: '%s' (expected an integer >= 1)", kname, v);
            return;
        }
        if (x > EXP_MAX_SAMPLES) {
            fail(c, line, "[sampling] %s: '%s' is too large (expected an integer from 1 to %d)",
                 kname, v, EXP_MAX_SAMPLES);
            return;
        }
        int *dst = key == S_GPU_MIN_SAMPLES    ? &e->gpu_rule.min_samples
                   : key == S_GPU_MAX_SAMPLES  ? &e->gpu_rule.max_samples
                   : key == S_HOST_MIN_SAMPLES ? &e->host_rule.min_samples
                                               : &e->host_rule.max_samples;
        *dst = (int)x;
        break;
    }
    default: {
        char *end;
        errno = 0;
        double x = strtod(v, &end);
        if (end == v || *end != '\0' || errno == ERANGE || !isfinite(x) || !(x > 0.0)) {
            if (key == S_TARGET_REL_STDDEV)
                fail(c, line, "[sampling] %s: '%s' (expected a positive fraction, e.g. 0.005)",
                     kname, v);
            else if (key == S_HOST_POINT_BUDGET_S)
                fail(c, line, "[sampling] %s: '%s' (expected a positive number of seconds, "
                              "e.g. 60)", kname, v);
            else
                fail(c, line,
                     "[sampling] %s: '%s' (expected a positive number of milliseconds, "
                     "e.g. 250 or 0.5)", kname, v);
            return;
        }
        switch (key) {
        case S_GPU_MIN_TIME_MS: e->gpu_rule.min_time_ms = x; break;
        case S_GPU_TIMEOUT_MS: e->gpu_rule.timeout_ms = x; break;
        case S_HOST_MIN_TIME_MS: e->host_rule.min_time_ms = x; break;
        case S_HOST_TIMEOUT_MS: e->host_rule.timeout_ms = x; break;
        case S_HOST_LONG_POINT_MS: e->host_rule.long_point_ms = x; break;
        case S_TARGET_REL_STDDEV:
            e->gpu_rule.target_rel_stddev = x;
            e->host_rule.target_rel_stddev = x;
            break;
        case S_HOST_POINT_BUDGET_S: e->host_point_budget_s = x; break;
        case S_GPU_MIN_SAMPLE_MS: e->gpu_rule.min_sample_ms = x; break;
        case S_GPU_WARMUP_MIN_MS: e->gpu_rule.warmup_min_ms = x; break;
        case S_GPU_WARMUP_MAX_MS: e->gpu_rule.warmup_max_ms = x; break;
        case S_GPU_CAPPED_SAMPLE_MS: e->gpu_rule.capped_sample_ms = x; break;
        case S_GPU_WARMUP_WINDOW_MS: e->gpu_rule.warmup_window_ms = x; break;
        case S_GPU_SHAPE_WARMUP_MS: e->gpu_rule.shape_warmup_ms = x; break;
        case S_GPU_PARITY_TIMEOUT_MS: e->gpu_rule.parity_timeout_ms = x; break;
        }
        break;
    }
    }
}

/* A (MxK), B (KxN) and C (MxN) must each be indexable by int, as the rungs index. */
static int shape_fits_int(struct parse_ctx *c, const char *kname, const char *tok, size_t n,
                          int M, int N, int K)
{
    const struct {
        const char *what;
        long long elems;
    } m[] = {{"A (M x K)", (long long)M * K}, {"B (K x N)", (long long)K * N},
             {"C (M x N)", (long long)M * N}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        if (m[i].elems > INT_MAX) {
            fail(c, c->line, "%s: '%.*s' is too large: %s would have %lld elements (expected "
                             "at most %d in each of A, B and C)",
                 kname, (int)n, tok, m[i].what, m[i].elems, INT_MAX);
            return 0;
        }
    }
    return 1;
}

static void add_shape(struct parse_ctx *c, struct sweep *s, const char *kname, const char *tok,
                      size_t n, int M, int N, int K)
{
    int line = c->line;
    if (!shape_fits_int(c, kname, tok, n, M, N, K)) return;
    for (int i = 0; i < s->n_shapes; i++) {
        const struct shape_entry *h = &s->shapes[i];
        if (h->M == M && h->N == N && h->K == K) {
            fail(c, line, "%s: '%.*s' repeats the shape %dx%dx%d of line %d", kname, (int)n,
                 tok, M, N, K, h->line);
            return;
        }
    }
    if (s->n_shapes == EXP_MAX_LIST) {
        fail(c, line, "%s: more than %d shapes in sweep [%s] (sizes and shapes together): "
                      "'%.*s' would be shape %d", kname, EXP_MAX_LIST, s->name, (int)n, tok,
             EXP_MAX_LIST + 1);
        return;
    }
    s->shapes[s->n_shapes++] = (struct shape_entry){.M = M, .N = N, .K = K, .line = line};
}

static void add_int(struct parse_ctx *c, struct int_axis *ax, const char *kname,
                    const char *tok, size_t n, const char *example)
{
    int line = c->line;
    unsigned long long x;
    if (!parse_uint(tok, n, EXP_MAX_AXIS, &x)) {
        fail(c, line, "%s: '%.*s' is not an integer from 0 to %d (expected whitespace-"
                      "separated integers, e.g. %s)", kname, (int)n, tok, EXP_MAX_AXIS, example);
        return;
    }
    for (int i = 0; i < ax->n; i++) {
        if (ax->v[i] == (int)x) {
            fail(c, line, "%s: '%.*s' is listed twice", kname, (int)n, tok);
            return;
        }
    }
    if (ax->n == EXP_MAX_LIST) {
        fail(c, line, "%s: more than %d values: '%.*s' would be value %d", kname, EXP_MAX_LIST,
             (int)n, tok, EXP_MAX_LIST + 1);
        return;
    }
    ax->v[ax->n++] = (int)x;
}

static void add_variant(struct parse_ctx *c, struct sweep *s, const char *tok, size_t n)
{
    int line = c->line;
    if (n >= EXP_NAME_LEN) {
        fail(c, line, "variants: '%.*s' is longer than %d characters", (int)n, tok,
             EXP_NAME_LEN - 1);
        return;
    }
    if (!is_name(tok, n, 0)) {
        fail(c, line, "variants: '%.*s' is not a variant name (expected letters, digits or "
                      "'_', e.g. gpu_tiled)", (int)n, tok);
        return;
    }
    for (int i = 0; i < s->n_variants; i++) {
        if (strlen(s->variants[i]) == n && memcmp(s->variants[i], tok, n) == 0) {
            fail(c, line, "variants: '%.*s' is listed twice", (int)n, tok);
            return;
        }
    }
    if (s->n_variants == EXP_MAX_LIST) {
        fail(c, line, "variants: more than %d values: '%.*s' would be value %d", EXP_MAX_LIST,
             (int)n, tok, EXP_MAX_LIST + 1);
        return;
    }
    memcpy(s->variants[s->n_variants], tok, n);
    s->variants[s->n_variants][n] = '\0';
    s->n_variants++;
}

static void add_host_memory(struct parse_ctx *c, struct int_axis *ax, const char *tok, size_t n)
{
    int kind = 0;
    for (int k = HOST_MEMORY_PINNED; k <= HOST_MEMORY_PAGEABLE; k++)
        if (strlen(host_memory_name(k)) == n && memcmp(host_memory_name(k), tok, n) == 0) kind = k;
    if (!kind) {
        fail(c, c->line, "host_memory: '%.*s' is not a kind of host memory (expected pinned "
                         "and/or pageable)", (int)n, tok);
        return;
    }
    for (int i = 0; i < ax->n; i++) {
        if (ax->v[i] == kind) {
            fail(c, c->line, "host_memory: '%.*s' is listed twice", (int)n, tok);
            return;
        }
    }
    ax->v[ax->n++] = kind;
}

const char *host_memory_name(int kind)
{
    return kind == HOST_MEMORY_PINNED ? "pinned" : kind == HOST_MEMORY_PAGEABLE ? "pageable" : "";
}

/* The i-th value of a corpus key (corpus.h). */
static void corpus_value(struct parse_ctx *c, struct sweep *s, int key, int i, const char *tok,
                         size_t n)
{
    struct corpus_spec *k = &s->corpus;
    unsigned long long x;
    if (key == W_CORPUS && i == 0) {
        if (n == 10 && !memcmp(tok, "loguniform", 10)) k->kind = CORPUS_LOGUNIFORM;
        else if (n == 6 && !memcmp(tok, "llama3", 6)) k->kind = CORPUS_LLAMA3;
        else if (n == 9 && !memcmp(tok, "deepbench", 9)) k->kind = CORPUS_DEEPBENCH;
        else {
            fail(c, c->line, "corpus: '%.*s' is not a corpus (expected loguniform and how many "
                             "shapes, e.g. 'corpus = loguniform 200', or llama3 or deepbench and "
                             "which half, e.g. 'corpus = llama3 tuning')", (int)n, tok);
            return;
        }
        k->line = c->line;
    } else if (key == W_CORPUS && k->kind != CORPUS_LOGUNIFORM) {
        static const char *const parts[] = {"all", "tuning", "heldout"};
        for (int p = 0; p < 3; p++)
            if (strlen(parts[p]) == n && !memcmp(tok, parts[p], n)) {
                k->part = (enum corpus_part)p;
                return;
            }
        fail(c, c->line, "corpus: '%.*s' is not a part of a listed corpus (expected all, "
                         "tuning or heldout)", (int)n, tok);
    } else if (key == W_CORPUS) {
        if (!parse_uint(tok, n, CORPUS_MAX_COUNT, &x) || x < 1) {
            fail(c, c->line, "corpus: '%.*s' is not a number of shapes (expected 1 to %d)",
                 (int)n, tok, CORPUS_MAX_COUNT);
            return;
        }
        k->count = (int)x;
    } else if (key == W_CORPUS_SEED) {
        if (!parse_uint(tok, n, UINT64_MAX, &x)) {
            fail(c, c->line, "corpus_seed: '%.*s' (expected an unsigned 64-bit integer)", (int)n,
                 tok);
            return;
        }
        k->seed = x;
    } else if (key == W_CORPUS_RANGE) {
        if (!parse_uint(tok, n, CORPUS_MAX_DIM, &x) || x < 1) {
            fail(c, c->line, "corpus_range: '%.*s' (expected two dimensions from 1 to %d, the "
                             "least and the largest, e.g. 1 16384)", (int)n, tok, CORPUS_MAX_DIM);
            return;
        }
        *(i ? &k->hi : &k->lo) = (int)x;
        k->range_given = 1;
    } else {
        char buf[64], *end;
        double f = NAN;
        if (n < sizeof buf) {
            memcpy(buf, tok, n), buf[n] = '\0';
            errno = 0;
            f = strtod(buf, &end);
            if (end == buf || *end || errno == ERANGE) f = NAN;
        }
        if (!isfinite(f) || !(f > 0.0)) {
            fail(c, c->line, "corpus_flops: '%.*s' (expected two positive numbers, the least "
                             "and the most 2MNK, e.g. 1e6 1e12)", (int)n, tok);
            return;
        }
        *(i ? &k->flops_hi : &k->flops_lo) = f;
    }
}

static void sweep_value(struct parse_ctx *c, int key, const char *v)
{
    struct sweep *s = &c->e->sweeps[c->sweep];
    const char *kname = sweep_keys[key];
    const char *p = v, *tok;
    size_t n;
    while (!c->have_err && (tok = next_token(&p, &n)) != NULL) {
        c->key_values++;
        if (sweep_key_values[key] && c->key_values > sweep_key_values[key]) {
            fail(c, c->line, "%s: '%.*s' is one value too many (expected e.g. '%s = %s')", kname,
                 (int)n, tok, kname, corpus_examples[key]);
            return;
        }
        switch (key) {
        case W_CORPUS:
        case W_CORPUS_SEED:
        case W_CORPUS_RANGE:
        case W_CORPUS_FLOPS: corpus_value(c, s, key, c->key_values - 1, tok, n); break;
        case W_VARIANTS: add_variant(c, s, tok, n); break;
        case W_SIZES: {
            unsigned long long x;
            if (!parse_uint(tok, n, EXP_MAX_DIM, &x) || x < 1) {
                fail(c, c->line, "sizes: '%.*s' is not a size (expected integers from 1 to %d, "
                                 "e.g. 128 256)", (int)n, tok, EXP_MAX_DIM);
                return;
            }
            add_shape(c, s, kname, tok, n, (int)x, (int)x, (int)x);
            break;
        }
        case W_SHAPES: {
            int d[3];
            if (!parse_shape(tok, n, d)) {
                fail(c, c->line, "shapes: '%.*s' is not a shape (expected MxNxK with M, N, K "
                                 "from 1 to %d, e.g. 1000x1500x700)", (int)n, tok, EXP_MAX_DIM);
                return;
            }
            add_shape(c, s, kname, tok, n, d[0], d[1], d[2]);
            break;
        }
        case W_TILES: add_int(c, &s->tiles, kname, tok, n, "8 16 32"); break;
        case W_WPTS: add_int(c, &s->wpts, kname, tok, n, "1 2 4"); break;
        case W_OPT_LEVELS: add_int(c, &s->opt_levels, kname, tok, n, "0 1 2 3"); break;
        case W_HOST_MEMORY: add_host_memory(c, &s->host_memory, tok, n); break;
        case W_SPLITS: add_int(c, &s->splits, kname, tok, n, "0 2 8"); break;
        case W_CONFIGS:
            if (n != 3 || memcmp(tok, "all", 3) != 0 || s->all_configs) {
                fail(c, c->line, "configs: '%.*s' (expected 'all': every configuration each "
                                 "rung declares, instead of tiles x wpts)", (int)n, tok);
                return;
            }
            s->all_configs = c->line;
            break;
        case W_PAIRING:
            if ((n == 4 && !memcmp(tok, "abba", 4)) || (n == 4 && !memcmp(tok, "none", 4))) {
                if (s->pairing_line) {
                    fail(c, c->line, "pairing: '%.*s' after another value (expected one: abba "
                                     "or none)", (int)n, tok);
                    return;
                }
                s->unpaired = tok[0] == 'n';
                s->pairing_line = c->line;
                break;
            }
            fail(c, c->line, "pairing: '%.*s' (expected abba, the rung sampled alternately with "
                             "its reference, or none, the rung alone)", (int)n, tok);
            return;
        }
    }
}

/* ---- the inih handler ----------------------------------------------------- */

/* Does an indented line read like a header or a "key = value" line? */
static int looks_like_entry(const char *v)
{
    if (*v == '[') return 1;
    if (!is_name_char(*v, 0)) return 0;
    while (is_name_char(*v, 0)) v++;
    v = skip_space(v);
    return *v == '=' || *v == ':';
}

/* The keys of the current section and where each was given; 0 keys outside any. */
static int section_keys(struct parse_ctx *c, const char *const **keys, int **lines)
{
    switch (c->sec) {
    case SEC_EXPERIMENT:
        *keys = exp_keys;
        *lines = c->exp_lines;
        return N_EXP_KEYS;
    case SEC_SAMPLING:
        *keys = sampling_keys;
        *lines = c->sampling_lines;
        return N_SAMPLING_KEYS;
    case SEC_SWEEP:
        *keys = sweep_keys;
        *lines = c->sweep_lines[c->sweep];
        return N_SWEEP_KEYS;
    case SEC_NONE: break;
    }
    return 0;
}

static void on_key(struct parse_ctx *c, const char *name, const char *value)
{
    char label[EXP_NAME_LEN + 16], names[256];
    int line = c->line;
    const char *const *keys;
    int *lines;

    finish_key(c);
    int nkeys = section_keys(c, &keys, &lines);
    if (nkeys == 0) {
        fail(c, line, "key '%s' is outside any section (expected a '[section]' line before it)",
             name);
        return;
    }
    const char *where = section_label(c, label, sizeof label);
    int k = find_name(keys, nkeys, name);
    if (k < 0) {
        join_names(names, sizeof names, keys, nkeys);
        fail(c, line, "unknown key '%s' in %s (expected one of: %s)", name, where, names);
        return;
    }
    if (lines[k]) {
        /* "in [gpu]", not "in sweep [gpu]": the header as written */
        fail(c, line, "'%s' given twice in %s (first at line %d)", name, strchr(where, '['),
             lines[k]);
        return;
    }
    lines[k] = line;
    c->key = k;
    c->key_line = line;
    c->key_values = 0;
    if (c->sec == SEC_EXPERIMENT) {
        experiment_value(c, k, value, 0);
    } else if (c->sec == SEC_SAMPLING) {
        sampling_value(c, k, value, 0);
    } else {
        struct sweep *s = &c->e->sweeps[c->sweep];
        if (k == W_VARIANTS) s->variants_line = line;
        if (k == W_TILES) s->tiles.line = line;
        if (k == W_WPTS) s->wpts.line = line;
        if (k == W_OPT_LEVELS) s->opt_levels.line = line;
        if (k == W_HOST_MEMORY) s->host_memory.line = line;
        if (k == W_SPLITS) s->splits.line = line;
        sweep_value(c, k, value);
    }
}

static void on_continuation(struct parse_ctx *c, const char *raw)
{
    char v[256];
    /* inih 55 passes continuation lines with inline comments still on. */
    size_t n = (size_t)(find_chars_or_comment(raw, NULL) - raw);
    n = rtrim_len(raw, n);
    if (n >= sizeof v) n = sizeof v - 1;
    memcpy(v, raw, n);
    v[n] = '\0';

    if (c->key < 0) {
        fail(c, c->line, "indented line '%s' continues no key (remove the indentation)", v);
        return;
    }
    const char *kname = c->sec == SEC_EXPERIMENT ? exp_keys[c->key]
                        : c->sec == SEC_SAMPLING ? sampling_keys[c->key]
                                                 : sweep_keys[c->key];
    if (looks_like_entry(v)) {
        fail(c, c->line, "indented line '%s' would continue '%s' (a '[section]' or "
                         "'key = value' line must not be indented)", v, kname);
        return;
    }
    if (c->sec == SEC_EXPERIMENT)
        experiment_value(c, c->key, v, 1);
    else if (c->sec == SEC_SAMPLING)
        sampling_value(c, c->key, v, 1);
    else
        sweep_value(c, c->key, v);
}

static int handle_pair(void *user, const char *section, const char *name, const char *value)
{
    struct parse_ctx *c = user;
    if (c->have_err) return 0;
    const char *expect = c->sec == SEC_EXPERIMENT ? "experiment"
                         : c->sec == SEC_SAMPLING ? "sampling"
                         : c->sec == SEC_SWEEP    ? c->e->sweeps[c->sweep].name
                                                  : "";
    if ((c->kind != LINE_KEY && c->kind != LINE_CONT) || !value ||
        strcmp(section ? section : "", expect) != 0) {
        fail(c, c->line, "internal error: inih read this line differently from the "
                         "experiment parser (key '%s')", name ? name : "");
        return 0;
    }
    if (c->kind == LINE_KEY)
        on_key(c, name, value);
    else
        on_continuation(c, value);
    return !c->have_err;
}

#if INI_HANDLER_LINENO
static int handle_pair_lineno(void *user, const char *section, const char *name,
                              const char *value, int lineno)
{
    (void)lineno;
    return handle_pair(user, section, name, value);
}
#define HANDLER handle_pair_lineno
#else
#define HANDLER handle_pair
#endif

/* ---- after the last line ----------------------------------------------- */

static void check_samples(struct parse_ctx *c, const char *which, const struct sampling_rule *r,
                          int min_key, int max_key)
{
    if (r->max_samples >= r->min_samples) return;
    int lmin = c->sampling_lines[min_key], lmax = c->sampling_lines[max_key];
    fail(c, lmin > lmax ? lmin : lmax,
         "[sampling] %s_max_samples (%d%s) is less than %s_min_samples (%d%s)", which,
         r->max_samples, lmax ? "" : ", the default", which, r->min_samples,
         lmin ? "" : ", the default");
}

static void check_complete(struct parse_ctx *c)
{
    struct experiment *e = c->e;
    if (!c->experiment_line) {
        fail(c, 0, "missing [experiment] section (expected 'name' and 'seed' in it)");
        return;
    }
    if (!c->exp_lines[K_NAME]) {
        fail(c, c->experiment_line, "[experiment] has no 'name'");
        return;
    }
    if (!c->exp_lines[K_SEED]) {
        fail(c, c->experiment_line, "[experiment] has no 'seed'");
        return;
    }
    check_samples(c, "gpu", &e->gpu_rule, S_GPU_MIN_SAMPLES, S_GPU_MAX_SAMPLES);
    if (c->have_err) return;
    check_samples(c, "host", &e->host_rule, S_HOST_MIN_SAMPLES, S_HOST_MAX_SAMPLES);
    if (c->have_err) return;
    for (int i = 0; i < e->n_sweeps; i++) {
        const struct sweep *s = &e->sweeps[i];
        if (!c->sweep_lines[i][W_VARIANTS]) {
            fail(c, s->line, "sweep [%s] has no 'variants'", s->name);
            return;
        }
        const int *kl = c->sweep_lines[i];
        if (!kl[W_SIZES] && !kl[W_SHAPES] && !kl[W_CORPUS]) {
            fail(c, s->line, "sweep [%s] has no 'sizes', 'shapes' or 'corpus'", s->name);
            return;
        }
        if (!kl[W_CORPUS] && (kl[W_CORPUS_SEED] || kl[W_CORPUS_RANGE] || kl[W_CORPUS_FLOPS])) {
            const int w = kl[W_CORPUS_SEED] ? W_CORPUS_SEED : kl[W_CORPUS_RANGE] ? W_CORPUS_RANGE
                                                                                 : W_CORPUS_FLOPS;
            fail(c, kl[w], "sweep [%s]: '%s' without 'corpus' (expected e.g. 'corpus = "
                           "loguniform 200' beside it)", s->name, sweep_keys[w]);
            return;
        }
        if (kl[W_CORPUS] && !kl[W_CORPUS_SEED]) {
            fail(c, kl[W_CORPUS], "sweep [%s]: 'corpus' without 'corpus_seed' (expected the "
                                  "seed its shapes are drawn from: a tuning set and a held-out "
                                  "set differ by it)", s->name);
            return;
        }
        if (s->corpus.lo > s->corpus.hi) {
            fail(c, kl[W_CORPUS_RANGE], "corpus_range: %d is more than %d (expected the least "
                                        "dimension first)", s->corpus.lo, s->corpus.hi);
            return;
        }
        if (s->corpus.flops_lo > s->corpus.flops_hi) {
            fail(c, kl[W_CORPUS_FLOPS], "corpus_flops: %g is more than %g (expected the least "
                                        "first)", s->corpus.flops_lo, s->corpus.flops_hi);
            return;
        }
        const int axis = c->sweep_lines[i][W_TILES] ? c->sweep_lines[i][W_TILES]
                                                    : c->sweep_lines[i][W_WPTS];
        if (s->all_configs && axis) {
            fail(c, axis, "sweep [%s]: '%s' beside 'configs = all' (line %d), which takes every "
                          "configuration already (expected one or the other)", s->name,
                 c->sweep_lines[i][W_TILES] ? "tiles" : "wpts", s->all_configs);
            return;
        }
    }
    if (e->n_sweeps == 0)
        fail(c, 0, "no sweep section (expected at least one [name] section with 'variants' "
                   "and 'sizes' or 'shapes')");
}

/* Parse text (len bytes, NUL-terminated, owned from here on) into *e. */
static int parse_owned(const char *path, char *text, size_t len, struct experiment *e,
                       char *err, size_t errlen)
{
    struct parse_ctx *c = calloc(1, sizeof *c);
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", path);
    if (!c) {
        free(text);
        if (err && errlen) snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    e->text = text;
    e->text_len = len;
    e->gpu_rule = sampling_default_gpu();
    e->host_rule = sampling_default_host();
    e->host_point_budget_s = EXP_DEFAULT_HOST_POINT_BUDGET_S;

    c->e = e;
    c->text = text;
    c->len = len;
    c->key = -1;

    int r = ini_parse_stream(read_line, c, HANDLER, c);
    if (!c->have_err) finish_key(c);
    if (r > 0 && (!c->have_err || r < c->err_line))
        fail(c, r, "syntax error (expected 'key = value', '[section]' or a ';' comment)");
    else if (r < 0 && !c->have_err)
        fail(c, 0, "inih failed (%d)", r);
    if (!c->have_err) check_complete(c);

    if (!c->have_err) {
        free(c);
        return 0;
    }
    if (err && errlen) {
        if (c->err_line > 0)
            snprintf(err, errlen, "%s:%d: %s", path, c->err_line, c->msg);
        else
            snprintf(err, errlen, "%s: %s", path, c->msg);
    }
    free(c);
    free(text);
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", path);
    return -1;
}

int experiment_parse(const char *path, const char *text, struct experiment *e, char *err,
                     size_t errlen)
{
    if (!path) path = "(experiment)";
    if (!text) {
        memset(e, 0, sizeof *e);
        if (err && errlen) snprintf(err, errlen, "%s: no text", path);
        return -1;
    }
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    if (!copy) {
        memset(e, 0, sizeof *e);
        if (err && errlen) snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    memcpy(copy, text, len + 1);
    return parse_owned(path, copy, len, e, err, errlen);
}

int experiment_load(const char *path, struct experiment *e, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", path);
    char why_not[128];
    if (files_check_regular(path, why_not, sizeof why_not)) {
        if (err && errlen) snprintf(err, errlen, "%s: cannot read: %s", path, why_not);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && errlen) snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    const char *why = NULL;
    while (buf) {
        if (len + 1 == cap) {
            char *nb = cap > (size_t)EXP_MAX_FILE_BYTES ? NULL : realloc(buf, 2 * cap);
            if (!nb) {
                why = cap > (size_t)EXP_MAX_FILE_BYTES ? "larger than 1 MiB (not an experiment "
                                                         "file?)"
                                                       : "out of memory";
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) why = strerror(errno);
            break;
        }
    }
    fclose(f);
    if (!buf) why = "out of memory";
    if (!why && len > (size_t)EXP_MAX_FILE_BYTES)
        why = "larger than 1 MiB (not an experiment file?)";
    if (!why && memchr(buf, '\0', len)) why = "contains a NUL byte (not a text file?)";
    if (why) {
        if (err && errlen) snprintf(err, errlen, "%s: cannot read: %s", path, why);
        free(buf);
        return -1;
    }
    buf[len] = '\0';
    return parse_owned(path, buf, len, e, err, errlen);
}

void experiment_free(struct experiment *e)
{
    if (!e) return;
    free(e->text);
    e->text = NULL;
    e->text_len = 0;
}
