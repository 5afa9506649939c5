/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every interface's qdiscs on the sampler tick: one dump (collect/qdisc.h) turned into each
 * interface's qdisc list and its total (snapshot.h, struct lr_iface_snap: qdisc, qdiscs[]),
 * with wrap- and restart-safe deltas. A reply that does not parse is one warning, and the
 * interface it concerned has unknown qdisc figures for the rest of the run (all interfaces
 * when the reply did not even say which). The state grows only when qdiscs or interfaces
 * appear. [sampler] */
#ifndef LINERATE_QDISCSRC_H
#define LINERATE_QDISCSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_qdiscsrc;
struct lr_nllink;
struct lr_qdisc_stats;
struct lr_snapshot;

int lr_qdiscsrc_open(struct lr_qdiscsrc **out) LR_MUST_CHECK;	/* 0 or -ENOMEM */
void lr_qdiscsrc_close(struct lr_qdiscsrc *q);	/* NULL-safe */

/* One dump on nl's socket, then lr_qdiscsrc_feed. A failed dump is logged (debug) and leaves
 * every qdisc figure unknown this tick; the next good one counts from the last good one. */
void lr_qdiscsrc_tick(struct lr_qdiscsrc *q, struct lr_nllink *nl, uint64_t now_ns, bool first,
		      struct lr_snapshot *w);

/* The pure part, for tests: the n entries of one dump read at now_ns (err < 0: the dump
 * failed) into q's state; unless first, each interface of w gets its figures (w->ifaces[i]
 * .qdisc and .qdiscs, a view valid until the next call). 0 or -ENOMEM (then the figures that
 * could not be kept are unknown). */
int lr_qdiscsrc_feed(struct lr_qdiscsrc *q, const struct lr_qdisc_stats *qd, size_t n, int err,
		     uint64_t now_ns, bool first, struct lr_snapshot *w);

#endif
