// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One traffic test's lifecycle for every mode, and the glue between the traffic client and
 * the rest: the sampler reads its streams through a gen source, the verdict takes its
 * results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "linerate/collect/route.h"
#include "linerate/core/clock.h"
#include "linerate/core/strutil.h"
#include "linerate/diagnose/latency.h"
#include "linerate/diagnose/peer_loss.h"
#include "linerate/run/peer.h"
#include "linerate/core/log.h"
#include "linerate/core/strutil.h"
#include "linerate/run/session.h"
#include "linerate/run/snapsrc.h"
#include "linerate/sample/csv.h"
#include "linerate/sample/snapshot.h"

static unsigned gen_count(void *arg)
{
	return lr_client_stream_count(arg);
}

static int gen_info(void *arg, unsigned i, struct lr_gen_stream *out)
{
	struct lr_client_stream_info ci;
	int err = lr_client_stream_info(arg, i, &ci);

	if (err)
		return err;
	out->id = ci.id;
	out->sender = ci.sender;
	out->udp = ci.udp;
	out->stats = ci.stats;
	return 0;
}

void lr_client_gen_source(struct lr_client *c, struct lr_gen_source *out)
{
	out->count = gen_count;
	out->info = gen_info;
	out->arg = c;
}

static double rate_of(const struct lr_traffic_sum *s)
{
	if (s->received_bytes && s->receiver_s > 0)
		return (double)s->received_bytes * 8 / s->receiver_s;
	if (s->sent_bytes && s->sender_s > 0)	/* stopped early: the peer's count is unknown */
		return (double)s->sent_bytes * 8 / s->sender_s;
	return -1;
}

static double sent_rate(const struct lr_traffic_sum *s)
{
	return s->n_streams && s->sender_s > 0 ? (double)s->sent_bytes * 8 / s->sender_s : -1;
}

static int64_t add_known(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	return b < 0 ? a : a + b;
}

void lr_verdict_traffic_from(const struct lr_traffic_results *r, struct lr_verdict_traffic *vt)
{
	memset(vt, 0, sizeof(*vt));
	vt->retransmits = vt->udp_lost = vt->udp_packets = -1;
	for (unsigned d = 0; d < LR_LDIR__COUNT; d++)
		vt->dir_retransmits[d] = vt->dir_udp_lost[d] = vt->dir_udp_packets[d] =
			vt->dir_sent_bytes[d] = -1;
	vt->up_bps = vt->down_bps = vt->sent_up_bps = vt->sent_down_bps = -1;
	vt->udp = r->udp;
	vt->parallel = r->parallel;
	vt->reverse = r->reverse;
	vt->bidir = r->bidir;
	vt->bitrate_bps = r->bitrate_bps;
	if (!r->n_streams)
		return;
	vt->ran = true;
	vt->up_bps = r->sum_up.n_streams ? rate_of(&r->sum_up) : -1;
	vt->down_bps = r->sum_down.n_streams ? rate_of(&r->sum_down) : -1;
	vt->sent_up_bps = sent_rate(&r->sum_up);
	vt->sent_down_bps = sent_rate(&r->sum_down);
	vt->dir_sent_bytes[LR_LDIR_UP] = r->sum_up.n_streams ? (int64_t)r->sum_up.sent_bytes : -1;
	vt->dir_sent_bytes[LR_LDIR_DOWN] =
		r->sum_down.n_streams ? (int64_t)r->sum_down.sent_bytes : -1;
	vt->dir_retransmits[LR_LDIR_UP] = r->sum_up.n_streams ? r->sum_up.retransmits : -1;
	vt->dir_retransmits[LR_LDIR_DOWN] = r->sum_down.n_streams ? r->sum_down.retransmits : -1;
	vt->retransmits = add_known(vt->dir_retransmits[LR_LDIR_UP],
				    vt->dir_retransmits[LR_LDIR_DOWN]);
	for (unsigned i = 0; r->udp && i < r->n_streams; i++) {
		const struct lr_traffic_stream_result *e = &r->streams[i];
		unsigned d = e->client_sends ? LR_LDIR_UP : LR_LDIR_DOWN;

		if (e->client_sends && !e->have_peer)
			continue;	/* stopped early: the server's loss count is unknown */
		vt->dir_udp_lost[d] = add_known(vt->dir_udp_lost[d], e->lost);
		vt->dir_udp_packets[d] = add_known(vt->dir_udp_packets[d], e->packets_sent);
	}
	vt->udp_lost = add_known(vt->dir_udp_lost[LR_LDIR_UP], vt->dir_udp_lost[LR_LDIR_DOWN]);
	vt->udp_packets = add_known(vt->dir_udp_packets[LR_LDIR_UP],
				    vt->dir_udp_packets[LR_LDIR_DOWN]);
}

int lr_session_init(struct lr_session *s, struct lr_snapsrc *src, const char *iface)
{
	struct utsname u;

	memset(s, 0, sizeof(*s));
	s->src = src;
	if (iface)
		snprintf(s->iface, sizeof(s->iface), "%s", iface);
	if (uname(&u) == 0)
		lr_strlcpy(s->host, u.nodename, sizeof(s->host));
	s->acc = calloc(1, sizeof(*s->acc));
	s->res = calloc(1, sizeof(*s->res));
	s->cyc = calloc(1, sizeof(*s->cyc));
	s->lat = calloc(1, sizeof(*s->lat));
	s->probe_now = calloc(1, sizeof(*s->probe_now));
	s->probe_prev = calloc(1, sizeof(*s->probe_prev));
	if (!s->acc || !s->res || !s->cyc || !s->lat || !s->probe_now || !s->probe_prev) {
		lr_session_free(s);
		return -ENOMEM;
	}
	lr_latency_init(s->lat, false);
	return 0;
}

/* The wire stage's condition (docs/design.md §14): the peer is on the link of the interface the
 * verdict reads. The demo's server is this process. Not knowing is not one link: no stage. */
static bool one_link(const struct lr_session *s, const struct lr_traffic_config *tc)
{
	char oif[LR_IFNAMSIZ];
	bool one = false;

	if (tc->demo || !tc->host || lr_route_one_link(tc->host, oif, sizeof(oif), &one))
		return false;
	return one && (!s->iface[0] || !strcmp(oif, s->iface));
}

int lr_session_start(struct lr_session *s, const struct lr_traffic_config *tc,
		     uint64_t duration_ns)
{
	int err;

	s->stop_asked = s->failed = s->have_res = s->have_verdict = s->have_ledger = false;
	s->have_ledger_rev = false;
	s->have_cycles = false;
	s->running_ns = s->done_ns = s->elapsed_at_end_ns = 0;
	s->samples = 0;
	s->error[0] = '\0';
	s->udp = tc->udp;
	s->parallel = tc->parallel ? tc->parallel : 1;
	s->window = tc->window;
	s->demo = tc->demo;
	s->reverse = tc->reverse;
	s->bidir = tc->bidir;
	s->rr = tc->rr_req_bytes != 0;
	s->one_link = one_link(s, tc);
	lr_ledger_live_reset(&s->live);
	lr_ledger_live_reset(&s->live_rev);
	lr_latency_reset(s->lat);
	s->probe_have_prev = false;
	s->lat_every_ns = tc->report_interval_ns ? tc->report_interval_ns : LR_NSEC_PER_SEC;
	s->lat_last_ns = s->lat_next_ns = 0;
	err = lr_client_open(&s->client, tc, duration_ns);
	if (err) {
		s->client = NULL;
		snprintf(s->error, sizeof(s->error), "cannot set up the test: %s", strerror(-err));
		return err;
	}
	err = lr_client_start(s->client);
	if (err) {
		lr_client_close(s->client);
		s->client = NULL;
		snprintf(s->error, sizeof(s->error), "cannot start the test: %s", strerror(-err));
		return err;
	}
	lr_client_gen_source(s->client, &s->gen);
	if (s->src)
		lr_snapsrc_set_traffic(s->src, &s->gen);
	lr_verdict_init(s->acc, s->iface[0] ? s->iface : NULL);
	lr_cycles_init(s->cyc);
	return 0;
}

bool lr_session_active(const struct lr_session *s)
{
	return s->client && !s->done_ns;
}

void lr_session_stop(struct lr_session *s)
{
	if (!lr_session_active(s))
		return;
	s->stop_asked = true;
	lr_client_stop(s->client);
}

void lr_session_set_rate(struct lr_session *s, uint64_t bps)
{
	if (lr_session_active(s))
		lr_client_set_rate(s->client, bps);
}

/* The server offered its samples: read them beside the test. Failing to is not the test's
 * failure (one log line). */
static void peer_open(struct lr_session *s)
{
	struct lr_client_peer off;
	int err;

	if (!lr_client_peer_offer(s->client, &off))
		return;
	err = lr_peer_rx_open(&s->peer, &off);
	if (err) {
		s->peer = NULL;
		lr_log(LR_LOG_WARN, "peer stats: cannot start: %s", strerror(-err));
	}
}

enum lr_client_state lr_session_poll(struct lr_session *s)
{
	enum lr_client_state st;
	uint64_t now;

	if (!s->client)
		return LR_CLIENT_IDLE;
	st = lr_client_state(s->client);
	now = lr_clock_mono_ns();
	if (!s->peer && !s->done_ns)
		peer_open(s);
	if (st == LR_CLIENT_RUNNING && !s->running_ns) {
		s->running_ns = now;
		/* the offer comes before the streams: it would be here by now. The demo's server
		 * is this process: its counters are the ones on screen, nothing to share */
		if (!s->peer && !s->demo)
			lr_log(LR_LOG_INFO, "the peer shares no counters");	/* 80 columns */
	}
	if ((st == LR_CLIENT_DONE || st == LR_CLIENT_ERROR) && !s->done_ns) {
		s->done_ns = now;
		if (s->running_ns)
			s->elapsed_at_end_ns = now - s->running_ns;
	}
	return st;
}

/* The books' totals now, with the engines' counts of this tick's streams and the peer's
 * newest frame, as the live ledger's next step: the test's direction, and under --bidir the
 * down one beside it (each from this host's streams of that direction). */
static void live_step(struct lr_session *s, const struct lr_snapshot *snap)
{
	struct lr_verdict_traffic vt = {.ran = true, .udp = s->udp, .reverse = s->reverse,
					.bidir = s->bidir, .window_bytes = s->window,
					.one_link = s->one_link};
	struct lr_ledger_live *live[2] = {&s->live, &s->live_rev};
	enum lr_ledger_dir dirs[2];
	struct lr_peer_summary peer;
	struct lr_ledger_input in;
	bool have_peer = s->peer && lr_peer_rx_summary(s->peer, &peer) == 0;
	unsigned n = lr_verdict_dirs(&vt, dirs);

	for (unsigned i = 0; i < n && i < LR_ARRAY_SIZE(live); i++) {
		int64_t sent, lost, bytes;

		lr_ledger_live_counts(snap, s->udp, dirs[i] == LR_LDIR_DOWN, &sent, &lost, &bytes);
		vt.dir_sent_bytes[dirs[i]] = bytes;
		vt.udp_packets = vt.dir_udp_packets[dirs[i]] = sent;
		vt.udp_lost = vt.retransmits = vt.dir_udp_lost[dirs[i]] = lost;
		vt.dir_retransmits[dirs[i]] = lost;
		if (!lr_verdict_ledger_input(s->acc, &vt, have_peer ? &peer : NULL, s->host,
					     dirs[i], &in))
			return;
		lr_ledger_live_step(live[i], &in, snap->mono_ns, snap->interval_ns);
	}
	s->live_real_ns = snap->real_ns;
	s->live_elapsed_ns = snap->elapsed_ns;
}

/* The probes' newest reading; at each report interval's end (or final: the test's) an
 * interval from the reading before. An engine that cannot say leaves the latency unknown. */
static void latency_read(struct lr_session *s, uint64_t now_ns, bool final)
{
	struct lr_latency_iv iv;
	struct lr_probe_stats *t;

	if (!s->client || !s->running_ns || lr_client_probe_stats(s->client, s->probe_now))
		return;
	lr_latency_update(s->lat, s->probe_now);
	if (lr_latency_none(s->lat))
		return;
	if (!s->lat_last_ns) {
		s->lat_last_ns = s->running_ns;
		s->lat_next_ns = s->running_ns + s->lat_every_ns;
	}
	if (now_ns <= s->lat_last_ns || (!final && now_ns < s->lat_next_ns))
		return;
	/* as iperf3: a last sliver under a tenth of the interval that sent nothing is noise */
	if (!lr_latency_interval(s->probe_now, s->probe_have_prev ? s->probe_prev : NULL,
				 (double)(s->lat_last_ns - s->running_ns) / 1e9,
				 (double)(now_ns - s->running_ns) / 1e9, &iv) &&
	    (iv.sent || (now_ns - s->lat_last_ns) * 10 >= s->lat_every_ns))
		lr_latency_add_iv(s->lat, &iv);
	t = s->probe_prev;	/* the newest becomes the base of the next interval */
	s->probe_prev = s->probe_now;
	s->probe_now = t;
	s->probe_have_prev = true;
	s->lat_last_ns = now_ns;
	while (s->lat_next_ns <= now_ns)
		s->lat_next_ns += s->lat_every_ns;
}

void lr_session_latency_tick(struct lr_session *s, uint64_t now_ns)
{
	latency_read(s, now_ns, false);
}

bool lr_session_latency_row(const struct lr_session *s, unsigned *seen, struct lr_csv_latency *out)
{
	const struct lr_latency_iv *iv;

	if (!s->lat || *seen >= s->lat->n_iv)
		return false;
	if (*seen < lr_latency_first_iv(s->lat))	/* a writer that fell a ring behind */
		*seen = lr_latency_first_iv(s->lat);
	iv = lr_latency_iv_at(s->lat, (*seen)++);
	out->answered = iv->answered;
	out->lost = iv->lost;
	out->p50_us = iv->q.p50_ns < 0 ? -1 : iv->q.p50_ns / 1000;
	out->p90_us = iv->q.p90_ns < 0 ? -1 : iv->q.p90_ns / 1000;
	out->p99_us = iv->q.p99_ns < 0 ? -1 : iv->q.p99_ns / 1000;
	out->max_us = iv->q.max_ns < 0 ? -1 : iv->q.max_ns / 1000;
	return true;
}

void lr_session_sample(struct lr_session *s, const struct lr_snapshot *snap)
{
	unsigned ticks;
	const char *host = NULL;
	const struct lr_snapshot *ps;

	if (!s->client || !s->running_ns)
		return;
	ticks = s->acc->ticks;
	lr_verdict_add(s->acc, snap);
	s->samples++;
	live_step(s, snap);
	latency_read(s, snap->mono_ns, false);
	if (s->acc->ticks == ticks)
		return;		/* outside the test's window: the cycles' ledger's too */
	lr_cycles_add(s->cyc, LR_CYCLES_LOCAL, snap, NULL);
	ps = lr_peer_rx_snapshot(s->peer, &host);
	if (ps)
		lr_cycles_add(s->cyc, LR_CYCLES_PEER, ps, host);
}

static void compute_verdict(struct lr_session *s)
{
	struct lr_verdict_traffic *vt = &s->vt;
	struct lr_peer_summary peer;
	enum lr_ledger_dir dirs[2];
	unsigned n;
	bool have_peer;

	if (s->have_res && s->res->n_streams) {
		lr_verdict_traffic_from(s->res, vt);
	} else {
		memset(vt, 0, sizeof(*vt));
		vt->retransmits = vt->udp_lost = vt->udp_packets = -1;
		for (unsigned d = 0; d < LR_LDIR__COUNT; d++)
			vt->dir_retransmits[d] = vt->dir_udp_lost[d] = vt->dir_udp_packets[d] = -1;
		vt->up_bps = vt->down_bps = vt->sent_up_bps = vt->sent_down_bps = -1;
		vt->udp = s->udp;
		vt->parallel = s->parallel;
	}
	vt->window_bytes = s->window;	/* -w: socket-buffer advice names the test's own */
	vt->one_link = s->one_link;
	lr_verdict_compute(s->acc, vt, &s->verdict);
	lr_verdict_latency(s->acc, vt, s->lat->known ? s->lat : NULL, &s->verdict);
	s->have_verdict = true;
	/* the ledger reads both ends: the peer's totals while its view is still open; under
	 * --bidir one per direction, the verdict concluded from the one that lost more */
	have_peer = s->peer && lr_peer_rx_summary(s->peer, &peer) == 0;
	n = s->samples ? lr_verdict_dirs(vt, dirs) : 0;
	s->have_ledger = n && lr_verdict_ledger_dir(s->acc, vt, have_peer ? &peer : NULL,
						    s->host, dirs[0], &s->ledger);
	s->ledger.requests_only = s->rr;
	s->have_ledger_rev = n > 1 && lr_verdict_ledger_dir(s->acc, vt, have_peer ? &peer : NULL,
							    s->host, dirs[1], &s->ledger_rev);
	if (s->have_ledger_rev) {
		const struct lr_ledger *both[2] = {&s->ledger, &s->ledger_rev};
		const struct lr_ledger *w = lr_verdict_worst(both, 2);

		if (!w)	/* no loss either way: a direction whose retransmits were reordering */
			w = s->ledger.reordered ? &s->ledger : s->ledger_rev.reordered ? &s->ledger_rev
											: NULL;
		if (w)
			lr_verdict_conclude(&s->verdict, w);
	} else if (s->have_ledger) {
		lr_verdict_conclude(&s->verdict, &s->ledger);
	}
	lr_strlcpy(s->cyc->side[LR_CYCLES_LOCAL].host, s->host,
		   sizeof(s->cyc->side[LR_CYCLES_LOCAL].host));
	lr_cycles_build(s->cyc, !vt->reverse || vt->bidir, vt->reverse || vt->bidir, s->rr,
			&s->cycles);
	s->have_cycles = s->samples > 0;
}

static void close_client(struct lr_session *s)
{
	if (!s->client)
		return;
	if (s->src)
		lr_snapsrc_set_traffic(s->src, NULL);	/* before the streams go away */
	lr_peer_rx_close(s->peer);
	s->peer = NULL;
	lr_client_close(s->client);
	s->client = NULL;
}

void lr_session_finish(struct lr_session *s)
{
	if (!s->client)
		return;
	lr_session_poll(s);
	s->failed = lr_client_state(s->client) == LR_CLIENT_ERROR;
	s->have_res = lr_client_results(s->client, s->res) == 0;
	if (s->failed)
		lr_client_error(s->client, s->error, sizeof(s->error));
	latency_read(s, s->done_ns ? s->done_ns : lr_clock_mono_ns(), true);	/* final counts */
	if (s->running_ns)
		compute_verdict(s);
	close_client(s);
}

bool lr_session_shutdown(struct lr_session *s, uint64_t wait_ns)
{
	if (!s->client)
		return true;
	lr_client_stop(s->client);
	return lr_client_wait(s->client, wait_ns);
}

void lr_session_free(struct lr_session *s)
{
	close_client(s);
	free(s->acc);
	free(s->res);
	free(s->cyc);
	if (s->lat)
		lr_latency_free(s->lat);
	free(s->lat);
	free(s->probe_now);
	free(s->probe_prev);
	s->lat = NULL;
	s->probe_now = s->probe_prev = NULL;
	s->cyc = NULL;
	s->acc = NULL;
	s->res = NULL;
}
