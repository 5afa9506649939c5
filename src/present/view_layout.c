// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Screen layout: the "too small" message below 70x20, the overview, or the detail view (link
 * and tuning lines, Bitrate | Packets over Drops & FIFO | CPU, a Queues band when there is
 * room (else Q puts Queues in place of Packets), an optional Streams band, hints), then the status line and the help overlay. Main thread; pure drawing.
 */
#include <stdio.h>

#include "linerate/sample/snapshot.h"
#include "linerate/diagnose/hints.h"
#include "linerate/present/view.h"

#define MAX_HINTS 3
#define STREAMS_BAND_ROWS 8
#define QUEUES_BAND_ROWS 8	/* title, header, 6 queues (or 5 and "+N more") */
#define PANES_MIN_ROWS 20	/* the four panes keep 10 rows each before Queues gets its own */

static void too_small(struct lr_frame *f)
{
	char buf[64];
	int y = f->h / 2 - 1;

	snprintf(buf, sizeof(buf), "terminal too small (need %dx%d)", LR_VIEW_MIN_W,
		 LR_VIEW_MIN_H);
	lr_frame_text(f, (f->w - lr_utf8_width(buf)) / 2 > 0 ? (f->w - lr_utf8_width(buf)) / 2 : 0,
		      y < 0 ? 0 : y, -1, LR_ROLE_ALERT, buf);
	snprintf(buf, sizeof(buf), "now %dx%d - q quits", f->w, f->h);
	lr_frame_text(f, (f->w - lr_utf8_width(buf)) / 2 > 0 ? (f->w - lr_utf8_width(buf)) / 2 : 0,
		      y + 1 < 0 ? 0 : y + 1, -1, LR_ROLE_LABEL, buf);
}

/* A peer that shares its sysctls (docs/wire.md §P4.1; an older one sends none). */
static bool tuning_known(const struct lr_tuning_snap *t)
{
	return t->rmem_max >= 0 || t->wmem_max >= 0 || t->tcp_rmem[2] >= 0 ||
	       t->tcp_congestion[0] || t->netdev_max_backlog >= 0;
}

/* First where the running test's packets go (its ledger's newest interval: the verdict's own
 * stages), then the snapshot's advice for ifs. */
static size_t all_hints(const struct lr_view_ctx *ctx, const struct lr_iface_snap *ifs,
			char (*hints)[LR_HINT_MAX], size_t max)
{
	size_t n = 0;

	if (!ctx->peer_detail && ctx->loss && ctx->loss->interval)
		n = lr_hints_ledger(ctx->loss->interval, ctx->loss->interval_s, hints, max);
	if (!ctx->peer_detail && ctx->loss && ctx->loss->rev_interval)	/* --bidir's down */
		n += lr_hints_ledger(ctx->loss->rev_interval, ctx->loss->rev_interval_s, hints + n,
				     max - n);
	return n + lr_hints_live(ctx->snap, ifs, hints + n, max - n);
}

/* The detail view of ifs: ours, or the peer's when ctx->peer_detail (ctx->snap its own);
 * own is our context (the Streams pane is this process's test on either side). */
static void detail(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		   const struct lr_view_ctx *own, const struct lr_iface_snap *ifs)
{
	char hints[MAX_HINTS][LR_HINT_MAX];
	size_t max_hints = r.h >= 40 ? 3 : r.h >= 30 ? 2 : 1;
	size_t nh = all_hints(ctx, ifs, hints, max_hints);
	size_t ns = own->snap ? own->snap->n_streams : 0;
	/* traffic: a full Streams pane from 30 rows; below, title, header, the sum row and up
	 * to 2 streams (1 in the reduced layout), the pane's "+N more" saying what is hidden */
	int band = !ctx->streams_pane ? 0
		   : r.h >= 30	      ? 3 + (int)(ns < 1 ? 1 : ns < STREAMS_BAND_ROWS - 3 ? ns
									    : STREAMS_BAND_ROWS - 3)
				      : 3 + (int)(ns < (r.h >= 23 ? 2u : 1u) ? ns : r.h >= 23 ? 2 : 1);
	band += band ? ctx->streams_extra_rows : 0;	/* the latency line */
	/* the peer in sight on our side: one line of its interface under the panes */
	int pl = !ctx->peer_detail && lr_view_peer_iface(ctx) ? 1 : 0;
	/* the reduced layout (below 80x24: a tmux status line, 70x20): no tuning line */
	int hl = r.h >= 23 ? 2 : 1;
	/* the peer's side: its tuning line as ours, its stack line under the panes */
	int sl = hl == 2 && ctx->peer_detail && tuning_known(&ctx->snap->tuning) ? 1 : 0;
	int ph = r.h - hl - (int)nh - band - pl - sl, top, ltop, lw = (r.w - 1) / 2;
	int y = r.y + hl;
	/* Queues: its own band when the panes keep their rows, else in place of Packets (Q); folded
	 * away while no queue has a known counter (issue 28: 7 rows saying "unknown") */
	struct lr_view_queue_stats qst;
	bool qknown = lr_view_queue_stats(ifs, &qst);
	int qband = (qknown || ctx->app->queues) && ph - QUEUES_BAND_ROWS >= PANES_MIN_ROWS
			    ? QUEUES_BAND_ROWS
			    : 0;

	ph -= qband;
	top = ph / 2;
	/* the left column: Drops & FIFO takes the rows it has lines for (never more than the
	 * CPU pane beside it), Bitrate's graphs grow into the rest (issue 17) */
	ltop = ph - lr_view_drops_rows(ifs) - 1;
	ltop = ltop < top ? top : ltop;

	lr_view_link_line(f, (struct lr_rect){r.x, r.y, r.w, 1}, ctx, ifs);
	if (hl == 2 && ctx->peer_detail && !sl)
		lr_view_peer_stack_line(f, (struct lr_rect){r.x, r.y + 1, r.w, 1}, ctx);
	else if (hl == 2)
		lr_view_tuning_line(f, (struct lr_rect){r.x, r.y + 1, r.w, 1}, ctx, ifs);

	lr_view_bitrate(f, (struct lr_rect){r.x, y, lw, ltop}, ctx, ifs);
	if (ctx->app->queues && !qband)
		lr_view_queues(f, (struct lr_rect){r.x + lw + 1, y, r.w - lw - 1, top}, ctx, ifs);
	else
		lr_view_packets(f, (struct lr_rect){r.x + lw + 1, y, r.w - lw - 1, top}, ctx, ifs);
	lr_view_drops(f, (struct lr_rect){r.x, y + ltop, lw, ph - ltop}, ctx, ifs);
	lr_view_cpu(f, (struct lr_rect){r.x + lw + 1, y + top, r.w - lw - 1, ph - top}, ctx, ifs);
	lr_view_vline(f, r.x + lw, y, ph, ctx->ascii);
	lr_frame_put(f, r.x + lw, y, ctx->ascii ? '+' : 0x252c, LR_ROLE_BORDER);	/* ┬ */
	/* where the two columns' lower panes start: ┼ when level, else ├ and ┤ */
	lr_frame_put(f, r.x + lw, y + top, ctx->ascii ? '+' : ltop == top ? 0x253c : 0x251c,
		     LR_ROLE_BORDER);
	if (ltop != top)
		lr_frame_put(f, r.x + lw, y + ltop, ctx->ascii ? '+' : 0x2524, LR_ROLE_BORDER);
	y += ph;
	if (qband) {
		lr_view_queues(f, (struct lr_rect){r.x, y, r.w, qband}, ctx, ifs);
		y += qband;
	}
	if (pl)
		lr_view_peer_line(f, (struct lr_rect){r.x, y++, r.w, 1}, ctx);
	if (sl)
		lr_view_peer_stack_line(f, (struct lr_rect){r.x, y++, r.w, 1}, ctx);
	if (band) {
		ctx->streams_pane(f, (struct lr_rect){r.x, y, r.w, band}, own, ctx->streams_arg);
		y += band;
	}
	for (size_t i = 0; i < nh; i++, y++) {
		int n = lr_frame_text(f, r.x + 1, y, -1, LR_ROLE_WARN, "hint");
		char on[LR_HINT_MAX + 80];

		/* the peer's hints say where: "on peerhost: rx ring 512 of 4096: ..." */
		snprintf(on, sizeof(on), "%s%s%s%s", ctx->peer_detail ? "on " : "",
			 ctx->peer_detail ? (ctx->peer_host && ctx->peer_host[0] ? ctx->peer_host
										 : "the peer")
					  : "",
			 ctx->peer_detail ? ": " : "", hints[i]);
		lr_view_text_words(f, r.x + 3 + n, y, r.w - 4 - n, LR_ROLE_WARN, on, ctx->ascii);
	}
}

/* The peer's detail view (P): the same panes over its snapshot; false when it has none. */
static bool peer_detail(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx)
{
	const struct lr_iface_snap *pi = lr_view_peer_iface(ctx);
	struct lr_view_ctx pc = *ctx;

	if (!pi)
		return false;
	pc.snap = ctx->peer;
	pc.cpu_hist = NULL;	/* this host's CPUs' history, not the peer's */
	pc.peer_detail = true;
	detail(f, r, &pc, ctx, pi);
	return true;
}

void lr_view_render(struct lr_frame *f, const struct lr_view_ctx *ctx)
{
	const struct lr_snapshot *s = ctx->snap;
	struct lr_rect body = {0, 0, f->w, f->h - 1};

	lr_frame_clear(f);
	if (f->w < LR_VIEW_MIN_W || f->h < LR_VIEW_MIN_H) {
		too_small(f);
		return;
	}
	if (ctx->app->loss) {
		lr_view_loss(f, body, ctx);
	} else if (ctx->app->view == LR_VIEW_DETAIL && ctx->app->peer_side &&
		   peer_detail(f, body, ctx)) {
		/* the peer's side */
	} else if (ctx->app->view == LR_VIEW_DETAIL && s && s->n_ifaces) {
		size_t sel = ctx->app->sel < s->n_ifaces ? ctx->app->sel : s->n_ifaces - 1;

		detail(f, body, ctx, ctx, &s->ifaces[sel]);
	} else {
		lr_view_overview(f, body, ctx);
	}
	lr_view_status(f, (struct lr_rect){0, f->h - 1, f->w, 1}, ctx);
	if (ctx->app->help)
		lr_view_help(f, ctx);
}
