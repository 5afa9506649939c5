// SPDX-License-Identifier: GPL-2.0-or-later
/* The server's report of a test, as iperf3 -s prints one: the streams' counters every report
 * interval (ticks, taken on the session thread), and at the end both ends' results merged by
 * stream id, handed to the app's hook, which writes the report and, when the client asked
 * (--get-server-output), returns it for the results message. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"
#include "server_priv.h"

#define TICKS_MAX 100000 /* a day of 1 s intervals: enough, and bounded */
/* per stream and tick: bytes, retransmits, lost, packets (UDP: a sender's datagrams, a
 * receiver's highest sequence), jitter_ns (a level, not a count) */
#define TICK_VALS 5

/* The tick due next would end the test's last interval (within a tenth of an interval of -t's
 * end, -O's seconds over): the forced tick at the test's end takes its place, so the streams'
 * last bytes are in that interval and not in a short tail interval of their own. */
static bool last_held(const struct session *ss, uint64_t every)
{
	uint64_t base = ss->omit_taken ? ss->omit[0].at_ns : ss->t0_ns;

	return ss->p.time_s > 0 && (!ss->p.omit_s || ss->omit_taken) && ss->n_ticks &&
	       ss->next_tick_ns + every / 10 >= base + (uint64_t)ss->p.time_s * LR_NSEC_PER_SEC;
}

void lr_server_tick(struct session *ss, uint64_t now, bool force, bool omit_end)
{
	uint64_t every = ss->srv->o.interval_ns ? ss->srv->o.interval_ns : LR_NSEC_PER_SEC;
	struct tick *t;

	if (!ss->srv->o.report || !ss->streams)
		return;
	if (!force && (now < ss->next_tick_ns || last_held(ss, every)))
		return;
	if (ss->n_ticks == ss->cap_ticks) {
		unsigned cap = ss->cap_ticks ? 2 * ss->cap_ticks : 16;
		struct tick *nt;

		if (cap > TICKS_MAX || !(nt = realloc(ss->ticks, cap * sizeof(*nt))))
			return;
		ss->ticks = nt;
		ss->cap_ticks = cap;
	}
	t = &ss->ticks[ss->n_ticks];
	t->vals = calloc(TICK_VALS * (size_t)ss->n, sizeof(*t->vals));
	t->tcp = calloc(ss->n, sizeof(*t->tcp));
	if (!t->vals || !t->tcp) {
		free(t->vals);
		free(t->tcp);
		return;
	}
	t->at_ns = now;
	t->omit_end = omit_end;
	for (unsigned i = 0; i < ss->n; i++) {
		const struct lr_stream_stats *st = lr_stream_stats(ss->streams[i]);
		const struct lr_stream_params *sp = lr_stream_params(ss->streams[i]);
		uint64_t *v = t->vals + TICK_VALS * (size_t)i;

		v[0] = atomic_load(&st->bytes);
		v[1] = atomic_load(&st->retransmits);
		v[2] = atomic_load(&st->lost);
		v[3] = atomic_load(sp->sender ? &st->packets : &st->max_seq);
		v[4] = atomic_load(&st->jitter_ns);
		if (!sp->udp)	/* as iperf3: the socket's state at the interval's end */
			lr_tcp_sample_read(sp->fd, &t->tcp[i]);
	}
	ss->n_ticks++;
	if (omit_end || ss->n_ticks == 1)
		ss->next_tick_ns = now + every;	/* -O's mark restarts the count */
	else
		while (ss->next_tick_ns <= now)	/* nominal ends: no drift */
			ss->next_tick_ns += every;
}

void lr_server_report_free(struct session *ss)
{
	for (unsigned i = 0; i < ss->n_ticks; i++) {
		free(ss->ticks[i].vals);
		free(ss->ticks[i].tcp);
	}
	free(ss->ticks);
	ss->ticks = NULL;
	ss->n_ticks = ss->cap_ticks = 0;
}

/* The ticks as intervals: deltas between neighbours (the jitter as it stood at the end); the
 * clock restarts at -O's mark. deltas: TICK_VALS rows of n per interval. */
static unsigned intervals(struct session *ss, struct lr_server_interval *iv, uint64_t *deltas,
			  double *jitter)
{
	uint64_t base = ss->t0_ns;
	bool omitting = ss->p.omit_s > 0;
	unsigned k = 0;

	for (unsigned t = 1; t < ss->n_ticks; t++) {
		const struct tick *a = &ss->ticks[t - 1], *b = &ss->ticks[t];
		uint64_t *d = deltas + TICK_VALS * (size_t)ss->n * k;
		double *jt = jitter + (size_t)ss->n * k;

		if (a->omit_end) {
			base = a->at_ns;
			omitting = false;
		}
		for (unsigned i = 0; i < ss->n; i++) {	/* one row per counter */
			const uint64_t *va = a->vals + TICK_VALS * (size_t)i;
			const uint64_t *vb = b->vals + TICK_VALS * (size_t)i;

			for (unsigned j = 0; j < TICK_VALS - 1; j++)
				d[j * ss->n + i] = vb[j] >= va[j] ? vb[j] - va[j] : 0;
			jt[i] = (double)vb[4] / 1e9;
		}
		iv[k] = (struct lr_server_interval){
			.start_s = (double)(a->at_ns - base) / 1e9,
			.end_s = (double)(b->at_ns - base) / 1e9,
			.omitted = omitting,
			.bytes = d,
			.retransmits = d + ss->n,
			.lost = d + 2 * (size_t)ss->n,
			.packets = d + 3 * (size_t)ss->n,
			.jitter_s = jt,
			.tcp = b->tcp,
		};
		k++;
	}
	return k;
}

void lr_server_sock_facts(struct session *ss, bool *have, uint64_t *bufsize, int *snd,
			  int *rcv, int *mss)
{
	int v = 0;
	socklen_t sl = sizeof(v);

	*have = false;
	*snd = *rcv = *mss = 0;
	*bufsize = ss->p.window_bytes;
	if (ss->n) {
		int fd = lr_stream_params(ss->streams[0])->fd;

		if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &sl) == 0)
			*snd = v;
		sl = sizeof(v);
		if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &sl) == 0)
			*rcv = v;
		*have = true;
	}
	sl = sizeof(v);
	if (!ss->p.udp && getsockopt(ss->ctl_fd, IPPROTO_TCP, TCP_MAXSEG, &v, &sl) == 0)
		*mss = v;
}

void lr_server_local_facts(struct session *ss, struct lr_traffic_results *R)
{
	for (unsigned t = 1; t < ss->n_ticks; t++)
		for (unsigned i = 0; i < ss->n && i < R->n_streams; i++)
			lr_tcp_path_add(&R->streams[i].path, &ss->ticks[t].tcp[i]);
	lr_server_sock_facts(ss, &R->have_sockbuf, &R->sock_bufsize, &R->sndbuf_actual,
			     &R->rcvbuf_actual, &R->tcp_mss_default);
}

/* The app's hook with what is known of the test: results (R, both ends' or this side's), its
 * intervals from the ticks; error NULL for a test that ran to its results. Returns the hook's
 * output for the client (malloc'd) or NULL, *json its kind. */
static char *report(struct session *ss, struct lr_traffic_results *R, const char *error,
		    bool started, bool have_end, bool *json)
{
	unsigned n_iv = ss->n_ticks ? ss->n_ticks - 1 : 0;
	struct lr_server_interval *iv = calloc(n_iv + 1, sizeof(*iv));
	uint64_t *deltas = calloc(TICK_VALS * (size_t)ss->n * (n_iv + 1), sizeof(*deltas));
	double *jitter = calloc((size_t)ss->n * (n_iv + 1) + 1, sizeof(*jitter));
	uint64_t now = lr_clock_mono_ns();
	char *out = NULL;

	if (iv && deltas && jitter) {
		if (started) {
			lr_server_local_facts(ss, R);
			R->start_real_ns = lr_clock_real_ns() - (now - ss->t0_ns);
			R->duration_ns = now - (ss->omit_taken ? ss->omit[0].at_ns : ss->t0_ns);
		}
		n_iv = started ? intervals(ss, iv, deltas, jitter) : 0;
		out = ss->srv->o.report(ss->srv->o.report_arg,
					&(struct lr_server_report){
						.error = error,
						.started = started,
						.have_end = have_end,
						.res = R,
						.n_intervals = n_iv,
						.iv = iv,
						.omit_s = (unsigned)ss->p.omit_s,
						.time_s = ss->p.time_s,
						.want_output = !error && ss->p.get_server_output,
						.client_version = ss->p.client_version,
					},
					json);
	}
	free(iv);
	free(deltas);
	free(jitter);
	return out;
}

void lr_server_report(struct session *ss, struct lr_proto_results *loc,
		      const struct lr_proto_results *peer)
{
	struct lr_traffic_results *R;
	bool json = false;
	char *out;

	if (!ss->srv->o.report || !(R = calloc(1, sizeof(*R))))
		return;
	lr_server_merge_results(ss, loc, peer, R);
	out = report(ss, R, NULL, true, true, &json);
	if (out && ss->p.get_server_output) {
		loc->server_output = out;
		loc->server_output_json = json;
	} else {
		free(out);
	}
	free(R);
}

void lr_server_report_failed(struct session *ss)
{
	struct lr_traffic_results *R;
	struct lr_proto_results *loc;
	bool json = false, started = ss->t0_ns != 0;

	if (!ss->srv->o.report || !(R = calloc(1, sizeof(*R))))
		return;
	loc = started ? calloc(1, sizeof(*loc)) : NULL;
	if (loc) {
		lr_server_local_results(ss, loc);
		lr_server_merge_results(ss, loc, NULL, R);
	} else {	/* refused at its parameters: what the client asked */
		R->udp = ss->p.udp;
		R->parallel = ss->p.parallel;
		R->bitrate_bps = ss->p.bandwidth_bps;
		started = false;
	}
	free(report(ss, R, ss->fail, started, started && ss->fail_end, &json));
	free(loc);
	free(R);
}
