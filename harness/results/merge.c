/* Merging the shards of a plan: see merge.h. */
#define _POSIX_C_SOURCE 200809L   /* open_memstream, gethostname */
#include "merge.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"
#include "file.h"

struct shard_file {
    const char *path;
    struct results_file f;   /* with its attributes */
    int shard;
    int host_points;         /* it holds host points that ran */
    size_t *first;           /* the first sample of each row, and one past the last */
};

/* What the shards must agree on (merge.h). */
static const char *const SAME[] = {"plan_hash",      "plan_points", "shards",   "host_shard",
                                   "schema_version", "git_commit",  "git_dirty",
                                   "experiment_text"};
/* What changes the meaning of a number: refused unless allowed (merge.h), each
 * with why, and MERGE_MIXABLE naming them all. */
static const struct {
    const char *name, *why;
} MEANING[] = {
    {"cflags", "the harness was built with other flags"},
    {"host_kernel_cflags", "the host rungs were built with other flags"},
    {"nvccflags", "the GPU rungs were built with other flags"},
    {"cc_version", "the C compiler differs"},
    {"nvcc_version", "nvcc differs"},
    {"gpu_targets", "the GPU code was built for other targets"},
    {"cuda_runtime_version", "the CUDA runtime, and with it cuBLAS, differs"},
    {"gpu_name", "they ran on two GPU models, whose tolerances differ (mmladder compare "
                 "compares two runs)"},
    {"cpu_model", "their host points ran on different CPUs"},
};
const char MERGE_MIXABLE[] = "cflags, host_kernel_cflags, nvccflags, cc_version, nvcc_version, "
                             "gpu_targets, cuda_runtime_version, gpu_name, cpu_model";
/* What each shard says of itself: kept as shardK_NAME. */
static const char *const OWN[] = {
    "hostname",      "os",          "cpu_model",          "cpu_count",          "gpu_uuid",
    "gpu_pci_bus_id", "gpu_serial", "cuda_visible_devices", "slurm_job_id", "slurm_array_job_id",
    "slurm_array_task_id", "slurm_procid", "slurm_job_nodelist", "command_line", "created_utc",
    "finished_utc",  "wall_time_s", "estimated_s",        "planned_points",     "complete",
    "gpu_telemetry", "gpu_copy_bandwidth_gbs", "telemetry_refresh_ms",
    "telemetry_instant_refresh_ms", "gpu_power_limit_w", "pid"};
/* Of those, the ones the root holds for all shards, joined. */
static const char *const JOINED[] = {"hostname", "gpu_uuid", "gpu_pci_bus_id", "gpu_serial",
                                     "cuda_visible_devices"};
/* Not copied to the root: written by the results module and the merge
 * themselves, or one shard's alone. */
static const char *const OWN_WRITER[] = {"schema_version", "attrs_crc32", "complete",
                                         "finished_utc",   "wall_time_s", "planned_points",
                                         "shard",          "command_line", "created_utc",
                                         "estimated_s",    "pid"};

static int listed(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i])) return 1;
    return 0;
}
#define LISTED(name, list) listed(name, list, sizeof list / sizeof list[0])

static const char *value_of(const struct shard_file *s, const char *name)
{
    return results_attr_value(&s->f, name);
}

static const struct results_attr *attr_of(const struct shard_file *s, const char *name)
{
    for (size_t i = 0; i < s->f.n_attrs; i++)
        if (!strcmp(s->f.attrs[i].name, name)) return &s->f.attrs[i];
    return NULL;
}

static void close_shard(struct shard_file *s)
{
    results_file_free(&s->f);
    free(s->first);
}

/* Read one shard, with its attributes; 0, or -1 with why. */
static int open_shard(struct shard_file *s, const char *path, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    if (results_read(path, &s->f, err, errlen) != 0) return -1;
    if (s->f.damaged) {
        snprintf(err, errlen, "%s: damaged, not merged (%s)", path, s->f.notes);
        return -1;
    }
    const char *k = value_of(s, "shard"), *n = value_of(s, "shards"), *m = value_of(s, "merged_shards");
    if (m && !k) {
        snprintf(err, errlen, "%s: a merged file (of %s shards), not a shard: merge takes the "
                              "shards' own files (its shardK_command_line attributes name "
                              "them)", path, m);
        return -1;
    }
    if (!k || !n || !value_of(s, "plan_hash") || !value_of(s, "plan_points")) {
        snprintf(err, errlen, "%s: not a shard (it has no '%s' attribute; expected the file of "
                              "a run with --shard K/N)", path,
                 !k ? "shard" : !n ? "shards" : !value_of(s, "plan_hash") ? "plan_hash" : "plan_points");
        return -1;
    }
    s->shard = atoi(k);
    /* Its samples, row by row, as the reader returns them: in row order. */
    s->first = calloc(s->f.n_rows + 1, sizeof *s->first);
    if (!s->first) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    size_t at = 0;
    for (size_t i = 0; i < s->f.n_rows; i++) {
        s->first[i] = at;
        while (at < s->f.n_samples && s->f.samples[at].row == (int32_t)i) at++;
        s->host_points |= !strcmp(s->f.rows[i].device, "host") &&
                          strcmp(s->f.rows[i].disposition, "skipped") != 0;
    }
    s->first[s->f.n_rows] = at;
    if (at != s->f.n_samples) {
        snprintf(err, errlen, "%s: its samples are not in the order of their rows", path);
        return -1;
    }
    return 0;
}

/* The first line of p, at most 100 characters of it. */
static int line_len(const char *p)
{
    const size_t k = strcspn(p, "\n");
    return (int)(k > 100 ? 100 : k);
}

/* Where two texts first differ, in words, into buf: both whole when each is
 * one short line, else the first line in which they differ. */
static void say_difference(const char *a, const char *b, char *buf, size_t len)
{
    if (!strchr(a, '\n') && !strchr(b, '\n') && strlen(a) <= 100 && strlen(b) <= 100) {
        snprintf(buf, len, "'%s' and '%s'", a, b);
        return;
    }
    size_t i = 0, line = 1, from = 0;
    for (; a[i] && a[i] == b[i]; i++)
        if (a[i] == '\n') line++, from = i + 1;
    if (i - from > 40) from = i - 40;   /* a long line: from a little before the difference */
    snprintf(buf, len, "line %zu: '%.*s' and '%.*s'", line, line_len(a + from), a + from,
             line_len(b + from), b + from);
}

/* Is name in the comma-separated list? */
static int in_list(const char *list, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        p += strspn(p, ", ");
        const size_t k = strcspn(p, ", ");
        if (k == n && !strncmp(p, name, n)) return 1;
        p += k;
    }
    return 0;
}

int merge_unmixable(const char *list, char *name, size_t len)
{
    for (const char *p = list; *p;) {
        const size_t k = strcspn(p, ",");
        snprintf(name, len, "%.*s", (int)k, p);
        if (!k || !in_list(MERGE_MIXABLE, name)) return 1;
        p += k + (p[k] == ',');
    }
    return 0;
}

/* The shards belong together (merge.h): 0, or -1 with why. */
static int check_together(const struct shard_file *s, size_t n, const char *allowed, char *err,
                          size_t errlen)
{
    char diff[512];
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < sizeof SAME / sizeof SAME[0]; j++) {
            const char *a = value_of(&s[0], SAME[j]), *b = value_of(&s[i], SAME[j]);
            if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0)) {
                say_difference(a ? a : "(none)", b ? b : "(none)", diff, sizeof diff);
                snprintf(err, errlen, "%s and %s differ in %s (%s): only shards of one plan, "
                                      "experiment and commit are merged", s[0].path, s[i].path,
                         SAME[j], diff);
                return -1;
            }
        }
        for (size_t j = 0; j < i; j++)
            if (s[j].shard == s[i].shard) {
                snprintf(err, errlen, "%s and %s are both shard %d (expected each shard once)",
                         s[j].path, s[i].path, s[i].shard);
                return -1;
            }
    }
    for (size_t m = 0; m < sizeof MEANING / sizeof MEANING[0]; m++) {
        const char *name = MEANING[m].name;
        if (allowed && in_list(allowed, name)) continue;
        const int cpu = !strcmp(name, "cpu_model");   /* among shards with host points only */
        const struct shard_file *first = NULL;
        for (size_t i = 0; i < n; i++) {
            if (cpu && !s[i].host_points) continue;
            if (!first) {
                first = &s[i];
                continue;
            }
            const char *a = value_of(first, name), *b = value_of(&s[i], name);
            if ((a == NULL) == (b == NULL) && (!a || !strcmp(a, b))) continue;
            say_difference(a ? a : "(none)", b ? b : "(none)", diff, sizeof diff);
            snprintf(err, errlen, "%s and %s differ in %s (%s): %s, so their numbers do not "
                                  "mean the same; to merge them anyway: --allow-mixed %s (the "
                                  "merged file keeps each shard's value and says they differ)",
                     first->path, s[i].path, name, diff, MEANING[m].why, name);
            return -1;
        }
    }
    return 0;
}

struct placed {
    int32_t point;
    uint32_t file;
    size_t row;
};

static int by_point(const void *a, const void *b)
{
    const struct placed *x = a, *y = b;
    return (x->point > y->point) - (x->point < y->point);
}

/* Every row of every shard in plan order, into *out (malloc'd): its count, or
 * (size_t)-1 with why (a point held twice, a point not known). */
static size_t in_plan_order(const struct shard_file *s, size_t n, struct placed **out, char *err,
                            size_t errlen)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += s[i].f.n_rows;
    struct placed *p = malloc((total ? total : 1) * sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory for %zu rows", total);
        return (size_t)-1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < s[i].f.n_rows; r++)
            p[k++] = (struct placed){s[i].f.rows[r].point, (uint32_t)i, r};
    qsort(p, total, sizeof *p, by_point);
    for (size_t i = 0; i < total; i++) {
        const int bad = p[i].point < 0 || (i && p[i].point == p[i - 1].point);
        if (!bad) continue;
        snprintf(err, errlen, "%s: row %zu is point %d of the plan%s", s[p[i].file].path,
                 p[i].row, (int)p[i].point,
                 p[i].point < 0 ? ", which is not known" : ", which another shard holds too");
        free(p);
        return (size_t)-1;
    }
    *out = p;
    return total;
}

/* One attribute as it was stored, under `name`. */
static int write_like(struct results *w, const char *name, const struct results_attr *a)
{
    switch (a->kind) {
    case ATTR_INT: return results_attr_int(w, name, strtoll(a->value, NULL, 10));
    case ATTR_UINT: return results_attr_u64(w, name, strtoull(a->value, NULL, 10));
    case ATTR_FLOAT: return results_attr_double(w, name, strtod(a->value, NULL));
    case ATTR_TEXT: return results_attr_str(w, name, a->value);
    default: return results_attr_str(w, name, a->value);   /* a description of it */
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every attribute name of the shards, once each, in name order: their count,
 * in *out (malloc'd; the names are the shards'), or (size_t)-1. */
static size_t all_names(const struct shard_file *s, size_t n, const char ***out)
{
    size_t total = 0, k = 0;
    for (size_t i = 0; i < n; i++) total += s[i].f.n_attrs;
    const char **names = malloc((total ? total : 1) * sizeof *names);
    if (!names) return (size_t)-1;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < s[i].f.n_attrs; j++) names[k++] = s[i].f.attrs[j].name;
    qsort(names, total, sizeof *names, by_name);
    size_t u = 0;
    for (size_t i = 0; i < total; i++)
        if (!u || strcmp(names[i], names[u - 1])) names[u++] = names[i];
    *out = names;
    return u;
}

/* Do the shards agree on name (each has it, with one value, or none has it)? */
static int agree(const struct shard_file *s, size_t n, const char *name)
{
    const char *a = value_of(&s[0], name);
    for (size_t i = 1; i < n; i++) {
        const char *b = value_of(&s[i], name);
        if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0)) return 0;
    }
    return 1;
}

/* An attribute in which the shards differ, at the root: text, each shard's
 * ("shard 0: V0; shard 1: V1; ..."); a number, the first shard's that has it. */
static int write_differing(struct results *w, const struct shard_file *s, size_t n,
                           const char *name)
{
    const struct results_attr *first = NULL;
    for (size_t i = 0; i < n && !first; i++) first = attr_of(&s[i], name);
    if (first->kind == ATTR_INT || first->kind == ATTR_UINT || first->kind == ATTR_FLOAT)
        return write_like(w, name, first);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return -1;
    for (size_t i = 0; i < n; i++) {
        const char *v = value_of(&s[i], name);
        fprintf(m, "%sshard %d: %s", i ? "; " : "", s[i].shard, v ? v : "(none)");
    }
    const int rc = fclose(m) != 0 ? -1 : results_attr_str(w, name, text);
    free(text);
    return rc;
}

/* The root attributes of the merged file (merge.h); s is in shard order. */
static int write_attrs(struct results *w, const struct shard_file *s, size_t n,
                       const char *missing, const struct merge_options *o)
{
    const char **names = NULL;
    const size_t u = all_names(s, n, &names);
    if (u == (size_t)-1) return -1;
    char *differs = NULL;
    size_t dlen = 0;
    FILE *d = open_memstream(&differs, &dlen);
    int rc = d ? 0 : -1;
    for (size_t k = 0; k < u && rc == 0; k++) {
        const char *name = names[k];
        const int same = agree(s, n, name), own = LISTED(name, OWN);
        /* one shard's Slurm task is no more the merged file's than its host */
        const int root = !LISTED(name, OWN_WRITER) && !LISTED(name, JOINED) && strncmp(name, "slurm_", 6);
        if (root && same) rc |= write_like(w, name, attr_of(&s[0], name));
        if (root && !same) {
            rc |= write_differing(w, s, n, name);
            fprintf(d, "%s%s", ftell(d) ? ", " : "", name);
        }
        if (!own && (same || LISTED(name, OWN_WRITER))) continue;
        for (size_t i = 0; i < n; i++) {
            const struct results_attr *a = attr_of(&s[i], name);
            char key[160];
            snprintf(key, sizeof key, "shard%d_%s", s[i].shard, name);
            if (a) rc |= write_like(w, key, a);
        }
    }
    free(names);
    if (!d || fclose(d) != 0) rc = -1;
    char earliest[64] = "";
    for (size_t i = 0; i < n; i++) {
        const char *c = value_of(&s[i], "created_utc");
        if (c && (!earliest[0] || strcmp(c, earliest) < 0)) snprintf(earliest, sizeof earliest, "%s", c);
    }
    for (size_t j = 0; j < sizeof JOINED / sizeof JOINED[0]; j++) {
        char joined[4096] = "";
        size_t used = 0;
        for (size_t i = 0; i < n && used < sizeof joined; i++) {
            const char *v = value_of(&s[i], JOINED[j]);
            used += (size_t)snprintf(joined + used, sizeof joined - used, "%s%s", i ? ", " : "",
                                     v ? v : "-");
        }
        rc |= results_attr_str(w, JOINED[j], joined);
    }
    char cmd[4096] = "", now[32], host[256] = "unknown";
    for (int i = 0, used = 0; i < o->argc && used < (int)sizeof cmd; i++)
        used += snprintf(cmd + used, sizeof cmd - (size_t)used, "%s%s", i ? " " : "", o->argv[i]);
    utc_now_iso(now, sizeof now);
    gethostname(host, sizeof host - 1);
    rc |= results_attr_str(w, "command_line", cmd);
    rc |= results_attr_str(w, "created_utc", earliest);
    rc |= results_attr_str(w, "merged_utc", now);
    rc |= results_attr_str(w, "merge_host", host);
    rc |= results_attr_int(w, "merge_pid", (long long)getpid());
    rc |= results_attr_int(w, "merged_shards", (long long)n);
    rc |= results_attr_str(w, "merge_missing", missing);
    rc |= results_attr_str(w, "merge_differs", differs ? differs : "");
    rc |= results_attr_int(w, "planned_points", strtoll(value_of(&s[0], "plan_points"), NULL, 10));
    free(differs);
    return rc ? -1 : 0;
}

/* Shards as ranges ("3", "0-94, 96, 98-99") onto m. */
static void say_ranges(FILE *m, const int *k, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && k[j + 1] == k[j] + 1) j++;
        fprintf(m, "%s%d", i ? ", " : "", k[i]);
        if (j > i) fprintf(m, "%s%d", j == i + 1 ? ", " : "-", k[j]);
        i = j + 1;
    }
}

/* What keeps the merge from being complete, malloc'd ("" when nothing): how
 * many points it holds first, then the shards missing (shards with no points
 * write no file: missing ones are only missing when points are), then those cut
 * short.  NULL when out of memory.  s is in shard order. */
static char *say_missing(const struct shard_file *s, size_t n, int shards, size_t rows,
                         long long points)
{
    int cut_short = 0;
    for (size_t i = 0; i < n; i++) cut_short |= !s[i].f.complete;
    if ((long long)rows == points && !cut_short) return calloc(1, 1);
    char *text = NULL;
    size_t len = 0;
    int *absent = calloc((size_t)shards + 1, sizeof *absent);
    FILE *m = absent ? open_memstream(&text, &len) : NULL;
    if (!m) {
        free(absent);
        return NULL;
    }
    long long held = 0;   /* by the shards given, by their own count */
    size_t n_absent = 0, i = 0;
    for (int k = 0; k < shards; k++) {
        if (i < n && s[i].shard == k) {
            const char *p = value_of(&s[i], "planned_points");
            held += p ? strtoll(p, NULL, 10) : (long long)s[i].f.n_rows;
            i++;
        } else {
            absent[n_absent++] = k;
        }
    }
    fprintf(m, "%zu of the plan's %lld points", rows, points);
    if (n_absent && points > held) {
        fprintf(m, "; shard%s ", n_absent == 1 ? "" : "s");
        say_ranges(m, absent, n_absent);
        fprintf(m, " missing (%zu of %d shards' files; they held %lld points: a shard without "
                   "points writes no file)", n_absent, shards, points - held);
    }
    for (size_t j = 0; j < n; j++)
        if (!s[j].f.complete)
            fprintf(m, "; shard %d incomplete (%zu of its %lld points)", s[j].shard, s[j].f.n_rows,
                    s[j].f.planned);
    free(absent);
    if (fclose(m) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static int by_shard(const void *a, const void *b)
{
    const struct shard_file *x = a, *y = b;
    return (x->shard > y->shard) - (x->shard < y->shard);
}

static int stop_asked(const struct merge_options *o)
{
    return o->interrupted && *o->interrupted;
}

enum merge_outcome merge_shards(const char *out, char *const *paths, size_t n,
                                const struct merge_options *o, char *err, size_t errlen)
{
    struct shard_file *s = calloc(n ? n : 1, sizeof *s);
    struct placed *order = NULL;
    struct results *w = NULL;
    char *missing = NULL;
    enum merge_outcome rc = MERGE_REFUSED;
    if (!s || n == 0) {
        snprintf(err, errlen, n ? "out of memory" : "no shard files given");
        free(s);
        return MERGE_REFUSED;
    }
    size_t opened = 0;
    for (; opened < n && !stop_asked(o); opened++)
        if (open_shard(&s[opened], paths[opened], err, errlen) != 0) {
            close_shard(&s[opened]);
            goto out;
        }
    if (stop_asked(o)) goto interrupted;
    if (check_together(s, n, o->allow_mixed, err, errlen) != 0) goto out;
    qsort(s, n, sizeof *s, by_shard);   /* the merged file's shardK_ order, whatever was given */
    const size_t rows = in_plan_order(s, n, &order, err, errlen);
    if (rows == (size_t)-1) goto out;
    const long long points = strtoll(value_of(&s[0], "plan_points"), NULL, 10);
    missing = say_missing(s, n, atoi(value_of(&s[0], "shards")), rows, points);
    if (!missing) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (results_create(&w, out, RESULTS_ALL_OR_NOTHING, err, errlen) != 0) goto out;
    if (write_attrs(w, s, n, missing, o) != 0) {
        snprintf(err, errlen, "%s", results_error(w));
        goto out;
    }
    char finished[64] = "";
    double wall = 0;
    for (size_t i = 0; i < rows; i++) {
        if (stop_asked(o)) goto interrupted;
        const struct shard_file *f = &s[order[i].file];
        const size_t r = order[i].row, first = f->first[r];
        if (results_append_samples(w, &f->f.rows[r], f->f.samples + first,
                                   (int)(f->first[r + 1] - first)) != 0) {
            snprintf(err, errlen, "%s", results_error(w));
            goto out;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const char *fin = value_of(&s[i], "finished_utc"), *ws = value_of(&s[i], "wall_time_s");
        if (fin && strcmp(fin, finished) > 0) snprintf(finished, sizeof finished, "%s", fin);
        if (ws && isfinite(strtod(ws, NULL))) wall = fmax(wall, strtod(ws, NULL));
    }
    const int complete = missing[0] == '\0';
    if (stop_asked(o)) goto interrupted;
    if (results_finish(w, complete, finished, wall) != 0) {
        snprintf(err, errlen, "%s", results_error(w));
        goto out;
    }
    const int closed = results_close(w, err, errlen);
    w = NULL;
    if (closed == RESULTS_TAKEN) rc = MERGE_TAKEN;
    if (closed != 0) goto out;
    fprintf(o->log, "mmladder: merged %zu shard%s (%zu rows of a plan of %lld points) -> %s%s%s\n",
            n, n == 1 ? "" : "s", rows, points, out, complete ? "; complete" : "; INCOMPLETE: ",
            missing);
    if (!complete) snprintf(err, errlen, "%s: incomplete: %s", out, missing);
    rc = complete ? MERGE_COMPLETE : MERGE_INCOMPLETE;
    goto out;
interrupted:
    snprintf(err, errlen, "interrupted");
    rc = MERGE_INTERRUPTED;
out:
    /* A refusal writes nothing: a file that did not take its name is removed
     * (RESULTS_ALL_OR_NOTHING), and only this merge's own. */
    if (w) results_close(w, NULL, 0);
    for (size_t i = 0; i < opened; i++) close_shard(&s[i]);
    free(s);
    free(order);
    free(missing);
    return rc;
}
