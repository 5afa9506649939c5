// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Bitrate pane: rx and tx rate with % of link and total, a graph each (auto, link-speed or
 * log scale), avg/min/max/peak, wire utilisation and the goodput ceiling at this MTU, so 9.41
 * Gbit/s at MTU 1500 on 10G reads as the ceiling, not a fault. Every figure of the link speed
 * is of its line rate (lr_ifrate_line_mbps): a veth's nominal 10G gets none. Main thread; pure
 * drawing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"

#define LOG_FLOOR_BPS 1000.0	/* log scale starts at 1 kbit/s */

/* Compact rate for stats lines, in the unit of the line above: "37.9G" (bits/s) or "4.74G"
 * (bytes/s). */
static void fmt_short(char *buf, size_t len, double bps, bool bytes)
{
	lr_view_fmt_num(buf, len, bps >= 0 && bytes ? bps / 8 : bps);
}

static double scale_top(const struct lr_view_ctx *ctx, const struct lr_iface_snap *ifs,
			const struct lr_series *ser, int w)
{
	int64_t line = lr_ifrate_line_mbps(ifs);
	double link = line > 0 ? (double)line * 1e6 : -1;

	return lr_view_scale_top(ctx->app->scale, lr_view_series_max(ser, (uint32_t)w), link);
}

static void scale_label(char *buf, size_t len, const struct lr_view_ctx *ctx, double top)
{
	char n[24];

	fmt_short(n, sizeof(n), top, ctx->app->bytes);
	snprintf(buf, len, "%s %s", lr_scale_name(ctx->app->scale), n);
}

/* "rx 38.41 Gb/s  96.0% link  212.4 GB" then the scale, right-aligned. */
static void cur_line(struct lr_frame *f, int x, int y, int w, const struct lr_view_ctx *ctx,
		     const struct lr_iface_snap *ifs, bool tx, double top)
{
	enum lr_metric mb = tx ? LR_M_TX_BYTES : LR_M_RX_BYTES;
	double bps = lr_ifrate_bps(ifs, tx);
	int64_t line = lr_ifrate_line_mbps(ifs);
	char rate[32], pct[16], tot[24], sc[32], buf[48];
	int n = 0;

	lr_view_fmt_rate(rate, sizeof(rate), bps, ctx->app->bytes);
	if (bps >= 0 && line > 0)
		snprintf(pct, sizeof(pct), "%.1f%%", bps * 100 / ((double)line * 1e6));
	else
		snprintf(pct, sizeof(pct), "-");
	lr_view_fmt_bytes(tot, sizeof(tot),
			  (ifs->total_valid & LR_M_BIT(mb)) ? (double)ifs->total[mb] : -1);
	lr_view_field(f, x, y, &n, w, LR_ROLE_LABEL, tx ? "tx " : "rx ");
	snprintf(buf, sizeof(buf), "%-10s", rate);
	lr_view_field(f, x, y, &n, w, tx ? LR_ROLE_TX : LR_ROLE_RX, buf);
	snprintf(buf, sizeof(buf), " %6s", pct);
	lr_view_field(f, x, y, &n, w, LR_ROLE_VALUE, buf);
	if (lr_view_field(f, x, y, &n, w, LR_ROLE_LABEL, w >= 56 ? " of link   total " : " link  "))
		lr_view_field(f, x, y, &n, w, LR_ROLE_VALUE, tot);
	scale_label(sc, sizeof(sc), ctx, top);
	if (w - n >= lr_utf8_width(sc) + 3)
		lr_frame_text_right(f, x, y, w, LR_ROLE_LABEL, sc);
}

/* "avg 37.9G  min 12.1G  peak 38.6G", all since start or the last reset (peak: the highest
 * per-second rate, the same word and meaning as the overview's). A field that does not fit
 * whole is left out, never cut. */
static void stats_line(struct lr_frame *f, int x, int y, int w, const struct lr_view_ctx *ctx,
		       const struct lr_peak *pk)
{
	bool bytes = ctx->app->bytes;
	const char *label[] = {"avg", "min", "peak"};
	char val[3][24];
	int at = 3;

	fmt_short(val[0], sizeof(val[0]), pk->n ? pk->sum / (double)pk->n : -1, bytes);
	fmt_short(val[1], sizeof(val[1]), pk->n ? pk->min : -1, bytes);
	fmt_short(val[2], sizeof(val[2]), pk->n ? pk->max : -1, bytes);
	for (int i = 0; i < 3; i++) {
		char field[40];
		int n = snprintf(field, sizeof(field), "%s %s", label[i], val[i]);

		if (at + n > w)
			break;
		lr_frame_text(f, x + at, y, n, LR_ROLE_LABEL, field);
		at += n + 2;
	}
}

/* "wire 97.2%/0.6%  tcp ceiling 39.6G @9000"; on a link whose speed is nominal (veth...)
 * "wire -/-  ceiling -  nominal: veth": no figure of a speed it does not have */
static void ceiling_line(struct lr_frame *f, int x, int y, int w, const struct lr_view_ctx *ctx,
			 const struct lr_iface_snap *ifs)
{
	const char *nominal = lr_ifrate_nominal_why(ifs->name, ifs->kind, ifs->driver);
	double wrx = lr_ifrate_wire_pct(ifs, false), wtx = lr_ifrate_wire_pct(ifs, true);
	double tcp = lr_ifrate_ceiling_bps(lr_ifrate_line_mbps(ifs), ifs->mtu, false);
	double udp = lr_ifrate_ceiling_bps(lr_ifrate_line_mbps(ifs), ifs->mtu, true);
	double rx = lr_ifrate_bps(ifs, false), tx = lr_ifrate_bps(ifs, true);
	char a[16], b[16], t[24], u[24], buf[80];
	const char *label;
	int n = 0;

	snprintf(a, sizeof(a), wrx >= 0 ? "%.1f%%" : "-", wrx);
	snprintf(b, sizeof(b), wtx >= 0 ? "%.1f%%" : "-", wtx);
	lr_view_field(f, x, y, &n, w, LR_ROLE_LABEL, "wire ");
	snprintf(buf, sizeof(buf), "%s/%s", a, b);
	lr_view_field(f, x, y, &n, w, LR_ROLE_VALUE, buf);
	if (tcp < 0) {
		lr_view_field(f, x, y, &n, w, LR_ROLE_LABEL, "  ceiling -");
		if (nominal && ifs->speed_mbps > 0) {
			snprintf(buf, sizeof(buf), "  nominal: %s", nominal);
			lr_view_field(f, x, y, &n, w, LR_ROLE_LABEL, buf);
		}
		return;
	}
	fmt_short(t, sizeof(t), tcp, ctx->app->bytes);
	fmt_short(u, sizeof(u), udp, ctx->app->bytes);
	/* label and number go together or not at all */
	label = w >= 56 ? "  goodput ceiling tcp " : "  ceil tcp ";
	if (n + lr_utf8_width(label) + lr_utf8_width(t) > w)
		return;
	lr_view_field(f, x, y, &n, w, LR_ROLE_LABEL, label);
	/* at 97% of the TCP ceiling the link is full: say so in green */
	lr_view_field(f, x, y, &n, w,
		      (rx > tcp * 0.97 || tx > tcp * 0.97) ? LR_ROLE_OK : LR_ROLE_VALUE, t);
	if (w >= 56 && n + 5 + lr_utf8_width(u) <= w) {
		lr_view_field(f, x, y, &n, w, LR_ROLE_LABEL, " udp ");
		lr_view_field(f, x, y, &n, w, LR_ROLE_VALUE, u);
	}
	snprintf(buf, sizeof(buf), " @%lld", (long long)ifs->mtu);
	lr_view_field(f, x, y, &n, w, LR_ROLE_LABEL, buf);
}

void lr_view_bitrate(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		     const struct lr_iface_snap *ifs)
{
	int h = r.h - 1, gh, x = r.x + 1, w = r.w - 2, y = r.y + 1;	/* a blank last column */
	bool stats = h >= 7;
	bool log_scale = ctx->app->scale == LR_SCALE_LOG;
	const struct lr_series *srx = &ifs->hist[LR_SER_RX_BPS], *stx = &ifs->hist[LR_SER_TX_BPS];
	double top_rx, top_tx;

	lr_view_pane_title(f, r, "Bitrate", ctx->ascii);
	if (h < 5)
		return;
	gh = (h - 3 - (stats ? 2 : 0)) / 2;
	if (gh < 1)
		gh = 1;
	top_rx = scale_top(ctx, ifs, srx, w);
	top_tx = scale_top(ctx, ifs, stx, w);

	cur_line(f, x, y++, w, ctx, ifs, false, top_rx);
	lr_view_graph_ctx(f, (struct lr_rect){x, y, w, gh}, srx, top_rx, log_scale,
			  LOG_FLOOR_BPS, ctx,
			  LR_ROLE_GRAPH_RX);
	y += gh;
	if (stats)
		stats_line(f, x, y++, w, ctx, &ifs->peak_rx_bps);
	cur_line(f, x, y++, w, ctx, ifs, true, top_tx);
	lr_view_graph_ctx(f, (struct lr_rect){x, y, w, gh}, stx, top_tx, log_scale,
			  LOG_FLOOR_BPS, ctx,
			  LR_ROLE_GRAPH_TX);
	y += gh;
	if (stats)
		stats_line(f, x, y++, w, ctx, &ifs->peak_tx_bps);
	ceiling_line(f, x, r.y + r.h - 1, w, ctx, ifs);
}
