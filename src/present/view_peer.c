// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The peer view's own drawing (docs/wire.md (part 2), docs/design.md §10): which of the peer's
 * interfaces the detail view shows, the one line that keeps the peer in sight in our detail
 * view (host, interface, rates, drops, FIFO, hottest softirq CPU: at 80x24 without a key), and
 * the line that stands for the tuning line on the peer's side. Main thread; pure drawing.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"

#define NAME_W 22 /* "host:iface" in the peer line */

static double iface_bytes_per_s(const struct lr_iface_snap *i)
{
	double b = 0;

	if (i->valid & LR_M_BIT(LR_M_RX_BYTES))
		b += i->per_s[LR_M_RX_BYTES];
	if (i->valid & LR_M_BIT(LR_M_TX_BYTES))
		b += i->per_s[LR_M_TX_BYTES];
	return b;
}

const struct lr_iface_snap *lr_view_peer_iface(const struct lr_view_ctx *ctx)
{
	const struct lr_snapshot *p = ctx->peer;
	size_t best = 0;
	int n, k;

	if (!p || !p->n_ifaces)
		return NULL;
	for (size_t i = 1; i < p->n_ifaces; i++)
		if (iface_bytes_per_s(&p->ifaces[i]) > iface_bytes_per_s(&p->ifaces[best]))
			best = i;
	n = (int)p->n_ifaces;
	k = ((int)best + ctx->app->peer_sel % n + n) % n;
	return &p->ifaces[k];
}

/* Writes s at x when it fits before end; returns the new x (one blank after). */
static int put(struct lr_frame *f, int x, int y, int end, enum lr_role role, const char *s)
{
	if (x + lr_utf8_width(s) > end)
		return x;
	return x + lr_frame_text(f, x, y, end - x, role, s) + 1;
}

static void num(char *buf, size_t len, double v)
{
	lr_view_fmt_num(buf, len, v);
}

void lr_view_peer_line(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx)
{
	const struct lr_iface_snap *pi = lr_view_peer_iface(ctx);
	const char *host = ctx->peer_host && ctx->peer_host[0] ? ctx->peer_host : "peer";
	bool bytes = ctx->app->bytes;
	double rx, tx, drops, fifo, div = bytes ? 8 : 1;
	int x = r.x + 1, y = r.y, end = r.x + r.w - 1;	/* a blank last column */
	char buf[64], a[16], b[16];

	if (!pi || r.h < 1)
		return;
	lr_frame_fill(f, (struct lr_rect){r.x, r.y, r.w, 1}, ' ', LR_ROLE_NONE);
	/* "peerhost:eth1" in at most NAME_W columns: a long host name gives way to the
	 * interface's (marked '~'), never the other way round */
	{
		int iw = lr_utf8_width(pi->name), hw = lr_utf8_width(host);

		if (hw + 1 + iw <= NAME_W || iw + 3 > NAME_W)
			snprintf(buf, sizeof(buf), "%s:%s", host, pi->name);
		else
			snprintf(buf, sizeof(buf), "%.*s~:%s", NAME_W - iw - 2, host, pi->name);
		x += lr_frame_text(f, x, y, NAME_W, LR_ROLE_TITLE, buf) + 1;
	}
	if (ctx->peer_stale_s > 0)
		x = put(f, x, y, end, LR_ROLE_ALERT,
			(snprintf(buf, sizeof(buf), "stale %.0fs", ctx->peer_stale_s), buf));
	rx = lr_ifrate_bps(pi, false);
	tx = lr_ifrate_bps(pi, true);
	num(a, sizeof(a), rx < 0 ? rx : rx / div);
	num(b, sizeof(b), tx < 0 ? tx : tx / div);
	x = put(f, x, y, end, LR_ROLE_RX, (snprintf(buf, sizeof(buf), "rx %s", a), buf));
	x = put(f, x, y, end, LR_ROLE_TX, (snprintf(buf, sizeof(buf), "tx %s", b), buf));
	x = put(f, x, y, end, LR_ROLE_LABEL, bytes ? "B/s " : "bit/s ");
	drops = lr_ifrate_drops_per_s(pi);
	fifo = lr_ifrate_fifo_per_s(pi);
	num(a, sizeof(a), drops);
	num(b, sizeof(b), fifo);
	x = put(f, x, y, end, drops > 0 ? LR_ROLE_ALERT : LR_ROLE_VALUE,
		(snprintf(buf, sizeof(buf), "drop %s", a), buf));
	x = put(f, x, y, end, fifo > 0 ? LR_ROLE_ALERT : LR_ROLE_VALUE,
		(snprintf(buf, sizeof(buf), "fifo %s", b), buf));
	x = put(f, x, y, end, LR_ROLE_LABEL, "/s ");
	if (pi->softirq_cpu >= 0 && pi->softirq_max_pct >= 0)
		snprintf(buf, sizeof(buf), "softirq %.0f%% c%d", pi->softirq_max_pct,
			 pi->softirq_cpu);
	else
		snprintf(buf, sizeof(buf), "softirq -");
	x = put(f, x, y, end,
		pi->softirq_max_pct > 95   ? LR_ROLE_ALERT
		: pi->softirq_max_pct > 50 ? LR_ROLE_WARN
					   : LR_ROLE_VALUE,
		buf);
	put(f, x + 1, y, end, LR_ROLE_LABEL, "P: its detail");
}

void lr_view_peer_stack_line(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx)
{
	const struct lr_stack_snap *st = &ctx->snap->stack;
	int x = r.x + 1, y = r.y, end = r.x + r.w - 1;	/* a blank last column */
	char buf[96], n[16];

	x = put(f, x, y, end, LR_ROLE_WARN, "peer's stack") + 1;
	num(n, sizeof(n), (st->valid & LR_STACKV_TCP_RETRANS) ? st->tcp_retrans_per_s : -1);
	snprintf(buf, sizeof(buf), "tcp retrans %s/s", n);
	x = put(f, x, y, end, st->tcp_retrans_per_s > 0 ? LR_ROLE_WARN : LR_ROLE_LABEL, buf) + 1;
	num(n, sizeof(n), (st->valid & LR_STACKV_UDP_RCVBUF) ? st->udp_rcvbuf_errors_per_s : -1);
	snprintf(buf, sizeof(buf), "udp rcvbuf err %s/s", n);
	x = put(f, x, y, end, st->udp_rcvbuf_errors_per_s > 0 ? LR_ROLE_ALERT : LR_ROLE_LABEL,
		buf) +
	    1;
	/* its rows cover its own interval, not ours */
	snprintf(buf, sizeof(buf), "every %.2g s", (double)ctx->snap->interval_ns / 1e9);
	x = put(f, x, y, end, LR_ROLE_LABEL, buf) + 1;
	put(f, x, y, end, LR_ROLE_LABEL, "P: ours");
}
