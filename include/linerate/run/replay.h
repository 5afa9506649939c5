/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `linerate --replay` (docs/design.md §11): recorded CSVs (--csv interface rows, --cpu-csv,
 * --streams-csv; read by the report's reader, sample/report_read.c, so both accept and refuse
 * the same files) turned back into the snapshots the dashboard draws, one per recorded tick,
 * with the totals, peaks and graph history a live run would have built by then. A playback
 * clock (pause, speed x1/2 .. x16, seek) picks the tick to show; the caller passes the
 * monotonic time so the clock is testable. Rows are held in memory (LR_REPLAY_ROWS_MAX per
 * kind): the report reads any length, the replay what fits. [main] */
#ifndef LINERATE_REPLAY_H
#define LINERATE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "linerate/core/common.h"

struct lr_replay;	/* opaque */
struct lr_snapshot;
struct lr_matrix_progress;

#define LR_REPLAY_ROWS_MAX 4000000u	/* rows per kind (interface, CPU, stream) */
#define LR_REPLAY_SPEED_MIN (-1)	/* speed is 2^exp: x1/2 */
#define LR_REPLAY_SPEED_MAX 4		/* x16 */
#define LR_REPLAY_SEEK_S 10.0

/* An empty recording; *out is caller-owned (lr_replay_close). 0 or -ENOMEM. */
int lr_replay_new(struct lr_replay **out) LR_MUST_CHECK;
/* -I: keep only these interfaces (a comma list, as live; NULL all). Before the first file;
 * the list must outlive rp. */
void lr_replay_set_ifaces(struct lr_replay *rp, const char *list);
/* Reads one CSV (name for errors). 0; -EINVAL: not a linerate CSV, a bad or truncated row, a
 * second run, too many rows (err: "NAME:LINE: why", one line); -ENOMEM; -EIO. */
int lr_replay_add(struct lr_replay *rp, FILE *f, const char *name, char *err,
		  size_t errlen) LR_MUST_CHECK;
/* After the last file: orders the rows into ticks and starts the clock at the first tick,
 * playing at x1 from now_ns. -EINVAL when no file held a row to replay (err set). */
int lr_replay_start(struct lr_replay *rp, uint64_t now_ns, char *err, size_t errlen) LR_MUST_CHECK;
void lr_replay_close(struct lr_replay *rp);	/* NULL-safe */

/* The recording: ticks (distinct row times), the first and last tick's Unix time. */
size_t lr_replay_ticks(const struct lr_replay *rp);
double lr_replay_first_time(const struct lr_replay *rp);
double lr_replay_last_time(const struct lr_replay *rp);
bool lr_replay_has_streams(const struct lr_replay *rp);
/* The recording host (the CSV's host column of local rows), "" when it has none. */
const char *lr_replay_host(const struct lr_replay *rp);

/* The clock. pos: the recorded Unix time shown at now_ns (clamped to the recording). */
double lr_replay_pos(const struct lr_replay *rp, uint64_t now_ns);
bool lr_replay_at_end(const struct lr_replay *rp, uint64_t now_ns);
bool lr_replay_paused(const struct lr_replay *rp);
void lr_replay_set_paused(struct lr_replay *rp, bool paused, uint64_t now_ns);
/* Speed 2^exp, exp in LR_REPLAY_SPEED_MIN..MAX; step +1 faster, -1 slower. The new exp. */
int lr_replay_speed_step(struct lr_replay *rp, int step, uint64_t now_ns);
int lr_replay_speed_exp(const struct lr_replay *rp);
/* Moves the position by delta_s recorded seconds (clamped). */
void lr_replay_seek(struct lr_replay *rp, double delta_s, uint64_t now_ns);
/* Nanoseconds from now_ns until the next tick is due; UINT64_MAX while paused or at the end. */
uint64_t lr_replay_next_due_ns(const struct lr_replay *rp, uint64_t now_ns);

/* The snapshot of the tick at pos(now_ns) into *out (lr_snapshot_copy) when it is not the one
 * *seen names: 1 copied (and *seen updated), 0 the same tick, -ENOMEM. */
int lr_replay_read(struct lr_replay *rp, uint64_t now_ns, struct lr_snapshot *out,
		   uint64_t *seen) LR_MUST_CHECK;
/* The peer's snapshot at the same tick (rows with side=peer) and its host; NULL when the
 * recording has no peer rows. Valid until the next lr_replay_read. */
const struct lr_snapshot *lr_replay_peer(const struct lr_replay *rp, const char **host);
/* The target (-b per stream, target_bps) of the streams the last snapshot shows: bit/s, 0
 * unlimited, -1 unknown or no stream shown, -2 the streams CSV does not record it (older). */
double lr_replay_stream_target(const struct lr_replay *rp);
/* The matrix CSV's rows (0: none replayed). Its rows have no time: with the same run's
 * --streams-csv each appears when its case's traffic ended; otherwise all are shown finished
 * from the start, and lr_replay_matrix_untimed says why (NULL when timed or no matrix). */
unsigned lr_replay_matrix_rows(const struct lr_replay *rp);
const char *lr_replay_matrix_untimed(const struct lr_replay *rp);
/* The Matrix pane at recorded time pos: the rows finished by then, the case running, its
 * seconds and the ETA to the recording's last case; name (len bytes) holds the running case's
 * name. v->rows stays valid until lr_replay_close. */
void lr_replay_matrix_view(const struct lr_replay *rp, double pos, struct lr_matrix_progress *v,
			   char *name, size_t len);
/* Key r: totals and peaks count from the tick shown. */
void lr_replay_reset_totals(struct lr_replay *rp);

#endif
