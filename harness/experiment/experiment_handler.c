/* Experiment files (experiment.h): the handler inih calls.  A key of the
 * current section (known, given once) or a continuation line of the key
 * before it, each handed to the parser of its section's values; the end of a
 * key; and the run of inih over the text with the reader of
 * experiment_reader.c. */
#include "experiment.h"
#include "experiment_parser.h"

#include <ini.h>

#include <stdio.h>
#include <string.h>

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

    parse_finish_key(c);
    int nkeys = section_keys(c, &keys, &lines);
    if (nkeys == 0) {
        parse_fail(c, line, "key '%s' is outside any section (expected a '[section]' line before "
                            "it)", name);
        return;
    }
    const char *where = section_label(c, label, sizeof label);
    int k = find_name(keys, nkeys, name);
    if (k < 0) {
        join_names(names, sizeof names, keys, nkeys);
        parse_fail(c, line, "unknown key '%s' in %s (expected one of: %s)", name, where, names);
        return;
    }
    if (lines[k]) {
        /* "in [gpu]", not "in sweep [gpu]": the header as written */
        parse_fail(c, line, "'%s' given twice in %s (first at line %d)", name, strchr(where, '['),
                   lines[k]);
        return;
    }
    lines[k] = line;
    c->key = k;
    c->key_line = line;
    c->key_values = 0;
    if (c->sec == SEC_EXPERIMENT) {
        parse_experiment_value(c, k, value, 0);
    } else if (c->sec == SEC_SAMPLING) {
        parse_sampling_value(c, k, value, 0);
    } else {
        struct sweep *s = &c->e->sweeps[c->sweep];
        if (k == W_VARIANTS) s->variants_line = line;
        if (k == W_TILES) s->tiles.line = line;
        if (k == W_WPTS) s->wpts.line = line;
        if (k == W_OPT_LEVELS) s->opt_levels.line = line;
        if (k == W_HOST_MEMORY) s->host_memory.line = line;
        if (k == W_SPLITS) s->splits.line = line;
        parse_sweep_value(c, k, value);
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
        parse_fail(c, c->line, "indented line '%s' continues no key (remove the indentation)", v);
        return;
    }
    const char *kname = c->sec == SEC_EXPERIMENT ? exp_keys[c->key]
                        : c->sec == SEC_SAMPLING ? sampling_keys[c->key]
                                                 : sweep_keys[c->key];
    if (looks_like_entry(v)) {
        parse_fail(c, c->line, "indented line '%s' would continue '%s' (a '[section]' or "
                               "'key = value' line must not be indented)", v, kname);
        return;
    }
    if (c->sec == SEC_EXPERIMENT)
        parse_experiment_value(c, c->key, v, 1);
    else if (c->sec == SEC_SAMPLING)
        parse_sampling_value(c, c->key, v, 1);
    else
        parse_sweep_value(c, c->key, v);
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
        parse_fail(c, c->line, "internal error: inih read this line differently from the "
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

int parse_with_inih(struct parse_ctx *c)
{
    return ini_parse_stream(parse_read_line, c, HANDLER, c);
}
