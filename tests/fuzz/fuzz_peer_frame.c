// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: the peer-stats decoders (docs/wire.md, part 2), each fed every input. The frame
 * decoder reads what a possibly hostile "server" sends; it must never crash or leak, accepted
 * frames stay within their bounds (counts, name lengths, rising CPU numbers, printable host; the
 * state fields of §4.1: queue and serving tables inside their bounds and their interface's slice,
 * rising queue numbers, printable driver and congestion names) and survive an encode/decode
 * round trip. The offer (server to client) and the client's ask in its parameters (client to
 * server) stay within their ranges and round-trip too. The corpus holds frames, offers and
 * parameters captured from real runs in both test directions (capture_peer_corpus.sh). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/traffic/peer_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			abort();
}

/* The state fields' bounds (docs/wire.md §P4.1). */
static void check_state(const struct lr_peer_frame *f)
{
	if (f->n_queues > LR_PEER_MAX_QUEUES_FRAME || f->n_serving > LR_PEER_MAX_SERVING_FRAME)
		abort();
	for (size_t i = 0; i < f->n_ifaces; i++) {
		const struct lr_peer_iface *pi = &f->ifaces[i];

		if (pi->n_q > LR_PEER_MAX_QUEUES || pi->q_first + pi->n_q > f->n_queues ||
		    pi->n_s > LR_PEER_MAX_SERVING || pi->s_first + pi->n_s > f->n_serving)
			abort();
		for (size_t k = 1; k < pi->n_q; k++)
			if (f->queues[pi->q_first + k].queue <= f->queues[pi->q_first + k - 1].queue)
				abort();
		if (pi->ring_rx < -1 || pi->ring_rx_max < -1 || pi->ring_tx < -1 ||
		    pi->ring_tx_max < -1 || pi->numa_node < -1 || (pi->features & ~pi->features_known))
			abort();
		printable(pi->driver);
	}
	for (size_t k = 0; k < f->n_queues; k++)
		if (f->queues[k].known > 0x3f || f->queues[k].queue > 65535)
			abort();
	for (size_t k = 0; k < f->n_serving; k++)
		if (f->serving[k] < 0)
			abort();
	if (f->has_tuning)
		printable(f->tuning.tcp_congestion);
}

/* What an accepted frame said survives a round trip (unknown queue counts excepted: not sent). */
static void same_state(const struct lr_peer_frame *f, const struct lr_peer_frame *g)
{
	if (g->n_queues != f->n_queues || g->n_serving != f->n_serving ||
	    g->has_tuning != f->has_tuning ||
	    (f->has_tuning && memcmp(&g->tuning, &f->tuning, sizeof(f->tuning))) ||
	    (f->n_serving && memcmp(g->serving, f->serving, f->n_serving * sizeof(int))))
		abort();
	for (size_t i = 0; i < f->n_ifaces; i++) {
		const struct lr_peer_iface *a = &f->ifaces[i], *b = &g->ifaces[i];

		if (a->ring_rx != b->ring_rx || a->ring_rx_max != b->ring_rx_max ||
		    a->ring_tx != b->ring_tx || a->ring_tx_max != b->ring_tx_max ||
		    a->numa_node != b->numa_node || a->duplex != b->duplex ||
		    a->features != b->features || strcmp(a->driver, b->driver) ||
		    a->n_q != b->n_q || a->n_s != b->n_s)
			abort();
	}
	for (size_t k = 0; k < f->n_queues; k++) {
		const struct lr_peer_queue *a = &f->queues[k], *b = &g->queues[k];

		if (a->queue != b->queue || a->known != b->known || a->base_ns != b->base_ns ||
		    a->cpu != b->cpu)
			abort();
		for (int c = 0; c < 6; c++)
			if ((a->known & (1u << c)) && a->c[c] != b->c[c])
				abort();
	}
	for (size_t k = 0; k < f->n_cpus; k++)
		if (f->cpus[k].node != g->cpus[k].node)
			abort();
}

/* The offer and the client's ask: the ranges of §P1/§P2, and a round trip. */
static void other_decoders(const char *buf, size_t size)
{
	struct lr_peer_offer o, o2;
	struct lr_proto_params p;
	char err[LR_PROTO_ERR_MAX], *out;
	size_t len;

	if (lr_peer_offer_decode(buf, size, &o, err) == 0) {
		if (o.version < 1 || o.version > 1000 || o.interval_ms < LR_PEER_INTERVAL_MIN_MS ||
		    o.interval_ms > LR_PEER_INTERVAL_MAX_MS || o.max_frame < 1 ||
		    o.max_frame > LR_PEER_FRAME_MAX)
			abort();
		if (lr_peer_offer_encode(&o, &out, &len) < 0)
			abort();
		if (lr_peer_offer_decode(out, len, &o2, err) != 0 || o2.version != o.version ||
		    o2.interval_ms != o.interval_ms || o2.max_frame != o.max_frame)
			abort();
		free(out);
	}
	if (lr_proto_params_decode(buf, size, &p, err) >= 0 && p.peer_stats &&
	    (p.peer_interval_ms < 1 || p.peer_interval_ms > LR_PROTO_MAX_TIME_S * 1000ULL))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_peer_frame f, g;
	char err[LR_PROTO_ERR_MAX];
	char *out;
	size_t len;

	other_decoders((const char *)data, size);
	if (lr_peer_frame_decode((const char *)data, size, &f, err) != 0) {
		if (f.ifaces || f.cpus || f.n_ifaces || f.n_cpus || f.queues || f.serving)
			abort(); /* a refused frame leaves nothing behind */
		return 0;
	}
	if (f.n_ifaces > LR_PEER_MAX_IFACES || f.n_cpus > LR_PEER_MAX_CPUS)
		abort();
	for (size_t i = 0; i < f.n_ifaces; i++)
		if (!f.ifaces[i].name[0] || strlen(f.ifaces[i].name) >= sizeof(f.ifaces[i].name))
			abort();
	for (size_t i = 1; i < f.n_cpus; i++)
		if (f.cpus[i].cpu <= f.cpus[i - 1].cpu)
			abort();
	for (const char *p = f.host; *p; p++)
		if ((unsigned char)*p < 0x20)
			abort();
	check_state(&f);
	if (lr_peer_frame_encode(&f, &out, &len) < 0)
		abort();
	if (lr_peer_frame_decode(out, len, &g, err) != 0 || g.n_ifaces != f.n_ifaces ||
	    g.n_cpus != f.n_cpus || g.seq != f.seq || strcmp(g.host, f.host))
		abort();
	for (size_t i = 0; i < f.n_ifaces; i++)
		if (memcmp(g.ifaces[i].c, f.ifaces[i].c, sizeof(f.ifaces[i].c)) ||
		    g.ifaces[i].known != f.ifaces[i].known)
			abort();
	same_state(&f, &g);
	free(out);
	lr_peer_frame_free(&g);
	lr_peer_frame_free(&f);
	return 0;
}
