/* The experiment parser's pieces and what they share: the parser's state
 * (struct parse_ctx), the keys of each section, and the lexical rules.  The
 * interface to the rest of the binary is experiment.h; nothing outside
 * experiment*.c includes this one.
 *
 *   experiment.c          the entry points (load, parse, free), the tables of
 *                         keys, errors, and what is checked after the last line
 *   experiment_reader.c   the reader inih pulls lines from: text, line length,
 *                         each line classified as inih will read it, headers
 *   experiment_handler.c  the handler inih calls for each key and continuation
 *                         line, and the run of inih over the text
 *   experiment_values.c   the values of [experiment] and [sampling]
 *   experiment_sweep.c    the values of a sweep's keys (variants, shapes, axes,
 *                         host memory, pairing, corpus)
 *
 * inih does the INI parsing; experiment_reader.c supplies the reader it pulls
 * lines from, so that every line is known before inih sees it.  That is needed
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
#ifndef HARNESS_EXPERIMENT_PARSER_H
#define HARNESS_EXPERIMENT_PARSER_H

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "experiment.h"

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* ---- the keys of each section (their names: experiment.c) ---------------- */

enum { K_NAME, K_DESCRIPTION, K_SEED, N_EXP_KEYS };
extern const char *const exp_keys[N_EXP_KEYS];

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
extern const char *const sampling_keys[N_SAMPLING_KEYS];

enum { W_VARIANTS, W_SIZES, W_SHAPES, W_TILES, W_WPTS, W_OPT_LEVELS, W_HOST_MEMORY, W_SPLITS,
       W_CONFIGS, W_PAIRING, W_CORPUS, W_CORPUS_SEED, W_CORPUS_RANGE, W_CORPUS_FLOPS,
       N_SWEEP_KEYS };
extern const char *const sweep_keys[N_SWEEP_KEYS];
/* How many values each corpus key takes (0: a list of any length), and an
 * example of them for messages. */
extern const int sweep_key_values[N_SWEEP_KEYS];
extern const char *const corpus_examples[N_SWEEP_KEYS];

/* ---- the parser's state ----------------------------------------------------- */

enum section_kind { SEC_NONE, SEC_EXPERIMENT, SEC_SAMPLING, SEC_SWEEP };
enum line_kind { LINE_BLANK, LINE_HEADER, LINE_KEY, LINE_CONT, LINE_BAD };

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

/* Record an error; the one on the earliest line wins (experiment.c). */
PRINTF_LIKE(3, 4)
void parse_fail(struct parse_ctx *c, int line, const char *fmt, ...);
/* The end of a key: a sweep's list may not stay empty, nor a corpus key short
 * of its values (experiment_handler.c). */
void parse_finish_key(struct parse_ctx *c);
/* Run inih over c->text with the reader and the handler: inih's result, 0 or
 * the first line it could not parse, or < 0 (experiment_handler.c). */
int parse_with_inih(struct parse_ctx *c);
/* inih's reader: one line of the text per call (experiment_reader.c). */
char *parse_read_line(char *buf, int num, void *stream);
/* The value v of a key of the current section; cont: from a continuation line
 * (experiment_values.c, experiment_sweep.c). */
void parse_experiment_value(struct parse_ctx *c, int key, const char *v, int cont);
void parse_sampling_value(struct parse_ctx *c, int key, const char *v, int cont);
void parse_sweep_value(struct parse_ctx *c, int key, const char *v);

/* ---- lexical rules ---------------------------------------------------------- */

static inline int is_name_char(char ch, int dash_ok)
{
    return isalnum((unsigned char)ch) || ch == '_' || (dash_ok && ch == '-');
}

/* Non-empty and made of [A-Za-z0-9_] (plus '-' when dash_ok). */
static inline int is_name(const char *s, size_t n, int dash_ok)
{
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_name_char(s[i], dash_ok)) return 0;
    return 1;
}

/* Base-10 digits only, no sign, value <= max. */
static inline int parse_uint(const char *s, size_t n, unsigned long long max,
                             unsigned long long *out)
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

/* inih's inline comment rule: the first of `chars`, or a ';' that follows
 * whitespace, whichever comes first; the terminating NUL if neither. */
static inline const char *find_chars_or_comment(const char *s, const char *chars)
{
    int was_space = 0;
    while (*s && !(chars && strchr(chars, *s)) && !(was_space && *s == ';')) {
        was_space = isspace((unsigned char)*s);
        s++;
    }
    return s;
}

static inline const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    return s;
}

/* Length of s[0..n) without trailing whitespace. */
static inline size_t rtrim_len(const char *s, size_t n)
{
    while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    return n;
}

#endif
