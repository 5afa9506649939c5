/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --expect COND[,COND] (docs/design.md §14): conditions on a finished test for CI, each judged
 * met, not met, or not judgeable (a figure the test could not know: never a silent pass). The
 * grammar, in full:
 *   SPEC   = COND *("," COND)            at most LR_EXPECT_MAX, no spaces, no empty COND
 *   COND   = METRIC OP NUMBER [SUFFIX]
 *   OP     = "<=" / "<" / ">=" / ">"
 *   NUMBER = 1*DIGIT ["." 1*DIGIT]        decimal, no sign, no exponent
 *   loss   NUMBER "%"   (0 to 100)  UDP: lost / sent datagrams, the receiver's own count
 *   rate   NUMBER [k|K|M|G|T]        receiver's goodput in bit/s, 1000-based as iperf3's -b
 *                                    (--bidir: the slower direction)
 *   retr   1*DIGIT                   TCP: segments the senders retransmitted
 *   cpu    NUMBER "%"   (0 to 100)   the busiest CPU of either end (100 % - idle, steal
 *                                    counted busy), from the cycles' ledger: both ends known
 * Pure; no I/O. [any] */
#ifndef LINERATE_EXPECT_H
#define LINERATE_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LR_EXPECT_MAX 8
#define LR_EXPECT_TEXT 40	/* one COND as written, NUL included */

enum lr_expect_metric { LR_EXPECT_LOSS, LR_EXPECT_RATE, LR_EXPECT_RETR, LR_EXPECT_CPU };
enum lr_expect_op { LR_EXPECT_LE, LR_EXPECT_LT, LR_EXPECT_GE, LR_EXPECT_GT };

struct lr_expect_cond {
	enum lr_expect_metric metric;
	enum lr_expect_op op;
	double value;		/* loss, cpu: percent; rate: bit/s; retr: segments */
	unsigned decimals;	/* as written: the judged figure is shown at least this precise */
	char text[LR_EXPECT_TEXT];
};

struct lr_expect {
	struct lr_expect_cond c[LR_EXPECT_MAX];
	unsigned n;
};

/* 0, or -EINVAL with one line naming the COND that does not parse in err. */
int lr_expect_parse(const char *spec, struct lr_expect *out, char *err, size_t len);

/* One end's busiest CPU over the test (the cycles' ledger). */
struct lr_expect_cpu {
	bool known;
	int cpu;
	double busy_pct;
	char host[64];		/* "" unknown */
};

/* What the finished test knew; -1 (or known false) where it did not. */
struct lr_expect_facts {
	bool ran;		/* the test moved data and has results */
	bool udp;
	int64_t lost, packets;	/* UDP: the receivers' own count of lost and sent datagrams;
				 * --bidir: the direction that lost the larger share */
	const char *loss_dir;	/* --bidir: that direction ("up", "down"), else NULL */
	double rate_bps;	/* the receivers' goodput (--bidir: the slower direction) */
	int64_t retransmits;	/* TCP: the senders' own count */
	struct lr_expect_cpu cpu_local, cpu_peer;
	bool peer_shares;	/* the peer sent its counters (a linerate -s) */
};

/* The test's own results into f: ran, udp, loss (under --bidir the worse direction's; unknown
 * when either direction's count is), retransmits, rate (--bidir: the slower direction). */
struct lr_verdict_traffic;
void lr_expect_traffic_facts(const struct lr_verdict_traffic *t, struct lr_expect_facts *f);

enum lr_expect_result { LR_EXPECT_MET, LR_EXPECT_NOT_MET, LR_EXPECT_UNKNOWN };

/* Judges one condition; line gets "expect COND: ..." with the figure it was judged on, or why
 * it could not be judged. */
enum lr_expect_result lr_expect_judge(const struct lr_expect_cond *c,
				      const struct lr_expect_facts *f, char *line, size_t len);

#endif
