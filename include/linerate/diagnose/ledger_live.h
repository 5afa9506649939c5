/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running test's loss ledger (docs/design.md §14): each interval's ledger, built by the same
 * lr_ledger_build over the deltas of both ends' counters between two ticks (this host's
 * snapshots, the peer view's frames), beside the running total; and a ledger as lines (sent,
 * each stage, received, lost, unaccounted) that the Loss pane and --ledger-csv both read. A
 * counter unknown at either end of an interval, or one that went back (a reset, another
 * interface), is unknown for that interval, never 0. Pure: no I/O. [main] */
#ifndef LINERATE_LEDGER_LIVE_H
#define LINERATE_LEDGER_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/diagnose/ledger.h"

struct lr_snapshot;

struct lr_ledger_live {
	bool have_prev;
	struct lr_ledger_input prev;	/* the totals at the last step */
	uint64_t prev_mono_ns;
	uint64_t steps;			/* intervals built so far: a writer takes each once */
	double interval_s;		/* the newest interval's measured seconds */
	bool sender_local;		/* this host sends */
	struct lr_ledger interval;	/* the newest interval's (not to be copied: rows point in) */
	struct lr_ledger total;		/* the test's so far */
};

void lr_ledger_live_reset(struct lr_ledger_live *lv);
/* out = cur - prev, counter by counter (names from cur). */
void lr_ledger_input_delta(const struct lr_ledger_input *cur, const struct lr_ledger_input *prev,
			   struct lr_ledger_input *out);
/* The totals cur at mono_ns: the interval since the last step (the first: since the test's
 * start, the tick's own tick_ns long, as the books count it) and the running total. */
void lr_ledger_live_step(struct lr_ledger_live *lv, const struct lr_ledger_input *cur,
			 uint64_t mono_ns, uint64_t tick_ns);
/* The engines' own counts in s's streams for a test in one direction, since the streams
 * started (-1 unknown): UDP sent = what this host's senders sent, or (reverse) what its
 * receivers got plus their sequence gaps; lost = those gaps (unknown while the peer receives:
 * it reports them at the end); TCP lost = this host's senders' retransmits and sent_bytes
 * their bytes (the ledger's weight for what D-SACK left unexplained). */
void lr_ledger_live_counts(const struct lr_snapshot *s, bool udp, bool reverse, int64_t *sent,
			   int64_t *lost, int64_t *sent_bytes);

/* One line of a ledger as its outputs print it. */
struct lr_ledger_line {
	const char *stage;	/* "sent", a stage's name, "received", "lost", "unaccounted" */
	bool has_side;		/* false: the unaccounted remainder belongs to no end */
	bool sender;		/* on the sending end */
	bool peer;		/* witnessed on the peer */
	const char *host;	/* "" unknown */
	const char *counter;
	bool known;
	int64_t count;		/* in unit */
	const char *unit;
	bool dg_known;
	double datagrams;	/* in the test's unit */
	bool approx;		/* converted with a measured ratio */
};

#define LR_LEDGER_LINES (LR_LEDGER_STAGES + 4)

/* l's lines into out (LR_LEDGER_LINES): sent, its stages in order, received, lost and the
 * unaccounted remainder, always. Their number. */
unsigned lr_ledger_lines(const struct lr_ledger *l, bool sender_local, struct lr_ledger_line *out);

#endif
