/* Checking a file before it is read: see files.h. */
#define _POSIX_C_SOURCE 200809L
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "is a directory"
           : S_ISFIFO(m) ? "is a FIFO (named pipe)"
           : S_ISCHR(m)  ? "is a character device"
           : S_ISBLK(m)  ? "is a block device"
           : S_ISSOCK(m) ? "is a socket"
                         : "is of another kind";
}

const char *files_check_regular(const char *path, char *buf, size_t len)
{
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(buf, len, "%s", strerror(errno));
        return buf;
    }
    struct stat st;
    const char *why = NULL;
    if (fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = kind_of(st.st_mode);
    close(fd);
    if (!why) return NULL;
    snprintf(buf, len, "%s%s", why, S_ISREG(st.st_mode) ? "" : ", not a regular file");
    return buf;
}
