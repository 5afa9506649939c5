/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The snapshot source a run loop consumes: the live sampler thread publishing on a board, or
 * a recording played back (--replay, run/replay.h: no thread, the clock is read at each
 * call). The dashboard and the headless loops only wait, read and stop through this. [main] */
#ifndef LINERATE_SNAPSRC_H
#define LINERATE_SNAPSRC_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_gen_source;
struct lr_replay;
struct lr_snapshot;
struct lr_snapsrc;	/* opaque */

/* Opens the board and the sampler o asks for; the thread is not started. 0 or -errno. */
struct lr_sampler_opts;
int lr_snapsrc_open(struct lr_snapsrc **out, const struct lr_sampler_opts *o) LR_MUST_CHECK;
/* A replay as the source; takes rp (started: lr_replay_start) and closes it with the source.
 * 0 or -ENOMEM (rp is closed then too). */
int lr_snapsrc_open_replay(struct lr_snapsrc **out, struct lr_replay *rp) LR_MUST_CHECK;
/* The replay behind s (its clock and keys), NULL for a live source. */
struct lr_replay *lr_snapsrc_replay(struct lr_snapsrc *s);
int lr_snapsrc_start(struct lr_snapsrc *s) LR_MUST_CHECK;
/* Waits until a snapshot newer than seen exists or timeout_ns passes. true when newer. */
bool lr_snapsrc_wait(struct lr_snapsrc *s, uint64_t seen, uint64_t timeout_ns);
/* Copies the newest snapshot into *out when newer than *seen: 1 copied, 0 nothing new,
 * -errno. */
int lr_snapsrc_read(struct lr_snapsrc *s, struct lr_snapshot *out, uint64_t *seen) LR_MUST_CHECK;
/* Stops the thread (nothing publishes after it); with final_tick, takes one more reading now
 * (traffic has stopped: the books are closed). 0 or -errno. */
int lr_snapsrc_stop(struct lr_snapsrc *s, bool final_tick) LR_MUST_CHECK;
/* Live only (a replay's pace is its speed). */
void lr_snapsrc_set_interval(struct lr_snapsrc *s, uint64_t interval_ns);
void lr_snapsrc_reset_totals(struct lr_snapsrc *s);
/* The traffic streams the snapshots carry (NULL: none); clear it before the streams go. */
void lr_snapsrc_set_traffic(struct lr_snapsrc *s, const struct lr_gen_source *gen);
void lr_snapsrc_close(struct lr_snapsrc *s);	/* NULL-safe; joins the thread */

#endif
