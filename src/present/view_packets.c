// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Packets pane: rx and tx packets per second with the average packet size, a graph each,
 * avg/peak and totals, and the 64-byte line rate of the link for scale (the pps a NIC must
 * sustain for minimum frames). On software links (veth, loopback, bridge, tun...) the kernel
 * counts skbs, and a GSO super-packet of ~64 KB is one: the pane says so instead of a line
 * rate. Main thread; pure drawing.
 */
#include <stdio.h>

#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"

#define MIN_FRAME_WIRE_BYTES 84.0	/* 64-byte frame + preamble, SFD, inter-frame gap */
#define LOG_FLOOR_PPS 1.0

static double link_pps(const struct lr_iface_snap *ifs)
{
	int64_t line = lr_ifrate_line_mbps(ifs);

	return line > 0 ? (double)line * 1e6 / (MIN_FRAME_WIRE_BYTES * 8) : -1;
}

/* Do this interface's packet counters count skbs rather than wire frames? Software links
 * (the links whose speed is nominal: lr_ifrate_nominal_why); any link whose average packet is
 * far larger than a frame. */
static bool counts_skbs(const struct lr_iface_snap *ifs)
{
	double mtu = ifs->mtu > 0 ? (double)ifs->mtu : -1;

	if (lr_ifrate_nominal_why(ifs->name, ifs->kind, ifs->driver))
		return true;
	for (int tx = 0; tx < 2 && mtu > 0; tx++) {
		double pps = lr_ifrate_per_s(ifs, tx ? LR_M_TX_PACKETS : LR_M_RX_PACKETS);
		double bytes = lr_ifrate_per_s(ifs, tx ? LR_M_TX_BYTES : LR_M_RX_BYTES);

		/* twice the MTU: no frame is that large, a GSO/GRO aggregate is (24817 B at
		 * MTU 1500 was seen on a veth) */
		if (pps > 0 && bytes / pps > 2 * mtu)
			return true;
	}
	return false;
}

/* "rx 531.2k p/s  avg 9014 B" */
static void cur_line(struct lr_frame *f, int x, int y, int w, const struct lr_view_ctx *ctx,
		     const struct lr_iface_snap *ifs, bool tx, double top)
{
	double pps = lr_ifrate_per_s(ifs, tx ? LR_M_TX_PACKETS : LR_M_RX_PACKETS);
	double bytes = lr_ifrate_per_s(ifs, tx ? LR_M_TX_BYTES : LR_M_RX_BYTES);
	char n[24], avg[24], sc[32];
	int k;

	lr_view_fmt_num(n, sizeof(n), pps);
	if (pps > 0 && bytes >= 0)
		snprintf(avg, sizeof(avg), "%.0f B", bytes / pps);
	else
		snprintf(avg, sizeof(avg), "-");
	k = 0;
	lr_view_field(f, x, y, &k, w, LR_ROLE_LABEL, tx ? "tx " : "rx ");
	lr_view_field(f, x, y, &k, w, tx ? LR_ROLE_TX : LR_ROLE_RX, n);
	lr_view_field(f, x, y, &k, w, LR_ROLE_LABEL, pps >= 0 ? " p/s" : "");
	k = k < 13 ? 13 : k;
	if (k + 11 + lr_utf8_width(avg) <= w) {	/* label and number together */
		lr_view_field(f, x, y, &k, w, LR_ROLE_LABEL, "  avg size ");
		lr_view_field(f, x, y, &k, w, LR_ROLE_VALUE, avg);
	}
	lr_view_fmt_num(n, sizeof(n), top);
	snprintf(sc, sizeof(sc), "%s %s", lr_scale_name(ctx->app->scale), n);
	if (w - k >= lr_utf8_width(sc) + 3)
		lr_frame_text_right(f, x, y, w, LR_ROLE_LABEL, sc);
}

static void stats_line(struct lr_frame *f, int x, int y, int w, const struct lr_peak *pk,
		       const struct lr_iface_snap *ifs, enum lr_metric m)
{
	char avg[24], peak[24], tot[24], field[48];
	int at = 3;

	lr_view_fmt_num(avg, sizeof(avg), pk->n ? pk->sum / (double)pk->n : -1);
	lr_view_fmt_num(peak, sizeof(peak), pk->n ? pk->max : -1);
	lr_view_fmt_num(tot, sizeof(tot),
			(ifs->total_valid & LR_M_BIT(m)) ? (double)ifs->total[m] : -1);
	snprintf(field, sizeof(field), "avg %s", avg);	/* each field whole or left out */
	lr_view_field(f, x, y, &at, w, LR_ROLE_LABEL, field);
	snprintf(field, sizeof(field), "  peak %s", peak);
	lr_view_field(f, x, y, &at, w, LR_ROLE_LABEL, field);
	snprintf(field, sizeof(field), "  total %s", tot);
	lr_view_field(f, x, y, &at, w, LR_ROLE_LABEL, field);
}

void lr_view_packets(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		     const struct lr_iface_snap *ifs)
{
	int h = r.h - 1, gh, x = r.x + 1, w = r.w - 2, y = r.y + 1;	/* a blank last column */
	bool stats = h >= 7, log_scale = ctx->app->scale == LR_SCALE_LOG;
	const struct lr_series *srx = &ifs->hist[LR_SER_RX_PPS], *stx = &ifs->hist[LR_SER_TX_PPS];
	double lp = link_pps(ifs), top_rx, top_tx;
	char n[24], line[64];
	bool skbs = counts_skbs(ifs);

	lr_view_pane_title(f, r, "Packets", ctx->ascii);
	if (skbs)
		lr_frame_text_right(f, r.x, r.y, r.w - 1, LR_ROLE_WARN, " skbs, not frames ");
	if (h < 5)
		return;
	gh = (h - 3 - (stats ? 2 : 0)) / 2;
	if (gh < 1)
		gh = 1;
	/* pps autoscale may go below 1000: packets are counted one by one */
	top_rx = lr_view_scale_top(ctx->app->scale, lr_view_series_max(srx, (uint32_t)w), lp);
	top_tx = lr_view_scale_top(ctx->app->scale, lr_view_series_max(stx, (uint32_t)w), lp);

	cur_line(f, x, y++, w, ctx, ifs, false, top_rx);
	lr_view_graph_ctx(f, (struct lr_rect){x, y, w, gh}, srx, top_rx, log_scale,
			  LOG_FLOOR_PPS, ctx,
			  LR_ROLE_GRAPH_RX);
	y += gh;
	if (stats)
		stats_line(f, x, y++, w, &ifs->peak_rx_pps, ifs, LR_M_RX_PACKETS);
	cur_line(f, x, y++, w, ctx, ifs, true, top_tx);
	lr_view_graph_ctx(f, (struct lr_rect){x, y, w, gh}, stx, top_tx, log_scale,
			  LOG_FLOOR_PPS, ctx,
			  LR_ROLE_GRAPH_TX);
	y += gh;
	if (stats)
		stats_line(f, x, y++, w, &ifs->peak_tx_pps, ifs, LR_M_TX_PACKETS);
	if (skbs) {
		lr_view_text_words(f, x, r.y + r.h - 1, w, LR_ROLE_LABEL,
				   "skbs: a GSO super-packet counts once", ctx->ascii);
		return;
	}
	lr_view_fmt_num(n, sizeof(n), lp);
	snprintf(line, sizeof(line), "64-byte line rate %s p/s", n);
	lr_view_text_words(f, x, r.y + r.h - 1, w, LR_ROLE_LABEL, line, ctx->ascii);
}
