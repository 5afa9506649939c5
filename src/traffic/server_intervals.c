// SPDX-License-Identifier: GPL-2.0-or-later
/* The server's report of a test, as iperf3 -s prints one: the streams' counters every report
 * interval (ticks, taken on the session thread), and at the end both ends' results merged by
 * stream id, handed to the app's hook, which writes the report and, when the client asked
 * (--get-server-output), returns it for the results message. */
#include <errno.h>
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

void lr_server_tick(struct session *ss, uint64_t now, bool force, bool omit_end)
{
	uint64_t every = ss->srv->o.interval_ns ? ss->srv->o.interval_ns : LR_NSEC_PER_SEC;
	struct tick *t;

	if (!ss->srv->o.report || !ss->streams)
		return;
	if (!force && now < ss->next_tick_ns)
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
	t->vals = calloc(3 * (size_t)ss->n, sizeof(*t->vals));
	if (!t->vals)
		return;
	t->at_ns = now;
	t->omit_end = omit_end;
	for (unsigned i = 0; i < ss->n; i++) {
		const struct lr_stream_stats *st = lr_stream_stats(ss->streams[i]);

		t->vals[3 * i] = atomic_load(&st->bytes);
		t->vals[3 * i + 1] = atomic_load(&st->retransmits);
		t->vals[3 * i + 2] = atomic_load(&st->lost);
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
	for (unsigned i = 0; i < ss->n_ticks; i++)
		free(ss->ticks[i].vals);
	free(ss->ticks);
	ss->ticks = NULL;
	ss->n_ticks = ss->cap_ticks = 0;
}

/* The ticks as intervals: deltas between neighbours; the clock restarts at -O's mark. */
static unsigned intervals(struct session *ss, struct lr_server_interval *iv, uint64_t *deltas)
{
	uint64_t base = ss->t0_ns;
	bool omitting = ss->p.omit_s > 0;
	unsigned k = 0;

	for (unsigned t = 1; t < ss->n_ticks; t++) {
		const struct tick *a = &ss->ticks[t - 1], *b = &ss->ticks[t];
		uint64_t *d = deltas + 3 * (size_t)ss->n * k;

		if (a->omit_end) {
			base = a->at_ns;
			omitting = false;
		}
		for (unsigned i = 0; i < ss->n; i++)	/* bytes, retransmits, lost: three rows */
			for (unsigned j = 0; j < 3; j++)
				d[j * ss->n + i] = b->vals[3 * i + j] - a->vals[3 * i + j];
		iv[k] = (struct lr_server_interval){
			.start_s = (double)(a->at_ns - base) / 1e9,
			.end_s = (double)(b->at_ns - base) / 1e9,
			.omitted = omitting,
			.bytes = d,
			.retransmits = d + ss->n,
			.lost = d + 2 * (size_t)ss->n,
		};
		k++;
	}
	return k;
}

void lr_server_report(struct session *ss, struct lr_proto_results *loc,
		      const struct lr_proto_results *peer)
{
	struct lr_traffic_results *R = calloc(1, sizeof(*R));
	unsigned n_iv = ss->n_ticks ? ss->n_ticks - 1 : 0;
	struct lr_server_interval *iv = calloc(n_iv + 1, sizeof(*iv));
	uint64_t *deltas = calloc(3 * (size_t)ss->n * (n_iv + 1), sizeof(*deltas));
	uint64_t now = lr_clock_mono_ns();
	bool json = false;
	char *out;

	if (!ss->srv->o.report || !R || !iv || !deltas) {
		free(R);
		free(iv);
		free(deltas);
		return;
	}
	lr_server_merge_results(ss, loc, peer, R);
	R->start_real_ns = lr_clock_real_ns() - (now - ss->t0_ns);
	R->duration_ns = now - (ss->omit_taken ? ss->omit[0].at_ns : ss->t0_ns);
	n_iv = intervals(ss, iv, deltas);
	out = ss->srv->o.report(ss->srv->o.report_arg,
				&(struct lr_server_report){
					.res = R,
					.n_intervals = n_iv,
					.iv = iv,
					.omit_s = (unsigned)ss->p.omit_s,
					.time_s = ss->p.time_s,
					.want_output = ss->p.get_server_output,
					.client_version = ss->p.client_version,
				},
				&json);
	if (out && ss->p.get_server_output) {
		loc->server_output = out;
		loc->server_output_json = json;
	} else {
		free(out);
	}
	free(R);
	free(iv);
	free(deltas);
}
