// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The server's tests for the app. The engine's hooks run on its session thread: test_begin
 * keeps the live stream counters, test_end copies their final values and the results. The
 * sampler reads the streams through per-stream mirrors this module owns (the live counters
 * go away after test_end; a mirror stays until the next test), the first reading of a test
 * all zeros, so its rates and CSV rows count every byte from the start. The main thread
 * reads a copy-out view.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linerate/run/server_watch.h"
#include "linerate/run/snapsrc.h"
#include "linerate/core/clock.h"
#include "linerate/core/streamstats.h"

/* test_end waits this long at most for the reader and the sampler to see the final counts (the
 * next test's streams start a new generation, after which the last tick's tail is lost) */
#define END_WAIT_NS (2 * LR_NSEC_PER_SEC)

struct lr_server_watch {
	pthread_mutex_t lock;
	pthread_cond_t read_cond;
	struct lr_server_test_hooks hooks;
	struct lr_gen_source gen;
	struct lr_snapsrc *src; /* set before the server runs, then read-only */
	bool reader; /* ditto */
	/* under lock */
	unsigned seq, read_seq; /* begun; last one whose end the reader saw */
	bool ended, read_ended;
	struct lr_server_test_info info;
	/* the stream's counters; after test_end its final ones, in fin */
	const struct lr_stream_stats *live[LR_PROTO_MAX_RESULTS];
	struct lr_stream_stats fin[LR_PROTO_MAX_RESULTS];
	bool based[LR_PROTO_MAX_RESULTS]; /* the sampler took its zero reading */
	bool fin_read[LR_PROTO_MAX_RESULTS]; /* ... and, after test_end, the final one */
	struct lr_traffic_results res;
	/* read by the sampler outside the lock: atomics, written under it */
	struct lr_stream_stats mirror[LR_PROTO_MAX_RESULTS];
};

static uint64_t ld(const _Atomic uint64_t *v)
{
	return atomic_load_explicit(v, memory_order_relaxed);
}

static void st(_Atomic uint64_t *v, uint64_t x)
{
	atomic_store_explicit(v, x, memory_order_relaxed);
}

static void copy_stats(struct lr_stream_stats *to, const struct lr_stream_stats *from)
{
	st(&to->bytes, ld(&from->bytes));
	st(&to->packets, ld(&from->packets));
	st(&to->retransmits, ld(&from->retransmits));
	st(&to->cwnd_bytes, ld(&from->cwnd_bytes));
	st(&to->rtt_us, ld(&from->rtt_us));
	st(&to->lost, ld(&from->lost));
	st(&to->out_of_order, ld(&from->out_of_order));
	st(&to->jitter_ns, ld(&from->jitter_ns));
	st(&to->max_seq, ld(&from->max_seq));
	st(&to->start_ns, ld(&from->start_ns));
	st(&to->end_ns, ld(&from->end_ns));
	st(&to->last_ns, ld(&from->last_ns));
	st(&to->cpu1, ld(&from->cpu1));	/* where its thread ran: the NUMA view's */
	st(&to->target_bps1, ld(&from->target_bps1));
	st(&to->length, ld(&from->length));
	st(&to->congestion[0], ld(&from->congestion[0]));
	st(&to->congestion[1], ld(&from->congestion[1]));
}

static void zero_stats(struct lr_stream_stats *s)
{
	static const struct lr_stream_stats zero;

	copy_stats(s, &zero);
}

/* [sampler] */
static unsigned gen_count(void *arg)
{
	struct lr_server_watch *w = arg;
	unsigned n;

	pthread_mutex_lock(&w->lock);
	n = w->seq ? w->info.n_streams : 0;
	pthread_mutex_unlock(&w->lock);
	return n;
}

/* [sampler] The first reading of a stream is zeros: the sampler's baseline. */
static int gen_info(void *arg, unsigned i, struct lr_gen_stream *out)
{
	struct lr_server_watch *w = arg;
	int rc = -ENOENT;

	pthread_mutex_lock(&w->lock);
	if (w->seq && i < w->info.n_streams) {
		if (!w->based[i]) {
			w->based[i] = true;
		} else {
			copy_stats(&w->mirror[i], w->live[i]);
			if (w->ended && !w->fin_read[i]) {
				w->fin_read[i] = true;
				pthread_cond_broadcast(&w->read_cond);
			}
		}
		out->id = w->info.streams[i].id;
		out->sender = w->info.streams[i].sender;
		out->udp = w->info.udp;
		out->stats = &w->mirror[i];
		rc = 0;
	}
	pthread_mutex_unlock(&w->lock);
	return rc;
}

/* [session thread] */
static void test_begin(void *arg, const struct lr_server_test_info *info,
		       const struct lr_stream_stats *const *streams, unsigned n)
{
	struct lr_server_watch *w = arg;

	if (n > LR_PROTO_MAX_RESULTS)
		n = LR_PROTO_MAX_RESULTS;
	pthread_mutex_lock(&w->lock);
	w->info = *info;
	w->info.n_streams = n;
	for (unsigned i = 0; i < n; i++) {
		w->live[i] = streams[i];
		w->based[i] = w->fin_read[i] = false;
		zero_stats(&w->mirror[i]);
		st(&w->mirror[i].target_bps1, ld(&streams[i]->target_bps1)); /* not a count */
		st(&w->mirror[i].length, ld(&streams[i]->length)); /* nor these */
		st(&w->mirror[i].congestion[0], ld(&streams[i]->congestion[0]));
		st(&w->mirror[i].congestion[1], ld(&streams[i]->congestion[1]));
	}
	w->seq++;
	w->ended = false;
	pthread_mutex_unlock(&w->lock);
	/* outside our lock: the sampler holds its own while it calls gen_count/gen_info */
	if (w->src)
		lr_snapsrc_set_traffic(w->src, &w->gen);
}

static bool all_fin_read(const struct lr_server_watch *w)
{
	for (unsigned i = 0; i < w->info.n_streams; i++)
		if (!w->fin_read[i])
			return false;
	return true;
}

/* [session thread] */
static void test_end(void *arg, const struct lr_traffic_results *r)
{
	struct lr_server_watch *w = arg;
	struct timespec until;
	unsigned seq;

	pthread_mutex_lock(&w->lock);
	for (unsigned i = 0; i < w->info.n_streams; i++) {
		copy_stats(&w->fin[i], w->live[i]);
		w->live[i] = &w->fin[i]; /* the streams are freed after we return */
	}
	w->res = *r;
	w->ended = true;
	seq = w->seq;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += END_WAIT_NS / LR_NSEC_PER_SEC;
	while ((w->reader && !(w->read_seq == seq && w->read_ended)) ||
	       (w->src && !all_fin_read(w)))
		if (pthread_cond_timedwait(&w->read_cond, &w->lock, &until))
			break;
	pthread_mutex_unlock(&w->lock);
}

int lr_server_watch_open(struct lr_server_watch **out)
{
	struct lr_server_watch *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->read_cond, NULL);
	w->hooks = (struct lr_server_test_hooks){
		.arg = w, .test_begin = test_begin, .test_end = test_end};
	w->gen = (struct lr_gen_source){.count = gen_count, .info = gen_info, .arg = w};
	*out = w;
	return 0;
}

void lr_server_watch_close(struct lr_server_watch *w)
{
	if (!w)
		return;
	if (w->src)
		lr_snapsrc_set_traffic(w->src, NULL);
	pthread_cond_destroy(&w->read_cond);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

const struct lr_server_test_hooks *lr_server_watch_hooks(struct lr_server_watch *w)
{
	return &w->hooks;
}

void lr_server_watch_set_snapsrc(struct lr_server_watch *w, struct lr_snapsrc *src)
{
	w->src = src;
}

void lr_server_watch_set_reader(struct lr_server_watch *w, bool reader)
{
	w->reader = reader;
}

static void counts_of(const struct lr_stream_stats *s, struct lr_server_test_counts *c)
{
	c->bytes = ld(&s->bytes);
	c->packets = ld(&s->packets);
	c->retransmits = ld(&s->retransmits);
	c->lost = ld(&s->lost);
	c->out_of_order = ld(&s->out_of_order);
	c->max_seq = ld(&s->max_seq);
	c->jitter_ns = ld(&s->jitter_ns);
	c->cwnd_bytes = ld(&s->cwnd_bytes);
	c->start_ns = ld(&s->start_ns);
	c->end_ns = ld(&s->end_ns);
}

bool lr_server_watch_read(struct lr_server_watch *w, struct lr_server_test_view *v)
{
	bool changed;

	pthread_mutex_lock(&w->lock);
	changed = v->seq != w->seq || v->ended != w->ended;
	if (v->seq != w->seq)
		v->info = w->info;
	v->seq = w->seq;
	v->ended = w->ended;
	v->now_ns = lr_clock_mono_ns();
	for (unsigned i = 0; w->seq && i < w->info.n_streams; i++)
		counts_of(w->live[i], &v->c[i]);
	if (w->ended && changed)
		v->res = w->res;
	if (w->ended) {
		w->read_seq = w->seq;
		w->read_ended = true;
		pthread_cond_broadcast(&w->read_cond);
	}
	pthread_mutex_unlock(&w->lock);
	return changed;
}

struct lr_server_test_view *lr_server_watch_view_new(void)
{
	return calloc(1, sizeof(struct lr_server_test_view));
}
