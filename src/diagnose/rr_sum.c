// SPDX-License-Identifier: GPL-2.0-or-later
/* --rr's figures from its counts (rr_sum.h). */
#include "linerate/diagnose/rr_sum.h"

static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

void lr_rr_sum_fill(struct lr_rr_sum *s, const struct lr_rr_result *r, double seconds,
		    double local_busy_cpu_s, double local_wall_s, double peer_cpu_pct)
{
	const struct lr_lathist *h = &r->rtt;
	double n = (double)r->transactions;

	s->seconds = seconds > 0 ? seconds : -1;
	s->tps = seconds > 0 ? n / seconds : -1;
	s->min_us = s->p50_us = s->p90_us = s->p99_us = s->p999_us = s->max_us = s->mean_us = -1;
	s->local_sd_us = s->peer_sd_us = -1;
	if (h->count) {
		s->min_us = us(h->min_ns);
		s->p50_us = us(lr_lathist_quantile(h, 0.5));
		s->p90_us = us(lr_lathist_quantile(h, 0.9));
		s->p99_us = us(lr_lathist_quantile(h, 0.99));
		s->p999_us = us(lr_lathist_quantile(h, 0.999));
		s->max_us = us(h->max_ns);
		s->mean_us = us(h->sum_ns) / (double)h->count;
	}
	if (!r->transactions || seconds <= 0)
		return;
	if (local_busy_cpu_s >= 0 && local_wall_s > 0)
		s->local_sd_us = local_busy_cpu_s / local_wall_s * seconds * 1e6 / n;
	if (peer_cpu_pct >= 0)
		s->peer_sd_us = peer_cpu_pct / 100 * seconds * 1e6 / n;
}
