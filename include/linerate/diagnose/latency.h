/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency under load (DESIGN section 16) as the outputs and the verdict read it: each report
 * interval's probes from two cumulative copies of the engine's counts, the idle baseline, the
 * load's summary over the whole test, and the rule that says whether latency held or rose and
 * which queue held the wait. Figures only, no I/O; a figure nothing measured is -1 (unknown,
 * never 0). [main] */
#ifndef LINERATE_LATENCY_H
#define LINERATE_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/traffic/probe.h"

/* Intervals kept without -J: the newest, for the sparkline (as wide as any terminal's) and the
 * CSV writer that follows them. -J keeps every one, as iperf3 keeps its own intervals. The
 * summary counts every probe either way. */
#define LR_LATENCY_RING 512
/* The rule: p99 under load rose when it is above both LR_LATENCY_ROSE_FACTOR x the idle p99
 * and the idle p99 + LR_LATENCY_ROSE_ADD_NS: four times, so that a quiet veth's 30 us to 150 us
 * is not called a queue, and 1 ms more, so that jitter on a fast link is not either. Judged
 * only on LR_LATENCY_MIN_PROBES answered probes each, idle and under load. */
#define LR_LATENCY_ROSE_FACTOR 4
#define LR_LATENCY_ROSE_ADD_NS 1000000ull
#define LR_LATENCY_MIN_PROBES  5

/* Quantiles of one histogram, ns; -1 each when it holds no round trip. */
struct lr_latency_q {
	uint64_t count;
	int64_t p50_ns, p90_ns, p99_ns, max_ns;
};

/* One report interval under load: the probes sent, answered and lost in it (by when they were
 * sent, lost ones once their time-out passed) and the answered ones' round trips. */
struct lr_latency_iv {
	double start_s, end_s; /* seconds since the test's streams started */
	uint64_t sent, answered, lost;
	struct lr_latency_q q;
};

struct lr_latency {
	bool known; /* the engine was read at least once */
	enum lr_probe_state state; /* the newest reading's */
	uint64_t sent, answered, lost, refused; /* all probes, idle and load */
	uint64_t load_sent, load_lost;
	struct lr_latency_q idle, load; /* the whole test's */
	unsigned n_iv; /* intervals added since the reset; the newest are kept (lr_latency_iv_at) */
	bool keep_all; /* every interval kept: the array grows (-J) */
	size_t cap_iv;
	struct lr_latency_iv *iv; /* interval k at k % cap_iv */
};

/* A new *l with nothing known; keep_all: every interval kept, else the newest LR_LATENCY_RING. */
void lr_latency_init(struct lr_latency *l, bool keep_all);
/* Empties *l for a new test (state LR_PROBE_OFF), keeping its array and keep_all. */
void lr_latency_reset(struct lr_latency *l);
void lr_latency_free(struct lr_latency *l);
/* Interval k (0: the test's first), NULL when it is not kept or not yet added. */
const struct lr_latency_iv *lr_latency_iv_at(const struct lr_latency *l, unsigned k);
/* The first interval still kept. */
unsigned lr_latency_first_iv(const struct lr_latency *l);
/* *out = h's count and quantiles (all -1 when h is empty). */
void lr_latency_quantiles(const struct lr_lathist *h, struct lr_latency_q *out);
/* The interval [start_s, end_s] between two cumulative readings of the engine (earlier NULL:
 * since the test began) into *out. -EINVAL, *out unknown, when earlier is not an earlier
 * reading of later. */
int lr_latency_interval(const struct lr_probe_stats *later, const struct lr_probe_stats *earlier,
			double start_s, double end_s, struct lr_latency_iv *out);
/* The newest reading's state, counts and whole-test quantiles into *l (its intervals kept). */
void lr_latency_update(struct lr_latency *l, const struct lr_probe_stats *now);
/* Appends an interval: past LR_LATENCY_RING (keep_all: when memory runs out) the oldest goes. */
void lr_latency_add_iv(struct lr_latency *l, const struct lr_latency_iv *iv);
/* The state as one word for -J: "off", "asked", "unoffered", "idle", "load", "done"; "unknown"
 * when the engine was never read. */
const char *lr_latency_state_word(const struct lr_latency *l);
/* true when there are no probes to speak of: off, unoffered, or never read. */
bool lr_latency_none(const struct lr_latency *l);

/* Where a queue that held the wait could be: the evidence of the verdict's books. */
struct lr_latency_where {
	bool sender_local; /* this host sent the test's data */
	bool receiver_local; /* this host received it */
	const char *iface; /* the verdict's interface, NULL none */
	const char *qdisc; /* its root qdisc as tc names it, "" or NULL unknown */
	bool backlog_known;
	uint64_t backlog_max_bytes, backlog_max_packets; /* its peak during the test */
	int64_t udp_rcvbuf; /* RcvbufErrors in the test, -1 unknown */
	int64_t softnet_drop; /* softnet backlog drops in the test, -1 unknown */
};

enum lr_latency_judgement {
	LR_LATJ_UNKNOWN, /* no probes, or too few answered to judge */
	LR_LATJ_HELD,
	LR_LATJ_ROSE,
};

/* The rule above on l's idle and load p99, the sentence for the verdict into line ("latency
 * under load rose from 0.04 ms to 11 ms at p99: the sender's qdisc backlog (tbf 8001: on
 * veth0) held 1.9 MB", "p99 under load 0.09 ms, idle 0.05 ms", with "; N probes lost" when
 * some were: a lost probe is never a latency); LR_LATJ_UNKNOWN with "latency not measured:
 * the peer offers no probes ..." against a plain iperf3, "" when none were asked or read. */
enum lr_latency_judgement lr_latency_judge(const struct lr_latency *l,
					   const struct lr_latency_where *w, char *line,
					   size_t len);
/* "0.04 ms", "11 ms", "1.2 s": the unit the sentences and the pane use. */
void lr_latency_fmt(char *buf, size_t len, int64_t ns);

#endif
