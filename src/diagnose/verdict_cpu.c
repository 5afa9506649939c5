// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict's CPU figures. Each tick's per-CPU percentages (themselves over the sampler's
 * >= 100 ms window) are summed per CPU into blocks of LR_VERDICT_CPU_BLOCK_NS; a full block
 * is judged per interface: the busiest of the CPUs serving it (all CPUs when none are known)
 * by its mean over the block. So "cpu1, 97 % softirq at peak" means 97 % for half a second at
 * any sampling interval, not one 10 ms tick. [main]
 */
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/diagnose/verdict.h"
#include "verdict_priv.h"

#define IDLE_PCT 50.0 /* another CPU this idle while one is saturated: a spread problem */

void lr_verdict_cpu_reset(struct lr_verdict_acc *a)
{
	struct lr_verdict_cpu_block *b = &a->blk;

	if (b->max_cpu >= 0) {
		size_t n = (size_t)b->max_cpu + 1;

		memset(b->softirq, 0, n * sizeof(b->softirq[0]));
		memset(b->idle, 0, n * sizeof(b->idle[0]));
		memset(b->known_ns, 0, n * sizeof(b->known_ns[0]));
	}
	b->ns = 0;
	b->max_cpu = -1;
}

static double mean(const struct lr_verdict_cpu_block *b, const double *v, int cpu)
{
	return (double)v[cpu] / (double)b->known_ns[cpu];
}

/* The busiest CPU of one interface over the block; -1 when none is known. */
static int busiest(const struct lr_verdict_cpu_block *b, const struct lr_iface_snap *i, double *pct)
{
	int best = -1;

	*pct = -1;
	if (i->n_serving_cpus) {
		for (size_t k = 0; k < i->n_serving_cpus; k++) {
			int c = i->serving_cpus[k];

			if (c < 0 || c > b->max_cpu || !b->known_ns[c])
				continue;
			if (mean(b, b->softirq, c) > *pct) {
				*pct = mean(b, b->softirq, c);
				best = c;
			}
		}
		return best;
	}
	for (int c = 0; c <= b->max_cpu; c++)
		if (b->known_ns[c] && mean(b, b->softirq, c) > *pct) {
			*pct = mean(b, b->softirq, c);
			best = c;
		}
	return best;
}

static bool another_idles(const struct lr_verdict_cpu_block *b, int hot)
{
	for (int c = 0; c <= b->max_cpu; c++)
		if (c != hot && b->known_ns[c] && mean(b, b->idle, c) > IDLE_PCT)
			return true;
	return false;
}

static struct lr_verdict_iface *find(struct lr_verdict_acc *a, const char *name)
{
	for (unsigned k = 0; k < a->n_ifs; k++)
		if (!strcmp(a->ifs[k].name, name))
			return &a->ifs[k];
	return NULL;
}

static void judge_block(struct lr_verdict_acc *a, const struct lr_snapshot *s)
{
	const struct lr_verdict_cpu_block *b = &a->blk;

	for (size_t k = 0; k < s->n_ifaces; k++) {
		struct lr_verdict_iface *v = find(a, s->ifaces[k].name);
		double pct;
		int c;

		if (!v)
			continue;
		c = busiest(b, &s->ifaces[k], &pct);
		if (c < 0)
			continue;
		if (pct > v->hot_pct || v->hot_cpu < 0) {
			v->hot_pct = pct;
			v->hot_cpu = c;
		}
		if (pct >= LR_VERDICT_HOT_PCT) {
			v->hot_blocks++;
			v->others_idle |= another_idles(b, c);
		}
	}
	a->cpu_blocks++;
	lr_verdict_cpu_reset(a);
}

void lr_verdict_cpu_tick(struct lr_verdict_acc *a, const struct lr_snapshot *s)
{
	struct lr_verdict_cpu_block *b = &a->blk;
	double ns = (double)s->interval_ns;

	for (size_t k = 0; k < s->n_cpus; k++) {
		const struct lr_cpu_snap *c = &s->cpus[k];

		if (!(c->valid & LR_CPUV_TIMES) || c->cpu < 0 || c->cpu >= LR_VERDICT_CPUS)
			continue;
		b->softirq[c->cpu] += c->softirq_pct * ns;
		b->idle[c->cpu] += c->idle_pct * ns;
		b->known_ns[c->cpu] += s->interval_ns;
		if (c->cpu > b->max_cpu)
			b->max_cpu = c->cpu;
	}
	b->ns += s->interval_ns;
	if (b->ns >= LR_VERDICT_CPU_BLOCK_NS)
		judge_block(a, s);
}

void lr_verdict_cpu_flush(struct lr_verdict_acc *a, const struct lr_snapshot *s)
{
	/* A short tail would judge a shorter window than the blocks before it; it counts only
	 * in a test too short for one full block. */
	if (a->blk.ns && (!a->cpu_blocks || a->blk.ns >= LR_VERDICT_CPU_BLOCK_NS / 2))
		judge_block(a, s);
	else
		lr_verdict_cpu_reset(a);
}
