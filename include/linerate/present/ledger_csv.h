/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --ledger-csv FILE (docs/csv.md §8): one row per line of the running test's ledger (sent,
 * each stage, received, lost, unaccounted) per interval. Unknown is an empty field, never 0.
 * Each interval's rows are flushed together; after a write error the file is cut back to its
 * last whole interval, so what was written stays whole on any exit. [main] */
#ifndef LINERATE_LEDGER_CSV_H
#define LINERATE_LEDGER_CSV_H

#include <stdint.h>

#include "linerate/core/common.h"

struct lr_ledger_live;
struct lr_ledger_csv;

#define LR_LEDGER_CSV_HEADER \
	"time,elapsed,interval,direction,side,host,stage,counter,count,unit,datagrams,approx"

/* Creates path and writes the header. 0 or -errno. */
int lr_ledger_csv_open(struct lr_ledger_csv **out, const char *path) LR_MUST_CHECK;
/* The newest interval of lv (its snapshot's wall clock and elapsed) when not written yet;
 * direction "up" (client to server) or "down". 0 or -errno (sticky: nothing more is written). */
int lr_ledger_csv_write(struct lr_ledger_csv *c, const struct lr_ledger_live *lv,
			const char *direction, uint64_t real_ns, uint64_t elapsed_ns) LR_MUST_CHECK;
/* 0 or -errno; NULL-safe. */
int lr_ledger_csv_close(struct lr_ledger_csv *c);

#endif
