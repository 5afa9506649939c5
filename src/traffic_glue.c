// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A traffic client seen by the rest of linerate: the sampler reads its streams through a gen
 * source, and the verdict takes its results. Glue, so neither traffic/ nor sample/ and
 * present/ know each other.
 */
#include <string.h>

#include "linerate/gencol.h"
#include "linerate/traffic.h"
#include "linerate/traffic_glue.h"
#include "linerate/verdict.h"

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
	vt->retransmits = add_known(r->sum_up.n_streams ? r->sum_up.retransmits : -1,
				    r->sum_down.n_streams ? r->sum_down.retransmits : -1);
	for (unsigned i = 0; r->udp && i < r->n_streams; i++) {
		const struct lr_traffic_stream_result *e = &r->streams[i];

		if (e->client_sends && !e->have_peer)
			continue;	/* stopped early: the server's loss count is unknown */
		vt->udp_lost = (vt->udp_lost < 0 ? 0 : vt->udp_lost) + e->lost;
		vt->udp_packets = (vt->udp_packets < 0 ? 0 : vt->udp_packets) + e->packets_sent;
	}
}
