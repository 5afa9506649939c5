/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The traffic generator as a sampler source: whoever runs traffic (a client session) hands the
 * sampler a gen source; each tick the sampler reads the streams' live atomics through it and
 * publishes per-stream rates in the snapshot, on the same clock as the interface counters.
 * Nothing here knows the control protocol. [sampler] reads, [main] sets. */
#ifndef LINERATE_GENCOL_H
#define LINERATE_GENCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_stream_stats;
struct lr_snapshot;

struct lr_gen_stream {
	int id;				/* iperf3 stream id */
	bool sender;			/* this side sends on it */
	bool udp;
	const struct lr_stream_stats *stats;	/* live atomics */
};

/* Both callbacks are called on the sampler thread and must be thread-safe. */
struct lr_gen_source {
	unsigned (*count)(void *arg);
	int (*info)(void *arg, unsigned i, struct lr_gen_stream *out);	/* 0 or -ENOENT */
	void *arg;
};

struct lr_gencol;	/* opaque: previous readings per stream */

int lr_gencol_open(struct lr_gencol **out) LR_MUST_CHECK;
void lr_gencol_close(struct lr_gencol *g);	/* NULL-safe */
/* A new source (or NULL): streams start over, with a new generation number. */
void lr_gencol_set_source(struct lr_gencol *g, const struct lr_gen_source *src);
/* Reads every stream now and fills snap->streams (a view into g, valid until the next read).
 * first: only take the baseline. 0 or -ENOMEM. */
int lr_gencol_read(struct lr_gencol *g, uint64_t dt_ns, struct lr_snapshot *snap) LR_MUST_CHECK;

#endif
