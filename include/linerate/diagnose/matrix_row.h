/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One matrix case's row (docs/design.md, "Both ends and many runs"): the case's parameters,
 * what it did over its measured seconds, both ends' CPU and loss witnesses, and the verdict
 * column. Unknown numbers are negative. The runner and the replay fill rows; present/ writes
 * them out (matrix_out.h) and draws them (view_matrix.h). [any] */
#ifndef LINERATE_MATRIX_ROW_H
#define LINERATE_MATRIX_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lr_verdict;

struct lr_matrix_row {
	unsigned index;		/* 1-based case number */
	/* the case */
	bool udp;
	unsigned streams;
	uint64_t length;	/* 0: iperf3's default */
	int dir;		/* 0 client->server, 1 reverse (-R), 2 --bidir */
	uint64_t bitrate_bps;	/* per stream, 0 unlimited */
	uint64_t window;	/* 0 unset */
	unsigned mss;		/* 0 unset */
	char congestion[16];	/* "" unset */
	bool rr;		/* rr=1: netperf's request/response test (--rr) */
	/* what it did, over the measured seconds (after -O) */
	double seconds;
	double sender_bps, receiver_bps, receiver_pps;
	int64_t retransmits, lost;
	double lost_pct, jitter_ms;
	double cpu_busy_pct, softirq_max_pct;
	int softirq_cpu;
	double service_demand;	/* µs of whole-host CPU per KB received */
	int64_t drops, fifo;
	double peer_cpu_busy_pct, peer_softirq_max_pct;
	int peer_softirq_cpu;
	double peer_service_demand;
	int64_t peer_drops, peer_fifo;
	char verdict[832];	/* one line: the local and peer witnesses and the next step */
	/* when the case's test began (its control connection) and ended, wall clock in s since
	 * the epoch; in -J and appended to the CSV, < 0 unknown */
	double time_start, time_end;
	/* rr=1: transactions per second over the measured seconds and the round trip's p99
	 * (appended to the CSV); < 0 unknown or not an rr case */
	double rr_tps, rr_p99_us;
	/* the latency probes (docs/design.md §16): p99 of the idle baseline and under load, us;
	 * appended to the CSV and in -J, < 0 unknown (a plain iperf3, --no-latency) */
	int64_t rtt_idle_us, rtt_p99_us;
};

/* Every number unknown, the peer's too. */
void lr_matrix_row_init(struct lr_matrix_row *r);

/* A grid's progress as the Matrix pane shows it (present/view_matrix.h), filled by the
 * runner (live) or the replay. */
struct lr_matrix_progress {
	const struct lr_matrix_row *rows;	/* finished, in order */
	unsigned n_rows, n_cases;
	unsigned running;		/* 1-based case running, 0 none (ended) */
	const char *running_name;	/* "P=2 u=tcp" */
	double eta_s;			/* < 0 unknown */
	double running_s;		/* the running case's seconds so far, < 0 unknown */
	bool replay;			/* a recording played back: nothing can be skipped */
	bool untimed;			/* the rows have no times: all are shown finished */
};

/* The verdict in one line: every witness of loss (this host's, then the peer's drops and FIFO
 * from r's peer columns, named by its role: "the receiver's test interfaces: 150 dropped (its
 * kernel's count)"), then the next step. */
void lr_matrix_verdict_line(const struct lr_verdict *v, const struct lr_matrix_row *r, char *buf,
			    size_t len);

#endif
