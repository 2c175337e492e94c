/* What mmladder's commands share (cli.h): an option's value, the warnings about
 * a file read, the GPU's name as files carry it, who holds a name, the check
 * that a name is free, and the runs of a command line opened by role. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "views/views.h"
#include "results/results.h"

const char *cli_option_value(const struct cli *c, const char *cmd, int argc, char **argv, int *i,
                             const char *expect)
{
    if (*i + 1 >= argc) {
        fprintf(c->err, "mmladder %s: '%s' needs a value (expected %s %s)\n", cmd, argv[*i],
                argv[*i], expect);
        return NULL;
    }
    return argv[++*i];
}

void cli_warn_about(const struct cli *c, const char *path, const struct results_file *f,
                    int incomplete_too)
{
    if (f->damaged)
        fprintf(c->err, "mmladder: warning: %s is DAMAGED: %zu rows or samples not believed "
                        "or lost (see below)\n", path, f->damaged);
    if (!f->complete && incomplete_too)
        fprintf(c->err, "mmladder: warning: %s is incomplete (it holds fewer rows than its "
                        "plan)\n", path);
    if (f->notes[0]) fprintf(c->err, "mmladder: warning: %s: %s\n", path, f->notes);
}

void cli_gpu_slug(char *out, size_t len, const char *name)
{
    size_t j = 0;
    if (strncmp(name, "NVIDIA ", 7) == 0) name += 7;
    for (size_t i = 0; name[i] && j + 1 < len; i++) {
        unsigned char ch = (unsigned char)name[i];
        if (isalnum(ch))
            out[j++] = (char)tolower(ch);
        else if (j > 0 && out[j - 1] != '-')
            out[j++] = '-';
    }
    while (j > 0 && out[j - 1] == '-') j--;
    out[j] = '\0';
}

/* The attributes that say who made a file. */
struct holder {
    char host[256], pid[32], when[64], cmd[512], merged[64];
};

static void take_holder(const char *name, const char *value, void *ctx)
{
    struct holder *h = ctx;
    if (!strcmp(name, "hostname") && !h->host[0]) snprintf(h->host, sizeof h->host, "%s", value);
    else if (!strcmp(name, "merge_host")) snprintf(h->host, sizeof h->host, "%s", value);
    else if (!strcmp(name, "pid") || !strcmp(name, "merge_pid")) snprintf(h->pid, sizeof h->pid, "%s", value);
    else if (!strcmp(name, "created_utc")) snprintf(h->when, sizeof h->when, "%s", value);
    else if (!strcmp(name, "merged_utc")) snprintf(h->merged, sizeof h->merged, "%s", value);
    else if (!strcmp(name, "command_line")) snprintf(h->cmd, sizeof h->cmd, "%s", value);
}

void cli_say_holder(const struct cli *c, const char *path)
{
    struct holder h = {"", "", "", "", ""};
    char err[PATH_MAX + 512];
    if (results_visit_attrs(path, take_holder, &h, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s is there, and is not a results file this reader takes (%s)\n",
                path, err);
        return;
    }
    fprintf(c->err, "mmladder: %s holds the file of %s%s%s%s, %s %s: %s\n", path,
            h.pid[0] ? "pid " : "a process", h.pid, h.host[0] ? " on host " : "", h.host,
            h.merged[0] ? "merged" : "begun", h.merged[0] ? h.merged : h.when[0] ? h.when : "(no date)",
            h.cmd[0] ? h.cmd : "(no command line recorded)");
}

int cli_name_free(const struct cli *c, const char *what, const char *path)
{
    struct stat st;
    char who[PATH_MAX + 64];
    if (lstat(path, &st) == 0) {
        fprintf(c->err, "mmladder %s: already exists (results files are never overwritten; "
                        "nothing was written: name a new file)\n", what);
        cli_say_holder(c, path);
        return -1;
    }
    if (outname_writer(path, who, sizeof who)) {
        fprintf(c->err, "mmladder %s: being written by %s on this machine (results files are "
                        "never overwritten; nothing was written: wait for it, or name a new "
                        "file)\n", what, who);
        return -1;
    }
    return 0;
}

void cli_say_incomplete(const struct cli *c, const char *path, const struct results_file *f)
{
    char planned[32] = "?";
    if (f->planned >= 0) snprintf(planned, sizeof planned, "%lld", f->planned);
    fprintf(c->err, "mmladder: %s is incomplete: it holds %zu of its plan's %s points (a run "
                    "that did not end, or a merge with shards missing); %s\n", path, f->n_rows,
            planned, CLI_READ_ANYWAY);
}

int cli_open_runs(const struct cli *c, int argc, char **argv, int first, struct run *runs,
                  size_t max, int strict)
{
    /* ROLE=FILE (or FILE, as run1, run2, ...): every role and path first, then
     * the files, read at once */
    size_t n = 0;
    char(*role)[32] = calloc(max ? max : 1, sizeof *role);
    const char **roles = calloc(max ? max : 1, sizeof *roles), **paths = calloc(max ? max : 1, sizeof *paths);
    char err[PATH_MAX + 512];
    int rc = -1;
    if (!role || !roles || !paths) {
        fprintf(c->err, "mmladder: out of memory\n");
        goto done;
    }
    for (int i = first; i < argc; i++) {
        if (n == max) {
            fprintf(c->err, "mmladder: more than %zu results files\n", max);
            goto done;
        }
        const char *path = argv[i], *eq = strchr(argv[i], '=');
        if (eq && (size_t)(eq - argv[i]) < sizeof role[n] && eq > argv[i]) {
            snprintf(role[n], sizeof role[n], "%.*s", (int)(eq - argv[i]), argv[i]);
            path = eq + 1;
        } else {
            snprintf(role[n], sizeof role[n], "run%zu", n + 1);
        }
        if (!path[0]) {
            fprintf(c->err, "mmladder: '%s' names no file (expected ROLE=FILE.h5)\n", argv[i]);
            goto done;
        }
        for (size_t j = 0; j < n; j++)
            if (!strcmp(role[j], role[n])) {
                fprintf(c->err, "mmladder: role '%s' given twice (%s and %s; expected one file "
                                "a role)\n", role[n], paths[j], path);
                goto done;
            }
        roles[n] = role[n], paths[n] = path;
        n++;
    }
    if (derive_open_all(runs, roles, paths, n, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s\n", err);
        goto done;
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const struct results_file *f = &runs[i].f;
        cli_warn_about(c, paths[i], f, strict == 0);   /* else said as it is refused */
        if (strict == CLI_WHOLE_RUNS && !f->complete) {
            cli_say_incomplete(c, paths[i], f);
            for (size_t j = 0; j < kept; j++) derive_close(&runs[j]);
            for (size_t j = i; j < n; j++) derive_close(&runs[j]);
            rc = -2;
            goto done;
        }
        if (strict && strict != CLI_WHOLE_RUNS && (f->damaged || !f->complete)) {
            fprintf(c->err, "mmladder: %s=%s is %s: nothing is stated from it%s\n", roles[i],
                    paths[i], f->damaged ? "damaged" : "incomplete",
                    strict == 2 ? "; left out" : " (--partial: leave it out)");
            if (strict != 2) {
                for (size_t j = 0; j < kept; j++) derive_close(&runs[j]);
                for (size_t j = i; j < n; j++) derive_close(&runs[j]);
                goto done;
            }
            derive_close(&runs[i]);
            continue;
        }
        if (kept != i) runs[kept] = runs[i];
        kept++;
    }
    rc = (int)kept;
done:
    free(role);
    free(roles);
    free(paths);
    return rc;
}
