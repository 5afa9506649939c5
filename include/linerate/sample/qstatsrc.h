/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's per-queue counters (collect/qstats.c) for every interface that has them, turned
 * into each interface's queue table on the sampler tick. Where a device answers qstats-get,
 * its queues come from here (source "qstats") and replace the driver's per-queue ethtool
 * names; elsewhere the interface keeps what drvstats found. [sampler] */
#ifndef LINERATE_QSTATSRC_H
#define LINERATE_QSTATSRC_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_qstatsrc;
struct lr_snapshot;

/* 0; -ENOENT or -EOPNOTSUPP when the kernel has no qstats-get (the sampler goes on without);
 * other -errno. */
int lr_qstatsrc_open(struct lr_qstatsrc **out) LR_MUST_CHECK;
void lr_qstatsrc_close(struct lr_qstatsrc *q);	/* NULL-safe */
/* One dump; on a tick after the first, the queues of w's interfaces that it covers. */
void lr_qstatsrc_tick(struct lr_qstatsrc *q, uint64_t now_ns, uint64_t dt_ns, bool first,
		      struct lr_snapshot *w);

#endif
