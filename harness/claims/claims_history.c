/* When each claim's band was stated, against the runs that judge it: see
 * check.h (claims_history_load, claims_classify). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A UTC time as the history and the results files write it. */
static int utc_ok(const char *s)
{
    static const char form[] = "dddd-dd-ddTdd:dd:ddZ";
    if (strlen(s) != sizeof form - 1) return 0;
    for (size_t i = 0; form[i]; i++)
        if (form[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != form[i]) return 0;
    return 1;
}

/* The tab-separated fields of line (its newline removed) into f: their count. */
static int fields(char *line, char **f, int max)
{
    line[strcspn(line, "\r\n")] = '\0';
    int n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = '\0';
        p = tab + 1;
    }
    return n;
}

int claims_history_load(const char *path, const struct claims *cs, struct claim_history *h,
                        char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < cs->n; i++) h[i].stated[0] = '\0';
    char line[1024], *fl[5];
    int no = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        no++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s:%d: a line longer than %zu bytes", path, no, sizeof line - 2);
            rc = -1;
            break;
        }
        const int n = fields(line, fl, 5);
        if (no == 1 && n == 4 && !strcmp(fl[0], "claim")) continue;   /* the header */
        size_t i = 0;
        while (i < cs->n && n >= 1 && strcmp(cs->c[i].id, fl[0])) i++;
        double lo, hi;
        if (n != 4) {
            snprintf(err, errlen, "%s:%d: %d fields (expected claim, stated_utc, commit, "
                                  "previous_band, tab-separated)", path, no, n);
            rc = -1;
        } else if (i == cs->n) {
            snprintf(err, errlen, "%s:%d: claim '%s' is not in %s (a history of another claims "
                                  "file: scripts/claim-history.sh %s)", path, no, fl[0], cs->path,
                     cs->path);
            rc = -1;
        } else if (h[i].stated[0]) {
            snprintf(err, errlen, "%s:%d: claim '%s' given twice", path, no, fl[0]);
            rc = -1;
        } else if (!utc_ok(fl[1])) {
            snprintf(err, errlen, "%s:%d: stated_utc '%s' (expected YYYY-MM-DDTHH:MM:SSZ)", path,
                     no, fl[1]);
            rc = -1;
        } else if (strcmp(fl[3], "-") && claims_parse_band(fl[3], &lo, &hi) != 0) {
            snprintf(err, errlen, "%s:%d: previous_band '%s' (expected a band, or - for none)",
                     path, no, fl[3]);
            rc = -1;
        } else {
            snprintf(h[i].stated, sizeof h[i].stated, "%s", fl[1]);
            snprintf(h[i].commit, sizeof h[i].commit, "%s", fl[2]);
            snprintf(h[i].previous, sizeof h[i].previous, "%s", strcmp(fl[3], "-") ? fl[3] : "");
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        rc = -1;
    }
    fclose(f);
    for (size_t i = 0; rc == 0 && i < cs->n; i++)
        if (!h[i].stated[0]) {
            snprintf(err, errlen, "%s: no line for claim '%s' (a history older than %s: "
                                  "scripts/claim-history.sh %s)", path, cs->c[i].id, cs->path,
                     cs->path);
            rc = -1;
        }
    return rc;
}

/* "YYYY-MM-DD HH:MM" of a UTC time, into buf. */
static const char *minute(const char *utc, char *buf, size_t len)
{
    snprintf(buf, len, "%.10s %.5s", utc, strlen(utc) > 11 ? utc + 11 : "");
    return buf;
}

void claims_classify(const struct claim *c, const struct claim_history *h, const struct run *runs,
                     size_t nruns, struct claim_result *r)
{
    r->stated = STATED_UNKNOWN;
    char first[32] = "";   /* the earliest of its runs */
    for (int k = 0; k < c->n_runs; k++) {
        size_t j = 0;
        while (j < nruns && strcmp(runs[j].role, c->runs[k])) j++;
        if (j == nruns || !utc_ok(runs[j].created_utc)) {
            snprintf(r->stated_text, sizeof r->stated_text, "not known: run %s %s", c->runs[k],
                     j == nruns ? "not given" : "without its time");
            return;
        }
        if (!first[0] || strcmp(runs[j].created_utc, first) < 0)
            snprintf(first, sizeof first, "%s", runs[j].created_utc);
    }
    char band[64], commit[48], at[24], data[24];
    claims_band_text(c->expect_text, band, sizeof band);
    /* a commit by its short hash; anything else ("uncommitted") whole */
    const int hash = strlen(h->commit) == 40 && strspn(h->commit, "0123456789abcdef") == 40;
    snprintf(commit, sizeof commit, hash ? "%.7s" : "%s", h->commit);
    minute(h->stated, at, sizeof at);
    minute(first, data, sizeof data);
    if (strcmp(h->stated, first) < 0) {
        r->stated = STATED_BEFORE;
        snprintf(r->stated_text, sizeof r->stated_text, "predicted: stated %s UTC (%s), its "
                 "runs from %s", at, commit, data);
        return;
    }
    if (!h->previous[0]) {
        r->stated = STATED_AFTER;
        snprintf(r->stated_text, sizeof r->stated_text, "stated after its data: %s UTC (%s), its "
                 "runs from %s", at, commit, data);
        return;
    }
    char previous[64];
    claims_band_text(h->previous, previous, sizeof previous);
    for (int i = c->n_rev - 1; i >= 0; i--)
        if (!strcmp(c->rev[i].old_band, previous) && !strcmp(c->rev[i].new_band, band)) {
            r->stated = STATED_REVISED;
            snprintf(r->stated_text, sizeof r->stated_text, "revised after its runs of %s: %s -> "
                     "%s (%s): %s", data, previous, band, c->rev[i].when, c->rev[i].why);
            return;
        }
    r->stated = STATED_UNRECORDED;
    snprintf(r->stated_text, sizeof r->stated_text, "MOVED WITHOUT A RECORD from '%s' to '%s' at "
             "%s UTC (%s), after its runs of %s: add 'revised = %s -> %s (%.10s, %s): why' to its "
             "claim", previous, band, at, commit, data, previous, band, h->stated, commit);
}
