/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A recorded run read back (docs/csv.md): the CSVs linerate wrote (interface, CPU, streams,
 * queues, matrix; known by their header, columns by name) read into a bounded summary that
 * the HTML report (present/report.h) and the replay (run/replay.h) share. The summary never holds the rows: each series keeps exact totals and
 * peaks plus LR_REP_BUCKETS time buckets (min/max/mean) whose width doubles as the run grows, so
 * memory is bounded by the number of series, never by the length of the run, and a peak is
 * never lost to the reduction. Input is untrusted: bounded lines, series and rows. [main] */
#ifndef LINERATE_REPORT_READ_H
#define LINERATE_REPORT_READ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "linerate/core/common.h"

#define LR_REP_BUCKETS     512	/* time buckets per series: half to all are in use */
#define LR_REP_LINE_MAX    4096	/* longest CSV line accepted */
#define LR_REP_FIELDS_MAX  64	/* most columns accepted (known ones plus appended ones) */
#define LR_REP_ROWS_MAX    2000000000ULL	/* rows per file */
#define LR_REP_IFACES_MAX  1024	/* interface series (iface x side x host) */
#define LR_REP_CPUS_MAX    8192	/* CPU series (cpu x side x host) */
#define LR_REP_STREAMS_MAX 4096
#define LR_REP_QUEUES_MAX  8192
#define LR_REP_MATRIX_MAX  4096	/* matrix rows */
#define LR_REP_FILES_MAX   64
#define LR_REP_LEDGER_MAX  256	/* distinct lines of a ledger CSV (direction, stage, side, counter) */
#define LR_REP_ERR_MAX     512
#define LR_REP_NAME_MAX    64	/* interface names, hosts: longer ones are refused */
#define LR_REP_DRIVER_MAX  32	/* driver names (ethtool's 32 bytes) */
#define LR_REP_CC_MAX      17	/* congestion control names (TCP_CA_NAME_MAX 16) */

enum lr_rep_kind {
	LR_REP_IFACES, LR_REP_CPUS, LR_REP_STREAMS, LR_REP_QUEUES, LR_REP_MATRIX, LR_REP_LEDGER
};

/* The qdisc columns appended to the interface CSV (docs/csv.md §2), in their order. */
enum lr_rep_qdisc_col {
	LR_RQ_DROPS,		/* qdisc_drops: counts in the row's interval */
	LR_RQ_OVERLIMITS,	/* qdisc_overlimits */
	LR_RQ_REQUEUES,		/* qdisc_requeues */
	LR_RQ_BACKLOG_BYTES,	/* qdisc_backlog_bytes: a gauge, as read */
	LR_RQ_BACKLOG_PACKETS,	/* qdisc_backlog_packets */
	LR_RQ__COUNT
};

/* The per-second series of an interface that are charted. */
enum lr_rep_metric {
	LR_RM_RX_BPS,
	LR_RM_TX_BPS,
	LR_RM_RX_PPS,
	LR_RM_TX_PPS,
	LR_RM_DROPS_PS,	/* (rx_dropped + tx_dropped + nic_drop) / interval */
	LR_RM_FIFO_PS,	/* (rx_fifo + rx_missed + rx_over + nic_fifo) / interval */
	LR_RM__COUNT
};

/* A sampling interval shorter than this fraction of the series' longest one (a run's final
 * sliver, a sampler that woke early) carries no honest per-second rate: it is folded into its
 * neighbour row (its counts and its time added), so it never makes a peak and loses no byte. */
#define LR_REP_SLIVER_FRAC 0.25

/* The row of a series not yet charted: held until the next row shows whether either is a
 * sliver to fold. counts[] are the row's deltas (NAN unknown), rate[] its recorded rates. */
struct lr_rep_held {
	double elapsed, interval;
	double count[LR_RM__COUNT], rate[LR_RM__COUNT];
	double util;	/* wire_util_pct, NAN unknown */
	bool any, folded;
};

/* One time bucket of one series: n == 0 is empty. */
struct lr_rep_band {
	double min, max, sum;
	uint32_t n;
};

struct lr_rep_iface {
	char name[LR_REP_NAME_MAX], side[8], host[LR_REP_NAME_MAX];
	uint64_t rows;
	double first_elapsed, last_elapsed;
	double byte_secs, packet_secs;	/* sums of `interval` over rows with bytes / packets known */
	double rx_bytes, tx_bytes, rx_packets, tx_packets;
	double rx_dropped, tx_dropped, rx_errors, tx_errors, rx_fifo, rx_missed, rx_over;
	double nic_fifo, nic_drop;
	double peak[LR_RM__COUNT], peak_at[LR_RM__COUNT];	/* -1: never known */
	double util_peak, util_sum, util_secs;	/* wire_util_pct */
	double link_mbps, mtu;	/* last known, -1 unknown */
	bool link_changed, mtu_changed;
	/* driver (appended to --csv since): the last one a row gave, "" none; driver_col: the
	 * file has the column (an older one does not record it) */
	char driver[LR_REP_DRIVER_MAX];
	bool driver_col, driver_changed;
	/* the qdisc columns (appended since): qdisc_col, the file has them; qdisc_known, a row
	 * knew them; the counts summed over the rows that knew them; the highest backlog read */
	bool qdisc_col, qdisc_known;
	double qdisc_sum[LR_RQ_BACKLOG_BYTES];	/* by enum lr_rep_qdisc_col: the three counts */
	double qdisc_backlog_peak[2];	/* bytes, packets; -1 never known */
	double interval_ref;	/* the longest interval seen: slivers are measured against it */
	struct lr_rep_held held;
	struct lr_rep_band (*band)[LR_RM__COUNT];	/* [LR_REP_BUCKETS] */
};

struct lr_rep_cpu {
	int cpu;
	char side[8], host[LR_REP_NAME_MAX];
	uint64_t rows;
	double softirq_peak, softirq_peak_at, softirq_sum, softirq_secs;	/* peak -1: unknown */
	double interval_ref;	/* as in lr_rep_iface */
	double held_elapsed, held_interval, held_pct;	/* held_interval 0: none held */
	struct lr_rep_band *band;	/* [LR_REP_BUCKETS] softirq_pct */
};

struct lr_rep_stream {
	int id;
	char direction[8], protocol[8];
	uint64_t rows;
	double first_elapsed, last_elapsed, secs;	/* secs: time the rows cover */
	double bytes, packets, peak_bps, retransmits, lost, out_of_order;
	double jitter_max_ms, rtt_last_us, cwnd_last_bytes;	/* -1 unknown */
	/* target_bps (appended to --streams-csv since): the last one a row gave, 0 unlimited,
	 * -1 unknown; target_col: the file has the column (an older one does not record it);
	 * target_changed: rows gave different targets (the dashboard's rate keys) */
	double target_bps;
	bool target_col, target_changed;
	/* length (-l, bytes) and congestion (TCP_CONGESTION), appended since, as target_bps:
	 * the last known (-1 / ""), whether the file has the column, whether rows differed */
	double length;
	char congestion[LR_REP_CC_MAX];
	bool length_col, length_changed, cc_col, cc_changed;
};

struct lr_rep_queue {
	char iface[LR_REP_NAME_MAX], side[8], host[LR_REP_NAME_MAX];
	int queue, cpu;
	uint64_t rows;
	double rx_packets, rx_bytes, tx_packets, tx_bytes, rx_drops, tx_drops, peak_rx_pps;
	double interval_ref, carry_packets, carry_secs;	/* a sliver's rx packets, for the next peak */
};

struct lr_rep_file {
	char name[256];
	enum lr_rep_kind kind;
	uint64_t rows;
	unsigned extra_columns;	/* appended columns this reader does not know (newer version) */
	double time_min, time_max;	/* Unix seconds of the rows (matrix: none, time_max < 0) */
	double start;	/* time - elapsed of its first row: when its run began; < 0 none */
};

/* The matrix CSV is kept as text: one row of fields, as written (escaped at output). */
/* One line of a --ledger-csv (docs/csv.md §8) summed over its intervals: the intervals' rows of
 * a counter sum to its delta over the test. */
struct lr_rep_ledger_line {
	char direction[8], side[8], host[LR_REP_NAME_MAX], stage[24], counter[64], unit[16];
	double count, datagrams;	/* over the known intervals (may be < 0: unaccounted) */
	uint64_t intervals, known, dg_known;	/* rows; rows with count; with datagrams */
	bool approx;			/* some interval's datagrams were converted */
};

struct lr_rep_matrix_row {
	char *field[LR_REP_FIELDS_MAX];
	unsigned n;
};

/* One data row as the reader accepted it, for a consumer that wants the rows themselves and
 * not only the summary (--replay). Valid during the callback only. */
struct lr_rep_row {
	enum lr_rep_kind kind;
	const char *const *field;	/* by the kind's known column index; "" is unknown */
	unsigned n_known;		/* known columns (later ones are the file's appended ones) */
	const char *side, *host;	/* "local" and "" when the file has no such column */
	const char *target_bps;		/* streams: the appended column ("" unknown), NULL none */
	const char *driver;		/* interfaces: the appended column, "" unknown or none */
	const char *qdisc[LR_RQ__COUNT];	/* interfaces: the qdisc columns, likewise */
	const char *file;
	unsigned long line;
};

/* Called for each accepted row after it is folded. 0 goes on; otherwise the read ends with
 * that code (-EINVAL: why, written by the callback, becomes "FILE:LINE: why"). */
typedef int lr_rep_row_fn(void *arg, const struct lr_rep_row *row, char *why, size_t whylen);

struct lr_report {
	lr_rep_row_fn *row_fn;	/* NULL: the summary only */
	void *row_arg;
	double bucket_secs;	/* width of a bucket; doubles when the run outgrows them */
	double elapsed_max;
	double time_min, time_max;	/* over every timed row; time_max < 0: none */
	double start;	/* the run's start (the first file's lr_rep_file.start), < 0 none */
	double interval_min, interval_max, interval_sum;	/* measured, over interface+CPU rows */
	uint64_t interval_rows;
	struct lr_rep_file files[LR_REP_FILES_MAX];
	unsigned n_files;
	struct lr_rep_iface *ifaces;
	size_t n_ifaces, cap_ifaces;
	struct lr_rep_cpu *cpus;
	size_t n_cpus, cap_cpus;
	struct lr_rep_stream *streams;
	size_t n_streams, cap_streams;
	struct lr_rep_queue *queues;
	size_t n_queues, cap_queues;
	char *matrix_header[LR_REP_FIELDS_MAX];
	unsigned matrix_cols;
	struct lr_rep_matrix_row *matrix;
	size_t n_matrix, cap_matrix;
	struct lr_rep_ledger_line *ledger;	/* in the order first seen */
	size_t n_ledger, cap_ledger;
};

/* The report starts empty; *out is caller-owned, released with lr_report_free (NULL-safe). */
int lr_report_new(struct lr_report **out) LR_MUST_CHECK;
void lr_report_free(struct lr_report *r);

/* Reads one CSV from f; name is used in errors. 0; -EINVAL: not a linerate CSV, a bad row, a
 * truncated last line, or a second run (err: "NAME:LINE: why", one line); -ENOMEM; -EIO. */
int lr_report_read(struct lr_report *r, FILE *f, const char *name, char *err,
		   size_t errlen) LR_MUST_CHECK;

/* The kind a header line (without newline) names, or -1; *extra = columns past the known ones. */
int lr_report_kind_of_header(const char *line, unsigned *extra);

/* Known column idx of row as a number: NAN when empty (unknown). The reader has checked that
 * every known numeric column is a finite number >= 0 or empty. */
double lr_rep_row_num(const struct lr_rep_row *row, unsigned idx);
/* The index of a kind's known column called name, or -1. */
int lr_rep_col_index(enum lr_rep_kind kind, const char *name);

#endif
