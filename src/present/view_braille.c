// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Braille graphs (issue 17): each cell holds 2 samples side by side and 4 dot rows, so a
 * graph has twice the time resolution of block glyphs and four levels per row, as btop
 * draws them. Which style a graph takes (braille, block, ASCII) is the context's. Main
 * thread; pure drawing.
 */
#include <math.h>

#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"

/* Dot bits of U+2800.. filled from the bottom: left column dots 7,3,2,1, right 8,6,5,4. */
static const uint8_t dots_left[4] = {0x40, 0x04, 0x02, 0x01};
static const uint8_t dots_right[4] = {0x80, 0x20, 0x10, 0x08};

/* The sample's height in dot rows (0..levels), as lr_view_graph scales it; -1 unknown. */
static int level_of(float v, double top, bool log_scale, double log_floor, int levels)
{
	double frac;
	int level;

	if (!isfinite(v) || v < 0)
		return -1;
	if (log_scale)
		frac = v <= log_floor || top <= log_floor ? 0
							  : log10(v / log_floor) / log10(top / log_floor);
	else
		frac = v / top;
	if (frac > 1)
		frac = 1;
	level = (int)lround(frac * levels);
	if (level == 0 && v > 0 && (!log_scale || v > log_floor))
		level = 1;	/* a trickle stays visible */
	return level;
}

void lr_view_graph_braille(struct lr_frame *f, struct lr_rect r, const struct lr_series *s,
			   double top, bool log_scale, double log_floor, enum lr_role role)
{
	int levels = r.h * 4;

	if (r.w <= 0 || r.h <= 0 || !(top > 0))
		return;
	for (int c = 0; c < r.w; c++) {
		int x = r.x + r.w - 1 - c;
		/* newest sample in the right half of the rightmost cell */
		uint32_t ir = (uint32_t)(2 * c), il = ir + 1;
		int lr_ = ir < s->len ? level_of(lr_series_get(s, ir), top, log_scale, log_floor,
						  levels)
				      : -2;
		int ll = il < s->len ? level_of(lr_series_get(s, il), top, log_scale, log_floor,
						 levels)
				     : -2;

		if (lr_ == -2 && ll == -2)
			break;	/* no history this far back */
		if (lr_ == -1 && ll <= -1) {
			lr_frame_put(f, x, r.y + r.h - 1, 0x00b7, LR_ROLE_LABEL);	/* unknown */
			continue;
		}
		for (int k = 0; k < r.h; k++) {	/* k: cell rows from the bottom */
			uint8_t bits = 0;

			for (int d = 0; d < 4; d++) {
				if (lr_ > k * 4 + d)
					bits |= dots_right[d];
				if (ll > k * 4 + d)
					bits |= dots_left[d];
			}
			if (!bits)
				break;
			lr_frame_put(f, x, r.y + r.h - 1 - k, 0x2800 + bits, role);
		}
	}
}

void lr_view_graph_ctx(struct lr_frame *f, struct lr_rect r, const struct lr_series *s,
		       double top, bool log_scale, double log_floor, const struct lr_view_ctx *ctx,
		       enum lr_role role)
{
	if (!ctx->ascii && ctx->graph == LR_GRAPH_BRAILLE)
		lr_view_graph_braille(f, r, s, top, log_scale, log_floor, role);
	else
		lr_view_graph(f, r, s, top, log_scale, log_floor,
			      ctx->ascii || ctx->graph == LR_GRAPH_ASCII, role);
}
