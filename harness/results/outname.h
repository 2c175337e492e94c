/* Output names: how a file that the tools write (a run's, a merge's) gets its
 * name without ever taking another's.
 *
 * A file is written under a work name in the folder of its final name,
 *     FINAL.HOST.PID.part
 * (HOST: this machine's name, as outname_host gives it; PID: the writer's
 * process), and takes its final name only once its writer has finished it:
 * atomically, and never over an existing file (a rename that does not replace,
 * or a hard link where the file system has no such rename).  So a final name
 * holds only finished files, the first writer to finish takes it, and each
 * writer removes only files it made.  A work file whose process was killed stays
 * where it is, with what it holds, until someone removes it. */
#ifndef HARNESS_OUTNAME_H
#define HARNESS_OUTNAME_H

#include <stddef.h>

#define OUTNAME_SUFFIX ".part"
/* What a work name adds to its final name, at most: ".HOST.PID.part". */
#define OUTNAME_EXTRA 96

/* This machine's name as work names carry it: letters, digits, '-' and '_'
 * (anything else '_'), at most 63 characters; "host" when it has none. */
void outname_host(char *buf, size_t len);

/* This process's work name for final, into buf: 0, or -1 when it does not fit. */
int outname_work(const char *final, char *buf, size_t len);

/* Another process of this machine that is writing final (its work file is in
 * the folder and the process is alive): 1, with "pid P (as WORKNAME)" in who;
 * else 0.  Work files of other machines cannot be told alive or dead from here
 * and are not counted. */
int outname_writer(const char *final, char *who, size_t len);

/* Is final free to be taken: no file (of any kind) there, and no other live
 * writer of it on this machine.  1 or 0. */
int outname_free(const char *final);

/* Give the file at work the name final, atomically, never over an existing
 * file: 0 (work is then gone), or -1 with errno (EEXIST: final was taken; work
 * is then left as it was). */
int outname_place(const char *work, const char *final);

#endif
