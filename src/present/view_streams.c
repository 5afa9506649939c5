// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Streams pane: the traffic test this dashboard drives (state, protocol, streams, peer,
 * time) and one row per stream from the snapshot (target and achieved rate, packets/s,
 * retransmits, loss, jitter, cwnd, RTT), then a sum row. Main thread; pure drawing, the
 * numbers come from the snapshot and the test's knobs.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"
#include "linerate/present/view_numa.h"

/* Columns inside the pane: where id and dir start, where the right-aligned numbers end (the
 * last ends at 78: the whole row fits 80 columns). */
enum {
	C_ID = 1,
	C_DIR = 5,
	E_TARGET = 18,
	E_RATE = 30,
	E_PPS = 38,
	E_RETR = 44,
	E_LOST = 51,
	E_JIT = 58,
	E_CWND = 68,
	E_RTT = 78
};

const char *lr_view_tstate_name(enum lr_view_tstate s)
{
	static const char *const names[] = {"idle", "connecting", "running", "ending",
					    "done", "stopped",	  "error"};

	return (unsigned)s < LR_ARRAY_SIZE(names) ? names[s] : "?";
}

static enum lr_role state_role(enum lr_view_tstate s)
{
	switch (s) {
	case LR_VTS_RUNNING: return LR_ROLE_OK;
	case LR_VTS_CONNECTING:
	case LR_VTS_ENDING: return LR_ROLE_WARN;
	case LR_VTS_ERROR: return LR_ROLE_ALERT;
	default: return LR_ROLE_VALUE;
	}
}

static void title(struct lr_frame *f, struct lr_rect r, const struct lr_view_traffic *t, bool ascii)
{
	const struct lr_ui_traffic *k = &t->knobs;
	char buf[160], dur[48] = "";
	int x, end;

	lr_view_pane_title(f, r, "Streams", ascii);
	if (t->elapsed_s >= 0 && t->duration_s > 0)
		snprintf(dur, sizeof(dur), "  %.1f of %.0f s", t->elapsed_s, t->duration_s);
	else if (t->elapsed_s >= 0)
		snprintf(dur, sizeof(dur), "  %.1f s", t->elapsed_s);
	/* each part whole or left out (the rule goes on after the last one that fits) */
	x = 9;
	x += lr_frame_text(f, r.x + x, r.y, 1, LR_ROLE_BORDER, " ");
	end = x;
	if (lr_view_field(f, r.x, r.y, &x, r.w - 2, state_role(t->state),
			  lr_view_tstate_name(t->state)))
		end = x;
	if (t->server && !t->host) {
		snprintf(buf, sizeof(buf), "  server on port %u", (unsigned)(t->port ? t->port : 5201));
		if (lr_view_field(f, r.x, r.y, &x, r.w - 2, LR_ROLE_LABEL, buf))
			end = x;
		lr_frame_text(f, r.x + end, r.y, 1, LR_ROLE_BORDER, " ");
		return;
	}
	snprintf(buf, sizeof(buf), "  %s x%u %s %s:%u", k->udp ? "UDP" : "TCP", k->parallel,
		 k->bidir     ? "<->"
		 : k->reverse ? "<-"
			      : "->",
		 t->host ? t->host : "-", (unsigned)(t->port ? t->port : 5201));
	if (lr_view_field(f, r.x, r.y, &x, r.w - 2, LR_ROLE_LABEL, buf))
		end = x;
	if (t->iface && t->iface[0]) {
		snprintf(buf, sizeof(buf), " via %s", t->iface);
		if (lr_view_field(f, r.x, r.y, &x, r.w - 2, LR_ROLE_LABEL, buf))
			end = x;
	}
	if (lr_view_field(f, r.x, r.y, &x, r.w - 2, LR_ROLE_LABEL, dur))
		end = x;
	lr_frame_text(f, r.x + end, r.y, 1, LR_ROLE_BORDER, " ");
}

static void header(struct lr_frame *f, int x0, int y, int w)
{
	static const struct {
		int x;
		const char *s;
		bool right;
	} cols[] = {
		{C_ID, "id", false},	    {C_DIR, "dir", false},   {E_TARGET, "target", true},
		{E_RATE, "achieved", true}, {E_PPS, "pkt/s", true},  {E_RETR, "retr", true},
		{E_LOST, "lost", true},	    {E_JIT, "jitter", true}, {E_CWND, "cwnd", true},
		{E_RTT, "rtt", true},
	};

	for (size_t i = 0; i < LR_ARRAY_SIZE(cols); i++) {
		int n = lr_utf8_width(cols[i].s), x = cols[i].right ? cols[i].x - n + 1 : cols[i].x;

		if (x + n <= w - 1)	/* the pane's last column stays blank */
			lr_frame_text(f, x0 + x, y, n, LR_ROLE_LABEL, cols[i].s);
	}
}

/* Right-aligned s ending at column x_end (inclusive); left out when the column is not inside
 * the pane width w. */
static void cell(struct lr_frame *f, int x0, int y, int w, int x_end, enum lr_role role,
		 const char *s)
{
	int n = lr_utf8_width(s);

	if (x_end < w - 1)	/* the pane's last column stays blank */
		lr_frame_text(f, x0 + x_end - n + 1, y, n, role, s);
}

static void fmt_count(char *buf, size_t len, bool known, double v)
{
	if (known)
		lr_view_fmt_num(buf, len, v);
	else
		snprintf(buf, len, "-");
}

/* The receiver's loss on a stream this side sends (this process is both ends) into *lost
 * (NULL: only whether it is known). */
static bool recv_lost(const struct lr_view_traffic *t, const struct lr_stream_snap *s,
		      uint64_t *lost)
{
	for (size_t i = 0; s->udp && s->sender && i < t->n_recv; i++)
		if (t->recv[i].id == s->id) {
			if (lost)
				*lost = t->recv[i].lost;
			return true;
		}
	return false;
}

void lr_view_streams_reset(struct lr_view_traffic *t, const struct lr_snapshot *s)
{
	t->n_base = 0;
	t->base_generation = s->traffic_generation;
	for (size_t i = 0; i < s->n_streams && t->n_base < LR_VIEW_STREAM_BASE_MAX; i++) {
		struct lr_view_stream_base *b = &t->base[t->n_base++];

		b->id = s->streams[i].id;
		b->retr = s->streams[i].total_retransmits;
		b->lost = s->streams[i].total_lost;
		recv_lost(t, &s->streams[i], &b->lost);	/* the receiver's, where it is known */
	}
}

/* s's retransmits and loss since the last reset (all of them when none covers this test). */
static void since_reset(const struct lr_view_traffic *t, const struct lr_snapshot *snap,
			const struct lr_stream_snap *s, uint64_t *retr, uint64_t *lost)
{
	*retr = s->total_retransmits;
	*lost = s->total_lost;
	recv_lost(t, s, lost);
	if (!snap || snap->traffic_generation != t->base_generation)
		return;
	for (size_t i = 0; i < t->n_base; i++)
		if (t->base[i].id == s->id) {
			*retr -= t->base[i].retr <= *retr ? t->base[i].retr : *retr;
			*lost -= t->base[i].lost <= *lost ? t->base[i].lost : *lost;
			return;
		}
}

struct sums {
	double bps, pps;
	uint64_t retr, lost;
	bool any_rate, pps_unknown, tcp_send, udp_recv;
};

static void stream_row(struct lr_frame *f, int x0, int y, int w, const struct lr_view_ctx *ctx,
		       const struct lr_view_traffic *t, const struct lr_stream_snap *s)
{
	char b[32];
	bool tcp_send = !s->udp && s->sender, udp_recv = s->udp && !s->sender;
	uint64_t retr, lost;

	snprintf(b, sizeof(b), "%d", s->id);
	lr_frame_text(f, x0 + C_ID, y, 4, LR_ROLE_VALUE, b);
	lr_frame_text(f, x0 + C_DIR, y, 4, s->sender ? LR_ROLE_TX : LR_ROLE_RX,
		      s->sender ? "tx" : "rx");
	if (t->rate_text)
		snprintf(b, sizeof(b), "%s", t->rate_text);
	else if (t->knobs.rate_bps)
		lr_view_fmt_rate(b, sizeof(b), (double)t->knobs.rate_bps, ctx->app->bytes);
	else
		snprintf(b, sizeof(b), "unlimited");
	cell(f, x0, y, w, E_TARGET, LR_ROLE_LABEL, b);
	lr_view_fmt_rate(b, sizeof(b), s->valid ? s->bps : -1, ctx->app->bytes);
	cell(f, x0, y, w, E_RATE, s->sender ? LR_ROLE_TX : LR_ROLE_RX, b);
	fmt_count(b, sizeof(b), s->valid && !s->packets_unknown, s->pps);
	cell(f, x0, y, w, E_PPS, LR_ROLE_VALUE, b);
	since_reset(t, ctx->snap, s, &retr, &lost);
	fmt_count(b, sizeof(b), tcp_send, (double)retr);
	cell(f, x0, y, w, E_RETR, tcp_send && s->retransmits ? LR_ROLE_WARN : LR_ROLE_VALUE, b);
	fmt_count(b, sizeof(b), udp_recv || recv_lost(t, s, NULL), (double)lost);
	cell(f, x0, y, w, E_LOST, (udp_recv && s->lost) || (!udp_recv && lost) ? LR_ROLE_ALERT
										: LR_ROLE_VALUE,
	     b);
	if (udp_recv && s->jitter_ms >= 0)
		snprintf(b, sizeof(b), "%.3f", s->jitter_ms);
	else
		snprintf(b, sizeof(b), "-");
	cell(f, x0, y, w, E_JIT, LR_ROLE_VALUE, b);
	if (s->cwnd_bytes >= 0)
		lr_view_fmt_bytes(b, sizeof(b), (double)s->cwnd_bytes);
	else
		snprintf(b, sizeof(b), "-");
	cell(f, x0, y, w, E_CWND, LR_ROLE_VALUE, b);
	if (s->rtt_us >= 0)
		snprintf(b, sizeof(b), "%.2fms", (double)s->rtt_us / 1000);
	else
		snprintf(b, sizeof(b), "-");
	cell(f, x0, y, w, E_RTT, LR_ROLE_VALUE, b);
	lr_view_numa_stream_cpu(f, x0, y, w, ctx->snap, t->iface, s);	/* wide panes */
}

static void add_sum(struct sums *sum, const struct lr_view_traffic *t,
		    const struct lr_snapshot *snap, const struct lr_stream_snap *s)
{
	uint64_t retr, lost;

	since_reset(t, snap, s, &retr, &lost);
	if (s->valid) {
		sum->bps += s->bps;
		sum->pps += s->pps;
		sum->any_rate = true;
		sum->pps_unknown |= s->packets_unknown;	/* a sum missing a part is no sum */
	}
	sum->retr += retr;
	sum->lost += lost;
	sum->tcp_send |= !s->udp && s->sender;
	sum->udp_recv |= (s->udp && !s->sender) || recv_lost(t, s, NULL);
}

static void sum_row(struct lr_frame *f, int x0, int y, int w, const struct lr_view_ctx *ctx,
		    const struct lr_view_traffic *t, size_t n, const struct sums *sum)
{
	char b[32];

	lr_frame_text(f, x0 + C_ID, y, 4, LR_ROLE_TITLE, "sum");
	if (t->knobs.rate_bps && !t->rate_text) {
		lr_view_fmt_rate(b, sizeof(b), (double)t->knobs.rate_bps * (double)n,
				 ctx->app->bytes);
		cell(f, x0, y, w, E_TARGET, LR_ROLE_LABEL, b);
	}
	lr_view_fmt_rate(b, sizeof(b), sum->any_rate ? sum->bps : -1, ctx->app->bytes);
	cell(f, x0, y, w, E_RATE, LR_ROLE_TITLE, b);
	fmt_count(b, sizeof(b), sum->any_rate && !sum->pps_unknown, sum->pps);
	cell(f, x0, y, w, E_PPS, LR_ROLE_VALUE, b);
	fmt_count(b, sizeof(b), sum->tcp_send, (double)sum->retr);
	cell(f, x0, y, w, E_RETR, sum->retr ? LR_ROLE_WARN : LR_ROLE_VALUE, b);
	fmt_count(b, sizeof(b), sum->udp_recv, (double)sum->lost);
	cell(f, x0, y, w, E_LOST, sum->lost ? LR_ROLE_ALERT : LR_ROLE_VALUE, b);
}

static const char *empty_text(const struct lr_view_traffic *t, char *buf, size_t len)
{
	if (t->server) {	/* `s` starts nothing here: a client does */
		snprintf(buf, len, "%s a client on port %u",
			 t->state == LR_VTS_IDLE ? "waiting for" : "test over: waiting for",
			 (unsigned)(t->port ? t->port : 5201));
		return buf;
	}
	switch (t->state) {
	case LR_VTS_IDLE: return "no test running: s starts one";
	case LR_VTS_CONNECTING: return "connecting to the server...";
	case LR_VTS_STOPPED:
	case LR_VTS_DONE: return "test over: s starts another";
	default: return "no streams";
	}
}

/* "0.04", "11", "846": ms as the latency line gives them, "?" unknown. */
static void fmt_ms(char *buf, size_t len, double ms)
{
	if (ms < 0)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, ms < 1 ? "%.2f" : ms < 10 ? "%.1f" : "%.0f", ms);
}

/* The latency line in row y: p99 of the newest interval beside the idle baseline, p50, the
 * probes lost (never a latency), then each interval's p99 as a sparkline (log scale: a queue's
 * 800 ms and an idle link's 0.04 ms on one row) in the columns left. */
static void latency_line(struct lr_frame *f, struct lr_rect r, int y, const struct lr_view_ctx *ctx,
			 const struct lr_view_latency *l)
{
	char b[128], p99[16], idle[16], p50[16];
	int n, x;

	switch (l->state) {
	case LR_VLAT_PLAIN:
		lr_frame_text(f, r.x + C_ID, y, r.w - 2, LR_ROLE_LABEL,
			      "rtt: no probes, the peer is a plain iperf3");
		return;
	case LR_VLAT_OFF:
		lr_frame_text(f, r.x + C_ID, y, r.w - 2, LR_ROLE_LABEL,
			      "rtt: not measured (--no-latency, --no-peer-stats)");
		return;
	case LR_VLAT_WAIT:
		lr_frame_text(f, r.x + C_ID, y, r.w - 2, LR_ROLE_LABEL, "rtt: waiting for probes");
		return;
	default:
		break;
	}
	fmt_ms(p99, sizeof(p99), l->p99_ms);
	fmt_ms(idle, sizeof(idle), l->idle_p99_ms);
	fmt_ms(p50, sizeof(p50), l->p50_ms);
	snprintf(b, sizeof(b), "rtt p99 %s ms (idle %s) p50 %s lost %llu", p99, idle, p50,
		 (unsigned long long)l->lost);
	/* the rule of the verdict (latency.h): well above the idle baseline is a queue */
	n = lr_frame_text(f, r.x + C_ID, y, r.w - 2,
			  l->p99_ms >= 0 && l->idle_p99_ms >= 0 &&
					  l->p99_ms > 4 * l->idle_p99_ms &&
					  l->p99_ms > l->idle_p99_ms + 1
				  ? LR_ROLE_WARN
				  : LR_ROLE_VALUE,
			  b);
	x = C_ID + n + 2;
	if (x + 4 < r.w - 1) {
		double top = lr_view_series_max(&l->p99, LR_HIST_LEN);

		lr_view_graph_ctx(f, (struct lr_rect){r.x + x, y, r.w - 1 - x, 1}, &l->p99,
				  top > 1 ? top : 1, true, 0.01, ctx, LR_ROLE_VALUE);
	}
}

void lr_view_streams(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx, void *arg)
{
	const struct lr_view_traffic *t = arg;
	const struct lr_snapshot *snap = ctx->snap;
	size_t n = snap ? snap->n_streams : 0, shown;
	int lat = t && t->lat.state != LR_VLAT_NONE && r.h >= 4 ? 1 : 0;
	int rows = r.h - 3 - lat, y = r.y + 2; /* title, header, sum, latency */
	struct sums sum;

	if (!t || r.h < 2)
		return;
	if (lat)
		latency_line(f, r, r.y + r.h - 1, ctx, &t->lat);
	r.h -= lat;	/* the rest as before, above it */
	memset(&sum, 0, sizeof(sum));
	title(f, r, t, ctx->ascii);
	if (t->state == LR_VTS_ERROR && t->error) {
		lr_frame_text(f, r.x + 1, r.y + 1, r.w - 2, LR_ROLE_ALERT, t->error);
		y = r.y + 2;
		rows = r.h - 2;
		if (!n)
			return;
	} else {
		header(f, r.x, r.y + 1, r.w);
		lr_view_numa_stream_header(f, r.x, r.y + 1, r.w, snap);
	}
	if (!n) {
		char buf[64];

		if (r.h > 2)
			lr_view_text_words(f, r.x + C_ID, y, r.w - 2, LR_ROLE_LABEL,
					   empty_text(t, buf, sizeof(buf)), ctx->ascii);
		return;
	}
	shown = n <= (size_t)(rows > 0 ? rows : 0) ? n : (rows > 1 ? (size_t)rows - 1 : 0);
	for (size_t i = 0; i < n; i++) {
		if (i < shown)
			stream_row(f, r.x, y++, r.w, ctx, t, &snap->streams[i]);
		add_sum(&sum, t, snap, &snap->streams[i]);
	}
	if (shown < n && rows > 0)	/* a 3-row band (80x24) has room for the sum row only */
		lr_frame_printf(f, r.x + C_ID, y++, r.w - 2, LR_ROLE_LABEL, "+%zu more streams",
				n - shown);
	if (y < r.y + r.h)
		sum_row(f, r.x, r.y + r.h - 1, r.w, ctx, t, n, &sum);
}
