/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder: every CSV file a run writes (--csv, --cpu-csv, --streams-csv), opened,
 * fed one snapshot at a time and closed, the same for every mode. Errors come back as one
 * line naming the file and the option; the mode decides when to print it (the dashboard
 * only once the terminal is restored). [main] */
#ifndef LINERATE_RECORDER_H
#define LINERATE_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_snapshot;
struct lr_recorder;	/* opaque */

/* The files a run writes, each NULL when not asked for, "-" for stdout (docs/csv.md). */
struct lr_recorder_files {
	const char *csv;		/* --csv: interface rows */
	const char *cpu_csv;		/* --cpu-csv */
	const char *streams_csv;	/* --streams-csv */
	const char *queues_csv;		/* --queues-csv */
};

/* Opens the files named (stdout_default: interface rows to stdout when none is named).
 * 0 or -errno with "--csv run.csv: Permission denied" in err. *out is NULL-safe to close
 * and to write when no file was asked for. */
int lr_recorder_open(struct lr_recorder **out, const struct lr_recorder_files *files,
		     bool stdout_default, char *err, size_t errlen) LR_MUST_CHECK;
/* Writes the snapshot's rows to every file. 0 or -errno with "writing run.csv: ..." in err;
 * after an error nothing more is written. -EPIPE with err empty: stdout's reader has gone (a
 * normal end of the run; the files keep their whole rows, and close says nothing of it). */
int lr_recorder_write(struct lr_recorder *r, const struct lr_snapshot *s, char *err,
		      size_t errlen) LR_MUST_CHECK;
/* The peer's rows of the interface and CPU files (side=peer, host), from the peer view's
 * snapshot. Same errors as lr_recorder_write. */
int lr_recorder_write_peer(struct lr_recorder *r, const struct lr_snapshot *s, const char *host,
			   char *err, size_t errlen) LR_MUST_CHECK;
/* A `latency` row into the streams file (none asked: nothing) at s's time. Same errors as
 * lr_recorder_write. */
struct lr_csv_latency;
int lr_recorder_write_latency(struct lr_recorder *r, const struct lr_snapshot *s,
			      const struct lr_csv_latency *l, char *err, size_t errlen) LR_MUST_CHECK;
/* Flushes and closes every file, frees. 0, or -errno with "closing run.csv: ..." in err
 * (not repeated for a file whose write already failed). NULL-safe. */
int lr_recorder_close(struct lr_recorder *r, char *err, size_t errlen);

#endif
