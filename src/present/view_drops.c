// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Drops & FIFO pane: the kernel's stats64 drop/missed/fifo/over/error counters and every
 * driver counter that moved, by category, per second and total; rows that are rising are
 * drawn in the alert role with a marker. Counters that moved come first; quiet stats64 rows
 * fill what is left. Main thread; pure drawing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"

struct drop_row {
	const char *cat;
	const char *name;
	double per_s;		/* -1 unknown */
	double total;		/* -1 unknown */
	bool rising;
};

static const struct {
	enum lr_metric m;
	const char *cat;
} stats64_rows[] = {
	{LR_M_RX_MISSED_ERRORS, "fifo"}, {LR_M_RX_FIFO_ERRORS, "fifo"},
	{LR_M_RX_OVER_ERRORS, "fifo"},	 {LR_M_RX_DROPPED, "drop"},
	{LR_M_TX_DROPPED, "drop"},	 {LR_M_RX_ERRORS, "err"},
	{LR_M_TX_ERRORS, "err"},	 {LR_M_RX_CRC_ERRORS, "err"},
};

static struct drop_row stats64_row(const struct lr_iface_snap *ifs, size_t i)
{
	enum lr_metric m = stats64_rows[i].m;
	struct drop_row r = {
		.cat = stats64_rows[i].cat,
		.name = lr_metric_info(m)->name,
		.per_s = lr_ifrate_per_s(ifs, m),
		.total = (ifs->total_valid & LR_M_BIT(m)) ? (double)ifs->total[m] : -1,
	};

	r.rising = ((ifs->valid & LR_M_BIT(m)) && ifs->delta[m] > 0) || r.per_s > 0;
	return r;
}

static struct drop_row drv_row(const struct lr_drv_counter *c)
{
	struct drop_row r = {
		.cat = c->cat == LR_CAT_ERROR ? "err" : lr_counter_cat_name(c->cat),
		.name = c->name,
		.per_s = c->per_s,
		.total = (double)c->total,
		.rising = c->delta > 0 || c->per_s > 0,
	};

	return r;
}

static void draw_row(struct lr_frame *f, int x, int y, int w, const struct drop_row *r,
		     bool ascii)
{
	int nw = w - 5 - 7 - 2 - 6;
	enum lr_role hot = r->rising ? LR_ROLE_ALERT : LR_ROLE_VALUE;
	char ps[24], tot[24], n[24];

	lr_frame_text(f, x, y, 5, r->rising ? LR_ROLE_ALERT : LR_ROLE_LABEL, r->cat);
	lr_view_text_mark(f, x + 5, y, nw - 1, r->rising ? LR_ROLE_ALERT : LR_ROLE_LABEL, r->name);
	lr_view_fmt_num(n, sizeof(n), r->per_s);
	snprintf(ps, sizeof(ps), r->per_s >= 0 ? "%s/s" : "%s", n);
	lr_frame_text_right(f, x + 5 + nw, y, 7, r->per_s > 0 ? hot : LR_ROLE_LABEL, ps);
	if (r->rising)
		lr_frame_put(f, x + 5 + nw + 8, y, ascii ? '^' : 0x25b2, LR_ROLE_ALERT);
	lr_view_fmt_num(tot, sizeof(tot), r->total);
	lr_frame_text_right(f, x + 5 + nw + 9, y, 6, r->total > 0 ? hot : LR_ROLE_LABEL, tot);
}

static bool drv_in_pass(const struct lr_drv_counter *c, int pass)
{
	if (c->cat == LR_CAT_TRAFFIC || c->cat == LR_CAT_OTHER)
		return false;
	/* drivers that export a stats64 name (ixgbe's rx_missed_errors): shown once, above */
	for (size_t i = 0; i < LR_ARRAY_SIZE(stats64_rows); i++)
		if (!strcmp(c->name, lr_metric_info(stats64_rows[i].m)->name))
			return false;
	return pass == 0 ? !c->per_queue : c->per_queue;
}

int lr_view_drops_rows(const struct lr_iface_snap *ifs)
{
	int n = (int)LR_ARRAY_SIZE(stats64_rows);

	for (size_t i = 0; i < ifs->n_moved; i++)
		n += drv_in_pass(&ifs->moved[i], 0) || drv_in_pass(&ifs->moved[i], 1);
	if (ifs->ethtool_err && !ifs->n_moved)
		n++;	/* the "no driver stats" line */
	return 2 + n;
}

void lr_view_drops(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		   const struct lr_iface_snap *ifs)
{
	int x = r.x + 1, w = r.w - 2, y = r.y + 2, rows = r.h - 2, shown = 0, total_rows = 0;
	struct drop_row row;

	lr_view_pane_title(f, r, "Drops & FIFO", ctx->ascii);
	if (rows < 1 || w < 30)
		return;
	lr_frame_text(f, x, r.y + 1, 5, LR_ROLE_LABEL, "kind");
	lr_frame_text(f, x + 5, r.y + 1, 8, LR_ROLE_LABEL, "counter");
	lr_frame_text_right(f, x + w - 15, r.y + 1, 7, LR_ROLE_LABEL, "per s");
	lr_frame_text_right(f, x + w - 6, r.y + 1, 6, LR_ROLE_LABEL, "total");

	/* count everything first so the last row can say what did not fit */
	for (size_t i = 0; i < LR_ARRAY_SIZE(stats64_rows); i++)
		total_rows++;
	for (size_t i = 0; i < ifs->n_moved; i++)
		total_rows += drv_in_pass(&ifs->moved[i], 0) || drv_in_pass(&ifs->moved[i], 1);
	if (total_rows > rows)
		rows--;

	/* 1: stats64 counters that moved; 2: driver totals; 3: driver per-queue; 4: quiet */
	for (size_t i = 0; i < LR_ARRAY_SIZE(stats64_rows) && shown < rows; i++) {
		row = stats64_row(ifs, i);
		if (row.rising || row.total > 0) {
			draw_row(f, x, y++, w, &row, ctx->ascii);
			shown++;
		}
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < ifs->n_moved && shown < rows; i++) {
			if (!drv_in_pass(&ifs->moved[i], pass))
				continue;
			row = drv_row(&ifs->moved[i]);
			draw_row(f, x, y++, w, &row, ctx->ascii);
			shown++;
		}
	for (size_t i = 0; i < LR_ARRAY_SIZE(stats64_rows) && shown < rows; i++) {
		row = stats64_row(ifs, i);
		if (!(row.rising || row.total > 0)) {
			draw_row(f, x, y++, w, &row, ctx->ascii);
			shown++;
		}
	}
	if (shown < total_rows)
		lr_frame_printf(f, x, y, w, LR_ROLE_LABEL, "     +%d more", total_rows - shown);
	else if (ifs->ethtool_err && !ifs->n_moved && shown < rows)
		lr_view_text_words(f, x + 5, y, w - 5, LR_ROLE_LABEL,
				   ifs->ethtool_err == -EOPNOTSUPP ? "no driver stats (not supported)"
				   : ifs->ethtool_err == -EPERM	   ? "driver stats need root"
								   : strerror(-ifs->ethtool_err),
				   ctx->ascii);
}
