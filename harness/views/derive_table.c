/* Derived views of results files (derive.h): `mmladder table`.  The rungs
 * and runs views, and the dispatch of a view's name
 * to the piece of derive that prints it (derive_parts.h lists them). */
#include "derive.h"
#include "derive_parts.h"
#include "estimates.h"
#include "util/util.h"

#include <math.h>
#include <string.h>

const char *const DERIVE_VIEWS =
    "rungs runs ladder configs speedup samples telemetry transfers shapes suite corpus "
    "corpus-classes corpus-cdf estimates compare";

/* rungs: the registry, for the figures' styles and keys */
static void view_rungs(FILE *out)
{
    fputs("number\trung\tdevice\tprecision\treference\tis_reference\tcolour\tpoint\ttitle"
          "\tfrom_seeds\n", out);
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        char title[96];
        snprintf(title, sizeof title, "%02zu %s%s", i + 1, v->name,
                 v->precision == PREC_TF32 ? " (TF32)" : "");
        fprintf(out, "%zu", i + 1);
        str(out, v->name);
        str(out, v->device == DEV_GPU ? "gpu" : "host");
        str(out, v->precision == PREC_TF32 ? "tf32" : "fp32");
        str(out, v->reference);
        fprintf(out, "\t%d", registry_is_reference(v));
        str(out, v->colour);
        fprintf(out, "\t%d", v->point);
        str(out, title);
        /* 1: one of the seeds' kernels (or their cuBLAS), 0: a rung past them */
        fprintf(out, "\t%d", strcmp(v->seed_name, "(past the seeds)") != 0);
        fputc('\n', out);
    }
}

/* runs: what a figure writes in its corner and on its guides, and what
 * data/README.md lists of each run */
static void view_runs(FILE *out, const struct run *runs, size_t nruns)
{
    fputs("role\tgpu\tdate\tcomplete\tpeak_gflops\tcopy_gbs\tcommit\tcpu\tmax_clock_mhz\tdiffers"
          "\tfile\texperiment\tgpu_serial\twall_s\testimated_s\tkernel_timer\tpoints\tpassed"
          "\tincorrect\tskipped\tfailed\tdamaged\n",
          out);
    for (size_t k = 0; k < nruns; k++) {
        const struct run *r = &runs[k];
        char date[32];
        snprintf(date, sizeof date, "%.10s %.5s UTC", r->created_utc,
                 strlen(r->created_utc) > 11 ? r->created_utc + 11 : "");
        fputs(r->role, out);
        str(out, r->gpu_name[0] && strcmp(r->gpu_name, "none") ? r->gpu_name : "no GPU");
        str(out, r->created_utc[0] ? date : "undated");
        fprintf(out, "\t%d", r->f.complete);
        num(out, r->peak_gflops);
        num(out, r->copy_gbs);
        str(out, r->git_commit);
        str(out, r->cpu_model);
        num(out, r->clock_mhz);
        /* of a merged file: the attributes in which its shards differ */
        str(out, !r->merged ? "-" : r->differs[0] ? r->differs : "not recorded (an older merge)");
        str(out, derive_file_name(r));
        str(out, r->experiment);
        str(out, r->gpu_serial);
        num(out, r->wall_s);
        num(out, r->estimated_s);
        fprintf(out, "\t%d\t%zu", r->kernel_timer, r->f.n_rows);
        size_t counts[TRUST_UNKNOWN + 1];
        trust_count(&r->f, counts);
        for (size_t d = 0; d <= TRUST_UNKNOWN; d++) fprintf(out, "\t%zu", counts[d]);
        fputc('\n', out);
    }
}

/* "...3254" for each serial of a list "A, B" (the last four digits), into buf */
static void serial_tails(const char *serials, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const char *p = serials; *p && used < len;) {
        size_t n = strcspn(p, ", ");
        if (n && strncmp(p, "-", n))   /* "-": a shard without a GPU */
            used += (size_t)snprintf(buf + used, len - used, "%s...%.*s", used ? " and " : "",
                                     (int)(n > 4 ? 4 : n), p + (n > 4 ? n - 4 : 0));
        p += n;
        p += strspn(p, ", ");
    }
}

void derive_runs_markdown(FILE *out, const struct run *runs, size_t nruns)
{
    fputs("| file | role | GPU | date (UTC) | wall time (plan's estimate) | points |\n"
          "|---|---|---|---|---|---|\n", out);
    for (size_t k = 0; k < nruns; k++) {
        const struct run *r = &runs[k];
        const int gpu = r->gpu_name[0] && strcmp(r->gpu_name, "none");
        char serials[200] = "", wall[64] = "not recorded";
        if (gpu) serial_tails(r->gpu_serial, serials, sizeof serials);
        if (isfinite(r->wall_s) && r->merged)
            snprintf(wall, sizeof wall, "%.1f s, the longest shard's", r->wall_s);
        else if (isfinite(r->wall_s) && isfinite(r->estimated_s))
            snprintf(wall, sizeof wall, "%.1f s (%.1f s)", r->wall_s, r->estimated_s);
        else if (isfinite(r->wall_s))
            snprintf(wall, sizeof wall, "%.1f s", r->wall_s);
        fprintf(out, "| `%s` | `%s`%s | %s%s%s%s | %.10s %.5s | %s | ", derive_file_name(r), r->role,
                r->kernel_timer ? ", `--kernel-timer`" : "", gpu ? r->gpu_name : "no GPU",
                serials[0] ? " (serial " : "", serials, serials[0] ? ")" : "", r->created_utc,
                strlen(r->created_utc) > 11 ? r->created_utc + 11 : "", wall);
        size_t counts[TRUST_UNKNOWN + 1];
        trust_count(&r->f, counts);
        /* on a GPU, a point is skipped only by design: for want of a GPU, never */
        static const char *const said[TRUST_UNKNOWN + 1] = {"passed", "incorrect", "skipped",
                                                            "failed", "damaged"};
        int parts = 0;
        if (counts[0] != r->f.n_rows) fprintf(out, "%zu: ", r->f.n_rows);
        for (size_t d = 0; d <= TRUST_UNKNOWN; d++)
            if (counts[d])
                fprintf(out, "%s%zu %s%s", parts++ ? ", " : "", counts[d], said[d],
                        d == 2 && gpu ? " by design" : "");
        if (!parts) fputs("none", out);
        fprintf(out, "%s |\n", r->f.complete ? "" : "; INCOMPLETE");
    }
}

int derive_table(FILE *out, const char *view, const struct run *runs, size_t nruns,
                 const char *arg, char *err, size_t errlen)
{
    static const char *const known[] = {"rungs",     "runs",      "ladder", "configs",
                                        "speedup",   "samples",   "telemetry", "transfers",
                                        "shapes",    "suite",     "corpus", "corpus-classes",
                                        "corpus-cdf", "estimates", "compare"};
    size_t k = 0;
    while (k < sizeof known / sizeof known[0] && strcmp(known[k], view)) k++;
    if (k == sizeof known / sizeof known[0]) {
        snprintf(err, errlen, "unknown view '%s' (expected one of: %s)", view, DERIVE_VIEWS);
        return -1;
    }
    const char *want = !strcmp(view, "rungs")     ? (nruns == 0 ? NULL : "no results file")
                       : !strcmp(view, "runs")    ? (nruns >= 1 ? NULL : "results files")
                       : !strcmp(view, "compare") ? (nruns == 2 ? NULL : "two results files")
                                                  : (nruns == 1 ? NULL : "one results file");
    if (want) {
        snprintf(err, errlen, "view '%s' takes %s (given %zu)", view, want, nruns);
        return -1;
    }
    if (!strcmp(view, "rungs")) view_rungs(out);
    else if (!strcmp(view, "runs")) view_runs(out, runs, nruns);
    else if (!strcmp(view, "ladder")) view_ladder(out, &runs[0]);
    else if (!strcmp(view, "configs")) view_configs(out, &runs[0]);
    else if (!strcmp(view, "speedup")) view_speedup(out, &runs[0]);
    else if (!strcmp(view, "samples")) view_samples(out, &runs[0], arg);
    else if (!strcmp(view, "telemetry")) view_telemetry(out, &runs[0]);
    else if (!strcmp(view, "transfers")) view_transfers(out, &runs[0]);
    else if (!strcmp(view, "shapes")) view_shapes(out, &runs[0]);
    else if (!strcmp(view, "suite")) view_suite(out, &runs[0]);
    else if (!strcmp(view, "corpus")) view_corpus(out, &runs[0]);
    else if (!strcmp(view, "corpus-classes")) view_corpus_classes(out, &runs[0]);
    else if (!strcmp(view, "corpus-cdf")) view_corpus_cdf(out, &runs[0]);
    else if (!strcmp(view, "estimates")) estimates_view(out, &runs[0]);
    else view_compare(out, &runs[0], &runs[1]);
    return 0;
}
