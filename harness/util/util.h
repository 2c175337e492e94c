/* The public header of harness/util (harness/README.md: the layers).
 * util: what any layer may use, knowing nothing of matrices or results: files given to
 * read, numbers as text, a worker thread for long host work, the wall clock. */
#ifndef HARNESS_UTIL_H
#define HARNESS_UTIL_H

#include "files.h"
#include "numtext.h"
#include "worker.h"
#include "clock.h"

#endif
