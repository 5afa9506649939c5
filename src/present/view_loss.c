// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Loss pane (L): the running test's ledger as lr_ledger_lines gives it, each line's newest
 * interval per second beside the test's total, its side, host and counter; stages that saw
 * nothing in either are folded into one line so the rest fits 80x24; the unaccounted
 * remainder and the conclusion always close it. Under --bidir each direction its own ledger,
 * up over down. Main thread; pure drawing.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/diagnose/ledger_live.h"
#include "linerate/present/view.h"

#define STAGE_W 12
#define SIDE_W 9
#define HOST_W 13
#define PER_S_W 11
#define TOTAL_W 12

/* "~1234" / "-12" / "unknown" */
static void fmt_dg(char *buf, size_t len, bool known, double v, bool approx)
{
	if (!known)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%s%.0f", approx && v != 0 ? "~" : "", v);
}

/* The interval's line that is tl's (the same stage on the same end), NULL none. */
static const struct lr_ledger_line *match(const struct lr_ledger_line *il, unsigned n,
					  const struct lr_ledger_line *tl)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(il[i].stage, tl->stage) && il[i].sender == tl->sender)
			return &il[i];
	return NULL;
}

/* A stage that saw nothing, in the interval and over the test: nothing to show. */
static bool quiet(const struct lr_ledger_line *tl, const struct lr_ledger_line *il)
{
	static const char *const never[] = {"sent", "received", "lost", "unaccounted"};

	for (size_t i = 0; i < LR_ARRAY_SIZE(never); i++)
		if (!strcmp(tl->stage, never[i]))
			return false;
	return tl->known && tl->datagrams == 0 && (!il || (il->known && il->datagrams == 0));
}

/* A stage no end could read, in the interval and over the test. */
static bool unknown(const struct lr_ledger_line *tl, const struct lr_ledger_line *il)
{
	static const char *const never[] = {"sent", "received", "lost", "unaccounted"};

	for (size_t i = 0; i < LR_ARRAY_SIZE(never); i++)
		if (!strcmp(tl->stage, never[i]))
			return false;
	return !tl->known && (!il || !il->known);
}

static void line(struct lr_frame *f, struct lr_rect r, int y, const struct lr_ledger_line *tl,
		 const struct lr_ledger_line *il, double secs)
{
	int cw = r.w - 1 - STAGE_W - SIDE_W - HOST_W - PER_S_W - TOTAL_W, x = r.x + 1;
	bool il_known = il && il->dg_known && secs > 0;
	char per_s[24], total[24];
	enum lr_role role = tl->dg_known && tl->datagrams != 0 && strcmp(tl->stage, "sent") &&
				    strcmp(tl->stage, "received")
			    ? LR_ROLE_WARN
			    : LR_ROLE_VALUE;

	fmt_dg(per_s, sizeof(per_s), il_known, il_known ? il->datagrams / secs : 0,
	       il && il->approx);
	fmt_dg(total, sizeof(total), tl->dg_known, tl->datagrams, tl->approx);
	lr_view_text_mark(f, x, y, STAGE_W - 1, LR_ROLE_LABEL, tl->stage);
	x += STAGE_W;
	if (tl->has_side) {
		lr_view_text_mark(f, x, y, SIDE_W - 1, LR_ROLE_LABEL,
				  tl->sender ? "sender" : "receiver");
		lr_view_text_mark(f, x + SIDE_W, y, HOST_W - 1, LR_ROLE_LABEL,
				  tl->host[0] ? tl->host : "?");
	}
	x += SIDE_W + HOST_W;
	lr_view_text_mark(f, x, y, cw - 1, LR_ROLE_LABEL, tl->counter);
	x += cw;
	lr_frame_text_right(f, x, y, PER_S_W, tl->dg_known || il_known ? role : LR_ROLE_LABEL,
			    per_s);
	lr_frame_text_right(f, x + PER_S_W, y, TOTAL_W, tl->dg_known ? role : LR_ROLE_LABEL,
			    total);
}

/* One direction's ledger in r: its title, the lines, what was folded, the conclusion. dir is
 * "" for a test of one direction, else its name (--bidir draws two). */
static void draw_dir(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		     const struct lr_ledger *tot, const struct lr_ledger *iv, double secs,
		     bool sender_local, const char *dir)
{
	/* half a pane (--bidir): stages unknown in both fold too, named on their own line, and
	 * the conclusion keeps its two rows; below 11 rows (70x20) the column heads go, so that
	 * sent, received, lost and the unaccounted remainder stay */
	bool compact = dir[0], heads = !compact || r.h >= 11;
	int keep = compact ? 2 : 0;
	char unk[160] = "";
	size_t nu = 0;
	const struct lr_view_loss *lv = ctx->loss;
	struct lr_ledger_line tl[LR_LEDGER_LINES], il[LR_LEDGER_LINES];
	unsigned nt, ni = 0;
	char title[160], folded[160] = "", said[sizeof(tot->conclusion) + 4];
	size_t nf = 0;
	int y = r.y, end = r.y + r.h;

	snprintf(title, sizeof(title), "Loss ledger%s%s: %s -> %s, %s%s", dir[0] ? " " : "", dir,
		 tot->snd_host[0] ? tot->snd_host : "?",
		 tot->rcv_host[0] ? tot->rcv_host : "the peer", tot->unit,
		 lv->ended ? " (test ended)" : "");
	lr_view_pane_title(f, (struct lr_rect){r.x, y++, r.w, 1}, title, ctx->ascii);
	if (heads) {
		lr_frame_text(f, r.x + 1, y, -1, LR_ROLE_TITLE, "stage");
		lr_frame_text(f, r.x + 1 + STAGE_W, y, -1, LR_ROLE_TITLE, "side");
		lr_frame_text(f, r.x + 1 + STAGE_W + SIDE_W, y, -1, LR_ROLE_TITLE, "host");
		lr_frame_text(f, r.x + 1 + STAGE_W + SIDE_W + HOST_W, y, -1, LR_ROLE_TITLE,
			      "counter");
		lr_frame_text_right(f, r.x + r.w - TOTAL_W - PER_S_W, y, PER_S_W, LR_ROLE_TITLE,
				    lv->ended ? "last /s" : "per s");
		lr_frame_text_right(f, r.x + r.w - TOTAL_W, y++, TOTAL_W, LR_ROLE_TITLE, "total");
	}
	nt = lr_ledger_lines(tot, sender_local, tl);
	if (iv)
		ni = lr_ledger_lines(iv, sender_local, il);
	for (unsigned i = 0; i < nt && y < end - keep; i++) {
		const struct lr_ledger_line *m = match(il, ni, &tl[i]);

		if (compact && unknown(&tl[i], m)) {
			nu += (size_t)snprintf(unk + nu, sizeof(unk) - nu, "%s%s", nu ? ", " : "",
					       tl[i].stage);
			if (nu >= sizeof(unk))
				nu = sizeof(unk) - 1;
			continue;
		}
		if (quiet(&tl[i], m)) {
			nf += (size_t)snprintf(folded + nf, sizeof(folded) - nf, "%s%s",
					       nf ? ", " : "", tl[i].stage);
			if (nf >= sizeof(folded))
				nf = sizeof(folded) - 1;
			continue;
		}
		line(f, r, y++, &tl[i], m, secs);
	}
	if ((nf || nu) && y < end - keep) {	/* one row for both folds */
		char buf[360];

		snprintf(buf, sizeof(buf), "%s%s%s%s%s", nf ? "0 at: " : "", folded,
			 nf && nu ? "; " : "", nu ? "unknown at: " : "", unk);
		lr_view_wrap(f, r.x + 1, &y, r.w - 2, 1, LR_ROLE_LABEL, buf);
	}
	snprintf(said, sizeof(said), "=> %s", tot->conclusion);
	lr_view_wrap(f, r.x + 1, &y, r.w - 2, end - y, LR_ROLE_VALUE, said);
	if (tot->advice[0]) {
		char buf[240];

		snprintf(buf, sizeof(buf), "next: %s", tot->advice);
		lr_view_wrap(f, r.x + 1, &y, r.w - 2, end - y, LR_ROLE_LABEL, buf);
	}
}

void lr_view_loss(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx)
{
	const struct lr_view_loss *lv = ctx->loss;
	const struct lr_ledger *tot = lv ? lv->total : NULL;
	int y = r.y, h;

	if (!tot) {
		lr_view_pane_title(f, (struct lr_rect){r.x, y++, r.w, 1}, "Loss ledger",
				   ctx->ascii);
		lr_view_wrap(f, r.x + 1, &y, r.w - 2, r.h - 1, LR_ROLE_LABEL,
			     !lv ? "no ledger here: the Loss pane shows the test of -c HOST or "
				   "--demo (not --matrix)"
				 : "no test running: the ledger comes with a test's first interval "
				   "(s starts one)");
		return;
	}
	if (!lv->rev_total) {
		draw_dir(f, r, ctx, tot, lv->interval, lv->interval_s, lv->sender_local, "");
		return;
	}
	/* --bidir: each direction its own ledger, up over down, half the pane each (80x24: the
	 * quiet stages folded, a conclusion of two lines fits) */
	h = r.h / 2;
	draw_dir(f, (struct lr_rect){r.x, r.y, r.w, h}, ctx, tot, lv->interval, lv->interval_s,
		 true, "up");
	draw_dir(f, (struct lr_rect){r.x, r.y + h, r.w, r.h - h}, ctx, lv->rev_total,
		 lv->rev_interval, lv->rev_interval_s, false, "down");
}
