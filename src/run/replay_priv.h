/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The replay's insides, shared by its recording (replay_rows.c: rows in, ticks) and its
 * playback (replay.c: clock, per-series state, snapshots). Private to src/run/replay*.c. */
#ifndef LINERATE_REPLAY_PRIV_H
#define LINERATE_REPLAY_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/sample/report_read.h"
#include "linerate/sample/snapshot.h"

struct lr_report;

#define RP_IF_COLS 26	/* docs/design.md §4's --csv columns, by index */
#define RP_CPU_COLS 14	/* --cpu-csv */
#define RP_ST_COLS 15	/* --streams-csv */
#define RP_Q_COLS 15	/* --queues-csv up to cpu_softirq_pct (source is kept apart) */
#define RP_NONE SIZE_MAX

enum { RP_LOCAL, RP_PEER, RP_SIDES };

/* A row: its numbers by known column index (NAN unknown or not a number). */
struct rp_ifrow {
	double time;
	uint32_t seq, series;
	double v[RP_IF_COLS];
	double qdisc[LR_RQ__COUNT];	/* the appended qdisc columns; NAN unknown or absent */
};

/* The most numerous rows (CPUs x ticks): percentages and rates as float (7 digits, more than a
 * pane shows); the clock columns as double. */
struct rp_cpurow {
	double time, elapsed, interval;
	uint32_t seq;
	uint8_t side;
	int cpu;
	float v[RP_CPU_COLS];
};

struct rp_strow {
	double time;
	uint32_t seq;
	int id;
	bool send, udp;
	bool target_col;	/* the file has target_bps (an older one does not) */
	double target;		/* target_bps: NAN unknown */
	double v[RP_ST_COLS];
};

struct rp_qrow {
	double time;
	uint32_t seq, series;
	unsigned queue;
	uint8_t source;		/* enum lr_queue_source */
	double v[RP_Q_COLS];
};

/* One queue of one interface series, as a live sampler would hold it by now. */
struct rp_queue {
	unsigned queue;
	struct lr_queue_snap st;
	double last_time, last_interval;	/* last_time < 0: no row yet */
};

struct rp_tick {
	double time, elapsed, interval;
};

/* One interface of one side, as a live sampler would hold it by now. */
struct rp_series {
	char name[LR_IFNAMSIZ];
	char driver[32];	/* the CSV's driver column, the last one given; "" none */
	int side;
	struct lr_iface_snap st;
	struct lr_drv_counter moved[2];	/* nic_fifo, nic_drop: the CSV's driver sums */
	double last_time, last_interval;	/* last_time < 0: no row yet */
	/* a sliver row's counts (bits, packets) and time, folded into the next row's peak */
	double carry[LR_SER__COUNT], carry_secs;
	struct rp_queue *q;	/* sorted by queue (replay_queues.c) */
	size_t n_q;
	struct lr_queue_snap *qview;	/* [n_q]: the queues shown (st.queues points here) */
	enum lr_queue_source qsrc;
};

struct rp_cpu {
	int side;
	struct lr_cpu_snap st;
	double last_time, last_interval;
};

struct rp_stream {
	int id;
	bool send;
	struct lr_stream_snap st;
	double last_time, last_interval;
	double target;		/* the last row's target_bps: < 0 unknown, -2 not recorded */
};

/* One matrix case's test in the stream rows (replay_matrix.c): rows [first, first + n). */
struct rp_mx_block {
	size_t first, n;
	double start, end;	/* its traffic's first and last moment (recorded Unix time) */
	bool udp, mixed;	/* mixed: tcp and udp rows (not one case) */
};

struct lr_matrix_row;

struct lr_replay {
	struct lr_report *rep;	/* the reader; its summary is not used */
	const char *only;	/* -I comma list, NULL all */
	struct rp_ifrow *ifrows;
	size_t n_ifrows, cap_ifrows;
	struct rp_cpurow *cpurows;
	size_t n_cpurows, cap_cpurows;
	struct rp_strow *strows;
	size_t n_strows, cap_strows;
	struct rp_qrow *qrows;
	size_t n_qrows, cap_qrows;
	struct rp_series *series;
	size_t n_series, cap_series, series_hint;
	char host[RP_SIDES][64];
	bool have[RP_SIDES];
	struct rp_tick *ticks;
	size_t n_ticks;
	double typical_interval;	/* the median tick interval: the run's -i */

	/* the matrix (replay_matrix.c) */
	struct lr_matrix_row *mx;
	unsigned n_mx;
	struct rp_mx_block *mx_block;
	size_t n_mx_blocks;
	bool mx_timed;		/* the rows appear when their blocks end */
	const char *mx_why;	/* else why not */

	/* playback state (replay.c) */
	struct rp_cpu *cpus;
	size_t n_cpus;
	struct rp_stream *streams;
	size_t n_streams;
	size_t cur_if, cur_cpu, cur_st, cur_q;	/* the next row to apply */
	size_t built;			/* the tick the snapshots show, RP_NONE none */
	bool dirty;			/* rebuild the snapshots of `built` (reset) */
	uint64_t seq;			/* +1 per snapshot built */
	double target;			/* the shown streams' target (rp_stream.target), -1 none */
	struct lr_snapshot snap[RP_SIDES];	/* arrays owned here, not by lr_snapshot_free */
	double pos_anchor;		/* recorded time at mono_anchor */
	uint64_t mono_anchor;
	bool paused;
	int speed_exp;
};

/* replay.c: the per-CPU and per-stream states and the snapshots' arrays, sized from the rows.
 * 0 or -ENOMEM. */
int lr_replay_states_init(struct lr_replay *rp);
void lr_replay_states_free(struct lr_replay *rp);

/* replay_queues.c: the --queues-csv rows as each series' queues. Slots from the rows (0 or
 * -ENOMEM); all cleared (a seek back); the rows up to time t applied; the queues present at t
 * published into each series' st.queues; freed. */
int lr_replay_queues_init(struct lr_replay *rp);
/* keys[0..n) sorted and made distinct in place; returns the distinct count (replay.c). */
size_t lr_replay_distinct(uint64_t *keys, size_t n);
void lr_replay_queues_reset(struct lr_replay *rp);
void lr_replay_queues_advance(struct lr_replay *rp, double t);
void lr_replay_queues_view(struct lr_replay *rp, double t);
void lr_replay_queues_free(struct lr_replay *rp);

/* replay_matrix.c: the matrix CSV's rows and their times from the sorted stream rows. 0 or
 * -ENOMEM; freed. */
int lr_replay_matrix_init(struct lr_replay *rp);
void lr_replay_matrix_free(struct lr_replay *rp);

#endif
