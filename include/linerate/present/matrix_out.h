/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The matrix's rows as a person or a script sees them (DESIGN.md section 10): the Markdown
 * table in the shape of the seeds' tables, `--matrix-csv` with its fixed header, and the
 * `linerate_matrix` JSON array. Unknown numbers (negative here) are empty fields, "-" in the
 * table and null in JSON. Pure formatting. [present] */
#ifndef LINERATE_MATRIX_OUT_H
#define LINERATE_MATRIX_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_t;
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
	 * the epoch; -J only (the CSV's header is fixed), < 0 unknown */
	double time_start, time_end;
};

/* Every number unknown, the peer's too. */
void lr_matrix_row_init(struct lr_matrix_row *r);
/* The header of --matrix-csv, without the newline. */
const char *lr_matrix_csv_header(void);
/* One CSV row (RFC 4180 quoting), with the newline. 0 or -EIO (ferror). */
int lr_matrix_csv_row(FILE *f, const struct lr_matrix_row *r);
/* The Markdown table: a column per SPEC key in `keys` (letters of "PluRbwMC", in SPEC order),
 * then the results. 0 or -EIO. */
int lr_matrix_markdown(FILE *f, const char *keys, const struct lr_matrix_row *rows, unsigned n);
/* One row as a JSON object with the CSV's names, then time_start and time_end (caller owns
 * it; NULL on -ENOMEM). */
struct json_t *lr_matrix_json_row(const struct lr_matrix_row *r);
/* The verdict in one line: every witness of loss (this host's, then the peer's drops and FIFO
 * from r's peer columns, named by its role: "the receiver's test interfaces: 150 dropped (its
 * kernel's count)"), then the next step. */
void lr_matrix_verdict_line(const struct lr_verdict *v, const struct lr_matrix_row *r, char *buf,
			    size_t len);

#endif
