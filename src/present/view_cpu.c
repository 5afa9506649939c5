// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CPU pane: one stacked bar per CPU (softirq, irq, system, user, and steal on a VM whose
 * host took time: a segment and a legend entry only where it is non-zero), busy %, NET_RX/s
 * and softnet drops and squeezes; the CPUs serving the shown interface are marked. With more
 * CPUs than rows it shows the busiest that fit, in CPU order. Main thread; pure drawing.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/present/cpu_hist.h"
#include "linerate/present/view.h"
#include "linerate/present/view_numa.h"

#define MAX_ROWS 256
#define FIXED_COLS 28	/* name 6 + busy 5 + NET_RX 7 + drop 5 + squeeze 5 */

/* At most 4 columns: "999", "1.2k", "12k", "999k", "1.2M". */
static void fmt4(char *buf, size_t len, double v, bool known)
{
	static const char *const sfx[] = {"", "k", "M", "G", "T"};
	size_t i = 0;

	if (!known || !(v >= 0)) {
		snprintf(buf, len, "-");
		return;
	}
	while (v >= 999.5 && i + 1 < LR_ARRAY_SIZE(sfx)) {
		v /= 1000;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.0f", v);
	else if (v < 9.95)
		snprintf(buf, len, "%.1f%s", v, sfx[i]);
	else
		snprintf(buf, len, "%.0f%s", v, sfx[i]);
}

static double busy_pct(const struct lr_cpu_snap *c)
{
	if (!(c->valid & LR_CPUV_TIMES))
		return -1;
	return c->softirq_pct + c->irq_pct + c->system_pct + c->user_pct;
}

/* Which CPUs serve the interface: a bitmap for CPU numbers below SERVE_MAP_CPUS (so a
 * thousands-of-CPUs host costs O(1) per lookup), a scan above. */
#define SERVE_MAP_CPUS 8192

struct serve_map {
	const struct lr_iface_snap *ifs;
	uint64_t bits[SERVE_MAP_CPUS / 64];
};

static void serve_map_init(struct serve_map *m, const struct lr_iface_snap *ifs)
{
	memset(m, 0, sizeof(*m));
	m->ifs = ifs;
	for (size_t i = 0; ifs && i < ifs->n_serving_cpus; i++) {
		int c = ifs->serving_cpus[i];

		if (c >= 0 && c < SERVE_MAP_CPUS)
			m->bits[c / 64] |= UINT64_C(1) << (c % 64);
	}
}

static bool serves(const struct serve_map *m, int cpu)
{
	if (!m->ifs || cpu < 0)
		return false;
	if (cpu < SERVE_MAP_CPUS)
		return m->bits[cpu / 64] & (UINT64_C(1) << (cpu % 64));
	for (size_t i = 0; i < m->ifs->n_serving_cpus; i++)
		if (m->ifs->serving_cpus[i] == cpu)
			return true;
	return false;
}

/* Busier first; serving CPUs win ties so the interface's own CPUs stay in view. */
static bool busier(const struct lr_snapshot *s, const struct serve_map *m, size_t a, size_t b)
{
	double ba = busy_pct(&s->cpus[a]), bb = busy_pct(&s->cpus[b]);

	if (ba != bb)
		return ba > bb;
	return serves(m, s->cpus[a].cpu) && !serves(m, s->cpus[b].cpu);
}

/* Fills idx with the k busiest CPU indices, then sorts them by index (= CPU number order). */
static size_t pick_cpus(const struct lr_snapshot *s, const struct serve_map *m, size_t *idx,
			size_t k, double *rest_max)
{
	size_t n = 0;

	*rest_max = -1;
	for (size_t i = 0; i < s->n_cpus; i++) {
		size_t pos, out = i;

		if (k == 0) {
			/* nothing fits: only the summary row */
		} else if (n < k) {
			idx[n++] = i;
			out = SIZE_MAX;
		} else if (busier(s, m, i, idx[n - 1])) {
			out = idx[n - 1];
			idx[n - 1] = i;
		}
		if (out != SIZE_MAX && busy_pct(&s->cpus[out]) > *rest_max)
			*rest_max = busy_pct(&s->cpus[out]);
		if (out == i)
			continue;
		/* keep idx[0..n) sorted busiest first: bubble the new entry up */
		for (pos = n - 1; pos > 0 && busier(s, m, idx[pos], idx[pos - 1]); pos--) {
			size_t t = idx[pos];

			idx[pos] = idx[pos - 1];
			idx[pos - 1] = t;
		}
	}
	for (size_t i = 1; i < n; i++)	/* insertion sort by CPU index */
		for (size_t j = i; j > 0 && idx[j] < idx[j - 1]; j--) {
			size_t t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	return n;
}

/* Steal shown at all: a share that rounds to a visible figure. */
#define STEAL_SHOWN_PCT 0.5

static bool has_steal(const struct lr_cpu_snap *c)
{
	return (c->valid & LR_CPUV_TIMES) && c->steal_pct >= STEAL_SHOWN_PCT;
}

static void bar(struct lr_frame *f, int x, int y, int w, const struct lr_cpu_snap *c,
		bool ascii)
{
	const double seg[5] = {c->softirq_pct, c->irq_pct, c->system_pct, c->user_pct,
			       has_steal(c) ? c->steal_pct : 0};
	static const enum lr_role roles[5] = {LR_ROLE_CPU_SOFTIRQ, LR_ROLE_CPU_IRQ,
					      LR_ROLE_CPU_SYSTEM, LR_ROLE_CPU_USER, LR_ROLE_WARN};
	static const uint32_t glyph[5] = {0x2588, 0x2593, 0x2592, 0x2591, 0x2571};
	static const char aglyph[5] = {'#', '%', '=', '-', '/'};
	double cum = 0;
	int from = 0;

	if (!(c->valid & LR_CPUV_TIMES))
		return;
	for (int k = 0; k < 5; k++) {
		int to;

		cum += seg[k] > 0 ? seg[k] : 0;
		to = (int)(cum * w / 100 + 0.5);
		if (to > w)
			to = w;
		for (int i = from; i < to; i++)
			lr_frame_put(f, x + i, y, ascii ? (uint32_t)aglyph[k] : glyph[k], roles[k]);
		if (to > from)
			from = to;
	}
}

static void legend(struct lr_frame *f, int x, int y, int bw, bool ascii, bool steal)
{
	static const char *const names[5] = {"si", "irq", "sys", "usr", "steal"};
	static const enum lr_role roles[5] = {LR_ROLE_CPU_SOFTIRQ, LR_ROLE_CPU_IRQ,
					      LR_ROLE_CPU_SYSTEM, LR_ROLE_CPU_USER, LR_ROLE_WARN};
	static const uint32_t glyph[5] = {0x2588, 0x2593, 0x2592, 0x2591, 0x2571};
	static const char aglyph[5] = {'#', '%', '=', '-', '/'};
	int cx = x + 6;

	lr_frame_text(f, x, y, 6, LR_ROLE_LABEL, "  cpu");
	for (int k = 0; k < (steal ? 5 : 4) && cx + 5 <= x + 6 + bw; k++) {
		lr_frame_put(f, cx, y, ascii ? (uint32_t)aglyph[k] : glyph[k], roles[k]);
		cx += 1 + lr_frame_text(f, cx + 1, y, -1, LR_ROLE_LABEL, names[k]) + 1;
	}
	x += 6 + bw;
	lr_frame_text_right(f, x, y, 5, LR_ROLE_LABEL, "busy");
	lr_frame_text_right(f, x + 5, y, 7, LR_ROLE_LABEL, "NET_RX");
	lr_frame_text_right(f, x + 12, y, 5, LR_ROLE_LABEL, "drop");
	lr_frame_text_right(f, x + 17, y, 5, LR_ROLE_LABEL, "sqz");
}

/* tagw: the last columns of the bar's width hold the CPU's NUMA node (view_numa.c) */
static void cpu_row(struct lr_frame *f, int x, int y, int bw, const struct lr_cpu_snap *c,
		    bool mark, bool ascii, int tagw)
{
	char buf[16];
	double busy = busy_pct(c);
	bool sn = c->valid & LR_CPUV_SOFTNET;

	lr_frame_printf(f, x, y, 5, mark ? LR_ROLE_VALUE : LR_ROLE_LABEL, "%5d", c->cpu);
	if (mark)
		lr_frame_put(f, x + 5, y, '*', LR_ROLE_WARN);
	bar(f, x + 6, y, bw - tagw, c, ascii);
	x += 6 + bw;
	if (busy >= 0)
		snprintf(buf, sizeof(buf), "%.0f%%", busy > 100 ? 100 : busy);
	else
		snprintf(buf, sizeof(buf), "-");
	lr_frame_text_right(f, x, y, 5,
			    c->softirq_pct > 95 ? LR_ROLE_ALERT
			    : busy >= 0	       ? LR_ROLE_VALUE
					       : LR_ROLE_LABEL,
			    buf);
	fmt4(buf, sizeof(buf), c->net_rx_per_s, c->valid & LR_CPUV_SOFTIRQS);
	lr_frame_text_right(f, x + 5, y, 7, LR_ROLE_VALUE, buf);
	fmt4(buf, sizeof(buf), c->softnet_dropped_per_s, sn);
	lr_frame_text_right(f, x + 12, y, 5,
			    c->softnet_dropped_per_s > 0 && sn ? LR_ROLE_ALERT : LR_ROLE_LABEL, buf);
	fmt4(buf, sizeof(buf), c->softnet_squeezed_per_s, sn);
	lr_frame_text_right(f, x + 17, y, 5,
			    c->softnet_squeezed_per_s > 0 && sn ? LR_ROLE_WARN : LR_ROLE_LABEL, buf);
}

#define HIST_ROWS_MAX 8	/* graph rows per CPU in the history block */

/* The rows left under the bars: each shown CPU's busy % (left half) and softirq % (right half)
 * over time, 0 to 100 % (the newest point at the right), under a line saying so. */
static void history(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		    const size_t *idx, size_t n)
{
	const struct lr_snapshot *s = ctx->snap;
	int g, half = (r.w - 1) / 2, y = r.y + 1;
	struct lr_series ser;	/* 2 KiB */

	if (!ctx->cpu_hist || !n || r.h < (int)n + 1 || half < 16)
		return;
	g = (r.h - 1) / (int)n;
	g = g > HIST_ROWS_MAX ? HIST_ROWS_MAX : g;
	lr_frame_text(f, r.x + 1, r.y, r.w - 2, LR_ROLE_LABEL,
		      "history  busy % (left) and softirq % (right), 0 to 100 %, newest at the right");
	for (size_t i = 0; i < n; i++, y += g) {
		int cpu = s->cpus[idx[i]].cpu;
		char lab[16];

		snprintf(lab, sizeof(lab), "%d", cpu);
		lr_frame_text_right(f, r.x, y, 6, LR_ROLE_LABEL, lab);
		for (int side = 0; side < 2; side++) {
			struct lr_rect gr = {r.x + 7 + side * half, y, half - 8, g};

			if (lr_cpu_hist_series(ctx->cpu_hist, cpu, side, &ser))
				lr_view_graph_ctx(f, gr, &ser, 100.0, false, 1.0, ctx,
						  side ? LR_ROLE_CPU_SOFTIRQ : LR_ROLE_CPU_SYSTEM);
		}
	}
}

void lr_view_cpu(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		 const struct lr_iface_snap *ifs)
{
	const struct lr_snapshot *s = ctx->snap;
	struct serve_map map;	/* 1 KiB */
	size_t idx[MAX_ROWS], n, rows;
	double hidden_max;
	char title[96];
	int bw = r.w - FIXED_COLS - 1, y, tagw = lr_view_numa_tag_w(s);
	bool steal = false;

	if (r.h < 3 || r.w < FIXED_COLS + 6 || !s)
		return;
	if (bw > 60)
		bw = 60;
	if (bw < tagw + 6)
		tagw = 0;
	rows = (size_t)(r.h - 2);
	if (rows > MAX_ROWS)
		rows = MAX_ROWS;
	if (s->n_cpus > rows)
		rows--;	/* the last row says how many are hidden */
	serve_map_init(&map, ifs);
	n = pick_cpus(s, &map, idx, rows, &hidden_max);
	if (s->n_cpus > n)
		snprintf(title, sizeof(title), "CPU  busiest %zu of %zu", n, s->n_cpus);
	else
		snprintf(title, sizeof(title), "CPU");
	lr_view_pane_title(f, r, title, ctx->ascii);
	if (ifs && ifs->n_serving_cpus) {
		char m[40];

		if (lr_numa_shown(s) && ifs->numa_known)	/* n<node> highlighted: local */
			snprintf(m, sizeof(m), " * serves %s  n%d local ", ifs->name,
				 ifs->numa_node);
		else
			snprintf(m, sizeof(m), " * serves %s ", ifs->name);
		/* never over the title: " Title ─" stays whole; else the short form or none */
		if (lr_utf8_width(title) + 4 + lr_utf8_width(m) > r.w - 1)
			snprintf(m, sizeof(m), " * serves ");
		if (lr_utf8_width(title) + 4 + lr_utf8_width(m) <= r.w - 1)
			lr_frame_text_right(f, r.x, r.y, r.w - 1, LR_ROLE_LABEL, m);
	}
	for (size_t i = 0; i < n && !steal; i++)
		steal = has_steal(&s->cpus[idx[i]]);
	legend(f, r.x, r.y + 1, bw, ctx->ascii, steal);
	y = r.y + 2;
	for (size_t i = 0; i < n; i++) {
		const struct lr_cpu_snap *c = &s->cpus[idx[i]];

		cpu_row(f, r.x, y, bw, c, serves(&map, c->cpu), ctx->ascii, tagw);
		if (tagw)
			lr_view_numa_cpu_tag(f, r.x + 6 + bw - tagw, y, s, ifs, c);
		y++;
	}
	if (s->n_cpus > n) {
		if (hidden_max >= 0)
			lr_frame_printf(f, r.x, y, r.w, LR_ROLE_LABEL,
					"  +%zu more CPUs, each <= %.0f%% busy", s->n_cpus - n,
					hidden_max);
		else
			lr_frame_printf(f, r.x, y, r.w, LR_ROLE_LABEL, "  +%zu more CPUs",
					s->n_cpus - n);
		return;	/* no rows to spare */
	}
	history(f, (struct lr_rect){r.x, y + 1, r.w, r.y + r.h - y - 1}, ctx, idx, n);
}
