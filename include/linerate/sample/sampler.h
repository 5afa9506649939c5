/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampler: one thread on absolute deadlines that reads every collector, takes wrap- and
 * reset-safe deltas over the measured interval, keeps bounded history and publishes a
 * snapshot on the board each tick. Controls from the main thread are atomics. */
#ifndef LINERATE_SAMPLER_H
#define LINERATE_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/sample/snapshot.h"	/* enum lr_source */

struct lr_sampler;	/* opaque: owns the collectors, their fds and libnl sockets */
struct lr_board;
struct lr_gen_source;

/* What a sampler reads and how (the run mode fills it from the command line). */
struct lr_sampler_opts {
	uint64_t interval_ns;	/* clamped to LR_INTERVAL_MIN_NS .. LR_INTERVAL_MAX_NS */
	const char *ifaces;	/* comma list, NULL = all */
	enum lr_source source;	/* netlink or /proc/net/dev */
	const char *procfs;	/* a captured /proc tree, NULL = the live one */
	const char *sysfs;	/* a captured /sys tree, NULL = the live one */
	bool history;		/* keep graph history (the dashboard) */
	/* What no pane, file or endpoint of the run reads is not read each tick: */
	bool skip_stack;	/* the TCP/UDP stack counters (/proc/net/snmp, netstat) */
	bool skip_queues;	/* per-queue counters (the netdev family's qstats dump) */
	/* No thread: the one reader ticks through lr_sampler_step (watching headless, where a
	 * second thread would only hand each tick over, at a wake-up and a futex a tick). */
	bool inline_ticks;
};

#define LR_INTERVAL_MIN_NS (10 * LR_NSEC_PER_MSEC)
#define LR_INTERVAL_MAX_NS (60 * LR_NSEC_PER_SEC)

/* [main] Opens every collector o asks for (sources, captured trees, interface filter) and
 * publishes on board. Does not start the thread. 0 or -errno (logged). */
int lr_sampler_open(struct lr_sampler **out, const struct lr_sampler_opts *o,
		    struct lr_board *board) LR_MUST_CHECK;
/* [main] Starts the thread; the first snapshot (with deltas) comes one interval later. */
int lr_sampler_start(struct lr_sampler *s) LR_MUST_CHECK;
/* [main] Stops and joins the thread (< 200 ms) but keeps every collector: a final
 * lr_sampler_tick can then close the books (the last row of a traffic test). */
void lr_sampler_stop(struct lr_sampler *s);	/* NULL-safe */
/* [main] Stops and joins the thread (within one collector pass, < 200 ms), closes all. */
void lr_sampler_close(struct lr_sampler *s);	/* NULL-safe */

/* [any] Live controls, applied at the next tick. */
void lr_sampler_set_interval(struct lr_sampler *s, uint64_t interval_ns);	/* clamped */
uint64_t lr_sampler_interval(const struct lr_sampler *s);
void lr_sampler_reset_totals(struct lr_sampler *s);	/* key r: totals and peaks */
/* [main] The traffic streams to sample (a client session's), or NULL. The source must stay
 * valid until it is replaced or cleared: clear it before closing the streams. */
void lr_sampler_set_traffic(struct lr_sampler *s, const struct lr_gen_source *src);

/* [main] With inline_ticks: sleeps until the next tick is due or timeout_ns has passed (a
 * signal cuts the sleep short), and takes the tick when it is due, on the thread's schedule
 * (never a burst to catch up). 1: ticked, 0: not due yet. */
int lr_sampler_step(struct lr_sampler *s, uint64_t timeout_ns);
bool lr_sampler_inline(const struct lr_sampler *s);

/* [main] One tick without the thread (tests, and `linerate --headless` with -i and a
 * --procfs tree replay): reads every collector now and publishes. 0 or -errno. */
int lr_sampler_tick(struct lr_sampler *s, uint64_t now_ns) LR_MUST_CHECK;

#endif
