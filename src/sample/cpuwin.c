// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CPU window (see cpuwin.h): a small set of per-CPU counter readings, held oldest first,
 * so CPU percentages are taken over at least 100 ms at any sampling interval. At 0.5 s it
 * holds two readings, as a plain previous/current pair would; at 10 ms about eleven. The
 * sampler thread owns it; tables are reused, so a tick allocates only when CPUs appear.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/cpuwin.h"
#include "linerate/core/array.h"
#include "linerate/sample/rate.h"
#include "linerate/sample/snapshot.h"

/* A tick on an absolute deadline measures 99.99 ms for 0.1 s: that is the window asked for */
#define WINDOW_SLACK_NS (5 * LR_NSEC_PER_MSEC)

void lr_cpuwin_init(struct lr_cpuwin *w)
{
	memset(w, 0, sizeof(*w));
	for (unsigned i = 0; i < LR_CPUWIN_SLOTS; i++)
		lr_cpu_table_init(&w->slot[i]);
}

void lr_cpuwin_free(struct lr_cpuwin *w)
{
	for (unsigned i = 0; i < LR_CPUWIN_SLOTS; i++)
		lr_cpu_table_free(&w->slot[i]);
	w->n = 0;
}

static void drop_oldest(struct lr_cpuwin *w, unsigned k)
{
	if (k > w->n)
		k = w->n;
	memmove(&w->order[0], &w->order[k], (w->n - k) * sizeof(w->order[0]));
	w->n -= k;
}

struct lr_cpu_table *lr_cpuwin_slot(struct lr_cpuwin *w)
{
	bool used[LR_CPUWIN_SLOTS] = {false};

	if (w->n == LR_CPUWIN_SLOTS)
		drop_oldest(w, 1);
	for (unsigned i = 0; i < w->n; i++)
		used[w->order[i]] = true;
	for (w->next = 0; used[w->next]; w->next++) /* n < SLOTS: one is free */
		;
	return &w->slot[w->next];
}

void lr_cpuwin_push(struct lr_cpuwin *w, uint64_t now_ns)
{
	size_t cap = w->slot[w->next].cap;

	w->at_ns[w->next] = now_ns;
	w->order[w->n++] = w->next;
	/* every slot as large as the newest reading: how many slots a window needs depends on
	 * tick timing, and a slot first used late must not allocate on the hot path then */
	for (unsigned i = 0; i < LR_CPUWIN_SLOTS; i++)
		if (w->slot[i].cap < cap && lr_cpu_table_reserve(&w->slot[i], cap))
			break;	/* out of memory: that slot grows when it is read, as before */
}

/* Position in order[] of the newest reading at least the minimum window before the newest,
 * or -1 when the readings held span less. */
static int base_of(const struct lr_cpuwin *w)
{
	uint64_t now = w->at_ns[w->order[w->n - 1]];

	for (int i = (int)w->n - 2; i >= 0; i--)
		if (now - w->at_ns[w->order[i]] + WINDOW_SLACK_NS >= LR_CPU_WINDOW_MIN_NS)
			return i;
	return -1;
}

static void times(const struct lr_cpu_raw *a, const struct lr_cpu_raw *b, uint64_t span_ns,
		  struct lr_cpu_snap *o)
{
	o->steal_pct = -1;
	if (lr_cpu_pct_steal(a, b, &o->user_pct, &o->system_pct, &o->irq_pct, &o->softirq_pct,
			     &o->idle_pct, &o->steal_pct)) {
		o->valid |= LR_CPUV_TIMES;
		o->times_window_ns = span_ns;
	}
}

static void events(const struct lr_cpu_raw *a, const struct lr_cpu_raw *b, uint64_t dt_ns,
		   struct lr_cpu_snap *o)
{
	uint64_t d1, d2, d3;

	if ((a->valid & b->valid & LR_CPUV_SOFTIRQS) &&
	    lr_rate_delta(a->net_rx, b->net_rx, LR_CPU_SOFTIRQ_WIDTH, &d1) &&
	    lr_rate_delta(a->net_tx, b->net_tx, LR_CPU_SOFTIRQ_WIDTH, &d2)) {
		o->net_rx_per_s = lr_rate_per_sec(d1, dt_ns);
		o->net_tx_per_s = lr_rate_per_sec(d2, dt_ns);
		o->valid |= LR_CPUV_SOFTIRQS;
	}
	if ((a->valid & b->valid & LR_CPUV_SOFTNET) &&
	    lr_rate_delta(a->softnet_processed, b->softnet_processed, LR_CPU_SOFTNET_WIDTH, &d1) &&
	    lr_rate_delta(a->softnet_dropped, b->softnet_dropped, LR_CPU_SOFTNET_WIDTH, &d2) &&
	    lr_rate_delta(a->softnet_squeezed, b->softnet_squeezed, LR_CPU_SOFTNET_WIDTH, &d3)) {
		o->softnet_processed_per_s = lr_rate_per_sec(d1, dt_ns);
		o->softnet_dropped_per_s = lr_rate_per_sec(d2, dt_ns);
		o->softnet_squeezed_per_s = lr_rate_per_sec(d3, dt_ns);
		o->valid |= LR_CPUV_SOFTNET;
	}
}

int lr_cpuwin_build(struct lr_cpuwin *w, struct lr_snapshot *work, uint64_t dt_ns)
{
	const struct lr_cpu_table *c, *p, *base;
	uint64_t span = 0;
	size_t n = 0;
	int bi;

	work->n_cpus = 0;
	memset(&work->cpu_all, 0, sizeof(work->cpu_all));
	work->cpu_all.cpu = -1;
	work->cpu_all.steal_pct = -1;
	if (w->n < 2)
		return 0;
	c = &w->slot[w->order[w->n - 1]];
	p = &w->slot[w->order[w->n - 2]];
	bi = base_of(w);
	base = bi >= 0 ? &w->slot[w->order[bi]] : NULL;
	if (base)
		span = w->at_ns[w->order[w->n - 1]] - w->at_ns[w->order[bi]];
	if (lr_array_grow(&work->cpus, &work->cap_cpus, c->n, sizeof(*work->cpus)))
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		const struct lr_cpu_raw *b = &c->cpu[i];
		struct lr_cpu_snap *o;

		if (!b->present)
			continue;
		o = &work->cpus[n++];
		memset(o, 0, sizeof(*o));
		o->cpu = (int)i;
		o->steal_pct = -1;
		o->raw = *b;
		if (base && i < base->n)
			times(&base->cpu[i], b, span, o);
		if (i < p->n)
			events(&p->cpu[i], b, dt_ns, o);
	}
	work->n_cpus = n;
	work->cpu_all.raw = c->all;
	if (base)
		times(&base->all, &c->all, span, &work->cpu_all);
	if (bi > 0) /* later windows start at this base or after it */
		drop_oldest(w, (unsigned)bi);
	return 0;
}
