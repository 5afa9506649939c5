/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cycles' ledger (docs/design.md §14): per end of a test, its busiest CPUs over the test's
 * window, each split into softirq (with its NET_RX/NET_TX rates), irq, sys, usr and steal, and
 * whether this test's own threads ran there; the conclusion names the end and the CPU that
 * bound the rate, or says that none was saturated. Fed the snapshots the verdict takes in (this
 * host's, and the peer view's where it shares them: a plain iperf3's CPUs are unknown). The
 * threads are the streams' own `cpu` (sched_getcpu() after each send or receive, read by the
 * sampler from the streams' atomics every tick): free, where /proc/self/task/N/stat per thread
 * per tick would be a read and a parse each; it is the CPU of the last call, so a share of
 * ticks, not of time. Pure; no I/O. [main] */
#ifndef LINERATE_CYCLES_H
#define LINERATE_CYCLES_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_snapshot;
struct lr_expect_facts;

#define LR_CYCLES_CPUS 1024		/* CPU numbers above are left out */
#define LR_CYCLES_TOP 4			/* the busiest CPUs shown per end */
#define LR_CYCLES_SATURATED_PCT 90.0	/* busy (100 - idle) over the window: it bound the rate */
#define LR_CYCLES_MIN_NS (100 * LR_NSEC_PER_MSEC)	/* less known time: the end is unknown */

enum lr_cycles_side { LR_CYCLES_LOCAL, LR_CYCLES_PEER, LR_CYCLES__SIDES };

/* One CPU's times summed over the window: percent x ns. */
struct lr_cycles_sum {
	double usr, sys, irq, softirq, steal, idle;
	uint64_t ns, steal_ns;		/* known time; of it with a steal column */
	double net_rx, net_tx;		/* softirq events (rate x s) */
	uint64_t net_ns;
	unsigned ticks, thread_ticks;	/* ticks summed; of them with one of the test's threads */
};

struct lr_cycles_acc {
	struct {
		struct lr_cycles_sum cpu[LR_CYCLES_CPUS];
		int max_cpu;		/* -1 none */
		bool threads_known;	/* the streams said where they ran (this host only) */
		unsigned thread_ticks;	/* ticks with a stream's CPU known */
		uint64_t last_seq;	/* the peer's snapshot last summed (it repeats) */
		char host[64];
	} side[LR_CYCLES__SIDES];
};

void lr_cycles_init(struct lr_cycles_acc *a);
/* A snapshot inside the test's window, of this host or of the peer (host: its name). The
 * peer's is summed once per new frame (its seq). */
void lr_cycles_add(struct lr_cycles_acc *a, enum lr_cycles_side side, const struct lr_snapshot *s,
		   const char *host);

struct lr_cycles_cpu {
	int cpu;
	double busy, usr, sys, irq, softirq, steal, idle;	/* % of the window; steal -1 unknown */
	double net_rx_per_s, net_tx_per_s;		/* -1 unknown */
	int threads;		/* % of the ticks one of the test's threads ran here; -1 unknown */
};

struct lr_cycles_end {
	bool known;		/* CPU times for at least LR_CYCLES_MIN_NS */
	char host[64];
	const char *role;	/* "sender", "receiver", "sender and receiver"; --rr: "asker", "answerer" */
	double seconds;		/* the known window */
	unsigned n_cpus;
	struct lr_cycles_cpu top[LR_CYCLES_TOP];	/* busiest first */
	unsigned n_top;
	bool saturated;		/* top[0] at or above LR_CYCLES_SATURATED_PCT */
	bool other_work;	/* saturated, but not by this test: none of its threads ran there
				 * and softirq + irq were under half of it */
};

struct lr_cycles {
	struct lr_cycles_end end[LR_CYCLES__SIDES];
	int bound;		/* the side whose top[0] bound the rate, -1 none (or unknown) */
	char conclusion[400];
};

/* local_sends/local_receives: this host's role in the test (--bidir: both); rr: --rr, where
 * this host asks and the peer answers (both ends send and receive). */
void lr_cycles_build(const struct lr_cycles_acc *a, bool local_sends, bool local_receives,
		     bool rr, struct lr_cycles *out);
/* --expect cpu: each end's busiest CPU into f (unknown where the end is). */
void lr_cycles_expect_facts(const struct lr_cycles *c, struct lr_expect_facts *f);

#endif
