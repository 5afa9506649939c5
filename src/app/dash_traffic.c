// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dashboard's traffic test (-c HOST, --demo): keys start, stop and retune it through the
 * session (a rate change reaches running senders live; streams, protocol or direction
 * restart it), its state follows the client, each ended test gets a verdict panel, and the
 * last result is printed when the dashboard closes. With a linerate peer, its view: the peer's
 * newest snapshot plus what the detail view's panes draw from and the wire does not carry
 * (graph history, peaks and totals per interface since the test began), kept from the peer's
 * own rows so its detail view is ours in the same panes and units; a new test starts afresh,
 * and the display's pause freezes it as it freezes ours. Main thread.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/run/demo.h"
#include "linerate/run/peer.h"
#include "linerate/diagnose/latency.h"
#include "linerate/diagnose/peer_loss.h"
#include "linerate/present/peer_out.h"
#include "linerate/run/recorder.h"
#include "linerate/run/server_watch.h"
#include "linerate/collect/route.h"
#include "linerate/core/clock.h"
#include "linerate/core/strutil.h"
#include "linerate/present/iperf3_out.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/present/verdict_out.h"
#include "linerate/sample/snapshot.h"

#include "dashboard_priv.h"

/* Rate changes reach the running senders when this side sends them all. */
static bool tr_live(const struct traffic *t)
{
	return !t->knobs.reverse && !t->knobs.bidir;
}

/* The achieved rate per stream of the newest snapshot (the streams this side counts), <= 0
 * unknown. */
static double tr_measured(const struct dash *d)
{
	const struct lr_snapshot *s = &d->fresh;
	double sum = 0;
	size_t n = 0;

	if (!d->tr.ses.client)
		return -1;
	for (size_t i = 0; i < s->n_streams; i++) {
		if (s->streams[i].valid) {
			sum += s->streams[i].bps;
			n++;
		}
	}
	return n ? sum / (double)n : -1;
}

static void tr_config(const struct traffic *t, struct lr_traffic_config *tc)
{
	*tc = t->base;
	tc->udp = t->knobs.udp;
	tc->reverse = t->knobs.reverse;
	tc->bidir = t->knobs.bidir;
	tc->parallel = t->knobs.parallel;
	tc->bitrate_bps = t->knobs.rate_bps;
	tc->bitrate_set = true;
	tc->length = t->knobs.length;
}

void lr_dash_tr_start(struct dash *d)
{
	struct traffic *t = &d->tr;
	struct lr_traffic_config tc;

	tr_config(t, &tc);
	t->restart = t->want_verdict = false;
	t->last_failed = false;
	t->last_data_ns = 0;
	t->good_bps = -1;
	t->have_peer_sum = false;
	if (lr_session_start(&t->ses, &tc, t->duration_ns)) {
		t->last_failed = true;
		t->state = LR_VTS_ERROR;
		lr_dash_msg(d, true, "%s", t->ses.error);
		return;
	}
	t->state = LR_VTS_CONNECTING;
}

/* Asks the running test to end; it is closed once a snapshot has seen its last bytes. */
static void tr_stop(struct dash *d, bool verdict, bool restart)
{
	struct traffic *t = &d->tr;

	if (!t->ses.client)
		return;
	if (lr_session_active(&t->ses)) {
		t->want_verdict = verdict;
		lr_session_stop(&t->ses);
	}
	t->restart = restart;	/* `s` after a restart key: stop, no restart */
}

/* Where the data stopped, for a failed test's panel: the last tick whose streams moved bytes,
 * as seconds into the test, and that interval's rate. false when it never started. */
static bool tr_stopped_text(const struct traffic *t, bool bytes, char *buf, size_t len)
{
	const struct lr_session *ses = &t->ses;
	char r[32];

	if (!ses->running_ns)
		return false;
	if (!t->last_data_ns || t->last_data_ns < ses->running_ns) {
		snprintf(buf, len, "no interval moved data; it failed %.1f s into the test",
			 (double)ses->elapsed_at_end_ns / 1e9);
		return true;
	}
	/* the last tick with data is cut short by the failure: the one before it was whole */
	lr_view_fmt_rate(r, sizeof(r), t->good_bps > 0 ? t->good_bps : t->last_data_bps, bytes);
	snprintf(buf, len, "data stopped %.1f s into the test (the last whole interval: %s), "
		 "failed at %.1f s",
		 (double)(t->last_data_ns - ses->running_ns) / 1e9, r,
		 (double)ses->elapsed_at_end_ns / 1e9);
	return true;
}

/* The verdict panel of the test that just ended (the session computed the verdict when the
 * test ran; a failed test's panel says why, where its data stopped, and what it measured).
 * peer: the peer's own counters over the test, NULL when it shares none. */
static void tr_verdict(struct dash *d, const struct lr_peer_summary *peer)
{
	struct traffic *t = &d->tr;
	const struct lr_session *ses = &t->ses;
	bool failed = t->state == LR_VTS_ERROR;
	double secs = (double)ses->elapsed_at_end_ns / 1e9;

	if (ses->have_res && ses->res->n_streams && ses->res->duration_ns)
		secs = (double)ses->res->duration_ns / 1e9;
	snprintf(t->vtitle, sizeof(t->vtitle), "%s x%u %s %s, %.1f s, %s",
		 t->knobs.udp ? "UDP" : "TCP", t->knobs.parallel,
		 t->knobs.bidir ? "<->" : t->knobs.reverse ? "<-" : "->",
		 t->view.host ? t->view.host : "-", secs,
		 failed		  ? "failed"
		 : ses->stop_asked ? "stopped (sender's counts)"
				   : "done");
	memset(&t->vview, 0, sizeof(t->vview));
	t->vview.v = ses->have_verdict ? &ses->verdict : NULL;
	t->vview.acc = ses->acc;
	t->vview.t = &ses->vt;
	t->vview.test = t->vtitle;
	if (ses->have_cycles) {
		t->vview.cycles = ses->cycles.conclusion;
		t->vview.cycles_bound = ses->cycles.bound >= 0;
	}
	if (failed) {
		snprintf(t->vfail, sizeof(t->vfail), "%s",
			 ses->error[0] ? ses->error : "the test failed");
		t->vview.failure = t->vfail;
		if (tr_stopped_text(t, d->app.bytes, t->vstop, sizeof(t->vstop)))
			t->vview.stopped = t->vstop;
	}
	if (peer) {
		struct lr_traffic_config tc;

		tr_config(t, &tc);
		t->vview.peer_lost = lr_peer_loss_sentence(peer, &tc, t->vpeer, sizeof(t->vpeer));
		t->vview.peer_loss = t->vpeer;
	}
	t->have_verdict = true;
	d->app.have_verdict = true;
}

/* The test has ended and a snapshot saw its last bytes: results, verdict, close. A failed
 * test gets its panel too: what was measured until the failure, and why it failed. */
static void tr_finish(struct dash *d)
{
	struct traffic *t = &d->tr;
	struct lr_session *ses = &t->ses;
	struct lr_peer_summary *peer = &t->peer_sum;
	bool ran, have_peer;

	/* the peer's totals before the session closes its channel */
	have_peer = ses->peer && lr_peer_rx_summary(ses->peer, peer) == 0;
	lr_session_finish(ses);
	ran = ses->running_ns != 0;
	t->last_failed = ses->failed;
	if (ses->failed) {
		t->state = LR_VTS_ERROR;
		lr_dash_msg(d, true, "traffic: %s", ses->error[0] ? ses->error : "the test failed");
	} else {
		t->state = ses->stop_asked ? LR_VTS_STOPPED : LR_VTS_DONE;
	}
	t->have_peer_sum = have_peer && ran;
	if (ran || ses->failed)
		tr_verdict(d, t->have_peer_sum ? peer : NULL);
	if ((ran || ses->failed) && (t->want_verdict || !ses->stop_asked || ses->failed) &&
	    !t->restart)
		d->app.verdict = true;
	if (!ses->failed && !t->restart && d->app.verdict) {
		lr_dash_msg(d, false, "test %s: verdict shown (Esc closes, V reopens, s starts another)",
		     ses->stop_asked ? "stopped" : "done");
		d->status_is_verdict = true;
	}
	if (t->restart)
		lr_dash_tr_start(d);
}

/* The newest snapshot's streams: remember the last tick that moved data (a failed test's
 * panel says where its data stopped). */
static void tr_track_data(struct dash *d)
{
	struct traffic *t = &d->tr;
	const struct lr_snapshot *s = &d->fresh;
	uint64_t bytes = 0;
	double bps = 0;

	if (!t->ses.client || s->seq == t->data_seq)
		return;
	t->data_seq = s->seq;
	for (size_t i = 0; i < s->n_streams; i++) {
		if (!s->streams[i].valid)
			continue;
		bytes += s->streams[i].bytes;
		bps += s->streams[i].bps;
	}
	if (bytes) {
		t->good_bps = t->last_data_ns ? t->last_data_bps : -1;
		t->last_data_ns = s->mono_ns;
		t->last_data_bps = bps;
	}
}

/* Follows the client's state; true when the screen changed. */
bool lr_dash_tr_poll(struct dash *d)
{
	struct traffic *t = &d->tr;
	enum lr_view_tstate old = t->state;
	uint64_t now = lr_clock_mono_ns(), grace;
	bool peer_wait;

	if (!t->ses.client)
		return false;
	tr_track_data(d);
	switch (lr_session_poll(&t->ses)) {
	case LR_CLIENT_IDLE:
	case LR_CLIENT_CONNECTING:
		t->state = LR_VTS_CONNECTING;
		break;
	case LR_CLIENT_RUNNING:
		t->state = LR_VTS_RUNNING;
		break;
	case LR_CLIENT_ENDING:
		t->state = LR_VTS_ENDING;
		break;
	case LR_CLIENT_DONE:
	case LR_CLIENT_ERROR:
		t->state = LR_VTS_ENDING;
		/* close once a snapshot taken after the end is in (CSV, verdict) and the peer's
		 * last frame with its totals (a failed test sends none), or give up waiting */
		grace = d->app.interval_ns + 100 * LR_NSEC_PER_MSEC;
		if (grace > FINAL_TICK_MAX_NS)
			grace = FINAL_TICK_MAX_NS;
		peer_wait = t->ses.peer && lr_client_state(t->ses.client) == LR_CLIENT_DONE &&
			    !lr_peer_rx_wait_end(t->ses.peer, 0);
		if (peer_wait && grace < PEER_END_WAIT_NS)
			grace = PEER_END_WAIT_NS;
		if ((d->last_snap_mono_ns >= t->ses.done_ns && !peer_wait) ||
		    now >= t->ses.done_ns + grace)
			tr_finish(d);
		break;
	}
	return t->state != old;
}

void lr_dash_tr_key(struct dash *d, enum lr_action act)
{
	struct traffic *t = &d->tr;
	char msg[LR_UI_MSG_MAX + 32];
	enum lr_traffic_change ch;
	bool running = lr_session_active(&t->ses);

	if (act == LR_ACT_TRAFFIC_TOGGLE) {
		if (running) {
			tr_stop(d, true, false);
			lr_dash_msg(d, false, "stopping the test");
		} else if (t->ses.client) {	/* ended, closing: start again right after */
			t->restart = true;
			lr_dash_msg(d, false, "starting a new test");
		} else {
			lr_dash_tr_start(d);
			if (t->ses.client)
				lr_dash_msg(d, false, "starting: %s x%u to %s", t->knobs.udp ? "UDP" : "TCP",
				     t->knobs.parallel, t->view.host);
		}
		return;
	}
	ch = lr_ui_traffic_key(&t->knobs, act, tr_measured(d), running, tr_live(t), msg,
				sizeof(msg));
	t->view.knobs = t->knobs;
	if (ch == LR_TCHG_RATE && running && tr_live(t))
		lr_session_set_rate(&t->ses, t->knobs.rate_bps);	/* the streams' target too */
	else if (ch != LR_TCHG_NONE && running)
		tr_stop(d, false, true);
	lr_dash_msg(d, false, "%s", msg);
}

/* -c HOST or --demo: the server (demo), the route interface, the session. 0 or -errno
 * (d->fatal says why). The first test starts once the source runs. */
int lr_dash_tr_setup(struct dash *d)
{
	const struct lr_config *cfg = d->cfg;
	struct traffic *t = &d->tr;
	int err;

	if ((!cfg->traffic.host && !cfg->traffic.demo) || cfg->matrix)
		return 0;	/* --matrix: the grid drives the tests */
	if (cfg->traffic.demo) {
		err = lr_demo_open(&t->demo);
		if (err) {
			snprintf(d->fatal, sizeof(d->fatal),
				 "--demo: cannot listen on %s ports %d-%d: %s", LR_DEMO_HOST,
				 LR_DEMO_PORT_FIRST, LR_DEMO_PORT_LAST, strerror(-err));
			return err;
		}
		/* the ports tried before the free one logged "in use": news of no consequence */
		{
			struct lr_log_entry skip[16];

			while (lr_log_read(&d->log_seen, skip, LR_ARRAY_SIZE(skip)) > 0)
				;
		}
		lr_demo_traffic(t->demo, &cfg->traffic, &t->base);
		lr_strlcpy(t->iface, LR_DEMO_IFACE, sizeof(t->iface));
	} else {
		t->base = cfg->traffic;
		err = lr_route_iface(t->base.host, t->iface, sizeof(t->iface));
		if (err) {
			t->iface[0] = '\0';
			lr_log(LR_LOG_WARN, "no route interface for %s: %s", t->base.host,
			       strerror(-err));
		}
	}
	if (lr_session_init(&t->ses, NULL, t->iface)) {
		snprintf(d->fatal, sizeof(d->fatal), "out of memory");
		return -ENOMEM;
	}
	t->on = true;
	t->duration_ns = cfg->duration_set && cfg->duration_ns ? cfg->duration_ns : UNTIL_STOPPED_NS;
	t->knobs.udp = t->base.udp;
	t->knobs.reverse = t->base.reverse;
	t->knobs.bidir = t->base.bidir;
	t->knobs.parallel = t->base.parallel ? t->base.parallel : 1;
	t->knobs.rate_bps = t->base.bitrate_bps;
	t->knobs.length = t->base.length;
	t->state = LR_VTS_IDLE;
	t->view.host = t->base.host;
	t->view.port = t->base.port;
	t->view.iface = t->iface;
	t->view.knobs = t->knobs;
	d->app.traffic = true;
	d->ctx.streams_pane = lr_view_streams;
	d->ctx.streams_arg = &t->view;
	return 0;
}

/* The test's probes as the Streams pane's latency line shows them: a copy, by state. */
static void view_latency(struct lr_view_latency *v, const struct lr_session *ses)
{
	const struct lr_latency *l = ses->lat;

	v->state = LR_VLAT_NONE;
	v->p50_ms = v->p99_ms = v->idle_p99_ms = -1;
	v->lost = 0;
	memset(&v->p99, 0, sizeof(v->p99));
	if (!l || (!l->known && !ses->client))
		return;
	v->state = !l->known || l->state == LR_PROBE_ASKED || l->state == LR_PROBE_IDLE
			   ? LR_VLAT_WAIT
		   : l->state == LR_PROBE_UNOFFERED ? LR_VLAT_PLAIN
		   : l->state == LR_PROBE_OFF	    ? LR_VLAT_OFF
						    : LR_VLAT_ON;
	if (v->state != LR_VLAT_ON)
		return;
	v->idle_p99_ms = l->idle.p99_ns < 0 ? -1 : (double)l->idle.p99_ns / 1e6;
	v->lost = l->lost;
	unsigned first = lr_latency_first_iv(l);

	if (l->n_iv - first > LR_HIST_LEN)
		first = l->n_iv - LR_HIST_LEN;
	for (unsigned i = first; i < l->n_iv; i++) {
		const struct lr_latency_q *q = &lr_latency_iv_at(l, i)->q;

		lr_series_push(&v->p99, q->p99_ns < 0 ? NAN : (double)q->p99_ns / 1e6);
		if (q->p99_ns >= 0) {
			v->p99_ms = (double)q->p99_ns / 1e6;
			v->p50_ms = (double)q->p50_ns / 1e6;
		}
	}
	if (!l->n_iv)	/* under load, no interval closed yet: the baseline alone */
		v->state = LR_VLAT_WAIT;
}

void lr_dash_tr_update_view(struct dash *d)
{
	struct traffic *t = &d->tr;
	const struct lr_session *ses = &t->ses;
	uint64_t now = lr_clock_mono_ns();

	t->view.state = t->state;
	t->view.knobs = t->knobs;
	t->view.error = t->state == LR_VTS_ERROR ? ses->error : NULL;
	view_latency(&t->view.lat, ses);
	d->ctx.streams_extra_rows = t->view.lat.state != LR_VLAT_NONE;
	t->view.duration_s = t->duration_ns == UNTIL_STOPPED_NS ? 0 : (double)t->duration_ns / 1e9;
	if (ses->running_ns)
		t->view.elapsed_s =
			(double)((ses->done_ns ? ses->done_ns : now) - ses->running_ns) / 1e9;
	else
		t->view.elapsed_s = -1;
	/* --demo receives too: the pane's UDP lost is the receiver's live count (issue 17) */
	if (t->demo && (t->rv || (t->rv = lr_server_watch_view_new()))) {
		const struct lr_server_test_view *rv = t->rv;

		lr_server_watch_read(lr_demo_watch(t->demo), t->rv);
		t->view.n_recv = 0;
		for (unsigned i = 0; rv->seq && i < rv->info.n_streams && i < LR_VIEW_STREAM_BASE_MAX;
		     i++)
			if (!rv->info.streams[i].sender)
				t->recv[t->view.n_recv++] = (struct lr_view_stream_base){
					.id = rv->info.streams[i].id,
					.lost = rv->c[i].lost,
				};
		t->view.recv = t->recv;
	}
}

const struct lr_view_loss *lr_dash_tr_loss(struct dash *d)
{
	const struct lr_session *ses = &d->tr.ses;
	struct lr_view_loss *lv = &d->tr.loss;

	memset(lv, 0, sizeof(*lv));
	lv->sender_local = !ses->reverse || ses->bidir;
	if (ses->live.steps) {
		lv->interval = &ses->live.interval;
		lv->interval_s = ses->live.interval_s;
		lv->total = &ses->live.total;
	}
	if (ses->live_rev.steps) {	/* --bidir's down direction */
		lv->rev_interval = &ses->live_rev.interval;
		lv->rev_interval_s = ses->live_rev.interval_s;
		lv->rev_total = &ses->live_rev.total;
	}
	if (ses->have_ledger && !lr_session_active(ses)) {	/* the receiver's own count in */
		lv->total = &ses->ledger;
		lv->rev_total = ses->have_ledger_rev ? &ses->ledger_rev : NULL;
		lv->ended = true;
	}
	return lv;
}

/* Quit or a signal: stop the test (the peer is told), wait for its end. */
void lr_dash_tr_shutdown(struct dash *d)
{
	if (!lr_session_shutdown(&d->tr.ses, STOP_WAIT_NS))
		lr_log(LR_LOG_WARN, "the traffic client did not stop within 2 s");
}

void lr_dash_tr_close(struct dash *d)
{
	struct traffic *t = &d->tr;

	lr_session_free(&t->ses);
	lr_demo_close(t->demo);
	t->demo = NULL;
	free(t->rv);
	t->rv = NULL;
}

/* After the terminal is back: the last test's iperf3 summary and verdict stay on the screen,
 * and a test that failed makes the exit status 1 (as headless). */
void lr_dash_print_result(struct dash *d)
{
	const struct lr_session *ses = &d->tr.ses;

	if (!d->tr.on)
		return;
	if (ses->have_res && ses->res->n_streams && (ses->res->complete || ses->res->stopped))
		lr_iperf3_print_summary(stdout, ses->res, d->cfg->format, d->cfg->verbose);
	if (ses->have_verdict && ses->samples) {
		fputc('\n', stdout);
		lr_verdict_print(stdout, ses->acc, &ses->verdict);
	}
	if (d->tr.have_peer_sum) {	/* as headless: the peer's totals and its loss */
		struct lr_traffic_config tc;

		tr_config(&d->tr, &tc);
		lr_peer_report_text(stdout, &d->tr.peer_sum, &tc);
	}
	fflush(stdout);
	if (d->tr.last_failed) {
		if (!d->fatal[0])
			snprintf(d->fatal, sizeof(d->fatal), "traffic: %s",
				 ses->error[0] ? ses->error : "the test failed");
		d->rc = 1;
	}
}

/* ---- the peer view as the dashboard shows it ---- */

#define PEER_VIEW_IFACES 8

struct peer_iface_hist {
	char name[LR_IFNAMSIZ];
	uint32_t generation;
	struct lr_series hist[LR_SER__COUNT];
	struct lr_peak peak_rx_bps, peak_tx_bps, peak_rx_pps, peak_tx_pps;
	uint64_t total[LR_M__COUNT];
	uint64_t total_valid;
};

struct lr_dash_peer {
	const struct lr_peer_rx *rx; /* whose rows these are: another test starts afresh */
	uint64_t seq; /* the peer's snapshot last taken in */
	bool have;
	struct lr_snapshot snap; /* its newest, with the history below filled in */
	struct peer_iface_hist ifs[PEER_VIEW_IFACES];
	size_t n_ifs;
};

static struct peer_iface_hist *hist_of(struct lr_dash_peer *dp, const struct lr_iface_snap *is)
{
	for (size_t i = 0; i < dp->n_ifs; i++)
		if (!strcmp(dp->ifs[i].name, is->name) && dp->ifs[i].generation == is->generation)
			return &dp->ifs[i];
	if (dp->n_ifs == PEER_VIEW_IFACES)
		return NULL;
	memset(&dp->ifs[dp->n_ifs], 0, sizeof(dp->ifs[0]));
	memcpy(dp->ifs[dp->n_ifs].name, is->name, sizeof(is->name));
	dp->ifs[dp->n_ifs].generation = is->generation;
	return &dp->ifs[dp->n_ifs++];
}

static double rate(const struct lr_iface_snap *is, enum lr_metric m, double mul)
{
	return (is->valid & LR_M_BIT(m)) ? is->per_s[m] * mul : NAN;
}

/* One new peer row: history, peaks and totals, then copied into the row for the panes. */
static void take_in(struct lr_dash_peer *dp, struct lr_iface_snap *is)
{
	struct peer_iface_hist *h = hist_of(dp, is);
	double rx_bps = rate(is, LR_M_RX_BYTES, 8), tx_bps = rate(is, LR_M_TX_BYTES, 8);
	double rx_pps = rate(is, LR_M_RX_PACKETS, 1), tx_pps = rate(is, LR_M_TX_PACKETS, 1);

	if (!h)
		return;
	lr_series_push(&h->hist[LR_SER_RX_BPS], rx_bps);
	lr_series_push(&h->hist[LR_SER_TX_BPS], tx_bps);
	lr_series_push(&h->hist[LR_SER_RX_PPS], rx_pps);
	lr_series_push(&h->hist[LR_SER_TX_PPS], tx_pps);
	lr_peak_add(&h->peak_rx_bps, rx_bps);
	lr_peak_add(&h->peak_tx_bps, tx_bps);
	lr_peak_add(&h->peak_rx_pps, rx_pps);
	lr_peak_add(&h->peak_tx_pps, tx_pps);
	for (unsigned m = 0; m < LR_M__COUNT; m++)
		if (is->valid & LR_M_BIT(m)) {
			h->total[m] += is->delta[m];
			h->total_valid |= LR_M_BIT(m);
		}
	memcpy(is->hist, h->hist, sizeof(is->hist));
	is->peak_rx_bps = h->peak_rx_bps;
	is->peak_tx_bps = h->peak_tx_bps;
	is->peak_rx_pps = h->peak_rx_pps;
	is->peak_tx_pps = h->peak_tx_pps;
	memcpy(is->total, h->total, sizeof(is->total));
	is->total_valid = h->total_valid;
}

/* A stale peer's last rates are not its present ones: unknown, shown "-" (the copy is redone
 * when a frame comes again). */
static void forget_rates(struct lr_snapshot *s)
{
	for (size_t i = 0; i < s->n_ifaces; i++) {
		s->ifaces[i].valid = s->ifaces[i].stale = 0;
		s->ifaces[i].softirq_max_pct = -1;
		for (size_t q = 0; q < s->ifaces[i].n_queues; q++)
			s->ifaces[i].queues[q].valid = 0;
	}
	for (size_t i = 0; i < s->n_cpus; i++)
		s->cpus[i].valid &= LR_CPUV_NODE;
	s->stack.valid = 0;
}

const struct lr_snapshot *lr_dash_peer_view(struct dash *d, const char **host)
{
	struct lr_dash_peer *dp = d->peer;
	struct lr_peer_rx *rx = d->tr.ses.peer;
	const struct lr_snapshot *s = lr_peer_rx_snapshot(rx, host);
	uint64_t stale = s ? lr_peer_rx_stale_ns(rx, lr_clock_mono_ns()) : 0;

	d->ctx.peer_stale_s = (double)stale / 1e9;
	if (!s)
		return NULL; /* no test, a plain iperf3, or nothing from the peer yet */
	if (!dp && !(dp = d->peer = calloc(1, sizeof(*dp))))
		return s; /* no memory: the panes without history */
	if (dp->rx != rx || s->seq < dp->seq) { /* another test: its own history */
		dp->rx = rx;
		dp->seq = 0;
		dp->n_ifs = 0;
		dp->have = false;
	}
	if (s->seq != dp->seq && !(d->app.paused && dp->have)) {
		if (lr_snapshot_copy(&dp->snap, s))
			return dp->have ? &dp->snap : s;
		dp->seq = s->seq;
		dp->have = true;
		for (size_t i = 0; i < dp->snap.n_ifaces; i++)
			take_in(dp, &dp->snap.ifaces[i]);
	}
	if (stale && dp->have)
		forget_rates(&dp->snap);
	return dp->have ? &dp->snap : s;
}

void lr_dash_peer_free(struct dash *d)
{
	if (!d->peer)
		return;
	lr_snapshot_free(&d->peer->snap);
	free(d->peer);
	d->peer = NULL;
}
