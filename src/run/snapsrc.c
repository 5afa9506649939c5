// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The snapshot source: the live board and sampler thread, or a replay of recorded CSVs
 * (replay.c), behind one small interface, so that a run loop does not care where its
 * snapshots come from. A replay has no thread: each read asks its clock which tick is due.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "linerate/sample/board.h"
#include "linerate/core/clock.h"
#include "linerate/run/replay.h"
#include "linerate/sample/sampler.h"
#include "linerate/run/snapsrc.h"

struct lr_snapsrc {
	struct lr_board *board;
	struct lr_sampler *sampler;
	struct lr_replay *replay;	/* set: a replay, board and sampler are NULL */
};

int lr_snapsrc_open(struct lr_snapsrc **out, const struct lr_sampler_opts *o)
{
	struct lr_snapsrc *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	err = lr_board_open(&s->board);
	if (!err)
		err = lr_sampler_open(&s->sampler, o, s->board);
	if (err) {
		lr_snapsrc_close(s);
		return err;
	}
	*out = s;
	return 0;
}

int lr_snapsrc_open_replay(struct lr_snapsrc **out, struct lr_replay *rp)
{
	struct lr_snapsrc *s = calloc(1, sizeof(*s));

	if (!s) {
		lr_replay_close(rp);
		return -ENOMEM;
	}
	s->replay = rp;
	*out = s;
	return 0;
}

struct lr_replay *lr_snapsrc_replay(struct lr_snapsrc *s)
{
	return s ? s->replay : NULL;
}

int lr_snapsrc_start(struct lr_snapsrc *s)
{
	return s->replay ? 0 : lr_sampler_start(s->sampler);
}

/* A replay: sleeps until its next tick is due or the timeout, whichever comes first. */
static bool replay_wait(struct lr_snapsrc *s, uint64_t timeout_ns)
{
	uint64_t due = lr_replay_next_due_ns(s->replay, lr_clock_mono_ns());
	uint64_t ns = due < timeout_ns ? due : timeout_ns;
	struct timespec ts = {.tv_sec = (time_t)(ns / LR_NSEC_PER_SEC),
			      .tv_nsec = (long)(ns % LR_NSEC_PER_SEC)};

	nanosleep(&ts, NULL);
	return due <= timeout_ns;
}

bool lr_snapsrc_wait(struct lr_snapsrc *s, uint64_t seen, uint64_t timeout_ns)
{
	if (s->replay)
		return replay_wait(s, timeout_ns);
	if (lr_sampler_inline(s->sampler)) {	/* the tick is taken here, not waited for */
		lr_sampler_step(s->sampler, timeout_ns);
		timeout_ns = 0;
	}
	return lr_board_wait(s->board, seen, timeout_ns);
}

int lr_snapsrc_read(struct lr_snapsrc *s, struct lr_snapshot *out, uint64_t *seen)
{
	if (s->replay)
		return lr_replay_read(s->replay, lr_clock_mono_ns(), out, seen);
	return lr_board_read(s->board, out, seen);
}

int lr_snapsrc_stop(struct lr_snapsrc *s, bool final_tick)
{
	if (s->replay)
		return 0;
	lr_sampler_stop(s->sampler);
	return final_tick ? lr_sampler_tick(s->sampler, lr_clock_mono_ns()) : 0;
}

void lr_snapsrc_set_interval(struct lr_snapsrc *s, uint64_t interval_ns)
{
	if (!s->replay)
		lr_sampler_set_interval(s->sampler, interval_ns);
}

void lr_snapsrc_reset_totals(struct lr_snapsrc *s)
{
	if (s->replay)
		lr_replay_reset_totals(s->replay);
	else
		lr_sampler_reset_totals(s->sampler);
}

void lr_snapsrc_set_traffic(struct lr_snapsrc *s, const struct lr_gen_source *gen)
{
	if (!s->replay)
		lr_sampler_set_traffic(s->sampler, gen);
}

void lr_snapsrc_close(struct lr_snapsrc *s)
{
	if (!s)
		return;
	lr_replay_close(s->replay);
	lr_sampler_close(s->sampler);	/* joins the thread: nothing publishes after this */
	lr_board_close(s->board);
	free(s);
}
