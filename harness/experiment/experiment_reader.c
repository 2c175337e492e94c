/* Experiment files (experiment.h): the reader inih pulls lines from.  Each
 * line is checked to be text (UTF-8, no control characters but tab and a CR
 * before the newline) and to fit inih's buffer, classified as inih will read
 * it, and a section header acted on here, since inih does not report headers
 * (experiment_parser.h says why). */
#include "experiment.h"
#include "experiment_parser.h"

#include <stdio.h>
#include <string.h>

#define INIH_SECTION_LEN 49            /* inih keeps section names in 50 bytes */

/* ---- section headers, seen by the reader ------------------------------- */

static void begin_section(struct parse_ctx *c, const char *name, size_t n, const char *rest)
{
    int line = c->line;
    parse_finish_key(c);
    c->sec = SEC_NONE;
    if (n > INIH_SECTION_LEN) {
        parse_fail(c, line, "section name '%.*s' is longer than %d characters", (int)n, name,
                   INIH_SECTION_LEN);
        return;
    }
    if (!is_name(name, n, 1)) {
        parse_fail(c, line, "section name '%.*s' (expected letters, digits, '_' or '-')", (int)n,
                   name);
        return;
    }
    rest = skip_space(rest);
    if (*rest && *rest != ';') {
        parse_fail(c, line, "[%.*s]: text after the header '%.*s' (expected nothing or a ';' "
                            "comment)", (int)n, name, (int)rtrim_len(rest, strlen(rest)), rest);
        return;
    }
    char sname[INIH_SECTION_LEN + 1];
    memcpy(sname, name, n);
    sname[n] = '\0';

    if (strcmp(sname, "experiment") == 0) {
        if (c->experiment_line) {
            parse_fail(c, line, "section [experiment] appears twice (first at line %d)",
                       c->experiment_line);
            return;
        }
        c->experiment_line = line;
        c->sec = SEC_EXPERIMENT;
        return;
    }
    if (strcmp(sname, "sampling") == 0) {
        if (c->sampling_line) {
            parse_fail(c, line, "section [sampling] appears twice (first at line %d)",
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
            parse_fail(c, line, "section [%s] appears twice (first at line %d)", sname,
                       e->sweeps[i].line);
            return;
        }
    }
    if (e->n_sweeps == EXP_MAX_SWEEPS) {
        parse_fail(c, line, "sweep [%s]: more than %d sweeps (sections other than [experiment] "
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
            parse_fail(c, c->line, "syntax error: '%.*s' (expected ']' to close the section name)",
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
            parse_fail(c, c->line,
                       "syntax error: '%.*s' (expected 'key = value', '[section]' or a ';' "
                       "comment)", (int)n, start);
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
            parse_fail(c, c->line, "control character 0x%02x at column %zu (expected text: tab is "
                                   "the only control character, and CR only before the newline)",
                       s[i], i + 1);
            return 0;
        }
        size_t len = utf8_len(s + i, n - i);
        if (len == 0) {
            parse_fail(c, c->line, "byte 0x%02x at column %zu is not UTF-8 (expected UTF-8 text)",
                       s[i], i + 1);
            return 0;
        }
        i += len;
    }
    return 1;
}

/* inih's reader: one line of the text per call, refusing lines that do not fit
 * its buffer or are not text, and stopping at the first error. */
char *parse_read_line(char *buf, int num, void *stream)
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
        parse_fail(c, c->line,
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
