// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live snapshot source: the board and the sampler thread behind one small interface, so
 * that a run loop does not care where its snapshots come from.
 */
#include <errno.h>
#include <stdlib.h>

#include "linerate/sample/board.h"
#include "linerate/core/clock.h"
#include "linerate/app/config.h"
#include "linerate/sample/sampler.h"
#include "linerate/app/snapsrc.h"

struct lr_snapsrc {
	struct lr_board *board;
	struct lr_sampler *sampler;
};

int lr_snapsrc_open(struct lr_snapsrc **out, const struct lr_config *cfg)
{
	struct lr_snapsrc *s = calloc(1, sizeof(*s));
	int err;

	struct lr_sampler_opts o = {
		.interval_ns = cfg->interval_ns,
		.ifaces = cfg->ifaces,
		.source = cfg->source,
		.procfs = cfg->procfs,
		.sysfs = cfg->sysfs,
		.history = cfg->mode == LR_MODE_DASHBOARD,
	};

	if (!s)
		return -ENOMEM;
	err = lr_board_open(&s->board);
	if (!err)
		err = lr_sampler_open(&s->sampler, &o, s->board);
	if (err) {
		lr_snapsrc_close(s);
		return err;
	}
	*out = s;
	return 0;
}

int lr_snapsrc_start(struct lr_snapsrc *s)
{
	return lr_sampler_start(s->sampler);
}

bool lr_snapsrc_wait(struct lr_snapsrc *s, uint64_t seen, uint64_t timeout_ns)
{
	return lr_board_wait(s->board, seen, timeout_ns);
}

int lr_snapsrc_read(struct lr_snapsrc *s, struct lr_snapshot *out, uint64_t *seen)
{
	return lr_board_read(s->board, out, seen);
}

int lr_snapsrc_stop(struct lr_snapsrc *s, bool final_tick)
{
	lr_sampler_stop(s->sampler);
	return final_tick ? lr_sampler_tick(s->sampler, lr_clock_mono_ns()) : 0;
}

void lr_snapsrc_set_interval(struct lr_snapsrc *s, uint64_t interval_ns)
{
	lr_sampler_set_interval(s->sampler, interval_ns);
}

void lr_snapsrc_reset_totals(struct lr_snapsrc *s)
{
	lr_sampler_reset_totals(s->sampler);
}

void lr_snapsrc_set_traffic(struct lr_snapsrc *s, const struct lr_gen_source *gen)
{
	lr_sampler_set_traffic(s->sampler, gen);
}

void lr_snapsrc_close(struct lr_snapsrc *s)
{
	if (!s)
		return;
	lr_sampler_close(s->sampler);	/* joins the thread: nothing publishes after this */
	lr_board_close(s->board);
	free(s);
}
