/* mmladder claims and values: the claims checked against the runs, and the
 * paper's every value answered from them. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims/claims.h"
#include "cli.h"
#include "views/views.h"

/* The filled texts of the claims named in ids (comma-separated), each a
 * sentence, on one line: the README's headline.  0, or 1 naming an unknown id
 * or one that did not pass (a headline states only what the data hold). */
static int say_texts(const struct cli *c, const struct claims *cs, const struct claim_result *rs,
                     const char *ids)
{
    char list[512];
    snprintf(list, sizeof list, "%s", ids);
    int said = 0;
    for (char *save = NULL, *id = strtok_r(list, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < cs->n && strcmp(cs->c[i].id, id)) i++;
        if (i == cs->n || rs[i].verdict != CLAIM_PASSED) {
            fprintf(c->err, "mmladder claims: --text %s: %s\n", id,
                    i == cs->n ? "no such claim" : "the claim does not pass on these runs");
            return EXIT_INPUT;
        }
        fprintf(c->out, "%s%s.", said++ ? " " : "", rs[i].text);
    }
    fputc('\n', c->out);
    return EXIT_OK;
}

/* Is role one of the comma-separated roles of list? */
static int listed(const char *list, const char *role)
{
    const size_t n = strlen(role);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, role, n) && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

/* Does the claim name a role of the pending list that no run was given for? */
static int waits_for_pending(const struct claim *cl, const char *pending, const struct run *runs,
                             int n)
{
    for (int r = 0; pending && r < cl->n_runs; r++) {
        int given = 0;
        for (int i = 0; i < n; i++) given |= !strcmp(runs[i].role, cl->runs[r]);
        if (!given && listed(pending, cl->runs[r])) return 1;
    }
    return 0;
}

/* claims CLAIMS.ini [--markdown | --text ID,...] [--mine FILE] [--partial]
 * [--pending ROLE,...] [ROLE=]FILE...:
 * each claim's measured value and verdict (--text: only the named claims'
 * filled texts, as sentences of one paragraph); exit 1 when a claim fails, or when
 * one could not be evaluated for want of a run it names (not evaluated is not
 * passed), unless --partial (or --mine) asks for the claims the runs given
 * allow.  --pending ROLE,...: runs not made yet (data/references.mk leaves
 * them empty), each a role of [roles] and given no file; a claim waiting for
 * one is reported not evaluated, and only those may be.  --mine FILE: the
 * claims FILE, a reviewer's run, can check, on it (claims_evaluate_mine);
 * exit 1 when one of them does not hold, but for one about the reference
 * machines' CPUs, which is reported. */
int cmd_claims(const struct cli *c, int argc, char **argv)
{
    if (argc < 3) {
        fprintf(c->err, "mmladder claims: no claims file given\n");
        cli_usage(c->err);
        return EXIT_INPUT;
    }
    const char *mine_path = NULL, *history = NULL, *text_ids = NULL, *pending = NULL;
    int markdown = 0, partial = 0, first = 3;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--markdown")) {
            markdown = 1;
        } else if (!strcmp(argv[first], "--partial")) {
            partial = 1;
        } else if (!strcmp(argv[first], "--mine") && first + 1 < argc) {
            mine_path = argv[++first];
        } else if (!strcmp(argv[first], "--history") && first + 1 < argc) {
            history = argv[++first];
        } else if (!strcmp(argv[first], "--text") && first + 1 < argc) {
            text_ids = argv[++first];
        } else if (!strcmp(argv[first], "--pending") && first + 1 < argc) {
            pending = argv[++first];
        } else {
            fprintf(c->err, "mmladder claims: unknown option '%s' (expected --markdown, "
                            "--text ID,..., --partial, --pending ROLE,..., --mine FILE or "
                            "--history FILE)\n",
                    argv[first]);
            return EXIT_INPUT;
        }
    }
    if (history && mine_path) {
        fprintf(c->err, "mmladder claims: --history and --mine exclude each other (a band is "
                        "stated before the reference runs, not before a reviewer's)\n");
        return EXIT_INPUT;
    }
    char err[PATH_MAX + 512];
    struct claims *cs = calloc(1, sizeof *cs);
    struct claim_result *rs = calloc(CLAIM_MAX, sizeof *rs);
    struct run *runs = calloc(CLI_MAX_RUNS + 1, sizeof *runs);
    struct claim_history *h = calloc(CLAIM_MAX, sizeof *h);
    if (!cs || !rs || !runs || !h) {
        fprintf(c->err, "mmladder claims: out of memory\n");
        free(cs), free(rs), free(runs), free(h);
        return EXIT_INPUT;
    }
    int rc = EXIT_INPUT, n = -1;
    if (claims_load(argv[2], cs, err, sizeof err) != 0 ||
        (history && claims_history_load(history, cs, h, err, sizeof err) != 0)) {
        fprintf(c->err, "mmladder: %s\n", err);
        goto out;
    }
    n = cli_open_runs(c, argc, argv, first, runs, CLI_MAX_RUNS, partial ? 2 : 1);
    if (n < 0) goto out;
    if (claims_check_roles(cs, runs, (size_t)n, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder claims: %s\n", err);
        goto out;
    }
    for (const char *p = pending; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        const size_t len = strcspn(p, ",");
        int declared = 0, given = 0;
        for (size_t k = 0; k < cs->n_roles; k++)
            declared |= strlen(cs->roles[k].role) == len && !strncmp(cs->roles[k].role, p, len);
        for (int i = 0; i < n; i++) given |= strlen(runs[i].role) == len && !strncmp(runs[i].role, p, len);
        if (!declared || given) {
            fprintf(c->err, "mmladder claims: --pending '%.*s': %s (expected roles of %s's [roles] "
                            "whose runs are not made yet)\n", (int)len, p,
                    given ? "a run is given for it" : "no such role", argv[2]);
            goto out;
        }
    }
    if (mine_path && derive_open(&runs[CLI_MAX_RUNS], "mine", mine_path, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s\n", err);
        goto out;
    }
    for (size_t i = 0; i < cs->n; i++) {
        if (mine_path)
            claims_evaluate_mine(&cs->c[i], &runs[CLI_MAX_RUNS], runs, (size_t)n, &rs[i]);
        else
            claims_evaluate(&cs->c[i], runs, (size_t)n, &rs[i]);
        if (history) claims_classify(&cs->c[i], &h[i], runs, (size_t)n, &rs[i]);
    }
    if (text_ids) {
        rc = say_texts(c, cs, rs, text_ids);
        goto out;
    }
    size_t failed = claims_report(c->out, cs, rs, markdown);
    size_t stated[STATED_UNRECORDED + 1] = {0};
    for (size_t i = 0; i < cs->n; i++) stated[rs[i].stated]++;
    size_t evaluated = 0, held = 0, elsewhere = 0, waiting = 0;
    for (size_t i = 0; i < cs->n; i++) {
        evaluated += rs[i].verdict != CLAIM_NOT_EVALUATED;
        waiting += rs[i].verdict == CLAIM_NOT_EVALUATED && waits_for_pending(&cs->c[i], pending, runs, n);
        held += rs[i].verdict == CLAIM_PASSED;
        elsewhere += rs[i].verdict == CLAIM_FAILED && rs[i].elsewhere;
    }
    if (!markdown && mine_path)
        fprintf(c->out, "\n%zu of %zu claims evaluated on %s: %zu held, %zu not held, %zu not held "
                        "here (about the reference machines' CPUs: reported, never failed); the "
                        "other %zu need a GPU run, the reference GPU model or two reference runs "
                        "(make check-claims checks them on the shipped files)\n",
                evaluated, cs->n, mine_path, held, failed, elsewhere, cs->n - evaluated);
    else if (!markdown)
        fprintf(c->out, "\n%zu claims: %zu evaluated, %zu failed, %zu not evaluated (%zu waiting "
                        "for runs not made yet)\n", cs->n, evaluated, failed, cs->n - evaluated,
                waiting);
    if (!markdown && history)
        fprintf(c->out, "bands: %zu predicted (stated before the runs that judge them), %zu "
                        "revised after them (each with its record), %zu stated after their data, "
                        "%zu moved without a record, %zu not known\n", stated[STATED_BEFORE],
                stated[STATED_REVISED], stated[STATED_AFTER], stated[STATED_UNRECORDED],
                stated[STATED_UNKNOWN]);
    rc = failed ? EXIT_INPUT : EXIT_OK;
    if (stated[STATED_UNRECORDED]) {
        size_t k = 0;
        while (rs[k].stated != STATED_UNRECORDED) k++;
        fprintf(c->err, "mmladder claims: %zu band%s moved after the runs that judge %s without a "
                        "record (the first, [%s]: %s)\n", stated[STATED_UNRECORDED],
                stated[STATED_UNRECORDED] == 1 ? "" : "s",
                stated[STATED_UNRECORDED] == 1 ? "it" : "them", cs->c[k].id, rs[k].stated_text);
        rc = EXIT_INPUT;
    }
    if (evaluated + waiting < cs->n && !partial && !mine_path) {
        size_t first_missing = 0;
        while (rs[first_missing].verdict != CLAIM_NOT_EVALUATED ||
               waits_for_pending(&cs->c[first_missing], pending, runs, n))
            first_missing++;
        fprintf(c->err, "mmladder claims: %zu of %zu claims not evaluated (the first, [%s]: %s); "
                        "a claim not evaluated is not passed (expected every run the claims "
                        "name, or --partial for those the runs given allow)\n",
                cs->n - evaluated - waiting, cs->n, cs->c[first_missing].id, rs[first_missing].why);
        rc = EXIT_INPUT;
    }
    if (mine_path) derive_close(&runs[CLI_MAX_RUNS]);
out:
    for (int i = 0; i < n; i++) derive_close(&runs[i]);
    free(cs), free(rs), free(runs), free(h);
    return rc;
}

/* values --claims CLAIMS.ini [--history HISTORY.tsv] --out VALUES.tex --tables DIR
 * ROLE=FILE... -- TEX...: every \\val{KEY} and \\valtable{NAME} the TeX files
 * use, answered (the claims' bands classified by their history where given). */
int cmd_values(const struct cli *c, int argc, char **argv)
{
    const char *claims_path = NULL, *out = NULL, *tables = NULL, *history = NULL;
    int i = 2;
    for (; i + 1 < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i += 2) {
        if (!strcmp(argv[i], "--claims")) claims_path = argv[i + 1];
        else if (!strcmp(argv[i], "--out")) out = argv[i + 1];
        else if (!strcmp(argv[i], "--tables")) tables = argv[i + 1];
        else if (!strcmp(argv[i], "--history")) history = argv[i + 1];
        else break;
    }
    int dash = i;
    while (dash < argc && strcmp(argv[dash], "--")) dash++;
    if (!claims_path || !out || !tables || dash >= argc - 1) {
        fprintf(c->err, "mmladder values: usage: values --claims CLAIMS.ini [--history "
                        "HISTORY.tsv] --out VALUES.tex --tables DIR ROLE=FILE.h5 ... -- "
                        "PAPER.tex ...\n");
        return EXIT_INPUT;
    }
    char err[PATH_MAX + 512];
    struct claims *cs = calloc(1, sizeof *cs);
    struct claim_result *rs = calloc(CLAIM_MAX, sizeof *rs);
    struct run *runs = calloc(CLI_MAX_RUNS, sizeof *runs);
    struct claim_history *h = calloc(CLAIM_MAX, sizeof *h);
    int rc = EXIT_INPUT, n = -1;
    if (!cs || !rs || !runs || !h) goto out;
    if (claims_load(claims_path, cs, err, sizeof err) != 0 ||
        (history && claims_history_load(history, cs, h, err, sizeof err) != 0)) {
        fprintf(c->err, "mmladder: %s\n", err);
        goto out;
    }
    char *saved = argv[dash];
    argv[dash] = NULL;   /* cli_open_runs stops at argc: give it the runs only */
    n = cli_open_runs(c, dash, argv, i, runs, CLI_MAX_RUNS, 1);
    argv[dash] = saved;
    if (n < 0) goto out;
    if (claims_check_roles(cs, runs, (size_t)n, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder values: %s\n", err);
        goto out;
    }
    for (size_t k = 0; k < cs->n; k++) {
        claims_evaluate(&cs->c[k], runs, (size_t)n, &rs[k]);
        if (history) claims_classify(&cs->c[k], &h[k], runs, (size_t)n, &rs[k]);
    }
    if (values_write((const char *const *)argv + dash + 1, (size_t)(argc - dash - 1), out, tables,
                     runs, (size_t)n, cs, rs, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder values: %s\n", err);
        goto out;
    }
    rc = EXIT_OK;
out:
    for (int k = 0; k < n; k++) derive_close(&runs[k]);
    free(cs), free(rs), free(runs), free(h);
    return rc;
}
