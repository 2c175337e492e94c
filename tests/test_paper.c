/* The paper's values: `mmladder values` must answer every \val{KEY} and
 * \valtable{NAME} of the paper's sources (paper/, .tex) from the shipped result files, and fail,
 * naming file:line and the key, on one it cannot answer; and the paper's prose
 * must hold no hand-typed measurement.  Run from the repository root, like the
 * rest of the suite. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <glob.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/registry.h"

#include "util.h"

/* ---- helpers --------------------------------------------------------------------- */

/* The .tex files of paper/, sorted; globfree() it. */
static void paper_sources(glob_t *g)
{
    if (glob("paper/*.tex", 0, NULL, g) != 0 || g->gl_pathc < 2)
        fail_msg("paper/*.tex not found (run the tests from the repository root)");
}

/* `mmladder values` over `tex` with the shipped reference runs, writing into
 * dir; returns its exit status. */
/* mmladder values over the reference runs, with CLAIMS (and its history
 * HISTORY, or none), writing into dir. */
static int run_values_of(const char *claims, const char *history, const char *dir,
                         char *const *tex, size_t ntex, char **out, char **err)
{
    char values[512], runs[TEST_MAX_RUNS][600];
    char *argv[64];
    int n = 0;
    snprintf(values, sizeof values, "%s/values.tex", dir);
    argv[n++] = (char *)test_binary();
    argv[n++] = "values";
    argv[n++] = "--claims";
    argv[n++] = (char *)claims;
    if (history) {
        argv[n++] = "--history";
        argv[n++] = (char *)history;
    }
    argv[n++] = "--out";
    argv[n++] = values;
    argv[n++] = "--tables";
    argv[n++] = (char *)dir;
    const size_t nruns = test_reference_runs(runs, TEST_MAX_RUNS);
    for (size_t i = 0; i < nruns; i++) argv[n++] = runs[i];
    argv[n++] = "--";
    for (size_t i = 0; i < ntex && n < 63; i++) argv[n++] = tex[i];
    argv[n] = NULL;
    return test_run(argv, out, err);
}

static int run_values(const char *dir, char *const *tex, size_t ntex, char **out, char **err)
{
    return run_values_of("paper/claims.ini", "paper/claims-history.tsv", dir, tex, ntex, out, err);
}

/* The text of a LaTeX line without its comment (from an unescaped %). */
static void strip_comment(char *line)
{
    for (char *c = line; (c = strchr(c, '%')); c++)
        if (c == line || c[-1] != '\\') {
            *c = '\0';
            return;
        }
}

/* Call fn(name, table, file, line, ctx) for every \val{NAME} and
 * \valtable{NAME} of a file, outside comments and macro definitions (#). */
typedef void (*key_fn)(const char *name, int table, const char *file, int line, void *ctx);
static void each_key(const char *file, key_fn fn, void *ctx)
{
    FILE *f = fopen(file, "r");
    assert_non_null(f);
    char line[4096];
    for (int no = 1; fgets(line, sizeof line, f); no++) {
        strip_comment(line);
        for (char *s = line; (s = strstr(s, "\\val"));) {
            const int table = !strncmp(s, "\\valtable{", 10);
            if (!table && strncmp(s, "\\val{", 5)) {
                s += 4;
                continue;
            }
            char *k = s + (table ? 10 : 5), *e = strchr(k, '}');
            assert_non_null(e);
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(e - k), k);
            if (!strchr(name, '#')) fn(name, table, file, no, ctx);
            s = e + 1;
        }
    }
    fclose(f);
}

struct answered {
    const char *dir, *values;
    size_t keys, tables;
};

static void check_answered(const char *name, int table, const char *file, int line, void *ctx)
{
    struct answered *a = ctx;
    if (table) {
        char path[600];
        snprintf(path, sizeof path, "%s/table-%s.tex", a->dir, name);
        char *rows = test_read_file(path, NULL);
        if (!rows || !strstr(rows, "\\\\"))
            fail_msg("%s:%d: \\valtable{%s}: no rows in %s", file, line, name, path);
        free(rows);
        a->tables++;
    } else {
        char def[300];
        snprintf(def, sizeof def, "\\valdef{%s}{", name);
        const char *at = strstr(a->values, def);
        if (!at) fail_msg("%s:%d: \\val{%s} has no \\valdef in values.tex", file, line, name);
        if (at[strlen(def)] == '}')
            fail_msg("%s:%d: \\val{%s} is empty", file, line, name);
        a->keys++;
    }
}

/* ---- the hand-typed-measurement rule ----------------------------------------------

 * A measured number in the paper is pulled by \val{}; a number typed by hand is
 * a design parameter (a size, a rung, a tile width, a count of things in the
 * design).  The rule, over the document (main.tex from \begin{document}) with
 * comments and every \val{...} / \valtable{...} taken out:
 *   - a number with a decimal point ("96.1", ".5"), in text or in math, unless
 *     a TeX length follows it (2.6pt, 0.6\textwidth: layout);
 *   - outside math, an integer followed by \% or by a unit of a measurement
 *     (GFLOP/s, TFLOP/s, GB/s, TB/s, ms, MHz), or right after \x (a factor);
 * in math ($...$, \(...\), equation), integers with \% are allowed: the
 * tolerance of a reproduction, $\pm10\%$, is a design parameter.  So
 * "reaches 96.1\%" and "49907~GFLOP/s" fail; "n = 4096", "TS $=32$" and
 * "\val{h100.pct_ref.gpu_async_copy.4096}\%" pass. */

static int length_unit_at(const char *s)
{
    static const char *const units[] = {"pt", "em", "ex", "in", "cm", "mm", "bp", "sp",
                                        "\\textwidth", "\\linewidth", "\\columnwidth",
                                        "\\textheight", "\\baselineskip"};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strncmp(s, units[i], strlen(units[i]))) return 1;
    return 0;
}

static int measure_unit_at(const char *s)
{
    static const char *const units[] = {"\\%", "GFLOP/s", "TFLOP/s", "GB/s", "TB/s", "ms",
                                        "MHz"};
    while (*s == '~' || *s == ' ' || *s == '{' || *s == '}') s++;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strncmp(s, units[i], strlen(units[i]))) return 1;
    return 0;
}

/* Every hand-typed measurement of `text` (a whole file) as "FILE:LINE: ..."
 * lines appended to report; returns how many. */
static size_t typed_numbers(const char *file, const char *text, char *report, size_t len)
{
    size_t found = 0;
    int math = 0, line = 1, body = strstr(file, "main.tex") == NULL;
    char buf[4096];
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        const size_t n = nl ? (size_t)(nl - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), p);
        p += n + (nl != NULL);
        strip_comment(buf);
        if (!body) {
            body = strstr(buf, "\\begin{document}") != NULL;
            line++;
            continue;
        }
        /* \val{...} and \valtable{...} out (a letter in their place) */
        for (char *v; (v = strstr(buf, "\\val"));) {
            char *e = strchr(v, '}');
            if (!e) break;
            *v = 'V';
            memmove(v + 1, e + 1, strlen(e + 1) + 1);
        }
        for (char *s = buf; *s; s++) {
            if (s[0] == '\\' && (s[1] == '$' || s[1] == '%')) {   /* escaped */
                s++;
                continue;
            }
            if (*s == '$' || (s[0] == '\\' && (s[1] == '(' || s[1] == ')'))) {
                math = *s == '$' ? !math : s[1] == '(';
                continue;
            }
            if (!strncmp(s, "\\begin{equation", 15)) math = 1;
            if (!strncmp(s, "\\end{equation", 13)) math = 0;
            const int factor = s >= buf + 2 && s[-2] == '\\' && s[-1] == 'x';
            const int starts = isdigit((unsigned char)s[0]) &&
                               (s == buf || !isalnum((unsigned char)s[-1]) || factor);
            const int dot = s[0] == '.' && isdigit((unsigned char)s[1]) &&
                            (s == buf || !isalnum((unsigned char)s[-1]));
            if (!starts && !dot) continue;
            const char *e = s;
            while (isdigit((unsigned char)*e)) e++;
            int decimal = 0;
            if (*e == '.' && isdigit((unsigned char)e[1])) {
                decimal = 1;
                for (e++; isdigit((unsigned char)*e); e++) {}
            }
            const int bad = (decimal && !length_unit_at(e)) ||
                            (!math && (measure_unit_at(e) || factor));
            if (bad) {
                found++;
                const size_t used = strlen(report);
                snprintf(report + used, len - used, "%s:%d: '%.*s'\n", file, line,
                         (int)(e - s + 8), s);
            }
            s = (char *)e - 1;
        }
        line++;
    }
    return found;
}

/* ---- tests ------------------------------------------------------------------------ */

static void values_answer_every_key_of_the_paper(void **state)
{
    (void)state;
    glob_t g;
    paper_sources(&g);
    char dir[256];
    test_tmpdir(dir, sizeof dir);
    char *out, *err;
    int rc = run_values(dir, g.gl_pathv, g.gl_pathc, &out, &err);
    if (rc != 0) fail_msg("mmladder values on paper/*.tex exited %d: %s", rc, err);
    free(out);
    free(err);

    char path[300];
    snprintf(path, sizeof path, "%s/values.tex", dir);
    char *values = test_read_file(path, NULL);
    if (!values) fail_msg("mmladder values wrote no %s", path);
    struct answered a = {dir, values, 0, 0};
    for (size_t i = 0; i < g.gl_pathc; i++) each_key(g.gl_pathv[i], check_answered, &a);
    /* the paper pulls its numbers from every run, and its tables */
    assert_true(a.keys > 100);
    assert_true(a.tables >= 4);
    assert_non_null(strstr(values, "\\valdef{h100.gpu_short}{H100}"));
    assert_non_null(strstr(values, "\\valdef{claim.reproduction.dev_pct}{"));
    assert_non_null(strstr(values, "\\valdef{repro.commit}{"));
    assert_non_null(strstr(values, "\\valdef{transfers.copy_pct."));
    assert_null(strstr(values, "nan}"));
    assert_null(strstr(values, "inf}"));
    free(values);
    test_rmtree(dir);
    globfree(&g);
}

/* One quantity, one set of runs: a claim printed beside a table that shows its
 * value spans that table's runs, and two printed claims of one quantity span
 * the same runs (harness/claims/quantity.h); values refuses, naming them. */
static void one_quantity_is_printed_over_one_set_of_runs(void **state)
{
    (void)state;
    char dir[256], tex[300], claims[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(tex, sizeof tex, "%s/q.tex", dir);
    snprintf(claims, sizeof claims, "%s/claims.ini", dir);
    /* the shipped claims, and restrict_o1's value again over another pair of runs */
    char *shipped = test_read_file("paper/claims.ini", NULL);
    assert_non_null(shipped);
    static const char again[] = "\n[restrict_o1_again]\ntext = {range}\n"
                                "value = ratio host_restrict host_naive\nopt_levels = 1\n"
                                "other_opt_levels = 1\nruns = h100 repro\nshapes = 128 256\n"
                                "expect = at_least 1.2\nscope = any\n";
    char *copy = malloc(strlen(shipped) + sizeof again);
    assert_non_null(copy);
    sprintf(copy, "%s%s", shipped, again);
    test_write_file(claims, copy);
    const struct {
        const char *claims, *text;
        int rc;
        const char *expect;
    } cases[] = {
        {"paper/claims.ini", "\\val{claim.restrict_o1.measured}\n\\valtable{host.h100-h200}\n", 0, NULL},
        {"paper/claims.ini", "\\val{claim.restrict_o1.measured}\n\\valtable{host.h100-repro}\n", 1,
         "[restrict_o1] spans the runs h100 h200, but the tables that show its value "
         "(host.h100-repro) show h100 repro: a range in the text spans the runs of the table "
         "beside it"},
        {claims, "\\val{claim.restrict_o1.measured} \\val{claim.restrict_o1_again.measured}\n", 1,
         "[restrict_o1_again] print one quantity over different runs (h100 h200; h100 repro)"},
        {claims, "\\val{claim.restrict_o1.measured}\n", 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_write_file(tex, cases[i].text);
        char *out, *err, *texs[] = {tex};
        const int rc = run_values_of(cases[i].claims, NULL, dir, texs, 1, &out, &err);
        if (rc != cases[i].rc || (cases[i].expect && !strstr(err, cases[i].expect)))
            fail_msg("case %zu: exit %d, wanted %d: %s", i, rc, cases[i].rc, err);
        free(out), free(err);
    }
    free(shipped), free(copy);
    test_rmtree(dir);
}

static void an_unknown_key_fails_naming_file_and_line(void **state)
{
    (void)state;
    char dir[256], ok[300], bad[300], table[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(ok, sizeof ok, "%s/ok.tex", dir);
    snprintf(bad, sizeof bad, "%s/bad.tex", dir);
    snprintf(table, sizeof table, "%s/table.tex", dir);
    test_write_file(ok, "The H100 runs at \\val{h100.tflops.cublas_fp32.4096}~TFLOP/s.\n"
                        "% \\val{in.a.comment} names nothing\n");
    test_write_file(bad, "Known \\val{h100.gpu_short}, and\n"
                         "unknown \\val{h100.no_such_value} here.\n");
    test_write_file(table, "\n\n\\valtable{no_such_table.h100}\n");

    /* the files given, the exit status, and what stderr names (NULL: nothing asked) */
    const struct {
        char *tex[2];
        size_t ntex;
        int rc;
        const char *expect[2];
    } cases[] = {
        {{ok}, 1, 0, {NULL, NULL}},   /* known keys, and one in a comment */
        {{ok, bad}, 2, 1, {"bad.tex:2", "h100.no_such_value"}},
        {{table}, 1, 1, {"table.tex:3", "no_such_table.h100"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        const int rc = run_values(dir, cases[i].tex, cases[i].ntex, &out, &err);
        if (rc != cases[i].rc)
            fail_msg("case %zu (%s): exit %d, wanted %d: %s", i, cases[i].tex[cases[i].ntex - 1],
                     rc, cases[i].rc, err);
        for (size_t k = 0; k < 2 && cases[i].expect[k]; k++)
            if (!strstr(err, cases[i].expect[k]))
                fail_msg("case %zu (%s): no \"%s\" in stderr:\n%s", i,
                         cases[i].tex[cases[i].ntex - 1], cases[i].expect[k], err);
        free(out);
        free(err);
    }
    test_rmtree(dir);
}

/* The counts of rungs the paper prints are of the rungs its runs measured (a
 * rung added since is not counted), and a rung's number is its place in the
 * registry: a run of one host rung counts one rung, one host rung, no kernel
 * past the tutorials; an unknown rung's number is refused, naming it. */
static void registry_keys_count_the_measured_rungs(void **state)
{
    (void)state;
    char dir[256], ini[300], h5[300], claims[300], tex[300], bad[300], arg[320], values[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(ini, sizeof ini, "%s/one.ini", dir);
    snprintf(h5, sizeof h5, "%s/one.h5", dir);
    snprintf(claims, sizeof claims, "%s/claims.ini", dir);
    snprintf(tex, sizeof tex, "%s/keys.tex", dir);
    snprintf(bad, sizeof bad, "%s/bad.tex", dir);
    snprintf(values, sizeof values, "%s/values.tex", dir);
    test_write_file(ini, "[experiment]\nname = one\nseed = 3\n[h]\nvariants = host_naive\n"
                         "sizes = 8\nopt_levels = 1\n");
    test_write_file(claims, "[c]\ntext = {range} rows unverified\nvalue = unverified\nruns = host\n"
                            "expect = at_most 0\n");
    test_write_file(tex, "\\val{registry.rungs} \\val{registry.host_rungs} \\val{registry.past_rungs} "
                         "\\val{registry.number.dispatch_fp32}\n");
    test_write_file(bad, "\\val{registry.number.no_such_rung}\n");
    char *out, *err;
    char *run[] = {(char *)test_binary(), "run", ini, "-o", h5, NULL};
    assert_int_equal(test_run(run, &out, &err), 0);
    free(out), free(err);
    snprintf(arg, sizeof arg, "host=%s", h5);
    char *ok[] = {(char *)test_binary(), "values", "--claims", claims, "--out", values, "--tables", dir,
                  arg, "--", tex, NULL};
    if (test_run(ok, &out, &err) != 0) fail_msg("values: %s", err);
    free(out), free(err);
    char *text = test_read_file(values, NULL), want[256];
    const struct variant *d = registry_find("dispatch_fp32");
    assert_non_null(d);
    snprintf(want, sizeof want, "\\valdef{registry.number.dispatch_fp32}{%d}", registry_number(d));
    const char *expect[] = {"\\valdef{registry.rungs}{1}", "\\valdef{registry.host_rungs}{1}",
                            "\\valdef{registry.past_rungs}{0}", want};
    for (size_t i = 0; i < 4; i++)
        if (!strstr(text, expect[i])) fail_msg("no %s in:\n%s", expect[i], text);
    free(text);
    char *refused[] = {(char *)test_binary(), "values", "--claims", claims, "--out", values, "--tables",
                       dir, arg, "--", bad, NULL};
    assert_int_equal(test_run(refused, &out, &err), 1);
    if (!strstr(err, "no_such_rung") || !strstr(err, "bad.tex:1")) fail_msg("stderr: %s", err);
    free(out), free(err);
    test_rmtree(dir);
}

static void no_paper_source_uses_a_num_macro(void **state)
{
    (void)state;
    glob_t g;
    paper_sources(&g);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char *text = test_read_file(g.gl_pathv[i], NULL);
        assert_non_null(text);
        const char *at = strstr(text, "\\Num");
        if (at) fail_msg("%s uses a generated number macro: %.40s", g.gl_pathv[i], at);
        free(text);
    }
    globfree(&g);
}

static void the_prose_holds_no_hand_typed_measurement(void **state)
{
    (void)state;
    /* the rule catches what it must, and lets design parameters through */
    static const struct {
        const char *text;
        size_t expect;
    } cases[] = {
        {"\\begin{document}\nreaches 96.1\\% of cuBLAS\n", 1},
        {"\\begin{document}\nat 49907~GFLOP/s, or 41\\%\n", 2},
        {"\\begin{document}\nin math $96.1$ too, and a factor \\x3\n", 2},
        {"\\begin{document}\nreaches \\val{h100.pct_ref.gpu_async_copy.4096}\\% at $n=4096$\n", 0},
        {"\\begin{document}\nTS $=32$, $\\pm10\\%$, 16 ops per load, 8~KiB, rung 12\n", 0},
        {"\\begin{document}\n\\setlength{\\tabcolsep}{2.6pt} 0.6\\textwidth\n", 0},
        {"\\begin{document}\n% 96.1\\% in a comment\n100\\% escaped: \\$5\n", 1},
        {"\\usepackage[margin=0.75in]{geometry}\n\\begin{document}\n", 0},
    };
    char report[4096];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        report[0] = '\0';
        const size_t n = typed_numbers("case.tex", cases[i].text, report, sizeof report);
        if (n != cases[i].expect)
            fail_msg("case %zu: %zu found, expected %zu:\n%s", i, n, cases[i].expect, report);
    }
    /* the paper itself */
    glob_t g;
    paper_sources(&g);
    report[0] = '\0';
    size_t found = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char *text = test_read_file(g.gl_pathv[i], NULL);
        assert_non_null(text);
        found += typed_numbers(g.gl_pathv[i], text, report, sizeof report);
        free(text);
    }
    if (found) fail_msg("hand-typed measurements in the paper (use \\val{KEY}):\n%s", report);
    globfree(&g);
}

/* Does some paper source hold `needle`? */
static int paper_holds(const glob_t *g, const char *needle)
{
    int found = 0;
    for (size_t i = 0; i < g->gl_pathc && !found; i++) {
        char *text = test_read_file(g->gl_pathv[i], NULL);
        assert_non_null(text);
        found = strstr(text, needle) != NULL;
        free(text);
    }
    return found;
}

/* A claim's `figure` names the paper's figures and tables by their numbers in
 * the paper: figure N is the one drawn into build/figures/NN_name.pdf, whose
 * \widefig{NN_name} stops the LaTeX build unless it is figure N (main.tex), and
 * table N one whose source says \claimtable{N}, which does the same.  So each
 * number a claim names must be such a figure or table. */
static void claims_name_the_papers_figures_and_tables(void **state)
{
    (void)state;
    glob_t g;
    paper_sources(&g);
    FILE *f = fopen("paper/claims.ini", "r");
    assert_non_null(f);
    char line[512], report[4096] = "";
    size_t bad = 0;
    for (int no = 1; fgets(line, sizeof line, f); no++) {
        if (strncmp(line, "figure = ", 9)) continue;
        line[strcspn(line, "\n")] = '\0';
        for (char *item = strtok(line + 9, ","); item; item = strtok(NULL, ",")) {
            while (*item == ' ') item++;
            int table = !strncmp(item, "table ", 6), n;
            char tail, needle[64];
            if (sscanf(item + (table ? 6 : 0), "%d%c", &n, &tail) != 1) {
                if (strpbrk(item, "0123456789") == NULL) continue;   /* words: "all (...)" */
                n = -1;
            }
            if (table) snprintf(needle, sizeof needle, "\\claimtable{%d}", n);
            else snprintf(needle, sizeof needle, "\\widefig{%02d_", n);
            if (n < 1 || !paper_holds(&g, needle)) {
                bad++;
                const size_t used = strlen(report);
                snprintf(report + used, sizeof report - used,
                         "paper/claims.ini:%d: figure = ... '%s': no %s of the paper (%s...})\n", no,
                         item, table ? "table" : "figure", needle);
            }
        }
    }
    fclose(f);
    globfree(&g);
    if (bad) fail_msg("%zu figures or tables that the paper does not have:\n%s", bad, report);
}

/* scripts/check-paper.sh, run by `make paper` after LaTeX: on a log and a
 * bibliography made to fail (no LaTeX needed), each problem named by file and
 * line, what stays within bounds let through. */
static void the_paper_check_names_each_problem(void **state)
{
    (void)state;
    char dir[256], bib[300], log[300], good[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(bib, sizeof bib, "%s/refs.bib", dir);
    snprintf(log, sizeof log, "%s/main.log", dir);
    snprintf(good, sizeof good, "%s/good.bib", dir);
    test_write_file(good,
        "% a comment, and entries of each kind that pass\n"
        "@string{nv = {NVIDIA}}\n"
        "@manual{guide, organization = {NVIDIA}, title = {A guide}, year = 2025,\n"
        "  url = {https://docs.nvidia.com/cuda/}}\n"
        "@article{paper, author = \"A. Person and B. Other\", title = {T {with} braces},\n"
        "  year = {2009}, doi = {10.1145/1498765.1498785}}\n"
        "@misc{site, author = {{NVIDIA}}, title = {X}, year = {2020},\n"
        "  url = {https://github.com/NVIDIA/nvbench}, note = {accessed 2026-11-27}}\n");
    test_write_file(bib,
        "@misc{fine, author = {A. Person}, title = {T}, year = {2022},\n"
        "  url = {https://example.org/post/}}\n"
        "\n"
        "@misc{keyed,\n"
        "  key = {Tiled}, title = {Tiled notes},\n"
        "  year = {undated}}\n"
        "@misc{no-url, author = {B. Person}, year = {2021},\n"
        "  howpublished = {\\url{https://example.org/}}}\n"
        "@misc{org-misc, organization = {Some body}, year = {2020}, url = {https://x.org/}}\n"
        "@misc{lost, title = {Notes}, unlocated = {searched,\n  not found}}\n"
        "@misc{found, author = {C. Person}, year = {2023}, url = {https://y.org/},\n"
        "  unlocated = {stale}}\n");
    test_write_file(log,
        "This is pdfTeX (preloaded format=pdflatex)\n"
        "(./paper/main.tex (/usr/share/texlive/texmf-dist/tex/latex/base/article.cls\n"
        "(/usr/share/texlive/texmf-dist/tex/latex/base/size10.clo))\n"
        "(./paper//intro.tex\n"
        "Overfull \\hbox (2.1pt too wide) in paragraph at lines 3--5\n"
        "[]\\T1/ptm/m/n/10 (+20) text with an open (parenthesis\n"
        " []\n"
        "\n"
        "Package natbib Warning: Citation `nosuch' on page 1 undefined on input line 12.\n"
        "\n"
        ") (./paper//artifact.tex\n"
        "Overfull \\hbox (68.64429pt too wide) in paragraph at lines 21--39\n"
        " [][] \n"
        " []\n"
        "\n"
        "LaTeX Warning: Reference `tab:nosuch' on page 2 undefined on input line 44.\n"
        "\n"
        ")\n"
        "LaTeX Warning: There were undefined references.\n"
        ")\n");

    char *out, *err;
    char *ok[] = {"scripts/check-paper.sh", "-b", good, NULL};
    int rc = test_run(ok, &out, &err);
    if (rc != 0) fail_msg("check-paper.sh -b on good entries: exit %d\n%s", rc, err);
    free(out);
    free(err);

    char *bad[] = {"scripts/check-paper.sh", "-l", log, "-b", bib, NULL};
    rc = test_run(bad, &out, &err);
    assert_int_equal(rc, 1);
    const char *expect[] = {
        "refs.bib:4: entry `keyed' has no author",
        "key = {Tiled} would be printed",
        "refs.bib:4: entry `keyed' has year `undated'",
        "refs.bib:4: entry `keyed' has no url",
        "refs.bib:7: entry `no-url' has no url",
        "refs.bib:9: entry `org-misc' has no author",
        "refs.bib:10: note: entry `lost' is unlocated, so without author, year or url: searched, not found",
        "refs.bib:12: entry `found' has an author, a year and a url: remove its unlocated field",
        "paper/artifact.tex:21: overfull \\hbox, 68.6pt past the margin",
        "paper/intro.tex:12: citation `nosuch' is undefined",
        "paper/artifact.tex:44: reference `tab:nosuch' is undefined",
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        if (!strstr(err, expect[i])) fail_msg("no \"%s\" in:\n%s", expect[i], err);
    /* within bounds: the 2.1pt box, and the entry with everything */
    assert_null(strstr(err, "intro.tex:3"));
    assert_null(strstr(err, "`fine'"));
    assert_int_equal(test_count_of(err, "\n"), 10);
    free(out);
    free(err);

    /* a wider allowance lets the 68.6pt box through, and only it */
    char *wide[] = {"scripts/check-paper.sh", "-w", "70", "-l", log, NULL};
    rc = test_run(wide, &out, &err);
    assert_int_equal(rc, 1);
    assert_null(strstr(err, "overfull"));
    free(out);
    free(err);
    test_rmtree(dir);
}

static void every_bibliography_entry_has_author_year_and_url(void **state)
{
    (void)state;
    char *argv[] = {"scripts/check-paper.sh", "-b", "paper/references.bib", NULL}, *out, *err;
    const int rc = test_run(argv, &out, &err);
    if (rc != 0) fail_msg("scripts/check-paper.sh -b paper/references.bib: exit %d\n%s", rc, err);
    free(out);
    free(err);
}

const struct CMUnitTest paper_tests[] = {
    cmocka_unit_test(values_answer_every_key_of_the_paper),
    cmocka_unit_test(an_unknown_key_fails_naming_file_and_line),
    cmocka_unit_test(registry_keys_count_the_measured_rungs),
    cmocka_unit_test(no_paper_source_uses_a_num_macro),
    cmocka_unit_test(the_prose_holds_no_hand_typed_measurement),
    cmocka_unit_test(claims_name_the_papers_figures_and_tables),
    cmocka_unit_test(one_quantity_is_printed_over_one_set_of_runs),
    cmocka_unit_test(the_paper_check_names_each_problem),
    cmocka_unit_test(every_bibliography_entry_has_author_year_and_url),
};
const size_t paper_tests_count = sizeof paper_tests / sizeof paper_tests[0];
