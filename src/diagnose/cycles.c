// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cycles' ledger (docs/design.md §14): each end's CPU times summed over the test's window
 * (each tick's percentages, themselves over the sampler's >= 100 ms window, weighted by the
 * tick's length), its busiest CPUs and what kept them busy, and which end and CPU bound the
 * rate. A CPU counts as busy for what is not idle: steal too, since a stolen CPU is not the
 * test's either. Pure; main thread.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/collect/cpu.h"
#include "linerate/diagnose/cycles.h"
#include "linerate/diagnose/expect.h"
#include "linerate/sample/snapshot.h"

void lr_cycles_init(struct lr_cycles_acc *a)
{
	memset(a, 0, sizeof(*a));
	for (int k = 0; k < LR_CYCLES__SIDES; k++)
		a->side[k].max_cpu = -1;
}

/* The CPUs this host's streams moved data on in this tick. */
static void add_threads(struct lr_cycles_acc *a, const struct lr_snapshot *s)
{
	bool seen[LR_CYCLES_CPUS] = {false};
	bool any = false;

	for (size_t i = 0; i < s->n_streams; i++) {
		const struct lr_stream_snap *st = &s->streams[i];

		if (st->cpu < 0 || st->cpu >= LR_CYCLES_CPUS)
			continue;
		seen[st->cpu] = any = true;
	}
	if (!any)
		return;
	a->side[LR_CYCLES_LOCAL].threads_known = true;
	a->side[LR_CYCLES_LOCAL].thread_ticks++;
	for (int c = 0; c < LR_CYCLES_CPUS; c++)
		if (seen[c])
			a->side[LR_CYCLES_LOCAL].cpu[c].thread_ticks++;
}

void lr_cycles_add(struct lr_cycles_acc *a, enum lr_cycles_side side, const struct lr_snapshot *s,
		   const char *host)
{
	double ns;

	if (!s || (unsigned)side >= LR_CYCLES__SIDES || !s->interval_ns)
		return;
	ns = (double)s->interval_ns;
	if (side == LR_CYCLES_PEER) {
		if (s->seq && s->seq == a->side[side].last_seq)
			return;		/* the same frame again: no new frame this tick */
		a->side[side].last_seq = s->seq;
	}
	if (host)
		snprintf(a->side[side].host, sizeof(a->side[side].host), "%s", host);
	for (size_t k = 0; k < s->n_cpus; k++) {
		const struct lr_cpu_snap *c = &s->cpus[k];
		struct lr_cycles_sum *m;

		if (c->cpu < 0 || c->cpu >= LR_CYCLES_CPUS || !(c->valid & LR_CPUV_TIMES))
			continue;
		m = &a->side[side].cpu[c->cpu];
		m->usr += c->user_pct * ns;
		m->sys += c->system_pct * ns;
		m->irq += c->irq_pct * ns;
		m->softirq += c->softirq_pct * ns;
		m->idle += c->idle_pct * ns;
		m->ns += s->interval_ns;
		m->ticks++;
		/* the peer's wire carries no steal column: unknown there, never 0 */
		if (side == LR_CYCLES_LOCAL && c->steal_pct >= 0) {
			m->steal += c->steal_pct * ns;
			m->steal_ns += s->interval_ns;
		}
		if (c->valid & LR_CPUV_SOFTIRQS) {
			m->net_rx += c->net_rx_per_s * ns / 1e9;
			m->net_tx += c->net_tx_per_s * ns / 1e9;
			m->net_ns += s->interval_ns;
		}
		if (c->cpu > a->side[side].max_cpu)
			a->side[side].max_cpu = c->cpu;
	}
	if (side == LR_CYCLES_LOCAL)
		add_threads(a, s);
}

static void cpu_of(const struct lr_cycles_acc *a, int side, int c, struct lr_cycles_cpu *o)
{
	const struct lr_cycles_sum *m = &a->side[side].cpu[c];
	double ns = (double)m->ns;

	o->cpu = c;
	o->usr = m->usr / ns;
	o->sys = m->sys / ns;
	o->irq = m->irq / ns;
	o->softirq = m->softirq / ns;
	o->idle = m->idle / ns;
	o->busy = 100.0 - o->idle;
	o->steal = m->steal_ns ? m->steal / (double)m->steal_ns : -1;
	o->net_rx_per_s = m->net_ns ? m->net_rx / ((double)m->net_ns / 1e9) : -1;
	o->net_tx_per_s = m->net_ns ? m->net_tx / ((double)m->net_ns / 1e9) : -1;
	o->threads = side == LR_CYCLES_LOCAL && a->side[side].threads_known && m->ticks
			     ? (int)(100.0 * m->thread_ticks / m->ticks + 0.5)
			     : -1;
}

static void build_end(const struct lr_cycles_acc *a, int side, struct lr_cycles_end *e)
{
	uint64_t most_ns = 0;

	snprintf(e->host, sizeof(e->host), "%s", a->side[side].host);
	for (int c = 0; c <= a->side[side].max_cpu; c++) {
		struct lr_cycles_cpu row;
		unsigned at;

		if (!a->side[side].cpu[c].ns)
			continue;
		e->n_cpus++;
		if (a->side[side].cpu[c].ns > most_ns)
			most_ns = a->side[side].cpu[c].ns;
		cpu_of(a, side, c, &row);
		for (at = e->n_top; at > 0 && e->top[at - 1].busy < row.busy; at--)
			if (at < LR_CYCLES_TOP)
				e->top[at] = e->top[at - 1];
		if (at < LR_CYCLES_TOP) {
			e->top[at] = row;
			if (e->n_top < LR_CYCLES_TOP)
				e->n_top++;
		}
	}
	e->seconds = (double)most_ns / 1e9;
	e->known = e->n_top && most_ns >= LR_CYCLES_MIN_NS;
	e->saturated = e->known && e->top[0].busy >= LR_CYCLES_SATURATED_PCT;
	/* none of the test's threads ran there and the network stack took little of it: other
	 * work filled that CPU (a build beside the test), it did not carry the test */
	e->other_work = e->saturated && e->top[0].threads == 0 &&
			e->top[0].softirq + e->top[0].irq < 0.5 * e->top[0].busy;
}

/* "softirq (the network stack's packets: NET_RX 41k/s, NET_TX 2k/s)": what kept it busy. */
static void what_busy(const struct lr_cycles_cpu *c, char *buf, size_t len)
{
	const char *why = "softirq, the network stack's packet processing";
	double top = c->softirq;

	if (c->sys > top) {
		top = c->sys;
		why = "sys, the kernel on behalf of a process (socket calls, copies)";
	}
	if (c->usr > top) {
		top = c->usr;
		why = "usr, user space";
	}
	if (c->irq > top) {
		top = c->irq;
		why = "irq, hardware interrupts";
	}
	if (c->steal > top)
		why = "steal, the hypervisor giving the CPU to other guests";
	snprintf(buf, len, "%s", why);
}

static void split(const struct lr_cycles_cpu *c, char *buf, size_t len)
{
	int n = snprintf(buf, len, "softirq %.0f%%, irq %.0f%%, sys %.0f%%, usr %.0f%%", c->softirq,
			 c->irq, c->sys, c->usr);

	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, c->steal >= 0 ? ", steal %.0f%%" : ", steal unknown",
			 c->steal);
}

static const char *threads_text(const struct lr_cycles_cpu *c)
{
	if (c->threads < 0)
		return "";
	return c->threads ? "; this test's threads ran there" : "; none of this test's threads ran there";
}

static const char *who(const struct lr_cycles_end *e, int side)
{
	return e->host[0] ? e->host : side == LR_CYCLES_LOCAL ? "this host" : "the peer";
}

static void conclude(struct lr_cycles *o)
{
	const struct lr_cycles_end *l = &o->end[LR_CYCLES_LOCAL], *p = &o->end[LR_CYCLES_PEER];
	char parts[120], why[96];
	int hot = -1;

	for (int k = 0; k < LR_CYCLES__SIDES; k++)
		if (o->end[k].saturated && !o->end[k].other_work &&
		    (hot < 0 || o->end[k].top[0].busy > o->end[hot].top[0].busy))
			hot = k;
	o->bound = hot;
	if (hot >= 0) {
		const struct lr_cycles_end *e = &o->end[hot];

		split(&e->top[0], parts, sizeof(parts));
		what_busy(&e->top[0], why, sizeof(why));
		snprintf(o->conclusion, sizeof(o->conclusion),
			 "the %s's cpu%d on %s bound the rate: %.0f%% busy over %.1f s (%s), mostly "
			 "%s%s", e->role, e->top[0].cpu, who(e, hot), e->top[0].busy, e->seconds, parts,
			 why, threads_text(&e->top[0]));
		return;
	}
	if (!l->known && !p->known) {
		snprintf(o->conclusion, sizeof(o->conclusion), "CPU times unknown on both ends");
		return;
	}
	for (int k = 0; k < LR_CYCLES__SIDES; k++) {
		const struct lr_cycles_end *e = &o->end[k];

		if (!e->other_work)
			continue;
		split(&e->top[0], parts, sizeof(parts));
		what_busy(&e->top[0], why, sizeof(why));
		snprintf(o->conclusion, sizeof(o->conclusion),
			 "no CPU carrying the test was saturated; cpu%d on %s (the %s) was %.0f%% "
			 "busy with other work (%s), mostly %s, none of this test's threads ran "
			 "there: a shared host", e->top[0].cpu, who(e, k), e->role, e->top[0].busy,
			 parts, why);
		return;
	}
	if (l->known && p->known) {
		const struct lr_cycles_end *e = p->top[0].busy > l->top[0].busy ? p : l;

		snprintf(o->conclusion, sizeof(o->conclusion),
			 "no CPU was saturated: the busiest, cpu%d on %s (the %s), was %.0f%% busy",
			 e->top[0].cpu, who(e, e == p), e->role, e->top[0].busy);
		return;
	}
	{
		const struct lr_cycles_end *e = l->known ? l : p;
		int side = l->known ? LR_CYCLES_LOCAL : LR_CYCLES_PEER;

		snprintf(o->conclusion, sizeof(o->conclusion),
			 "no CPU of %s (the %s) was saturated: the busiest, cpu%d, was %.0f%% busy; the "
			 "%s's CPUs are unknown%s", who(e, side), e->role, e->top[0].cpu, e->top[0].busy,
			 o->end[!side].role, side == LR_CYCLES_LOCAL
			 ? " (a plain iperf3 shares none)" : "");
	}
}

void lr_cycles_build(const struct lr_cycles_acc *a, bool local_sends, bool local_receives,
		     bool rr, struct lr_cycles *out)
{
	static const char *const role[] = {"sender", "receiver", "sender and receiver"};
	int lr = local_sends && local_receives ? 2 : local_sends ? 0 : 1;

	memset(out, 0, sizeof(*out));
	for (int k = 0; k < LR_CYCLES__SIDES; k++)
		build_end(a, k, &out->end[k]);
	out->end[LR_CYCLES_LOCAL].role = rr ? "asker" : role[lr];
	out->end[LR_CYCLES_PEER].role = rr ? "answerer" : role[lr == 2 ? 2 : !lr];
	conclude(out);
}

void lr_cycles_expect_facts(const struct lr_cycles *c, struct lr_expect_facts *f)
{
	struct lr_expect_cpu *dst[LR_CYCLES__SIDES] = {&f->cpu_local, &f->cpu_peer};

	for (int k = 0; k < LR_CYCLES__SIDES; k++) {
		const struct lr_cycles_end *e = &c->end[k];

		memset(dst[k], 0, sizeof(*dst[k]));
		if (!e->known)
			continue;
		dst[k]->known = true;
		dst[k]->cpu = e->top[0].cpu;
		dst[k]->busy_pct = e->top[0].busy;
		snprintf(dst[k]->host, sizeof(dst[k]->host), "%s", e->host);
	}
}
