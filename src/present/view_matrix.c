// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Matrix pane: a title with the grid's progress and ETA, then the finished cases (newest
 * last, as many as fit) and the running case highlighted on the last row. Each finished row:
 * case, its parameters, received Mbit/s, packets/s, retransmits or loss, CPU busy % (the
 * peer's after a slash when it shares), and the verdict as far as the width allows. Main
 * thread; pure drawing.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/present/matrix_out.h"
#include "linerate/present/view.h"
#include "linerate/present/view_matrix.h"

static void case_params(char *buf, size_t len, const struct lr_matrix_row *r)
{
	static const char *const dirs[] = {"->", "<-", "<->"};
	char extra[32] = "";

	if (r->length)
		snprintf(extra, sizeof(extra), " l%llu", (unsigned long long)r->length);
	snprintf(buf, len, "%s x%u %s%s", r->udp ? "UDP" : "TCP", r->streams,
		 dirs[r->dir >= 0 && r->dir < 3 ? r->dir : 0], extra);
}

/* CPU busy %: ours, then the peer's after a slash when it shared; "-" unknown, never 0. */
static void cpu_cell(char *buf, size_t len, const struct lr_matrix_row *m)
{
	char mine[8] = "  -";

	if (m->cpu_busy_pct >= 0)
		snprintf(mine, sizeof(mine), "%3.0f%%", m->cpu_busy_pct);
	if (m->peer_cpu_busy_pct >= 0)
		snprintf(buf, len, "%s/%3.0f%%", mine, m->peer_cpu_busy_pct);
	else
		snprintf(buf, len, "%s", mine);
}

static void draw_row(struct lr_frame *f, struct lr_rect r, int y, const struct lr_matrix_row *m)
{
	char params[64], nums[96];
	int x = r.x + 1;

	case_params(params, sizeof(params), m);
	x += lr_frame_printf(f, x, y, 5, LR_ROLE_LABEL, "%3u ", m->index);
	x += lr_frame_printf(f, x, y, 20, LR_ROLE_VALUE, "%-19s", params);
	if (m->receiver_bps >= 0) {
		char loss[32], cpu[24];

		if (m->udp && m->lost_pct >= 0)
			snprintf(loss, sizeof(loss), "lost %.2f%%", m->lost_pct);
		else if (m->retransmits >= 0)
			snprintf(loss, sizeof(loss), "retr %lld", (long long)m->retransmits);
		else
			snprintf(loss, sizeof(loss), "-");
		cpu_cell(cpu, sizeof(cpu), m);
		snprintf(nums, sizeof(nums), "%10.2f Mb/s %12s cpu %s ", m->receiver_bps / 1e6, loss,
			 cpu);
		x += lr_frame_text(f, x, y, r.x + r.w - x, LR_ROLE_RX, nums);
	}
	lr_frame_text(f, x, y, r.x + r.w - x - 1,
		      strncmp(m->verdict, "failed", 6) ? LR_ROLE_LABEL : LR_ROLE_ALERT, m->verdict);
}

void lr_view_matrix(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx, void *arg)
{
	const struct lr_matrix_progress *v = arg;
	char buf[200], eta[32] = "";
	int y, last, shown;

	if (r.h < 1 || r.w < 20)
		return;
	lr_view_pane_title(f, r, "Matrix", ctx->ascii);
	if (v->eta_s >= 0 && v->running)
		snprintf(eta, sizeof(eta), ", ETA %.0f s", v->eta_s);
	if (v->running)
		snprintf(buf, sizeof(buf), " %u of %u done%s%s ", v->n_rows, v->n_cases, eta,
			 v->replay ? "" : "  s skips, q ends");
	else
		snprintf(buf, sizeof(buf), " %u of %u cases: %s ", v->n_rows, v->n_cases,
			 v->untimed ? "no times: all shown finished" : "ended");
	lr_frame_text(f, r.x + 9, r.y, r.w - 10, LR_ROLE_LABEL, buf);
	last = r.y + r.h - 1;
	y = r.y + 1;
	if (y > last)
		return;
	/* the newest rows that fit, leaving the last line to the running case */
	shown = last - y + (v->running ? 0 : 1);
	if (shown < 0)
		shown = 0;
	for (unsigned i = v->n_rows > (unsigned)shown ? v->n_rows - (unsigned)shown : 0; i < v->n_rows;
	     i++, y++)
		draw_row(f, r, y, &v->rows[i]);
	if (v->running && y <= last) {
		char t[32] = "";

		if (v->running_s >= 0)
			snprintf(t, sizeof(t), "  %.1f s", v->running_s);
		lr_frame_fill(f, (struct lr_rect){r.x, y, r.w, 1}, ' ', LR_ROLE_SELECTED);
		lr_frame_printf(f, r.x + 1, y, r.w - 2, LR_ROLE_SELECTED, "%3u %s  running%s",
				v->running, v->running_name ? v->running_name : "", t);
	}
}
