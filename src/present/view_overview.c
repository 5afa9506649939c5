// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview: a title line, one sar-like row per interface (rx/tx rate, pps, drops/s,
 * fifo/s, % of line rate, hottest serving softirq CPU), its rx/tx history under it when
 * rows remain, the host-wide hottest CPU and stack error rates, and the busiest CPUs below.
 * Main thread; pure drawing.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"
#include "linerate/present/view_numa.h"

struct ov_layout {
	int name_w, link_w, state_w, err_w;
	int softirq_w;	/* 0 below 80 columns (the reduced layout) */
	int hotq_w; /* the hottest queue's share, when some interface's queues are known */
};

static const char *oper_name(uint8_t st)
{
	static const char *const names[] = {"unknown", "notpresent", "down", "lowerdown",
					    "testing", "dormant", "up"};

	return st < LR_ARRAY_SIZE(names) ? names[st] : "unknown";
}

static void title_line(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx)
{
	const struct lr_snapshot *s = ctx->snap;
	char buf[64];
	int x = r.x + 1;

	lr_frame_fill(f, (struct lr_rect){r.x, r.y, r.w, 1}, ' ', LR_ROLE_NONE);
	x += lr_frame_text(f, x, r.y, -1, LR_ROLE_TITLE, "linerate");
	if (ctx->host && ctx->host[0])
		x += 2 + lr_view_text_mark(f, x + 2, r.y, 24, LR_ROLE_VALUE, ctx->host);
	if (s) {
		snprintf(buf, sizeof(buf), "%zu iface%s", s->n_ifaces, s->n_ifaces == 1 ? "" : "s");
		x += 2 + lr_frame_text(f, x + 2, r.y, -1, LR_ROLE_LABEL, buf);
	}
	if (ctx->app->paused)
		lr_frame_text(f, x + 2, r.y, -1, LR_ROLE_WARN, "PAUSED");
	if (s && s->real_ns) {
		time_t t = (time_t)(s->real_ns / LR_NSEC_PER_SEC);
		struct tm tm;

		if (localtime_r(&t, &tm)) {
			strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
			lr_frame_text_right(f, r.x, r.y, r.w - 1, LR_ROLE_LABEL, buf);
		}
	}
}

static void layout_cols(struct ov_layout *l, int w, bool queues)
{
	int extra = w - 81;	/* 80 columns: the table is 79 and the last column stays blank */

	memset(l, 0, sizeof(*l));
	l->name_w = 9;
	l->softirq_w = 8;
	if (extra < -1) {	/* 70-78 columns: no SOFTIRQ column, the name gets the rest */
		l->softirq_w = 0;
		extra += 8;
	}
	if (extra < 0) {
		l->name_w += extra;
		extra = 0;
	}
	l->link_w = 10;
	if (queues && extra >= 9) {
		l->hotq_w = 9;
		extra -= 9;
	}
	if (extra > 0) {
		int add = extra > 7 ? 7 : extra;

		l->name_w += add;	/* up to 15 = IFNAMSIZ - 1 */
		extra -= add;
	}
	if (extra >= 8) {
		l->err_w = 8;
		extra -= 8;
	}
	if (extra >= 11)
		l->state_w = 11;
}

static int col_num(struct lr_frame *f, int x, int y, int w, enum lr_role role, double v)
{
	char buf[32];

	lr_view_fmt_num(buf, sizeof(buf), v);
	lr_frame_text_right(f, x, y, w, v > 0 || v < 0 ? role : LR_ROLE_LABEL, buf);
	return x + w;
}

static void header_row(struct lr_frame *f, int x, int y, const struct ov_layout *l, bool bytes)
{
	x += 1;
	lr_frame_text(f, x, y, l->name_w, LR_ROLE_LABEL, "IFACE");
	x += l->name_w;
	lr_frame_text(f, x, y, l->link_w, LR_ROLE_LABEL, "LINK/MTU");
	x += l->link_w;
	if (l->hotq_w) {
		lr_frame_text(f, x, y, l->hotq_w, LR_ROLE_LABEL, "HOT Q");
		x += l->hotq_w;
	}
	if (l->state_w) {
		lr_frame_text(f, x, y, l->state_w, LR_ROLE_LABEL, "STATE");
		x += l->state_w;
	}
	lr_frame_text_right(f, x, y, 9, LR_ROLE_LABEL, bytes ? "RX B/s" : "RX bit/s");
	lr_frame_text_right(f, x + 9, y, 9, LR_ROLE_LABEL, bytes ? "TX B/s" : "TX bit/s");
	lr_frame_text_right(f, x + 18, y, 7, LR_ROLE_LABEL, "RX p/s");
	lr_frame_text_right(f, x + 25, y, 7, LR_ROLE_LABEL, "TX p/s");
	lr_frame_text_right(f, x + 32, y, 7, LR_ROLE_LABEL, "DROP/s");
	lr_frame_text_right(f, x + 39, y, 7, LR_ROLE_LABEL, "FIFO/s");
	x += 46;
	if (l->err_w) {
		lr_frame_text_right(f, x, y, l->err_w, LR_ROLE_LABEL, "ERR/s");
		x += l->err_w;
	}
	lr_frame_text_right(f, x, y, 6, LR_ROLE_LABEL, "LINE%");
	lr_frame_text_right(f, x + 6, y, l->softirq_w, LR_ROLE_LABEL, "SOFTIRQ");
}

/* "q3 92%": the queue that carried most of the interface's packets, and its share. */
static void hot_queue(struct lr_frame *f, int x, int y, int w, const struct lr_iface_snap *ifs)
{
	struct lr_view_queue_stats st;
	char buf[24];

	if (!lr_view_queue_stats(ifs, &st) || st.share < 0) {
		lr_frame_text(f, x, y, w, LR_ROLE_LABEL, "-");
		return;
	}
	snprintf(buf, sizeof(buf), "q%u %.0f%%", ifs->queues[st.hot].queue, 100 * st.share);
	lr_frame_text(f, x, y, w, st.share > 0.5 && ifs->n_queues > 1 ? LR_ROLE_WARN : LR_ROLE_VALUE,
		      buf);
}

static bool any_queues(const struct lr_snapshot *s)
{
	for (size_t i = 0; s && i < s->n_ifaces; i++)
		if (s->ifaces[i].n_queues)
			return true;
	return false;
}

static void iface_row(struct lr_frame *f, int x0, int y, int w, const struct ov_layout *l,
		      const struct lr_iface_snap *ifs, bool selected, bool bytes)
{
	static const enum lr_metric err_m[] = {LR_M_RX_ERRORS, LR_M_TX_ERRORS};
	char speed[16], buf[48];
	double v, div = bytes ? 8 : 1;
	bool down = ifs->operstate == 2;	/* IF_OPER_DOWN */
	int x = x0;

	lr_frame_put(f, x++, y, selected ? '>' : ' ', LR_ROLE_SELECTED);
	lr_view_text_mark(f, x, y, l->name_w - 1, down ? LR_ROLE_LABEL : LR_ROLE_VALUE, ifs->name);
	x += l->name_w;
	lr_view_fmt_speed(speed, sizeof(speed), ifs->speed_mbps);
	if (ifs->mtu >= 0)
		snprintf(buf, sizeof(buf), "%s/%lld", speed, (long long)ifs->mtu);
	else
		snprintf(buf, sizeof(buf), "%s/-", speed);
	lr_frame_text(f, x, y, l->link_w - 1, LR_ROLE_LABEL, buf);
	x += l->link_w;
	if (l->hotq_w) {
		hot_queue(f, x, y, l->hotq_w - 1, ifs);
		x += l->hotq_w;
	}
	if (l->state_w) {
		lr_frame_text(f, x, y, l->state_w - 1, down ? LR_ROLE_WARN : LR_ROLE_LABEL,
			      oper_name(ifs->operstate));
		x += l->state_w;
	}
	v = lr_ifrate_bps(ifs, false);
	x = col_num(f, x, y, 9, LR_ROLE_RX, v < 0 ? v : v / div);
	v = lr_ifrate_bps(ifs, true);
	x = col_num(f, x, y, 9, LR_ROLE_TX, v < 0 ? v : v / div);
	x = col_num(f, x, y, 7, LR_ROLE_RX, lr_ifrate_per_s(ifs, LR_M_RX_PACKETS));
	x = col_num(f, x, y, 7, LR_ROLE_TX, lr_ifrate_per_s(ifs, LR_M_TX_PACKETS));
	x = col_num(f, x, y, 7, LR_ROLE_ALERT, lr_ifrate_drops_per_s(ifs));
	x = col_num(f, x, y, 7, LR_ROLE_ALERT, lr_ifrate_fifo_per_s(ifs));
	if (l->err_w)
		x = col_num(f, x, y, l->err_w, LR_ROLE_ALERT,
			    lr_ifrate_sum_per_s(ifs, err_m, LR_ARRAY_SIZE(err_m)));
	v = lr_ifrate_line_pct(ifs);
	if (v >= 0)
		snprintf(buf, sizeof(buf), "%.1f", v);
	else
		snprintf(buf, sizeof(buf), "-");
	lr_frame_text_right(f, x, y, 6, v >= 0 ? LR_ROLE_VALUE : LR_ROLE_LABEL, buf);
	x += 6;
	if (ifs->softirq_cpu >= 0 && ifs->softirq_max_pct >= 0)
		snprintf(buf, sizeof(buf), "%.0f%% c%d", ifs->softirq_max_pct, ifs->softirq_cpu);
	else
		snprintf(buf, sizeof(buf), "-");
	lr_frame_text_right(f, x, y, l->softirq_w,
			    ifs->softirq_max_pct > 95	? LR_ROLE_ALERT
			    : ifs->softirq_max_pct > 50 ? LR_ROLE_WARN
							: LR_ROLE_LABEL,
			    buf);
	if (selected)
		lr_frame_set_role(f, (struct lr_rect){x0, y, w, 1}, LR_ROLE_SELECTED);
}

static double iface_bps(const struct lr_iface_snap *i)
{
	double b = 0;

	if (i->valid & LR_M_BIT(LR_M_RX_BYTES))
		b += i->per_s[LR_M_RX_BYTES];
	if (i->valid & LR_M_BIT(LR_M_TX_BYTES))
		b += i->per_s[LR_M_TX_BYTES];
	return b;
}

/* The hottest softirq CPU among those serving an interface that carries traffic (the
 * sampler's busiest serving CPU per interface; all CPUs when an interface's are unknown).
 * When two interfaces name the same CPU, the busier interface is the one named: an idle
 * eth0 sharing a CPU with lo at 4 Gbit/s is not what that CPU is doing. NULL when no
 * interface carries traffic. */
static const struct lr_iface_snap *hottest_carrier(const struct lr_snapshot *s)
{
	const struct lr_iface_snap *best = NULL;

	for (size_t i = 0; i < s->n_ifaces; i++) {
		const struct lr_iface_snap *c = &s->ifaces[i];

		if (iface_bps(c) <= 0 || c->softirq_cpu < 0 || c->softirq_max_pct < 0)
			continue;
		if (!best || (c->softirq_cpu == best->softirq_cpu
				      ? iface_bps(c) > iface_bps(best)
				      : c->softirq_max_pct > best->softirq_max_pct))
			best = c;
	}
	return best;
}

/* "hottest softirq: cpu2 99% (eth1)   tcp retrans 0/s   udp rcvbuf err 0/s" */
static void summary_line(struct lr_frame *f, struct lr_rect r, const struct lr_snapshot *s)
{
	const struct lr_iface_snap *hot = hottest_carrier(s);
	const struct lr_cpu_snap *idle_hot = NULL;
	const struct lr_stack_snap *st = &s->stack;
	char buf[96], n1[16];
	int x = r.x + 1, w = r.w - 2, at = 0;	/* a blank last column */

	for (size_t i = 0; i < s->n_cpus && !hot; i++) {	/* no traffic: the CPU, unnamed */
		const struct lr_cpu_snap *c = &s->cpus[i];

		if ((c->valid & LR_CPUV_TIMES) &&
		    (!idle_hot || c->softirq_pct > idle_hot->softirq_pct))
			idle_hot = c;
	}
	at += lr_frame_text(f, x, r.y, w, LR_ROLE_LABEL, "hottest softirq ");
	if (hot || idle_hot) {
		double pct = hot ? hot->softirq_max_pct : idle_hot->softirq_pct;

		if (hot)
			snprintf(buf, sizeof(buf), "cpu%d %.0f%% (%s)", hot->softirq_cpu, pct,
				 hot->name);
		else
			snprintf(buf, sizeof(buf), "cpu%d %.0f%%", idle_hot->cpu, pct);
		lr_view_field(f, x, r.y, &at, w,
			      pct > 95 ? LR_ROLE_ALERT : pct > 50 ? LR_ROLE_WARN : LR_ROLE_VALUE, buf);
	} else {
		lr_view_field(f, x, r.y, &at, w, LR_ROLE_LABEL, "-");
	}
	/* each counter whole or not at all: label and number together */
	at += 3;
	lr_view_fmt_num(n1, sizeof(n1),
			(st->valid & LR_STACKV_TCP_RETRANS) ? st->tcp_retrans_per_s : -1);
	snprintf(buf, sizeof(buf), "%s/s", n1);
	if (at + 12 + lr_utf8_width(buf) <= w) {
		lr_view_field(f, x, r.y, &at, w, LR_ROLE_LABEL, "tcp retrans ");
		lr_view_field(f, x, r.y, &at, w,
			      st->tcp_retrans_per_s > 0 ? LR_ROLE_WARN : LR_ROLE_VALUE, buf);
	}
	at += 3;
	lr_view_fmt_num(n1, sizeof(n1),
			(st->valid & LR_STACKV_UDP_RCVBUF) ? st->udp_rcvbuf_errors_per_s : -1);
	snprintf(buf, sizeof(buf), "%s/s", n1);
	if (at + 15 + lr_utf8_width(buf) <= w) {
		lr_view_field(f, x, r.y, &at, w, LR_ROLE_LABEL, "udp rcvbuf err ");
		lr_view_field(f, x, r.y, &at, w,
			      st->udp_rcvbuf_errors_per_s > 0 ? LR_ROLE_ALERT : LR_ROLE_VALUE, buf);
	}
	at += 3;
	lr_view_fmt_num(n1, sizeof(n1),
			(st->valid & LR_STACKV_UDP_IN_ERRORS) ? st->udp_in_errors_per_s : -1);
	snprintf(buf, sizeof(buf), "%s/s", n1);
	if (at + 11 + lr_utf8_width(buf) <= w) {
		lr_view_field(f, x, r.y, &at, w, LR_ROLE_LABEL, "udp in err ");
		lr_view_field(f, x, r.y, &at, w,
			      st->udp_in_errors_per_s > 0 ? LR_ROLE_ALERT : LR_ROLE_VALUE, buf);
	}
}

/* Interfaces whose history has moved: the ones given graph rows. */
static size_t n_moving(const struct lr_snapshot *s, size_t first, size_t n)
{
	size_t k = 0;

	for (size_t i = first; i < first + n && i < s->n_ifaces; i++)
		k += lr_view_series_max(&s->ifaces[i].hist[LR_SER_RX_BPS], LR_HIST_LEN) > 0 ||
		     lr_view_series_max(&s->ifaces[i].hist[LR_SER_TX_BPS], LR_HIST_LEN) > 0;
	return k;
}

/* One direction's history in r: its label and scale top in the first 7 columns, the graph
 * in the rest (the newest sample at the right). */
static void history(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		    const struct lr_iface_snap *ifs, bool tx)
{
	const struct lr_series *ser = &ifs->hist[tx ? LR_SER_TX_BPS : LR_SER_RX_BPS];
	int64_t line = lr_ifrate_line_mbps(ifs);
	double link = line > 0 ? (double)line * 1e6 : -1;
	int gw = r.w - 8;
	double top;
	char n[24];

	if (gw < 4)
		return;
	top = lr_view_scale_top(ctx->app->scale, lr_view_series_max(ser, (uint32_t)gw), link);
	lr_frame_text(f, r.x + 2, r.y, 2, LR_ROLE_LABEL, tx ? "tx" : "rx");
	lr_view_fmt_num(n, sizeof(n), ctx->app->bytes ? top / 8 : top);
	if (r.h >= 2)	/* the scale's top, under the label */
		lr_frame_text_right(f, r.x, r.y + r.h - 1, 6, LR_ROLE_LABEL, n);
	lr_view_graph_ctx(f, (struct lr_rect){r.x + 7, r.y, gw, r.h}, ser, top,
			  ctx->app->scale == LR_SCALE_LOG, 1000.0, ctx,
			  tx ? LR_ROLE_GRAPH_TX : LR_ROLE_GRAPH_RX);
}

/* Lines the peer's interfaces take under ours: a "peer HOST" line and up to 4 rows, never
 * more than a third of the pane. */
static int peer_rows(const struct lr_view_ctx *ctx, int h)
{
	int n;

	if (!ctx->peer || !ctx->peer->n_ifaces)
		return 0;
	n = 1 + (ctx->peer->n_ifaces < 4 ? (int)ctx->peer->n_ifaces : 4);
	return n <= h / 3 ? n : (h / 3 >= 2 ? h / 3 : 0);
}

/* The peer's test interfaces, same columns and units as ours, under a line naming the host.
 * Returns the next free y. */
static int peer_table(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		      const struct ov_layout *l)
{
	size_t room = r.h > 1 ? (size_t)(r.h - 1) : 0, n, shown;
	int y = r.y;

	if (r.h < 2 || !ctx->peer)
		return y;
	n = ctx->peer->n_ifaces;
	shown = n <= room ? n : room - 1;
	if (ctx->peer_stale_s > 0)	/* its rates are unknown ("-"), never its last ones */
		lr_frame_printf(f, r.x + 1, y, r.w - 1, LR_ROLE_ALERT,
				"on %s (peer): stale, nothing from it for %.0f s",
				ctx->peer_host && ctx->peer_host[0] ? ctx->peer_host : "peer",
				ctx->peer_stale_s);
	else
		lr_frame_printf(f, r.x + 1, y, r.w - 1, LR_ROLE_TITLE, "on %s (peer)",
				ctx->peer_host && ctx->peer_host[0] ? ctx->peer_host : "peer");
	lr_frame_text_right(f, r.x, y++, r.w - 1, LR_ROLE_LABEL, "P: its detail view");
	/* more interfaces than rows: the last row says how many are not shown */
	for (size_t i = 0; i < shown; i++)
		iface_row(f, r.x, y++, r.w, l, &ctx->peer->ifaces[i], false, ctx->app->bytes);
	if (shown < n)
		lr_frame_printf(f, r.x + 1, y++, r.w - 2, LR_ROLE_LABEL, "  +%zu more on the peer",
				n - shown);
	return y;
}

void lr_view_overview(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx)
{
	const struct lr_snapshot *s = ctx->snap;
	struct ov_layout l;
	int rows, first = 0, y, graph_rows = 0;
	bool more;
	size_t n;

	if (r.h < 4)
		return;
	title_line(f, r, ctx);
	layout_cols(&l, r.w, any_queues(s) || any_queues(ctx->peer));
	header_row(f, r.x, r.y + 1, &l, ctx->app->bytes);
	if (!s) {
		lr_frame_text(f, r.x + 2, r.y + 3, r.w - 2, LR_ROLE_LABEL,
			      "waiting for the first sample...");
		return;
	}
	n = s->n_ifaces;
	/* the table may take all but the title, header and summary lines; with more interfaces
	 * than that, its last row says how many are out of view and the cursor scrolls */
	rows = r.h - 3 - peer_rows(ctx, r.h);
	more = (int)n > rows;
	if (!more)
		rows = (int)n;
	else
		rows--;
	if ((int)ctx->app->sel >= rows)
		first = (int)ctx->app->sel - rows + 1;
	/* room to spare: each interface that moved gets graph rows of its rx and tx history
	 * (issue 17; an idle one's would be blank rows), up to 2 below 30 rows and half the
	 * screen above, leaving the CPU pane at least a third: its bars, then each CPU's
	 * history (issue 28: a 2-CPU host left half a 132x43 screen blank) */
	if (!more && n) {
		int cpu_want = (int)s->n_cpus + 3 < (r.h - 3) / 3 ? (int)s->n_cpus + 3 : (r.h - 3) / 3;
		int spare = r.h - 3 - peer_rows(ctx, r.h) - rows - 1 - cpu_want;
		size_t mv = n_moving(s, 0, n);
		int cap = r.h < 30 ? 2 : (r.h - 3) / 2;	/* more rows as the screen grows */

		graph_rows = mv && spare > 0 ? spare / (int)mv : 0;
		graph_rows = graph_rows > cap ? cap : graph_rows;
	}
	y = r.y + 2;
	for (int i = 0; i < rows && (size_t)(first + i) < n; i++) {
		const struct lr_iface_snap *ifs = &s->ifaces[first + i];

		iface_row(f, r.x, y, r.w, &l, ifs, (size_t)(first + i) == ctx->app->sel,
			  ctx->app->bytes);
		lr_view_numa_flag(f, r.x + 1, y++, l.name_w - 1, s, ifs);
		if (graph_rows && n_moving(s, (size_t)(first + i), 1)) {
			int half = (r.w - 1) / 2;

			history(f, (struct lr_rect){r.x, y, half, graph_rows}, ctx, ifs, false);
			history(f, (struct lr_rect){r.x + half, y, r.w - half - 1, graph_rows}, ctx,
				ifs, true);
			y += graph_rows;
		}
	}
	if (more)
		lr_frame_printf(f, r.x + 1, y++, r.w - 1, LR_ROLE_LABEL,
				"  %d more above, %d below (up/down scroll)", first,
				(int)n - first - rows);
	if (n == 0)
		lr_frame_text(f, r.x + 2, y++, r.w - 2, LR_ROLE_LABEL, "no interfaces");
	y = peer_table(f, (struct lr_rect){r.x, y, r.w, peer_rows(ctx, r.h)}, ctx, &l);
	summary_line(f, (struct lr_rect){r.x, y, r.w, 1}, s);
	y += 2;
	if (r.y + r.h - y >= 4)
		lr_view_cpu(f, (struct lr_rect){r.x, y, r.w, r.y + r.h - y}, ctx, NULL);
}
