/* Output names: see outname.h. */
#define _GNU_SOURCE   /* renameat2, RENAME_NOREPLACE */
#include "outname.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void outname_host(char *buf, size_t len)
{
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
    size_t j = 0;
    for (size_t i = 0; host[i] && j + 1 < len && j < 63; i++) {
        const unsigned char ch = (unsigned char)host[i];
        buf[j++] = isalnum(ch) || ch == '-' || ch == '_' ? (char)ch : '_';
    }
    buf[j] = '\0';
    if (!j) snprintf(buf, len, "host");
}

int outname_work(const char *final, char *buf, size_t len)
{
    char host[64];
    outname_host(host, sizeof host);
    const int n = snprintf(buf, len, "%s.%s.%ld%s", final, host, (long)getpid(), OUTNAME_SUFFIX);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The folder and the last component of a path. */
static void split_path(const char *path, char *dir, size_t dirlen, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, dirlen, ".");
    else if (slash == path)
        snprintf(dir, dirlen, "/");
    else
        snprintf(dir, dirlen, "%.*s", (int)(slash - path), path);
}

/* Is name (in final's folder) a work name of final: 1 with its host and pid. */
static int work_of(const char *name, const char *base, char *host, size_t hostlen, long *pid)
{
    const size_t b = strlen(base), n = strlen(name), s = strlen(OUTNAME_SUFFIX);
    if (n <= b + 1 + s || strncmp(name, base, b) != 0 || name[b] != '.' ||
        strcmp(name + n - s, OUTNAME_SUFFIX) != 0)
        return 0;
    const char *mid = name + b + 1, *end = name + n - s, *dot = memchr(mid, '.', (size_t)(end - mid));
    if (!dot || dot == mid || memchr(dot + 1, '.', (size_t)(end - dot - 1))) return 0;
    char *stop;
    errno = 0;
    *pid = strtol(dot + 1, &stop, 10);
    if (stop != end || errno || *pid <= 0) return 0;
    snprintf(host, hostlen, "%.*s", (int)(dot - mid), mid);
    return 1;
}

int outname_writer(const char *final, char *who, size_t len)
{
    char dir[PATH_MAX], me[64], host[256];
    const char *base;
    split_path(final, dir, sizeof dir, &base);
    outname_host(me, sizeof me);
    DIR *d = opendir(dir);
    if (!d) return 0;
    int found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        long pid;
        if (!work_of(e->d_name, base, host, sizeof host, &pid) || strcmp(host, me) != 0 ||
            pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno == EPERM) {
            found = 1;
            if (who) snprintf(who, len, "pid %ld (as %s)", pid, e->d_name);
        }
    }
    closedir(d);
    return found;
}

int outname_free(const char *final)
{
    struct stat st;
    if (lstat(final, &st) == 0 || errno != ENOENT) return 0;
    return !outname_writer(final, NULL, 0);
}

int outname_place(const char *work, const char *final)
{
    if (renameat2(AT_FDCWD, work, AT_FDCWD, final, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return -1;
    /* A file system without a rename that does not replace (NFS, some FUSE
     * ones): a hard link is as exclusive, then the work name goes. */
    if (link(work, final) != 0) return -1;
    unlink(work);
    return 0;
}
