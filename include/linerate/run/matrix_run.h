/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The matrix's cases driven one after another, without blocking, by whichever loop owns the
 * snapshots: headless `--matrix` and the dashboard's Matrix pane. Each case is a test session
 * (session.c) exactly as a single test; between cases the link is let settle; a busy server
 * is retried; each finished row is handed to the caller at once (--matrix-csv). The runner
 * writes nothing: the caller turns its rows into the table, CSV or JSON. Main thread only.
 * [main] */
#ifndef LINERATE_MATRIX_RUN_H
#define LINERATE_MATRIX_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "linerate/core/common.h"
#include "linerate/traffic/traffic.h"

struct lr_matrix_row;
struct lr_matrix_run;
struct lr_snapshot;
struct lr_snapsrc;
struct lr_matrix_progress;

struct lr_matrix_opts {
	const char *spec;			/* --matrix SPEC */
	struct lr_traffic_config traffic;	/* the options each case varies from */
	const char *iface;	/* the test interface (-I with one name); NULL: the route's */
	uint64_t case_ns;	/* each case's measured length; 0: the default 10 s */
	uint64_t omit_ns;	/* -O, for the ETA (the engine omits) */
	uint64_t interval_ns;	/* the sampling interval: how long a tail is waited for */
	/* Each finished row at once; nonzero: it could not be kept (the grid stops, failed). */
	int (*on_row)(void *arg, const struct lr_matrix_row *r);
	/* Each snapshot built from the peer's frames (a linerate server that shares its
	 * samples), as a plain -c hands them to --csv; nonzero: the grid stops, failed. */
	int (*on_peer)(void *arg, const struct lr_snapshot *peer, const char *host);
	void *row_arg;	/* for both */
};

/* Parses the SPEC and checks the options against it (nothing is sent): 0, 2 (bad usage) or 1,
 * with one line in err. o is copied (its strings are borrowed). src may be NULL (no
 * samples). */
int lr_matrix_run_open(struct lr_matrix_run **out, const struct lr_matrix_opts *o,
		       struct lr_snapsrc *src, char *err, size_t len) LR_MUST_CHECK;
/* Every new snapshot, in order. */
void lr_matrix_run_snapshot(struct lr_matrix_run *m, const struct lr_snapshot *s);
/* Moves on (start, follow, finish, settle, retry). true when a row or the state changed. */
bool lr_matrix_run_step(struct lr_matrix_run *m);
/* How long the caller may wait before the next step (an omit mark or a back-off is due). */
uint64_t lr_matrix_run_wait_ns(const struct lr_matrix_run *m);
/* `s`: the running case ends unwritten and the next starts (a case that has already ended
 * keeps its row); while the link settles (or a busy server is waited for), the case shown as
 * next is passed over without starting. */
void lr_matrix_run_skip(struct lr_matrix_run *m);
/* `q` or a signal: the running case ends unwritten (one that has already ended keeps its
 * row), no other starts. */
void lr_matrix_run_stop(struct lr_matrix_run *m);
bool lr_matrix_run_done(const struct lr_matrix_run *m);
/* Rows so far, the cases in all, the running case (1-based, 0 none), seconds left (< 0
 * unknown), the SPEC's letters. For the pane. */
const struct lr_matrix_row *lr_matrix_run_rows(const struct lr_matrix_run *m, unsigned *n);
unsigned lr_matrix_run_cases(const struct lr_matrix_run *m);
unsigned lr_matrix_run_current(const struct lr_matrix_run *m);
double lr_matrix_run_eta_s(const struct lr_matrix_run *m);
const char *lr_matrix_run_keys(const struct lr_matrix_run *m);
/* The current case's parameters in SPEC terms ("P=2 u=udp"). */
void lr_matrix_run_case_name(const struct lr_matrix_run *m, unsigned index, char *buf, size_t len);
/* The test interface ("" unknown). */
const char *lr_matrix_run_iface(const struct lr_matrix_run *m);
/* The Matrix pane's data (pointers into m; name is the caller's buffer for the running case). */
void lr_matrix_run_view(const struct lr_matrix_run *m, struct lr_matrix_progress *v, char *name,
			size_t len);
/* Cases ended (rows and skips), each case's measured length. */
unsigned lr_matrix_run_ended(const struct lr_matrix_run *m);
uint64_t lr_matrix_run_case_ns(const struct lr_matrix_run *m);
/* The grid's exit code: 0 every case ran, 1 a case failed, it stopped early or a row could
 * not be kept. */
int lr_matrix_run_status(const struct lr_matrix_run *m);
/* Closes a running client (no row). NULL-safe. */
void lr_matrix_run_close(struct lr_matrix_run *m);

#endif
