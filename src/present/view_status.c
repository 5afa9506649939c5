// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The status line (interval, source, pause, units, the newest log message or key feedback)
 * and the help overlay listing every key. Main thread; pure drawing.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"

void lr_view_status(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx)
{
	const struct lr_ui *app = ctx->app;
	double iv = (double)app->interval_ns / 1e9;
	bool err = ctx->status_is_error && ctx->status_msg && ctx->status_msg[0];
	char buf[96];
	int x = r.x, end = r.x + r.w - (err ? 1 : 16);

	lr_frame_fill(f, (struct lr_rect){r.x, r.y, r.w, 1}, ' ', LR_ROLE_STATUS);
	snprintf(buf, sizeof(buf), iv < 0.1 ? " %.2f s" : iv < 1 ? " %.1f s" : " %.0f s", iv);
	x += lr_frame_text(f, x, r.y, end - x, LR_ROLE_STATUS, buf);
	if (app->paused)
		x += lr_frame_text(f, x + 2, r.y, end - x - 2, LR_ROLE_ALERT, "PAUSED") + 2;
	if (err) {
		/* an error gets the whole line: "file:line: message" must be readable */
		lr_view_text_words(f, x + 2, r.y, end - x - 2, LR_ROLE_ALERT, ctx->status_msg,
				   ctx->ascii);
		return;
	}
	if (ctx->snap)
		x += lr_frame_text(f, x + 2, r.y, end - x - 2, LR_ROLE_STATUS,
				   ctx->snap->source == LR_SOURCE_PROC     ? "proc"
				   : ctx->snap->source == LR_SOURCE_REPLAY ? "replay"
									     : "netlink") +
		     2;
	x += lr_frame_text(f, x + 2, r.y, end - x - 2, LR_ROLE_STATUS,
			   app->bytes ? "bytes" : "bits") +
	     2;
	/* whole words only: what does not fit is marked, the help hint always stays */
	if (ctx->status_msg && ctx->status_msg[0])
		lr_view_text_words(f, x + 2, r.y, end - x - 2, LR_ROLE_STATUS, ctx->status_msg,
				   ctx->ascii);
	lr_frame_text_right(f, r.x, r.y, r.w - 1, LR_ROLE_STATUS, "? help  q quit");
}

struct help_line {
	const char *keys, *ascii_keys, *what;
};

static const struct help_line help_lines[] = {
	{"q  Esc", NULL, "quit (Esc first closes this help)"},
	{"?", NULL, "show / hide this help"},
	{"Tab  \u2192  \u2190", "Tab  Right  Left", "next / previous interface"},
	{"\u2191  \u2193  Enter", "Up  Down  Enter", "pick an interface in the overview"},
	{"v  Q", NULL, "overview / detail (Q: Queues pane)"},
	{"t", NULL, "next theme"},
	{"+  -", NULL, "sample faster / slower (0.01 s .. 60 s)"},
	{"p", NULL, "pause the display (sampling, CSV go on)"},
	{"r", NULL, "reset totals, peaks, streams' retr/lost"},
	{"b", NULL, "bits / bytes per second"},
	{"g", NULL, "graph scale: auto, link speed, log"},
	{NULL, NULL, "with traffic (-c HOST, --demo):"},
	{"s", NULL, "start / stop the streams"},
	{"]  [", NULL, "bitrate per stream x2 / /2"},
	{">  <", NULL, "streams +1 / -1"},
	{"u", NULL, "TCP / UDP"},
	{"R", NULL, "reverse direction"},
	{"V  L", NULL, "last test's verdict / Loss ledger pane"},
	{"P", NULL, "the peer's detail / ours (peer shares)"},
};

/* --replay: the keys that move through the recording instead of sampling and traffic */
static const struct help_line replay_lines[] = {
	{"q  Esc", NULL, "quit (Esc first closes this help)"},
	{"?", NULL, "show / hide this help"},
	{"p", NULL, "pause / play the recording"},
	{"+  -", NULL, "speed x2 / /2 (x1/2 .. x16)"},
	{"]  [", NULL, "seek 10 s forward / back"},
	{"Tab  \u2192  \u2190", "Tab  Right  Left", "playing: next / previous interface;"},
	{"", NULL, "paused: seek 10 s forward / back"},
	{"\u2191  \u2193  Enter", "Up  Down  Enter", "pick an interface in the overview"},
	{"v", NULL, "overview / detail view"},
	{"t", NULL, "next theme"},
	{"r", NULL, "totals and peaks from the time shown"},
	{"b", NULL, "bits / bytes per second"},
	{"g", NULL, "graph scale: auto, link speed, log"},
};

void lr_view_help(struct lr_frame *f, const struct lr_view_ctx *ctx)
{
	bool replay = ctx->snap && ctx->snap->source == LR_SOURCE_REPLAY;
	const struct help_line *lines = replay ? replay_lines : help_lines;
	int n = replay ? (int)LR_ARRAY_SIZE(replay_lines) : (int)LR_ARRAY_SIZE(help_lines);
	int w = f->w - 4 < 60 ? f->w - 4 : 60, h = n + 4;
	int x0 = (f->w - w) / 2, y0 = (f->h - h) / 2, y;
	char title[96];

	if (h > f->h)
		h = f->h;
	if (y0 < 0)
		y0 = 0;
	lr_view_overlay(f, (struct lr_rect){x0, y0, w, h}, ctx->ascii);
	snprintf(title, sizeof(title), " linerate keys   theme %s   scale %s ",
		 ctx->theme_name ? ctx->theme_name : "-", lr_scale_name(ctx->app->scale));
	lr_frame_text(f, x0 + 1, y0, w - 2, LR_ROLE_HELP, title);
	lr_frame_set_role(f, (struct lr_rect){x0 + 2, y0, 13, 1}, LR_ROLE_TITLE);
	y = y0 + 2;
	for (int i = 0; i < n && y < y0 + h - 1; i++, y++) {
		const struct help_line *l = &lines[i];

		if (!l->keys) {
			lr_frame_text(f, x0 + 2, y, w - 4, LR_ROLE_HELP, l->what);
			continue;
		}
		lr_frame_text(f, x0 + 3, y, 16, LR_ROLE_HELP,
			      ctx->ascii && l->ascii_keys ? l->ascii_keys : l->keys);
		lr_frame_text(f, x0 + 20, y, w - 21, LR_ROLE_HELP, l->what);
	}
}
