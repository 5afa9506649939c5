/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Headless CSV logs (docs/design.md §4, a public interface: columns are only ever
 * appended). One writer per file: interfaces, CPUs or traffic streams. Rows are flushed every
 * tick; numbers are locale-independent; unknown is an empty field. [main] */
#ifndef LINERATE_CSV_H
#define LINERATE_CSV_H

#include <stdint.h>
#include <stdio.h>

#include "linerate/core/common.h"

struct lr_csv;
struct lr_snapshot;

enum lr_csv_kind { LR_CSV_IFACES, LR_CSV_CPUS, LR_CSV_STREAMS, LR_CSV_QUEUES };

/* Opens path ("-" = stdout) and writes the header. 0 or -errno. */
int lr_csv_open(struct lr_csv **out, const char *path, enum lr_csv_kind kind) LR_MUST_CHECK;
/* Writes the snapshot's rows and flushes. Interface and stream rows are computed from
 * cumulative counters, so a snapshot the caller missed is folded into the next row, never lost;
 * a stream's first row counts from the stream's start, so the bytes column sums to its total.
 * A stream row's target_bps is that stream's own in the snapshot (empty when unknown).
 * 0 or -errno (ENOSPC, EIO, EPIPE): the caller reports it and stops. */
int lr_csv_write(struct lr_csv *c, const struct lr_snapshot *s) LR_MUST_CHECK;
/* The peer's rows (docs/design.md §10): the same columns from the peer's snapshot, side=peer and
 * host; their last-row state is kept apart from the local rows'. No-op for stream files.
 * 0 or -errno as lr_csv_write. */
int lr_csv_write_peer(struct lr_csv *c, const struct lr_snapshot *s,
		      const char *host) LR_MUST_CHECK;
/* A `latency` row of a streams file (docs/csv.md §4): one report interval's latency probes,
 * round trips in us, -1 unknown (no probe answered in it). */
struct lr_csv_latency {
	uint64_t answered, lost;
	int64_t p50_us, p90_us, p99_us, max_us;
};
/* Writes it at the snapshot's time; a no-op for other kinds. 0 or -errno as lr_csv_write. */
int lr_csv_write_latency(struct lr_csv *c, const struct lr_snapshot *s,
			 const struct lr_csv_latency *l) LR_MUST_CHECK;
/* Flushes and closes (not stdout). 0 or -errno; NULL-safe. */
int lr_csv_close(struct lr_csv *c);
const char *lr_csv_path(const struct lr_csv *c);

/* The header line of a kind, without the newline (tests, docs). */
const char *lr_csv_header(enum lr_csv_kind kind);
/* One field, quoted as RFC 4180 wants when it holds a comma, a quote or a line break (interface
 * names, host names and counter names may). Every CSV linerate writes uses it. */
void lr_csv_field(FILE *f, const char *s);

#endif
