/* The public header of harness/results (harness/README.md: the layers).
 * results: the one file format both halves share.  A results file (file.h: its
 * schema, the writer, the reader), the trust in what was read, the merge of
 * shards, and how a written file gets its name. */
#ifndef HARNESS_RESULTS_H
#define HARNESS_RESULTS_H

#include "file.h"
#include "trust.h"
#include "merge.h"
#include "outname.h"

#endif
