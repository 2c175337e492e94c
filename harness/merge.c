/* Merging the shards of a plan: see merge.h. */
#define _POSIX_C_SOURCE 200809L   /* strdup */
#include "merge.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "provenance.h"
#include "results.h"
#include "shard.h"

struct shard_file {
    const char *path;
    struct results_file f;   /* with its attributes */
    int shard;
    size_t *first;           /* the first sample of each row, and one past the last */
};

/* What the shards must agree on (merge.h). */
static const char *const SAME[] = {"plan_hash",      "plan_points", "shards",   "host_shard",
                                   "schema_version", "git_commit",  "git_dirty", "gpu_name",
                                   "experiment_text"};
/* What each shard says of itself: kept as shardK_NAME. */
static const char *const OWN[] = {
    "hostname",      "os",          "cpu_model",          "cpu_count",          "gpu_uuid",
    "gpu_pci_bus_id", "gpu_serial", "cuda_visible_devices", "slurm_job_id", "slurm_array_job_id",
    "slurm_array_task_id", "slurm_procid", "slurm_job_nodelist", "command_line", "created_utc",
    "finished_utc",  "wall_time_s", "estimated_s",        "planned_points",     "complete",
    "gpu_telemetry", "gpu_copy_bandwidth_gbs", "telemetry_refresh_ms",
    "telemetry_instant_refresh_ms", "gpu_power_limit_w"};
/* Of those, the ones the root holds for all shards, joined. */
static const char *const JOINED[] = {"hostname", "gpu_uuid", "gpu_pci_bus_id", "gpu_serial",
                                     "cuda_visible_devices"};
/* Not copied to the root: written by the results module and the merge
 * themselves, or one shard's alone. */
static const char *const OWN_WRITER[] = {"schema_version", "attrs_crc32", "complete",
                                         "finished_utc",   "wall_time_s", "planned_points",
                                         "shard",          "command_line", "created_utc",
                                         "estimated_s"};

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
    const char *k = value_of(s, "shard"), *n = value_of(s, "shards");
    if (!k || !n || !value_of(s, "plan_hash") || !value_of(s, "plan_points")) {
        snprintf(err, errlen, "%s: not a shard (no 'shard', 'shards' or 'plan_hash' attribute; "
                              "expected the file of a run with --shard K/N)", path);
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
    }
    s->first[s->f.n_rows] = at;
    if (at != s->f.n_samples) {
        snprintf(err, errlen, "%s: its samples are not in the order of their rows", path);
        return -1;
    }
    return 0;
}

/* The shards belong together (merge.h): 0, or -1 with why. */
static int check_together(const struct shard_file *s, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < sizeof SAME / sizeof SAME[0]; j++) {
            const char *a = value_of(&s[0], SAME[j]), *b = value_of(&s[i], SAME[j]);
            if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0)) {
                snprintf(err, errlen, "%s and %s differ in %s ('%.60s' and '%.60s'): only shards "
                                      "of one plan, experiment, commit and GPU model are merged",
                         s[0].path, s[i].path, SAME[j], a ? a : "(none)", b ? b : "(none)");
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

/* The root attributes of the merged file (merge.h); base is the lowest shard. */
static int write_attrs(struct results *w, const struct shard_file *s, size_t n, size_t base,
                       const char *missing, int argc, char **argv)
{
    int rc = 0;
    for (size_t i = 0; i < s[base].f.n_attrs; i++) {
        const struct results_attr *a = &s[base].f.attrs[i];
        /* one shard's Slurm task is no more the merged file's than its host */
        if (!LISTED(a->name, OWN_WRITER) && !LISTED(a->name, JOINED) && strncmp(a->name, "slurm_", 6))
            rc |= write_like(w, a->name, a);
    }
    char earliest[64] = "";
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < s[i].f.n_attrs; j++) {
            const struct results_attr *a = &s[i].f.attrs[j];
            if (!LISTED(a->name, OWN)) continue;
            char name[96];
            snprintf(name, sizeof name, "shard%d_%s", s[i].shard, a->name);
            rc |= write_like(w, name, a);
        }
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
    char cmd[4096] = "", now[32];
    for (int i = 0, used = 0; i < argc && used < (int)sizeof cmd; i++)
        used += snprintf(cmd + used, sizeof cmd - (size_t)used, "%s%s", i ? " " : "", argv[i]);
    utc_now_iso(now, sizeof now);
    rc |= results_attr_str(w, "command_line", cmd);
    rc |= results_attr_str(w, "created_utc", earliest);
    rc |= results_attr_str(w, "merged_utc", now);
    rc |= results_attr_int(w, "merged_shards", (long long)n);
    rc |= results_attr_str(w, "merge_missing", missing);
    rc |= results_attr_int(w, "planned_points", strtoll(value_of(&s[base], "plan_points"), NULL, 10));
    return rc ? -1 : 0;
}

/* What keeps the merge from being complete, into buf ("" when nothing). */
static void say_missing(const struct shard_file *s, size_t n, int shards, size_t rows,
                        long long points, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < shards && used < len; k++) {
        size_t i = 0;
        while (i < n && s[i].shard != k) i++;
        if (i == n)
            used += (size_t)snprintf(buf + used, len - used, "%sshard %d missing", used ? "; " : "", k);
        else if (!s[i].f.complete)
            used += (size_t)snprintf(buf + used, len - used, "%sshard %d incomplete (%zu rows)",
                                     used ? "; " : "", k, s[i].f.n_rows);
    }
    /* Shards with no points write no file: missing ones are only missing when
     * points are. */
    if ((long long)rows == points) {
        int cut_short = 0;
        for (size_t i = 0; i < n; i++) cut_short |= !s[i].f.complete;
        if (!cut_short) buf[0] = '\0';
    } else if (used < len) {
        snprintf(buf + used, len - used, "%s%zu of the plan's %lld points", used ? "; " : "", rows,
                 points);
    }
}

enum merge_outcome merge_shards(const char *out, char *const *paths, size_t n, FILE *log,
                                int argc, char **argv, char *err, size_t errlen)
{
    struct shard_file *s = calloc(n ? n : 1, sizeof *s);
    struct placed *order = NULL;
    struct results *w = NULL;
    enum merge_outcome rc = MERGE_REFUSED;
    if (!s || n == 0) {
        snprintf(err, errlen, n ? "out of memory" : "no shard files given");
        free(s);
        return MERGE_REFUSED;
    }
    size_t opened = 0, base = 0;
    for (; opened < n; opened++)
        if (open_shard(&s[opened], paths[opened], err, errlen) != 0) {
            close_shard(&s[opened]);
            goto out;
        }
    if (check_together(s, n, err, errlen) != 0) goto out;
    for (size_t i = 1; i < n; i++)
        if (s[i].shard < s[base].shard) base = i;
    const size_t rows = in_plan_order(s, n, &order, err, errlen);
    if (rows == (size_t)-1) goto out;
    const long long points = strtoll(value_of(&s[0], "plan_points"), NULL, 10);
    char missing[1024];
    say_missing(s, n, atoi(value_of(&s[0], "shards")), rows, points, missing, sizeof missing);
    if (results_create(&w, out, 0, err, errlen) != 0) goto out;
    if (write_attrs(w, s, n, base, missing, argc, argv) != 0) {
        snprintf(err, errlen, "%s", results_error(w));
        goto out;
    }
    char finished[64] = "";
    double wall = 0;
    for (size_t i = 0; i < rows; i++) {
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
    if (results_finish(w, complete, finished, wall) != 0) {
        snprintf(err, errlen, "%s", results_error(w));
        goto out;
    }
    const int closed = results_close(w, err, errlen);
    w = NULL;
    if (closed != 0) goto out;
    fprintf(log, "mmladder: merged %zu shard%s (%zu rows of a plan of %lld points) -> %s%s%s\n", n,
            n == 1 ? "" : "s", rows, points, out, complete ? "; complete" : "; INCOMPLETE: ",
            missing);
    if (!complete) snprintf(err, errlen, "%s: incomplete: %s", out, missing);
    rc = complete ? MERGE_COMPLETE : MERGE_INCOMPLETE;
out:
    if (w) {
        /* A refusal writes nothing: the writer removes a file without rows,
         * and one cut short is removed here. */
        results_close(w, NULL, 0);
        remove(out);
    }
    for (size_t i = 0; i < opened; i++) close_shard(&s[i]);
    free(s);
    free(order);
    return rc;
}
