/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One matrix case's numbers: the snapshots of its measured window (after -O) folded into
 * whole-host CPU, the test interface's softirq, drops and FIFO, and the test's own results
 * (the engine's, -O's seconds already left out as in a single test) made into a row. Pure: no
 * I/O, no threads. [main] */
#ifndef LINERATE_MATRIX_CASE_H
#define LINERATE_MATRIX_CASE_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/diagnose/matrix_row.h"
#include "linerate/traffic/traffic.h"

struct lr_snapshot;

struct lr_matrix_acc {
	char iface[LR_IFNAMSIZ];	/* the test interface, "" unknown */
	uint64_t win_start_ns;		/* mono: the measured window opens (0: not yet running) */
	uint64_t win_end_ns;		/* mono: the test ended (0: still running) */
	unsigned ticks;
	double wall_s, busy_cpu_s;	/* whole host: CPU-seconds not idle */
	double busy_pct_s;		/* whole host busy %, times seconds */
	bool cpu_known;
	double softirq_max_pct;
	int softirq_cpu;
	uint64_t drops, fifo, rx_packets, tx_packets;
	bool drops_known, fifo_known, pkts_known;
};

void lr_matrix_acc_init(struct lr_matrix_acc *a, const char *iface);
/* Whether the snapshot's tick lies (mostly) inside the measured window. */
bool lr_matrix_acc_wants(const struct lr_matrix_acc *a, const struct lr_snapshot *s);
/* Folds a snapshot in when it lies inside the window. true when it did. */
bool lr_matrix_acc_add(struct lr_matrix_acc *a, const struct lr_snapshot *s);
/* The peer's snapshot (lr_peer_rx_build) that arrived with the local tick at arrival_ns: its
 * own interval, ending at its arrival, must lie mostly inside a's window (a late frame shifts
 * by at most one local tick). Every interface in it counts: the server samples the ones the
 * test crosses. true when folded in. */
bool lr_matrix_acc_add_peer(struct lr_matrix_acc *a, const struct lr_snapshot *peer,
			    uint64_t arrival_ns);
/* The case's parameters into the row (before it runs: a failed case still has them). */
void lr_matrix_row_case(struct lr_matrix_row *r, unsigned index, const struct lr_traffic_config *tc);
/* The numbers: the test's results (what a single `-c` test with the same options reports),
 * with the window's samples. */
void lr_matrix_row_fill(struct lr_matrix_row *r, const struct lr_traffic_results *res,
			const struct lr_matrix_acc *a);
/* The peer columns from the peer's window (after lr_matrix_row_fill: its service demand uses
 * the row's received bytes). Left unknown when no peer sample fell in the window. */
void lr_matrix_row_fill_peer(struct lr_matrix_row *r, const struct lr_matrix_acc *p);

#endif
