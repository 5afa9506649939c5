// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict panel: an overlay shown when a dashboard test ends. It says what the test
 * achieved per direction, against the link and the goodput ceiling at this MTU, where loss
 * happened (every witness, and the place they point at), the hottest CPU, TCP retransmits
 * or UDP loss, and the one next step (verdict_judge.c). Main thread; pure drawing.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/diagnose/latency.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/present/view.h"

#define LABEL_W 12

static void row(struct lr_frame *f, int x, int *y, int w, const char *label, enum lr_role role,
		const char *text, int max_rows)
{
	lr_frame_text(f, x, *y, LABEL_W, LR_ROLE_LABEL, label);
	lr_view_wrap(f, x + LABEL_W, y, w - LABEL_W, max_rows, role, text);
}

static void fmt_dir(char *buf, size_t len, double bps, bool bytes)
{
	if (bps > 0)
		lr_view_fmt_rate(buf, len, bps, bytes);
	else
		snprintf(buf, len, "-");
}

void lr_view_verdict(struct lr_frame *f, const struct lr_view_ctx *ctx,
		     const struct lr_view_verdict *vv)
{
	const struct lr_verdict *v = vv->v;
	const struct lr_verdict_iface *fi = v ? v->iface : NULL;
	const struct lr_verdict_traffic *t = vv->t;
	bool bytes = ctx->app->bytes;
	/* a failure and the peer's counters take rows of their own: the panel grows for them
	 * (up to the screen), the rest keeps its place */
	int extra = (vv->failure ? 4 : 0) + (vv->peer_loss ? 3 : 0) + (vv->cycles ? 2 : 0);
	int w = f->w - 4 < 76 ? f->w - 4 : 76;
	int h = f->h - 1 < 17 + extra ? f->h - 1 : 17 + extra;
	int x0 = (f->w - w) / 2, y0 = (f->h - 1 - h) / 2, x = x0 + 2, tw = w - 4, y;
	char b[200], r1[32], r2[32], r3[32];

	if ((!v && !vv->failure) || w < 40)
		return;
	if (y0 < 0)
		y0 = 0;
	lr_frame_fill(f, (struct lr_rect){x0, y0, w, h}, ' ', LR_ROLE_HELP);
	snprintf(b, sizeof(b), " Verdict: %s ", vv->test ? vv->test : "test over");
	lr_frame_text(f, x0 + 1, y0, w - 2, LR_ROLE_TITLE, b);
	y = y0 + 2;
	if (vv->failure)
		row(f, x, &y, tw, "FAILED", LR_ROLE_ALERT, vv->failure, 2);
	if (vv->stopped)
		row(f, x, &y, tw, "data", LR_ROLE_WARN, vv->stopped, 2);
	if (!v) {	/* nothing ran: the failure is the whole verdict */
		row(f, x, &y, tw, "achieved", LR_ROLE_VALUE, "no data moved before it failed", 1);
		lr_frame_text(f, x, y0 + h - 1, tw, LR_ROLE_HELP,
			      "Esc/Enter closes   s starts another test   q quits");
		return;
	}

	if (t && t->ran) {
		fmt_dir(r1, sizeof(r1), t->up_bps, bytes);
		fmt_dir(r2, sizeof(r2), t->down_bps, bytes);
		snprintf(b, sizeof(b), "up %s   down %s", r1, r2);
	} else {
		snprintf(b, sizeof(b), "no results from the test");
	}
	row(f, x, &y, tw, "achieved", LR_ROLE_VALUE, b, 1);

	if (fi) {
		lr_view_fmt_rate(r1, sizeof(r1), v->rx_bps, bytes);
		lr_view_fmt_rate(r2, sizeof(r2), v->tx_bps, bytes);
		if (v->line_pct >= 0) {
			lr_view_fmt_speed(r3, sizeof(r3), fi->speed_mbps);
			snprintf(b, sizeof(b), "%s rx %s tx %s: %.1f%% of the %s link", fi->name,
				 r1, r2, v->line_pct, r3);
		} else if (v->speed_nominal && fi->speed_mbps > 0) {
			lr_view_fmt_speed(r3, sizeof(r3), fi->speed_mbps);
			snprintf(b, sizeof(b), "%s rx %s tx %s: its %s is nominal (%s)", fi->name,
				 r1, r2, r3, v->nominal_why);
		} else {
			snprintf(b, sizeof(b), "%s rx %s tx %s: link speed unknown", fi->name, r1,
				 r2);
		}
		row(f, x, &y, tw, "line rate", LR_ROLE_VALUE, b, 1);
		if (v->ceiling_bps > 0) {
			lr_view_fmt_rate(r1, sizeof(r1), v->ceiling_bps, bytes);
			snprintf(b, sizeof(b), "%s at MTU %lld: achieved %.1f%% of it", r1,
				 (long long)fi->mtu, v->ceiling_pct);
		} else {
			snprintf(b, sizeof(b), "- (needs the link speed and MTU)");
		}
		row(f, x, &y, tw, "ceiling", v->ceiling_pct >= 95 ? LR_ROLE_OK : LR_ROLE_VALUE, b,
		    1);
		row(f, x, &y, tw, "loss", v->loss[0] ? LR_ROLE_ALERT : LR_ROLE_OK,
		    v->loss[0] ? v->loss : "none (the test's counts and this host's counters)",
		    2);
		if (v->loss_where[0])
			row(f, x, &y, tw, "where", LR_ROLE_ALERT, v->loss_where, 2);
		if (vv->peer_loss)
			row(f, x, &y, tw, "peer saw", vv->peer_lost ? LR_ROLE_ALERT : LR_ROLE_OK,
			    vv->peer_loss, 3);
		if (v->hot_cpu >= 0)
			snprintf(b, sizeof(b), "cpu%d, %.0f%% softirq at peak%s", v->hot_cpu,
				 v->hot_pct, v->hot_saturated ? " (saturated)" : "");
		else
			snprintf(b, sizeof(b), "-");
		row(f, x, &y, tw, "hottest CPU", v->hot_saturated ? LR_ROLE_WARN : LR_ROLE_VALUE,
		    b, 1);
		/* the softirq peak above is one witness; the cycles' ledger reads every CPU time
		 * of both ends, and says which bound the rate */
		if (vv->cycles)
			row(f, x, &y, tw, "cycles", vv->cycles_bound ? LR_ROLE_WARN : LR_ROLE_VALUE,
			    vv->cycles, 2);
		if (v->latency[0])
			row(f, x, &y, tw, "latency",
			    v->latency_judgement == LR_LATJ_ROSE ? LR_ROLE_WARN : LR_ROLE_VALUE,
			    v->latency, 2);
	} else {
		row(f, x, &y, tw, "NIC", LR_ROLE_VALUE, "nothing was sampled", 1);
	}
	if (t && t->ran && t->udp) {
		if (t->udp_packets > 0 && t->udp_lost >= 0)
			snprintf(b, sizeof(b), "%lld of %lld datagrams (%.2f%%)",
				 (long long)t->udp_lost, (long long)t->udp_packets,
				 100.0 * (double)t->udp_lost / (double)t->udp_packets);
		else
			snprintf(b, sizeof(b), "-");
		row(f, x, &y, tw, "UDP lost", t->udp_lost > 0 ? LR_ROLE_ALERT : LR_ROLE_VALUE, b,
		    1);
	} else {
		char host[48] = "";

		/* the test's figure is its senders' count: with --bidir both ends' summed, with -R
		 * the peer's; the host-wide one is every TCP socket of this host */
		if (vv->acc && (vv->acc->stack_valid & LR_STACKV_TCP_RETRANS))
			snprintf(host, sizeof(host), ", %llu this host's TCP",
				 (unsigned long long)vv->acc->tcp_retrans);
		if (t && t->ran && t->retransmits >= 0)
			snprintf(b, sizeof(b), "%lld in the test%s%s", (long long)t->retransmits,
				 t->bidir ? " (both ends)" : t->reverse ? " (the peer's)" : "", host);
		else
			snprintf(b, sizeof(b), "-%s", host);
		row(f, x, &y, tw, "TCP retr",
		    t && t->retransmits > 0 ? LR_ROLE_WARN : LR_ROLE_VALUE, b, 1);
	}
	y++;
	/* a failed test's figures stop short: advice drawn from them would mislead */
	row(f, x, &y, tw, "next step", LR_ROLE_TITLE,
	    vv->failure ? "the test did not end: find why it failed (above), then run it again "
			  "(s); the figures cover the seconds before the failure"
			: v->next_step,
	    y0 + h - 2 - y);
	lr_frame_text(f, x, y0 + h - 1, tw, LR_ROLE_HELP,
		      "Esc/Enter closes   s starts another test   q quits");
}
