/* Tests of the experiment-file parser (the .c files of harness/experiment/). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment/experiment.h"

extern const struct CMUnitTest experiment_tests[];
extern const size_t experiment_tests_count;

/* struct experiment is large (tens of kilobytes per sweep): keep it off the stack. */
static struct experiment *new_experiment(void)
{
    struct experiment *e = calloc(1, sizeof *e);
    assert_non_null(e);
    return e;
}

static void parse_ok(const char *text, struct experiment *e)
{
    char err[1024] = "";
    int r = experiment_parse("t.ini", text, e, err, sizeof err);
    if (r != 0) fail_msg("unexpected error: %s", err);
    assert_int_equal(r, 0);
}

static void assert_axis(const struct int_axis *ax, int line, int n, const int *v)
{
    assert_int_equal(ax->line, line);
    assert_int_equal(ax->n, n);
    for (int i = 0; i < n; i++) assert_int_equal(ax->v[i], v[i]);
}

static void assert_shape(const struct shape_entry *s, int M, int N, int K, int line)
{
    assert_int_equal(s->M, M);
    assert_int_equal(s->N, N);
    assert_int_equal(s->K, K);
    assert_int_equal(s->line, line);
}

static const char good_file[] =
    "; an experiment with every key\n"                          /* 1 */
    "[experiment]\n"                                            /* 2 */
    "name = paper-1_x\n"                                        /* 3 */
    "description = the ladder ; an inline comment\n"           /* 4 */
    "seed = 18446744073709551615\n"                             /* 5 */
    "\n"                                                        /* 6 */
    "[sampling]\n"                                              /* 7 */
    "gpu_min_samples = 5\n"                                     /* 8 */
    "gpu_max_samples = 50\n"                                    /* 9 */
    "gpu_min_time_ms = 12.5\n"                                  /* 10 */
    "gpu_timeout_ms = 2000\n"                                   /* 11 */
    "host_min_samples = 2\n"                                    /* 12 */
    "host_max_samples = 9\n"                                    /* 13 */
    "host_min_time_ms = 100\n"                                  /* 14 */
    "host_timeout_ms = 4000\n"                                  /* 15 */
    "host_long_point_ms = 30000\n"                              /* 16 */
    "target_rel_stddev = 0.01\n"                                /* 17 */
    "# a hash comment\n"                                        /* 18 */
    "[gpu]\n"                                                   /* 19 */
    "variants = gpu_tiled cublas_fp32 ; both\n"                 /* 20 */
    "sizes = 128 256\n"                                         /* 21 */
    "shapes = 1000x1500x700\n"                                  /* 22 */
    "   64x32x16 ; a continuation line\n"                       /* 23 */
    "tiles = 8 16 32\n"                                         /* 24 */
    "wpts = 1 2 4\n"                                            /* 25 */
    "\n"                                                        /* 26 */
    "[host-1]\n"                                                /* 27 */
    "variants: host_naive\n"                                    /* 28 */
    "shapes = 7x8x9\n"                                          /* 29 */
    "sizes = 16\n"                                              /* 30 */
    "opt_levels = 0 1 2 3\n";                                   /* 31 */

static void test_good_file(void **state)
{
    (void)state;
    struct experiment *e = new_experiment();
    parse_ok(good_file, e);

    assert_string_equal(e->path, "t.ini");
    assert_string_equal(e->name, "paper-1_x");
    assert_string_equal(e->description, "the ladder");
    assert_true(e->seed == UINT64_C(18446744073709551615));
    assert_int_equal(e->text_len, strlen(good_file));
    assert_string_equal(e->text, good_file);

    assert_int_equal(e->gpu_rule.min_samples, 5);
    assert_int_equal(e->gpu_rule.max_samples, 50);
    assert_true(e->gpu_rule.min_time_ms == 12.5);
    assert_true(e->gpu_rule.timeout_ms == 2000.0);
    assert_true(e->gpu_rule.target_rel_stddev == 0.01);
    assert_true(e->gpu_rule.long_point_ms == sampling_default_gpu().long_point_ms);
    assert_int_equal(e->host_rule.min_samples, 2);
    assert_int_equal(e->host_rule.max_samples, 9);
    assert_true(e->host_rule.min_time_ms == 100.0);
    assert_true(e->host_rule.timeout_ms == 4000.0);
    assert_true(e->host_rule.long_point_ms == 30000.0);
    assert_true(e->host_rule.target_rel_stddev == 0.01);

    assert_int_equal(e->n_sweeps, 2);
    const struct sweep *g = &e->sweeps[0];
    assert_string_equal(g->name, "gpu");
    assert_int_equal(g->line, 19);
    assert_int_equal(g->n_variants, 2);
    assert_string_equal(g->variants[0], "gpu_tiled");
    assert_string_equal(g->variants[1], "cublas_fp32");
    assert_int_equal(g->variants_line, 20);
    assert_int_equal(g->n_shapes, 4);
    assert_shape(&g->shapes[0], 128, 128, 128, 21);
    assert_shape(&g->shapes[1], 256, 256, 256, 21);
    assert_shape(&g->shapes[2], 1000, 1500, 700, 22);
    assert_shape(&g->shapes[3], 64, 32, 16, 23);
    assert_axis(&g->tiles, 24, 3, (const int[]){8, 16, 32});
    assert_axis(&g->wpts, 25, 3, (const int[]){1, 2, 4});
    assert_axis(&g->opt_levels, 0, 0, NULL);

    const struct sweep *h = &e->sweeps[1];
    assert_string_equal(h->name, "host-1");
    assert_int_equal(h->line, 27);
    assert_int_equal(h->n_variants, 1);
    assert_string_equal(h->variants[0], "host_naive");
    assert_int_equal(h->variants_line, 28);
    assert_int_equal(h->n_shapes, 2);
    assert_shape(&h->shapes[0], 7, 8, 9, 29);
    assert_shape(&h->shapes[1], 16, 16, 16, 30);
    assert_axis(&h->tiles, 0, 0, NULL);
    assert_axis(&h->wpts, 0, 0, NULL);
    assert_axis(&h->opt_levels, 31, 4, (const int[]){0, 1, 2, 3});

    experiment_free(e);
    assert_null(e->text);
    experiment_free(e); /* a second free is harmless */
    free(e);
}

/* The second timer and the pairing: off and A B B A unless the file says. */
static void test_kernel_timer_and_pairing(void **state)
{
    (void)state;
    struct experiment *e = new_experiment();
    parse_ok("[experiment]\nname = t\nseed = 1\n[sampling]\nkernel_timer = cupti\n"
             "[paired]\nvariants = gpu_async_copy\nsizes = 64\n"
             "[alone]\nvariants = gpu_async_copy\nsizes = 64\npairing = none\n", e);
    assert_int_equal(e->kernel_timer, 1);
    assert_int_equal(e->sweeps[0].unpaired, 0);
    assert_int_equal(e->sweeps[0].pairing_line, 0);
    assert_int_equal(e->sweeps[1].unpaired, 1);
    assert_int_equal(e->sweeps[1].pairing_line, 12);
    experiment_free(e);
    parse_ok("[experiment]\nname = t\nseed = 1\n[s]\nvariants = gpu_tiled\nsizes = 64\n"
             "pairing = abba\n", e);
    assert_int_equal(e->kernel_timer, 0);
    assert_int_equal(e->sweeps[0].unpaired, 0);
    experiment_free(e);
    free(e);
}

/* Files of one small sweep and no [sampling]: the seed read whole (above 2^63
 * too), the description as written ("" when none, UTF-8 kept), and the
 * default sampling rules. */
static void test_seed_description_and_defaults(void **state)
{
    (void)state;
    const struct {
        const char *text;
        uint64_t seed;
        const char *description;
    } cases[] = {
        {"[experiment]\nname = s\nseed = 9223372036854775809\n[a]\nvariants = v\nsizes = 4\n",
         UINT64_C(9223372036854775809), ""},
        {"[experiment]\nname = s\nseed = 0\n[a]\nvariants = v\nsizes = 4\n", 0, ""},
        {"[experiment]\nname = d\nseed = 1\n[a]\nvariants = v\nsizes = 4\n", 1, ""},
        {"; r\xc3\xa9sum\xc3\xa9: n \xe2\x89\xa5 1024, \xf0\x9f\x9a\x80\n"
         "[experiment]\nname = u\nseed = 1\n"
         "description = n \xe2\x89\xa5 1024 \xe2\x80\x93 \xce\xbb\t\xf4\x8f\xbf\xbf\n"
         "[a]\nvariants = v\nsizes = 4\n",
         1, "n \xe2\x89\xa5 1024 \xe2\x80\x93 \xce\xbb\t\xf4\x8f\xbf\xbf"},
    };
    const struct sampling_rule g = sampling_default_gpu(), h = sampling_default_host();
    struct experiment *e = new_experiment();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parse_ok(cases[i].text, e);
        if (e->seed != cases[i].seed)
            fail_msg("case %zu (%s): seed %" PRIu64 ", wanted %" PRIu64, i, e->name, e->seed,
                     cases[i].seed);
        if (strcmp(e->description, cases[i].description) != 0)
            fail_msg("case %zu (%s): description \"%s\", wanted \"%s\"", i, e->name,
                     e->description, cases[i].description);
        if (memcmp(&e->gpu_rule, &g, sizeof g) != 0 || memcmp(&e->host_rule, &h, sizeof h) != 0)
            fail_msg("case %zu (%s): sampling rules other than the defaults", i, e->name);
        experiment_free(e);
    }
    free(e);
}

static void test_inline_comments(void **state)
{
    (void)state;
    struct experiment *e = new_experiment();
    parse_ok("[experiment] ; the header may carry a comment\n"
             "name = c ; after whitespace, ';' starts a comment\n"
             "description = a;b #c\n" /* ';' without whitespace before it, and '#', are text */
             "seed = 7 ;\n"
             "[a];\n"
             "variants = v ; w\n"
             "sizes = 4 ;8\n"
             "tiles = 8\t; 16\n",
             e);
    assert_string_equal(e->name, "c");
    assert_string_equal(e->description, "a;b #c");
    assert_true(e->seed == 7);
    assert_int_equal(e->sweeps[0].n_variants, 1);
    assert_int_equal(e->sweeps[0].n_shapes, 1);
    assert_axis(&e->sweeps[0].tiles, 8, 1, (const int[]){8});
    experiment_free(e);
    free(e);
}


static void test_continuation_lines(void **state)
{
    (void)state;
    /* 64 values do not fit on one line; indented lines continue a list. */
    char text[4096];
    size_t at = (size_t)snprintf(text, sizeof text,
                                 "[experiment]\nname = l\nseed = 1\n"
                                 "description = first part\n   second part\n"
                                 "[a]\nvariants = v\nsizes = 4\ntiles =\n");
    for (int row = 0; row < 4; row++) {
        at += (size_t)snprintf(text + at, sizeof text - at, "    ");
        for (int i = 0; i < 16; i++)
            at += (size_t)snprintf(text + at, sizeof text - at, " %d", row * 16 + i);
        at += (size_t)snprintf(text + at, sizeof text - at, "\n\n");
    }
    struct experiment *e = new_experiment();
    parse_ok(text, e);
    assert_string_equal(e->description, "first part second part");
    assert_int_equal(e->sweeps[0].tiles.n, EXP_MAX_LIST);
    assert_int_equal(e->sweeps[0].tiles.line, 9);
    for (int i = 0; i < EXP_MAX_LIST; i++) assert_int_equal(e->sweeps[0].tiles.v[i], i);
    experiment_free(e);
    free(e);
}

static void test_crlf_bom_and_line_limit(void **state)
{
    (void)state;
    struct experiment *e = new_experiment();
    parse_ok("\xEF\xBB\xBF[experiment]\r\nname = w\r\nseed = 3\r\n[a]\r\nvariants = v\r\n"
             "sizes = 4 8\r\n",
             e);
    assert_string_equal(e->name, "w");
    assert_int_equal(e->sweeps[0].n_shapes, 2);
    assert_int_equal(e->sweeps[0].shapes[1].line, 6);
    experiment_free(e);

    /* The longest line inih takes whole: 198 characters. */
    char text[512];
    char desc[199];
    memset(desc, 'd', sizeof desc);
    memcpy(desc, "description = ", 14);
    desc[198] = '\0';
    snprintf(text, sizeof text, "[experiment]\nname = w\nseed = 3\n%s\n[a]\nvariants = v\n"
                                "sizes = 4\n", desc);
    parse_ok(text, e);
    assert_int_equal(strlen(e->description), 198 - 14);
    experiment_free(e);
    free(e);
}

static void test_reuse_and_failure_state(void **state)
{
    (void)state;
    struct experiment *e = new_experiment();
    char err[512];
    parse_ok("[experiment]\nname = r\nseed = 1\n[a]\nvariants = v\nsizes = 4\n", e);
    experiment_free(e);
    assert_int_equal(experiment_parse("t.ini", "[experiment]\nname = r\n", e, err, sizeof err),
                     -1);
    assert_null(e->text);
    assert_int_equal(e->n_sweeps, 0);
    experiment_free(e);
    free(e);
}

static char *write_temp(const char *text)
{
    const char *dir = getenv("TMPDIR");
    char *path = malloc(4096);
    assert_non_null(path);
    snprintf(path, 4096, "%s/test_experiment_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

static void test_load_file_verbatim(void **state)
{
    (void)state;
    char *path = write_temp(good_file);
    struct experiment *e = new_experiment();
    char err[1024] = "";
    int r = experiment_load(path, e, err, sizeof err);
    if (r != 0) fail_msg("unexpected error: %s", err);
    assert_string_equal(e->path, path);
    assert_int_equal(e->text_len, strlen(good_file));
    assert_memory_equal(e->text, good_file, e->text_len + 1);
    assert_string_equal(e->name, "paper-1_x");
    assert_int_equal(e->n_sweeps, 2);
    experiment_free(e);
    unlink(path);

    /* A file-level error names the file without a line. */
    char *bad = write_temp("[a]\nvariants = v\nsizes = 4\n");
    assert_int_equal(experiment_load(bad, e, err, sizeof err), -1);
    char want[4200];
    snprintf(want, sizeof want, "%s: missing [experiment]", bad);
    assert_true(strncmp(err, want, strlen(want)) == 0);
    assert_null(e->text);
    unlink(bad);
    free(bad);
    free(path);
    free(e);
}

static void test_load_missing_file(void **state)
{
    (void)state;
    struct experiment *e = new_experiment();
    char err[512] = "";
    const char *path = "/nonexistent-dir-for-tests/paper.ini";
    assert_int_equal(experiment_load(path, e, err, sizeof err), -1);
    assert_true(strncmp(err, "/nonexistent-dir-for-tests/paper.ini: cannot read: ",
                        strlen(path) + 15) == 0);
    assert_non_null(strstr(err, "No such file"));
    assert_null(e->text);
    experiment_free(e);

    /* A directory opens but does not read. */
    assert_int_equal(experiment_load("/", e, err, sizeof err), -1);
    assert_true(strncmp(err, "/: cannot read: ", 16) == 0);
    free(e);
}

#define HEAD "[experiment]\nname = t\nseed = 1\n"          /* lines 1-3 */
#define SWEEP "[gpu]\nvariants = a\nsizes = 8\n"             /* lines 4-6 after HEAD */

static const struct bad_case {
    const char *text;
    int line;                   /* 0: a file-level error, "t.ini: ..." */
    const char *needle;
} bad_cases[] = {
    {HEAD SWEEP "tiles = 8 7x\n", 7, "tiles: '7x' is not an integer"},
    {HEAD SWEEP "tiles = 1025\n", 7, "'1025'"},
    {HEAD SWEEP "tiles = 8 8\n", 7, "tiles: '8' is listed twice"},
    {HEAD SWEEP "tiles = 8;16\n", 7, "'8;16'"},
    {HEAD SWEEP "tiles =\n", 7, "tiles: empty list"},
    {HEAD SWEEP "tiles = ; nothing\nwpts = 1\n", 7, "tiles: empty list"},
    {HEAD SWEEP "wpts = -1\n", 7, "wpts: '-1'"},
    {HEAD SWEEP "opt_levels = O2\n", 7, "opt_levels: 'O2'"},
    {HEAD "[gpu]\nvariants = a\nshapes = 100x200\n", 6,
     "shapes: '100x200' is not a shape (expected MxNxK"},
    {HEAD "[gpu]\nvariants = a\nshapes = 0x5x5\n", 6, "'0x5x5'"},
    {HEAD "[gpu]\nvariants = a\nshapes = 1x2x3x4\n", 6, "'1x2x3x4'"},
    {HEAD "[gpu]\nvariants = a\nshapes = 2x2x\n", 6, "'2x2x'"},
    {HEAD "[gpu]\nvariants = a\nshapes = 4X4X4\n", 6, "'4X4X4'"},
    {HEAD "[gpu]\nvariants = a\nsizes = 0\n", 6, "sizes: '0' is not a size"},
    {HEAD "[gpu]\nvariants = a\nsizes = 1000001\n", 6, "'1000001'"},
    {HEAD "[gpu]\nvariants = a\nsizes = 128\nshapes = 128x128x128\n", 7,
     "shapes: '128x128x128' repeats the shape 128x128x128 of line 6"},
    {HEAD "[gpu]\nvariants = gpu-tiled\nsizes = 8\n", 5, "variants: 'gpu-tiled' is not a variant"},
    {HEAD "[gpu]\nvariants = a b a\nsizes = 8\n", 5, "variants: 'a' is listed twice"},
    {"[experiment]\nname = t\nseed = -5\n" SWEEP, 3, "seed: '-5' is not an unsigned 64-bit"},
    {"[experiment]\nname = t\nseed = 18446744073709551616\n" SWEEP, 3, "'18446744073709551616'"},
    {"[experiment]\nname = t\nseed = 12abc\n" SWEEP, 3, "seed: '12abc'"},
    {"[experiment]\nname = t\nseed = 7;\n" SWEEP, 3, "seed: '7;'"},
    {"[experiment]\nname = t\nseed =\n" SWEEP, 3, "seed: ''"},
    {"[experiment]\nname = my run\nseed = 1\n" SWEEP, 2,
     "name: 'my run' (expected letters, digits, '_' or '-')"},
    {"[experiment]\nname = abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij1234\n"
     "seed = 1\n" SWEEP,
     2, "is longer than 63 characters"},
    {"[experiment]\nnmae = t\nseed = 1\n" SWEEP, 2,
     "unknown key 'nmae' in [experiment] (expected one of: name description seed)"},
    {HEAD SWEEP "tile = 8\n", 7,
     "unknown key 'tile' in sweep [gpu] (expected one of: variants sizes shapes tiles wpts "
     "opt_levels host_memory splits configs pairing corpus corpus_seed corpus_range "
     "corpus_flops)"},
#define CORPUS "[c]\nvariants = a\ncorpus = loguniform 20\n"   /* lines 4-6 after HEAD */
    {HEAD CORPUS "corpus_seed = 3\ncorpus_range = 1\n", 8,
     "corpus_range: 1 value where it takes 2 (expected e.g. 'corpus_range = 1 16384')"},
    {HEAD CORPUS "corpus_seed = 3 4\n", 7, "corpus_seed: '4' is one value too many"},
    {HEAD "[c]\nvariants = a\ncorpus = uniform 20\ncorpus_seed = 3\n", 6,
     "corpus: 'uniform' is not a corpus (expected loguniform and how many shapes"},
    {HEAD "[c]\nvariants = a\ncorpus = llama3 half\ncorpus_seed = 3\n", 6,
     "corpus: 'half' is not a part of a listed corpus (expected all, tuning or heldout)"},
    {HEAD "[c]\nvariants = a\ncorpus = deepbench 3\ncorpus_seed = 3\n", 6,
     "corpus: '3' is not a part of a listed corpus"},
    {HEAD "[c]\nvariants = a\ncorpus = loguniform 0\ncorpus_seed = 3\n", 6,
     "corpus: '0' is not a number of shapes (expected 1 to 20000)"},
    {HEAD "[c]\nvariants = a\ncorpus = loguniform\ncorpus_seed = 3\n", 6,
     "corpus: 1 value where it takes 2"},
    {HEAD CORPUS, 6, "sweep [c]: 'corpus' without 'corpus_seed'"},
    {HEAD SWEEP "corpus_seed = 3\n", 7, "sweep [gpu]: 'corpus_seed' without 'corpus'"},
    {HEAD CORPUS "corpus_seed = 3\ncorpus_range = 64 8\n", 8,
     "corpus_range: 64 is more than 8 (expected the least dimension first)"},
    {HEAD CORPUS "corpus_seed = 3\ncorpus_range = 1 65537\n", 8, "corpus_range: '65537'"},
    {HEAD CORPUS "corpus_seed = 3\ncorpus_flops = 1e9 -1\n", 8, "corpus_flops: '-1'"},
    {HEAD CORPUS "corpus_seed = 3\ncorpus_flops = 1e12 1e6\n", 8,
     "corpus_flops: 1e+12 is more than 1e+06"},
    {HEAD "[c]\nvariants = a\n", 4, "sweep [c] has no 'sizes', 'shapes' or 'corpus'"},
    {HEAD SWEEP "pairing = maybe\n", 7, "pairing: 'maybe' (expected abba, the rung sampled "
                                        "alternately with its reference, or none"},
    {HEAD SWEEP "pairing = none abba\n", 7, "pairing: 'abba' after another value"},
    {HEAD "[sampling]\nkernel_timer = nvtx\n" SWEEP, 5,
     "[sampling] kernel_timer: 'nvtx' (expected cupti or none)"},
    {HEAD SWEEP "host_memory = pinned locked\n", 7, "host_memory: 'locked' is not a kind"},
    {HEAD SWEEP "host_memory = pinned pinned\n", 7, "'pinned' is listed twice"},
    {HEAD SWEEP "configs = some\n", 7, "configs: 'some' (expected 'all': every configuration"},
    {HEAD SWEEP "configs = all all\n", 7, "configs: 'all' (expected 'all'"},
    {HEAD SWEEP "configs = all\ntiles = 8\n", 8,
     "sweep [gpu]: 'tiles' beside 'configs = all' (line 7), which takes every configuration"},
    {HEAD SWEEP "splits = 0 0\n", 7, "splits: '0' is listed twice"},
    {HEAD SWEEP "= 8\n", 7, "unknown key ''"},
    {HEAD "[sampling]\ngpu_min_samples = 0\n" SWEEP, 5,
     "[sampling] gpu_min_samples: '0' (expected an integer >= 1)"},
    {HEAD "[sampling]\nhost_max_samples = 2.5\n" SWEEP, 5, "host_max_samples: '2.5'"},
    {HEAD "[sampling]\ngpu_min_time_ms = abc\n" SWEEP, 5, "gpu_min_time_ms: 'abc'"},
    {HEAD "[sampling]\ngpu_timeout_ms = 5ms\n" SWEEP, 5, "gpu_timeout_ms: '5ms'"},
    {HEAD "[sampling]\ntarget_rel_stddev = -0.1\n" SWEEP, 5, "target_rel_stddev: '-0.1'"},
    {HEAD "[sampling]\nhost_timeout_ms = inf\n" SWEEP, 5, "host_timeout_ms: 'inf'"},
    {HEAD "[sampling]\nhost_long_point_ms = 0\n" SWEEP, 5, "host_long_point_ms: '0'"},
    {HEAD "[sampling]\ngpu_samples = 3\n" SWEEP, 5, "unknown key 'gpu_samples' in [sampling]"},
    {HEAD "[sampling]\nhost_max_samples = 5\nhost_min_samples = 10\n" SWEEP, 6,
     "host_max_samples (5) is less than host_min_samples (10)"},
    {HEAD SWEEP "tiles = 8\nwpts = 1\ntiles = 16\n", 9,
     "'tiles' given twice in [gpu] (first at line 7)"},
    {HEAD "seed = 2\n" SWEEP, 4, "'seed' given twice in [experiment] (first at line 3)"},
    {HEAD SWEEP "[cpu]\nvariants = b\nsizes = 8\n[gpu]\ntiles = 8\n", 10,
     "section [gpu] appears twice (first at line 4)"},
    {HEAD SWEEP "[gpu]\n", 7, "section [gpu] appears twice (first at line 4)"},
    {HEAD SWEEP "[experiment]\n", 7, "section [experiment] appears twice (first at line 1)"},
    {HEAD "[sampling]\n[sampling]\n" SWEEP, 5, "section [sampling] appears twice"},
    {SWEEP, 0, "missing [experiment] section"},
    {"[experiment]\nname = t\n" SWEEP, 1, "[experiment] has no 'seed'"},
    {"\n[experiment]\nseed = 1\n" SWEEP, 2, "[experiment] has no 'name'"},
    {HEAD "[gpu]\nsizes = 8\n", 4, "sweep [gpu] has no 'variants'"},
    {HEAD "[gpu]\nvariants = a\n[cpu]\n", 4, "sweep [gpu] has no 'sizes', 'shapes' or 'corpus'"},
    {HEAD SWEEP "[empty]\n; nothing here\n", 7, "sweep [empty] has no 'variants'"},
    {HEAD, 0, "no sweep section"},
    {HEAD "[sampling]\ngpu_min_samples = 4\n", 0, "no sweep section"},
    {"name = t\n" HEAD SWEEP, 1, "key 'name' is outside any section"},
    {HEAD SWEEP "tiles 8 16\n", 7, "syntax error: 'tiles 8 16' (expected 'key = value'"},
    {HEAD "[gpu\nvariants = a\n", 4, "syntax error: '[gpu'"},
    {HEAD "[gpu ; comment]\n", 4, "syntax error: '[gpu ; comment]'"},
    {HEAD "[]\nvariants = a\n", 4, "section name ''"},
    {HEAD "[ gpu ]\nvariants = a\n", 4, "section name ' gpu '"},
    {HEAD "[gpu] junk\nvariants = a\n", 4, "text after the header 'junk'"},
    {HEAD "[abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij]\n", 4,
     "is longer than 49 characters"},
    {HEAD SWEEP "  tiles = 8\n", 7, "indented line 'tiles = 8' would continue 'sizes'"},
    {HEAD SWEEP "  [cpu]\n", 7, "indented line '[cpu]' would continue 'sizes'"},
    {"[experiment]\nname = t\nseed = 1\n  2\n" SWEEP, 4, "seed: indented line '2'"},
    {HEAD "[sampling]\ngpu_min_samples = 4\n   5\n" SWEEP, 6, "gpu_min_samples: indented line"},
    {HEAD SWEEP "shapes = 2x2x2\n    9 ; not a shape\n", 8, "shapes: '9' is not a shape"},
    {HEAD SWEEP
     "tiles = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 "
     "30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 "
     "59 60 61 62 63 64 65 66 67 68 69 70\n",
     7, "longer than 198 characters (208; split a long list over indented continuation lines): "
        "'tiles = 1 2 3 4 5 6 7 8 9 10 11 12 13 14...'"},
    {HEAD SWEEP
     "tiles = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29\n"
     "  30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57\n"
     "  58 59 60 61 62 63 64 65\n",
     9, "tiles: more than 64 values: '65' would be value 65"},
    /* Text: UTF-8, and of the control characters only tab and CR. */
    {HEAD SWEEP "tiles = 8 \xff\n", 7, "byte 0xff at column 11 is not UTF-8"},
    {HEAD SWEEP "; caf\xe9\n", 7, "byte 0xe9 at column 6 is not UTF-8"},
    {HEAD SWEEP "; \xc0\xaf overlong\n", 7, "byte 0xc0 at column 3"},
    {HEAD SWEEP "; \xed\xa0\x80 surrogate\n", 7, "byte 0xed at column 3"},
    {HEAD SWEEP "; \xf4\x90\x80\x80 past U+10FFFF\n", 7, "byte 0xf4 at column 3"},
    {HEAD SWEEP "; \xe2\x89\n", 7, "byte 0xe2 at column 3"},
    {HEAD "[gpu]\nvariants = a\x01\nsizes = 8\n", 5, "control character 0x01 at column 13"},
    {HEAD "[gpu]\x7f\n", 4, "control character 0x7f at column 6"},
    {HEAD "[gpu]\nvariants = a\fb\n", 5, "control character 0x0c"},
    {HEAD "[gpu]\nvariants = a\rb\r\n", 5, "control character 0x0d at column 13"},
    /* Every matrix of a shape must be indexable by int. */
    {HEAD "[gpu]\nvariants = a\nshapes = 100000x100000x1\n", 6,
     "shapes: '100000x100000x1' is too large: C (M x N) would have 10000000000 elements"},
    {HEAD "[gpu]\nvariants = a\nshapes = 1x65536x32768\n", 6,
     "'1x65536x32768' is too large: B (K x N) would have 2147483648 elements (expected at most "
     "2147483647"},
    {HEAD "[gpu]\nvariants = a\nsizes = 46341\n", 6,
     "sizes: '46341' is too large: A (M x K) would have 2147488281 elements"},
    /* The host point budget. */
    {HEAD "[sampling]\nhost_point_budget_s = 0\n" SWEEP, 5,
     "[sampling] host_point_budget_s: '0' (expected a positive number of seconds, e.g. 60)"},
    {HEAD "[sampling]\nhost_point_budget_s = -1\n" SWEEP, 5, "host_point_budget_s: '-1'"},
    {HEAD "[sampling]\nhost_point_budget_s = nan\n" SWEEP, 5, "host_point_budget_s: 'nan'"},
    {HEAD "[sampling]\nhost_point_budget_s = 1m\n" SWEEP, 5, "host_point_budget_s: '1m'"},
    {HEAD "description = "
          "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234"
          "5678901234567890123456789\n  "
          "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234"
          "5678901234567890123456789\n  0123456789012345678901234567890123456789012345678901234"
          "56789012345678901234567890123456789012345678901234567890123456789\n" SWEEP,
     6, "description: longer than 255 characters"},
};

static void test_malformed(void **state)
{
    (void)state;
    struct experiment *e = new_experiment();
    char err[1024], prefix[64];
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const struct bad_case *bc = &bad_cases[i];
        err[0] = '\0';
        int r = experiment_parse("t.ini", bc->text, e, err, sizeof err);
        if (bc->line > 0)
            snprintf(prefix, sizeof prefix, "t.ini:%d: ", bc->line);
        else
            snprintf(prefix, sizeof prefix, "t.ini: ");
        if (r != -1 || strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, bc->needle))
            fail_msg("case %zu: r=%d, message \"%s\"; wanted -1, \"%s...%s...\"", i, r, err,
                     prefix, bc->needle);
        assert_null(e->text);
        experiment_free(e);
    }
    free(e);
}

static void test_too_many_sweeps(void **state)
{
    (void)state;
    char *text = malloc(8192);
    assert_non_null(text);
    size_t at = (size_t)snprintf(text, 8192, HEAD);
    for (int i = 0; i <= EXP_MAX_SWEEPS; i++)
        at += (size_t)snprintf(text + at, 8192 - at, "[s%d]\nvariants = v\nsizes = 4\n", i);
    struct experiment *e = new_experiment();
    char err[512];
    assert_int_equal(experiment_parse("t.ini", text, e, err, sizeof err), -1);
    char want[64];
    snprintf(want, sizeof want, "t.ini:%d: sweep [s%d]: more than %d sweeps",
             4 + 3 * EXP_MAX_SWEEPS, EXP_MAX_SWEEPS, EXP_MAX_SWEEPS);
    assert_true(strncmp(err, want, strlen(want)) == 0);

    /* Exactly the limit is fine. */
    text[at - strlen("[s32]\nvariants = v\nsizes = 4\n")] = '\0';
    parse_ok(text, e);
    assert_int_equal(e->n_sweeps, EXP_MAX_SWEEPS);
    experiment_free(e);
    free(e);
    free(text);
}

static void test_too_many_shapes(void **state)
{
    (void)state;
    char text[2048];
    size_t at = (size_t)snprintf(text, sizeof text, HEAD "[gpu]\nvariants = a\nsizes = 1\n");
    for (int i = 2; i <= EXP_MAX_LIST + 1; i++)
        at += (size_t)snprintf(text + at, sizeof text - at, "  %d\n", i);
    struct experiment *e = new_experiment();
    char err[512];
    assert_int_equal(experiment_parse("t.ini", text, e, err, sizeof err), -1);
    assert_true(strncmp(err, "t.ini:70: sizes: more than 64 shapes", 36) == 0);
    assert_non_null(strstr(err, "'65' would be shape 65"));
    free(e);
}

const struct CMUnitTest experiment_tests[] = {
    cmocka_unit_test(test_good_file),
    cmocka_unit_test(test_seed_description_and_defaults),
    cmocka_unit_test(test_kernel_timer_and_pairing),
    cmocka_unit_test(test_inline_comments),
    cmocka_unit_test(test_continuation_lines),
    cmocka_unit_test(test_crlf_bom_and_line_limit),
    cmocka_unit_test(test_reuse_and_failure_state),
    cmocka_unit_test(test_load_file_verbatim),
    cmocka_unit_test(test_load_missing_file),
    cmocka_unit_test(test_malformed),
    cmocka_unit_test(test_too_many_sweeps),
    cmocka_unit_test(test_too_many_shapes),
};
const size_t experiment_tests_count = sizeof experiment_tests / sizeof experiment_tests[0];
