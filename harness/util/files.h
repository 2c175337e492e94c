/* Files the tools are given to read: checked before they are opened. */
#ifndef HARNESS_FILES_H
#define HARNESS_FILES_H

#include <stddef.h>

/* NULL if `path` is a regular file that can be opened for reading; else why
 * not, in buf ("No such file or directory", "is a FIFO (named pipe), not a regular
 * file", ...).  Never
 * blocks: a FIFO or a device is refused without being read. */
const char *files_check_regular(const char *path, char *buf, size_t len);

#endif
