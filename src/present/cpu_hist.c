// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-CPU busy and softirq history for the CPU pane (include/linerate/present/cpu_hist.h): a
 * ring per CPU, all sharing one head, appended once per snapshot shown. Main thread.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/present/cpu_hist.h"
#include "linerate/sample/snapshot.h"

void lr_cpu_hist_init(struct lr_cpu_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void lr_cpu_hist_free(struct lr_cpu_hist *h)
{
	free(h->cpu);
	free(h->busy);
	free(h->softirq);
	lr_cpu_hist_init(h);
}

static long slot_of(const struct lr_cpu_hist *h, int cpu)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->cpu[i] == cpu)
			return (long)i;
	return -1;
}

/* A new slot for cpu, its past unknown. */
static long add_slot(struct lr_cpu_hist *h, int cpu)
{
	size_t cap = h->cap;

	if (h->n == cap) {
		size_t want = cap ? 2 * cap : 8;
		int *c = realloc(h->cpu, want * sizeof(*c));
		uint8_t(*b)[LR_CPU_HIST_LEN];
		uint8_t(*s)[LR_CPU_HIST_LEN];

		if (!c)
			return -ENOMEM;
		h->cpu = c;
		b = realloc(h->busy, want * sizeof(*b));
		if (!b)
			return -ENOMEM;
		h->busy = b;
		s = realloc(h->softirq, want * sizeof(*s));
		if (!s)
			return -ENOMEM;
		h->softirq = s;
		h->cap = want;
	}
	h->cpu[h->n] = cpu;
	memset(h->busy[h->n], LR_CPU_HIST_UNKNOWN, LR_CPU_HIST_LEN);
	memset(h->softirq[h->n], LR_CPU_HIST_UNKNOWN, LR_CPU_HIST_LEN);
	return (long)h->n++;
}

static uint8_t pct_byte(double v, bool known)
{
	if (!known || !(v >= 0))
		return LR_CPU_HIST_UNKNOWN;
	return (uint8_t)(v > 100 ? 100 : lround(v));
}

int lr_cpu_hist_push(struct lr_cpu_hist *h, const struct lr_snapshot *s)
{
	uint32_t at = h->head;
	int err = 0;

	if (!s || (h->have_seq && s->seq == h->last_seq))
		return 0;
	h->last_seq = s->seq;
	h->have_seq = true;
	for (size_t i = 0; i < h->n; i++)	/* a CPU this snapshot lacks: unknown */
		h->busy[i][at] = h->softirq[i][at] = LR_CPU_HIST_UNKNOWN;
	for (size_t i = 0; i < s->n_cpus; i++) {
		const struct lr_cpu_snap *c = &s->cpus[i];
		bool known = c->valid & LR_CPUV_TIMES;
		long k = slot_of(h, c->cpu);

		if (k < 0)
			k = add_slot(h, c->cpu);
		if (k < 0) {
			err = (int)k;
			continue;
		}
		h->busy[k][at] = pct_byte(100.0 - c->idle_pct, known);
		h->softirq[k][at] = pct_byte(c->softirq_pct, known);
	}
	h->head = (at + 1) % LR_CPU_HIST_LEN;
	if (h->len < LR_CPU_HIST_LEN)
		h->len++;
	return err;
}

bool lr_cpu_hist_series(const struct lr_cpu_hist *h, int cpu, bool softirq,
			struct lr_series *out)
{
	long k = h ? slot_of(h, cpu) : -1;
	const uint8_t *v;

	memset(out, 0, sizeof(*out));
	if (k < 0 || !h->len)
		return false;
	v = softirq ? h->softirq[k] : h->busy[k];
	for (uint32_t i = 0; i < h->len; i++) {	/* oldest first */
		uint8_t b = v[(h->head + LR_CPU_HIST_LEN - h->len + i) % LR_CPU_HIST_LEN];

		lr_series_push(out, b == LR_CPU_HIST_UNKNOWN ? NAN : (double)b);
	}
	return true;
}
