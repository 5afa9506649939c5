// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The client end of the peer view (docs/wire.md, part 2). A reader thread opens the channel the
 * server offered, presents the test's cookie and the tag, and reads length-prefixed frames as
 * untrusted input: bounded size (the offer's max_frame, at most 1 MiB), bounded rate (40 a
 * second), bounded silence (10 s); anything else ends the channel with one log line, never the
 * test. Only the newest frame is kept: its values are cumulative, so the main thread's rows
 * diff it against the frame of the previous row and nothing a skipped frame carried is lost.
 * A peer that stops sending (SIGSTOP, a cut path) is *stale* long before the channel gives up:
 * after 3 of its intervals (at least 2 s) without a frame, said once in the log, so no view
 * shows its last rates as current.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/run/peer.h"
#include "linerate/diagnose/peer_loss.h"
#include "linerate/run/recorder.h"
#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/sample/snapshot.h"
#include "linerate/traffic/proto.h"

#define CONNECT_TIMEOUT_NS (3 * LR_NSEC_PER_SEC)
#define SILENCE_NS	   (10 * LR_NSEC_PER_SEC)
#define BODY_TIMEOUT_NS	   (5 * LR_NSEC_PER_SEC)
#define MAX_FRAMES_PER_S   40.0

static const enum lr_metric ctr_metric[LR_PC__COUNT] = {
	[LR_PC_RX_BYTES] = LR_M_RX_BYTES,      [LR_PC_TX_BYTES] = LR_M_TX_BYTES,
	[LR_PC_RX_PACKETS] = LR_M_RX_PACKETS,  [LR_PC_TX_PACKETS] = LR_M_TX_PACKETS,
	[LR_PC_RX_DROPPED] = LR_M_RX_DROPPED,  [LR_PC_TX_DROPPED] = LR_M_TX_DROPPED,
	[LR_PC_RX_ERRORS] = LR_M_RX_ERRORS,    [LR_PC_TX_ERRORS] = LR_M_TX_ERRORS,
	[LR_PC_RX_FIFO] = LR_M_RX_FIFO_ERRORS, [LR_PC_RX_MISSED] = LR_M_RX_MISSED_ERRORS,
	[LR_PC_RX_OVER] = LR_M_RX_OVER_ERRORS, [LR_PC_NIC_FIFO] = LR_M_NIC_FIFO,
	[LR_PC_NIC_DROP] = LR_M_NIC_DROP,
};

enum lr_metric lr_peer_ctr_metric(enum lr_peer_ctr c)
{
	return ctr_metric[(unsigned)c < LR_PC__COUNT ? c : 0];
}

struct lr_peer_rx {
	struct lr_client_peer off;
	pthread_t thread;
	bool started;
	atomic_bool stop;
	_Atomic uint64_t frames;
	_Atomic uint64_t last_ns; /* the newest frame arrived (the channel opened, before one) */

	pthread_mutex_t lock; /* newest, have_new, ended */
	pthread_cond_t cond;
	struct lr_peer_frame newest;
	bool have_new;
	bool ended;

	/* main thread only: the frame of the previous peer row, the rows' snapshot */
	struct lr_peer_frame used;
	bool have_used;
	struct lr_snapshot snap;
	uint64_t stale_logged_ns; /* the silence the stale line was logged for, 0 fresh */
	struct peak { /* per interface name: the busiest row so far */
		char name[16];
		double rx_bps, tx_bps;
	} peaks[8];
	size_t n_peaks;
};

/* ---- the reader thread ---- */

static int channel_connect(struct lr_peer_rx *rx, int *out)
{
	struct lr_proto_conn cc;
	uint8_t hello[LR_PROTO_COOKIE_LEN + LR_PEER_TAG_LEN];
	struct pollfd pfd;
	uint64_t deadline = lr_clock_mono_ns() + CONNECT_TIMEOUT_NS;
	int fd, rc, soerr = 0;
	socklen_t sl = sizeof(soerr);

	fd = socket(rx->off.addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&rx->off.addr, rx->off.addr_len) < 0 &&
	    errno != EINPROGRESS) {
		rc = -errno;
		close(fd);
		return rc;
	}
	for (;;) {
		if (atomic_load(&rx->stop) || lr_clock_mono_ns() >= deadline) {
			close(fd);
			return atomic_load(&rx->stop) ? -ECANCELED : -ETIMEDOUT;
		}
		pfd = (struct pollfd){.fd = fd, .events = POLLOUT};
		if (poll(&pfd, 1, 50) > 0)
			break;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0 || soerr) {
		close(fd);
		return soerr ? -soerr : -EIO;
	}
	/* not a string: 36 cookie bytes, the mark where the NUL would be, then the tag */
	memcpy(hello, rx->off.cookie, LR_PROTO_COOKIE_LEN - 1);	/* NOLINT(bugprone-not-null-terminated-result) */
	hello[LR_PROTO_COOKIE_LEN - 1] = LR_PEER_HELLO_MARK;
	memcpy(hello + LR_PROTO_COOKIE_LEN, LR_PEER_TAG, LR_PEER_TAG_LEN);	/* NOLINT(bugprone-not-null-terminated-result) */
	cc = (struct lr_proto_conn){.fd = fd, .stop = &rx->stop, .side_fd = -1};
	rc = lr_proto_write(&cc, hello, sizeof(hello), CONNECT_TIMEOUT_NS);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	*out = fd;
	return 0;
}

/* One frame: 0 stored (*end set), or -errno / -EPROTO with a reason. */
static int read_frame(struct lr_peer_rx *rx, const struct lr_proto_conn *cc, bool *end,
		      char why[LR_PROTO_ERR_MAX])
{
	uint32_t max = rx->off.max_frame && rx->off.max_frame < LR_PEER_FRAME_MAX
			       ? rx->off.max_frame
			       : LR_PEER_FRAME_MAX;
	struct lr_peer_frame f = {0};	/* filled by a decode that succeeded */
	uint8_t hdr[4];
	uint32_t len;
	char *buf;
	int rc;

	rc = lr_proto_read(cc, hdr, sizeof(hdr), SILENCE_NS);
	if (rc < 0)
		return rc;
	if (lr_proto_len_decode(hdr, max, &len) < 0) {
		snprintf(why, LR_PROTO_ERR_MAX, "a frame length of %u bytes (at most %u)",
			 (unsigned)((uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 |
				    (uint32_t)hdr[2] << 8 | hdr[3]),
			 (unsigned)max);
		return -EPROTO;
	}
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	rc = lr_proto_read(cc, buf, len, BODY_TIMEOUT_NS);
	if (rc == 0)
		rc = lr_peer_frame_decode(buf, len, &f, why) < 0 ? -EPROTO : 0;
	free(buf);
	if (rc < 0)
		return rc;
	*end = f.end;
	pthread_mutex_lock(&rx->lock);
	lr_peer_frame_free(&rx->newest); /* not used yet: the next one carries it too */
	rx->newest = f;
	rx->have_new = true;
	pthread_mutex_unlock(&rx->lock);
	atomic_fetch_add(&rx->frames, 1);
	atomic_store(&rx->last_ns, lr_clock_mono_ns());
	return 0;
}

static void *reader(void *arg)
{
	struct lr_peer_rx *rx = arg;
	struct lr_proto_conn cc = {.fd = -1, .stop = &rx->stop, .side_fd = -1};
	char why[LR_PROTO_ERR_MAX] = "";
	double tokens = MAX_FRAMES_PER_S;
	uint64_t last = lr_clock_mono_ns();
	bool end = false;
	int rc;

	rc = channel_connect(rx, &cc.fd);
	while (rc == 0 && !end) {
		uint64_t now;

		rc = read_frame(rx, &cc, &end, why);
		now = lr_clock_mono_ns();
		tokens += (double)(now - last) / 1e9 * MAX_FRAMES_PER_S;
		if (tokens > MAX_FRAMES_PER_S)
			tokens = MAX_FRAMES_PER_S;
		last = now;
		if (rc == 0 && --tokens < 0) {
			snprintf(why, sizeof(why), "more than %.0f frames a second",
				 MAX_FRAMES_PER_S);
			rc = -EPROTO;
		}
	}
	if (rc == -EPROTO)
		lr_log(LR_LOG_WARN, "peer stats: the server sent %s; peer view ended",
		       why[0] ? why : "a bad frame");
	else if (rc < 0 && rc != -ECANCELED)
		lr_log(LR_LOG_WARN, "peer stats: channel %s; peer view ended",
		       rc == -ETIMEDOUT	   ? "silent or unreachable"
		       : rc == -ECONNRESET ? "closed before the last sample"
					   : strerror(-rc));
	if (cc.fd >= 0)
		close(cc.fd);
	pthread_mutex_lock(&rx->lock);
	rx->ended = true;
	pthread_cond_broadcast(&rx->cond);
	pthread_mutex_unlock(&rx->lock);
	return NULL;
}

int lr_peer_rx_open(struct lr_peer_rx **out, const struct lr_client_peer *offer)
{
	struct lr_peer_rx *rx = calloc(1, sizeof(*rx));
	sigset_t all, old;
	int rc;

	if (!rx)
		return -ENOMEM;
	rx->off = *offer;
	atomic_init(&rx->stop, false);
	atomic_init(&rx->frames, 0);
	atomic_init(&rx->last_ns, lr_clock_mono_ns());
	pthread_mutex_init(&rx->lock, NULL);
	pthread_cond_init(&rx->cond, NULL);
	lr_snapshot_init(&rx->snap);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&rx->thread, NULL, reader, rx);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		lr_peer_rx_close(rx);
		return -rc;
	}
	rx->started = true;
	*out = rx;
	return 0;
}

uint64_t lr_peer_rx_frames(struct lr_peer_rx *rx)
{
	return atomic_load(&rx->frames);
}

uint64_t lr_peer_rx_stale_ns(struct lr_peer_rx *rx, uint64_t now_ns)
{
	uint64_t last = atomic_load(&rx->last_ns);
	uint64_t bound = lr_peer_stale_bound_ns((uint64_t)rx->off.interval_ms * LR_NSEC_PER_MSEC);
	bool done;

	pthread_mutex_lock(&rx->lock);
	done = rx->ended && (rx->have_new ? rx->newest.end : rx->have_used && rx->used.end);
	pthread_mutex_unlock(&rx->lock);
	if (done || now_ns <= last)	/* the server said its last: silence is its end */
		return 0;
	return now_ns - last > bound ? now_ns - last : 0;
}

/* [main] One log line when the peer goes stale, one when its frames come again. */
static void note_stale(struct lr_peer_rx *rx)
{
	uint64_t now = lr_clock_mono_ns(), st = lr_peer_rx_stale_ns(rx, now);
	const char *host = rx->have_used ? rx->used.host : "the peer";

	if (st && !rx->stale_logged_ns)
		lr_log(LR_LOG_WARN,
		       "peer stats: nothing from %s for %.1f s (stopped, or the path to it is down); "
		       "its figures are stale",
		       host, (double)st / 1e9);
	else if (!st && rx->stale_logged_ns)
		lr_log(LR_LOG_INFO, "peer stats: %s is sending again", host);
	rx->stale_logged_ns = st;
}

bool lr_peer_rx_wait_end(struct lr_peer_rx *rx, uint64_t timeout_ns)
{
	struct timespec ts;
	uint64_t dl;
	bool ended;

	clock_gettime(CLOCK_REALTIME, &ts); /* the condvar's default clock */
	dl = (uint64_t)ts.tv_sec * LR_NSEC_PER_SEC + (uint64_t)ts.tv_nsec + timeout_ns;
	ts.tv_sec = (time_t)(dl / LR_NSEC_PER_SEC);
	ts.tv_nsec = (long)(dl % LR_NSEC_PER_SEC);
	pthread_mutex_lock(&rx->lock);
	while (!rx->ended)
		if (pthread_cond_timedwait(&rx->cond, &rx->lock, &ts))
			break;
	ended = rx->ended;
	pthread_mutex_unlock(&rx->lock);
	return ended;
}

void lr_peer_rx_close(struct lr_peer_rx *rx)
{
	if (!rx)
		return;
	atomic_store(&rx->stop, true);
	if (rx->started)
		pthread_join(rx->thread, NULL);
	lr_peer_frame_free(&rx->newest);
	lr_peer_frame_free(&rx->used);
	lr_snapshot_free(&rx->snap);
	pthread_cond_destroy(&rx->cond);
	pthread_mutex_destroy(&rx->lock);
	free(rx);
}

/* ---- frames -> the peer's snapshot (main thread) ---- */

static const struct lr_peer_cpu *prev_cpu(const struct lr_peer_frame *p, int cpu)
{
	size_t lo = 0, hi = p->n_cpus;

	while (lo < hi) { /* CPU numbers rise (the decoder checked) */
		size_t mid = (lo + hi) / 2;

		if (p->cpus[mid].cpu == cpu)
			return &p->cpus[mid];
		if (p->cpus[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Rates of one group from two cumulative readings: d[0] is the seconds covered. */
static bool group_rates(const double *cur, const double *prev, size_t n, double *d)
{
	for (size_t i = 0; i < n; i++) {
		d[i] = cur[i] - (prev ? prev[i] : 0);
		if (d[i] < 0)
			return false; /* the server restarted its sums: skip this interval */
	}
	return d[0] > 1e-6;
}

static void build_cpu(const struct lr_peer_cpu *c, const struct lr_peer_cpu *p,
		      struct lr_cpu_snap *k)
{
	double d[6];

	memset(k, 0, sizeof(*k));
	k->cpu = c->cpu;
	k->steal_pct = -1;	/* the frame's CPU times have no steal column: unknown, never 0 */
	if (c->has_t && group_rates(c->t, p && p->has_t ? p->t : NULL, 6, d)) {
		k->valid |= LR_CPUV_TIMES;
		k->user_pct = d[1] / d[0] * 100;
		k->system_pct = d[2] / d[0] * 100;
		k->irq_pct = d[3] / d[0] * 100;
		k->softirq_pct = d[4] / d[0] * 100;
		k->idle_pct = d[5] / d[0] * 100;
	}
	if (c->has_q && group_rates(c->q, p && p->has_q ? p->q : NULL, 3, d)) {
		k->valid |= LR_CPUV_SOFTIRQS;
		k->net_rx_per_s = d[1] / d[0];
		k->net_tx_per_s = d[2] / d[0];
	}
	if (c->has_n && group_rates(c->n, p && p->has_n ? p->n : NULL, 4, d)) {
		k->valid |= LR_CPUV_SOFTNET;
		k->softnet_processed_per_s = d[1] / d[0];
		k->softnet_dropped_per_s = d[2] / d[0];
		k->softnet_squeezed_per_s = d[3] / d[0];
	}
	if (c->node >= 0) {
		k->valid |= LR_CPUV_NODE;
		k->node = c->node;
	}
}

static const struct lr_peer_iface *prev_iface(const struct lr_peer_frame *p,
					      const struct lr_peer_iface *pi)
{
	for (size_t i = 0; p && i < p->n_ifaces; i++)
		if (p->ifaces[i].gen == pi->gen && !strcmp(p->ifaces[i].name, pi->name))
			return &p->ifaces[i];
	return NULL;
}

/* Rates over the peer's own interval (since its first reading for a new interface), so the
 * views show the peer as they show us. */
static void iface_rates(const struct lr_peer_iface *pi, const struct lr_peer_iface *pp,
			uint64_t now_ns, uint64_t prev_ns, struct lr_iface_snap *is)
{
	uint64_t since = pp ? prev_ns : pi->base_ns;
	double dt = now_ns > since ? (double)(now_ns - since) / 1e9 : 0;

	is->interval_ns = now_ns > since ? now_ns - since : 0;
	is->valid = 0;
	for (unsigned k = 0; dt > 0 && k < LR_PC__COUNT; k++) {
		enum lr_metric m = ctr_metric[k];
		uint64_t before = pp ? pp->c[k] : 0;

		if (!(pi->known & (1u << k)) || (pp && !(pp->known & (1u << k))) ||
		    pi->c[k] < before)
			continue;
		is->delta[m] = pi->c[k] - before;
		is->per_s[m] = (double)is->delta[m] / dt;
		is->valid |= LR_M_BIT(m);
	}
}

static void build_stack(const struct lr_peer_frame *c, const struct lr_peer_frame *p, double dt,
			struct lr_stack_snap *st)
{
	static const uint32_t bit[LR_PS__COUNT] = {LR_STACKV_TCP_RETRANS, LR_STACKV_UDP_IN_ERRORS,
						   LR_STACKV_UDP_RCVBUF, LR_STACKV_UDP_SNDBUF};
	double *rate[LR_PS__COUNT] = {&st->tcp_retrans_per_s, &st->udp_in_errors_per_s,
				      &st->udp_rcvbuf_errors_per_s, &st->udp_sndbuf_errors_per_s};
	uint64_t *tot[LR_PS__COUNT] = {&st->tcp_retrans_total, &st->udp_in_errors_total,
				       &st->udp_rcvbuf_errors_total, &st->udp_sndbuf_errors_total};

	memset(st, 0, sizeof(*st));
	for (unsigned k = 0; c->has_stack && k < LR_PS__COUNT; k++) {
		uint64_t before = p && (p->stack_known & (1u << k)) ? p->stack[k] : 0;
		unsigned d = k - LR_PS_STACK_DROP;	/* the ledger's witnesses from there on */

		if (!(c->stack_known & (1u << k)) || c->stack[k] < before || dt <= 0)
			continue;
		*(k < LR_PS_STACK_DROP ? tot[k] : &st->drop_total[d]) = c->stack[k];
		*(k < LR_PS_STACK_DROP ? rate[k] : &st->drop_per_s[d]) =
			(double)(c->stack[k] - before) / dt;
		st->valid |= k < LR_PS_STACK_DROP ? bit[k] : LR_STACKV_DROP(d);
	}
}

static const struct lr_peer_queue *prev_queue(const struct lr_peer_frame *p,
					      const struct lr_peer_iface *pp, unsigned queue)
{
	for (size_t k = 0; p && pp && k < pp->n_q; k++)
		if (p->queues[pp->q_first + k].queue == queue)
			return &p->queues[pp->q_first + k];
	return NULL;
}

/* The interface's queue rows: interval counts from the previous frame used (or the queue's
 * first reading), cumulative ones as sent, so --queues-csv diffs them as it does ours. */
static int build_queues(const struct lr_peer_frame *cur, const struct lr_peer_iface *pi,
			const struct lr_peer_frame *prev, const struct lr_peer_iface *pp,
			struct lr_iface_snap *is)
{
	is->queue_source = (enum lr_queue_source)pi->queue_source;
	if (!pi->n_q)
		return 0;
	is->queues = calloc(pi->n_q, sizeof(*is->queues));
	if (!is->queues)
		return -ENOMEM;
	is->cap_queues = pi->n_q;
	for (size_t k = 0; k < pi->n_q; k++) {
		const struct lr_peer_queue *q = &cur->queues[pi->q_first + k];
		const struct lr_peer_queue *pq = prev_queue(prev, pp, q->queue);
		struct lr_queue_snap *qs = &is->queues[is->n_queues++];
		uint64_t *iv[6] = {&qs->rx_packets, &qs->rx_bytes, &qs->tx_packets,
				   &qs->tx_bytes,   &qs->rx_drops, &qs->tx_drops};
		uint64_t since = pq && pq->base_ns == q->base_ns ? prev->mono_ns : q->base_ns;
		double dt = cur->mono_ns > since ? (double)(cur->mono_ns - since) / 1e9 : 0;

		if (pq && pq->base_ns != q->base_ns)
			pq = NULL; /* the server read it afresh: its sums start again */
		qs->queue = q->queue;
		qs->cpu = q->cpu;
		qs->cpu_softirq_pct = q->cpu_softirq_pct;
		qs->base_ns = q->base_ns;
		memcpy(qs->cum, q->c, sizeof(qs->cum));
		for (int f = 0; f < 6 && dt > 0; f++) {
			uint64_t before = pq ? pq->c[f] : 0;

			/* the sums run whether or not a tick knew the field: the previous
			 * frame's is a start even where that frame had it unknown */
			if (!(q->known & (1u << f)) || q->c[f] < before)
				continue;
			*iv[f] = q->c[f] - before;
			qs->valid |= 1u << f;
		}
		qs->rx_pps = (qs->valid & LR_QV_RX_PACKETS) ? (double)qs->rx_packets / dt : 0;
		qs->tx_pps = (qs->valid & LR_QV_TX_PACKETS) ? (double)qs->tx_packets / dt : 0;
	}
	return 0;
}

static int build_serving(const struct lr_peer_frame *cur, const struct lr_peer_iface *pi,
			 struct lr_iface_snap *is)
{
	if (!pi->n_s)
		return 0;
	is->serving_cpus = malloc(pi->n_s * sizeof(*is->serving_cpus));
	if (!is->serving_cpus)
		return -ENOMEM;
	is->cap_serving = pi->n_s;
	memcpy(is->serving_cpus, cur->serving + pi->s_first, pi->n_s * sizeof(int));
	is->n_serving_cpus = pi->n_s;
	return 0;
}

/* NUMA nodes with CPUs, as the sampler counts them (0: unknown, the views show no NUMA). */
static unsigned count_nodes(const struct lr_snapshot *s)
{
	uint64_t seen[((1 << 16) + 64) / 64] = {0};
	unsigned n = 0;

	for (size_t i = 0; i < s->n_cpus; i++) {
		int node = s->cpus[i].node;

		if (!(s->cpus[i].valid & LR_CPUV_NODE) || node < 0 || node > (1 << 16))
			continue;
		if (!(seen[node / 64] & (1ull << (node % 64))))
			n++;
		seen[node / 64] |= 1ull << (node % 64);
	}
	return n;
}

static void build_tuning(const struct lr_peer_frame *f, struct lr_tuning_snap *t)
{
	struct lr_peer_tuning pt;

	if (f->has_tuning)
		pt = f->tuning;
	else
		lr_peer_tuning_unknown(&pt); /* an older linerate peer: unknown, never 0 */
	t->rmem_max = pt.rmem_max;
	t->wmem_max = pt.wmem_max;
	t->netdev_max_backlog = pt.netdev_max_backlog;
	memcpy(t->tcp_rmem, pt.tcp_rmem, sizeof(t->tcp_rmem));
	memcpy(t->tcp_wmem, pt.tcp_wmem, sizeof(t->tcp_wmem));
	t->tcp_window_scaling = pt.tcp_window_scaling;
	t->tcp_timestamps = pt.tcp_timestamps;
	t->tcp_sack = pt.tcp_sack;
	snprintf(t->tcp_congestion, sizeof(t->tcp_congestion), "%s", pt.tcp_congestion);
}

static void build_iface(const struct lr_peer_iface *pi, struct lr_iface_snap *is)
{
	snprintf(is->name, sizeof(is->name), "%s", pi->name);
	is->generation = pi->gen;
	is->base_ns = pi->base_ns;
	is->mtu = pi->mtu;
	is->speed_mbps = pi->speed_mbps;
	is->duplex = pi->duplex;
	is->ring_rx = pi->ring_rx;
	is->ring_rx_max = pi->ring_rx_max;
	is->ring_tx = pi->ring_tx;
	is->ring_tx_max = pi->ring_tx_max;
	snprintf(is->driver, sizeof(is->driver), "%s", pi->driver);
	is->features = pi->features;
	is->features_known = pi->features_known;
	is->numa_known = pi->numa_node >= 0;
	is->numa_node = is->numa_known ? pi->numa_node : -1;
	is->operstate = pi->operstate >= 0 ? (uint8_t)pi->operstate : 0;	/* 0: IF_OPER_UNKNOWN */
	is->softirq_max_pct = pi->softirq_max_pct;
	is->softirq_cpu = pi->softirq_cpu;
	for (unsigned k = 0; k < LR_PC__COUNT; k++)
		if (pi->known & (1u << k)) {
			enum lr_metric m = ctr_metric[k];

			is->cum[m] = pi->c[k];
			is->cum_valid |= LR_M_BIT(m);
		}
}

static struct peak *peak_of(struct lr_peer_rx *rx, const char *name, bool add)
{
	for (size_t i = 0; i < rx->n_peaks; i++)
		if (!strcmp(rx->peaks[i].name, name))
			return &rx->peaks[i];
	if (!add || rx->n_peaks == LR_ARRAY_SIZE(rx->peaks))
		return NULL;
	snprintf(rx->peaks[rx->n_peaks].name, sizeof(rx->peaks[0].name), "%s", name);
	rx->peaks[rx->n_peaks].rx_bps = rx->peaks[rx->n_peaks].tx_bps = -1;
	return &rx->peaks[rx->n_peaks++];
}

static void note_peaks(struct lr_peer_rx *rx, const struct lr_snapshot *s)
{
	for (size_t i = 0; i < s->n_ifaces; i++) {
		const struct lr_iface_snap *is = &s->ifaces[i];
		struct peak *p = peak_of(rx, is->name, true);

		if (!p)
			continue;
		if ((is->valid & LR_M_BIT(LR_M_RX_BYTES)) &&
		    is->per_s[LR_M_RX_BYTES] * 8 > p->rx_bps)
			p->rx_bps = is->per_s[LR_M_RX_BYTES] * 8;
		if ((is->valid & LR_M_BIT(LR_M_TX_BYTES)) &&
		    is->per_s[LR_M_TX_BYTES] * 8 > p->tx_bps)
			p->tx_bps = is->per_s[LR_M_TX_BYTES] * 8;
	}
}

static bool goes_back(const struct lr_peer_frame *cur, const struct lr_peer_frame *prev)
{
	for (size_t i = 0; i < cur->n_ifaces; i++) {
		const struct lr_peer_iface *pi = &cur->ifaces[i], *pp = prev_iface(prev, pi);

		for (unsigned k = 0; pp && k < LR_PC__COUNT; k++)
			if ((pi->known & pp->known & (1u << k)) && pi->c[k] < pp->c[k])
				return true;
	}
	return false;
}

int lr_peer_rx_build(struct lr_peer_rx *rx, const struct lr_snapshot *local,
		     struct lr_snapshot *out, char *host, size_t hostlen)
{
	struct lr_peer_frame cur;
	const struct lr_peer_frame *prev;

	note_stale(rx);
	pthread_mutex_lock(&rx->lock);
	if (!rx->have_new) {
		pthread_mutex_unlock(&rx->lock);
		return 0;
	}
	cur = rx->newest;
	memset(&rx->newest, 0, sizeof(rx->newest));
	rx->have_new = false;
	pthread_mutex_unlock(&rx->lock);
	prev = rx->have_used ? &rx->used : NULL;
	/* the end frame may repeat the last one; a cumulative value that went backwards is not
	 * a real server's (its sums never shrink): never a 2^64 spike in a row */
	if (prev && (cur.mono_ns <= prev->mono_ns || goes_back(&cur, prev))) {
		lr_peer_frame_free(&cur);
		return 0;
	}
	lr_snapshot_free(out);
	out->ifaces = calloc(cur.n_ifaces + 1, sizeof(*out->ifaces));
	out->cpus = calloc(cur.n_cpus + 1, sizeof(*out->cpus));
	if (!out->ifaces || !out->cpus) {
		lr_snapshot_free(out);
		lr_peer_frame_free(&cur);
		return -ENOMEM;
	}
	out->cap_ifaces = cur.n_ifaces + 1;
	out->cap_cpus = cur.n_cpus + 1;
	out->seq = cur.seq;
	out->mono_ns = cur.mono_ns; /* the peer's clock: interface rows span its intervals */
	out->real_ns = local->real_ns; /* the rows themselves stand on the local clock */
	out->elapsed_ns = local->elapsed_ns;
	out->target_interval_ns = (uint64_t)rx->off.interval_ms * LR_NSEC_PER_MSEC;
	if (prev)
		out->interval_ns = cur.mono_ns - prev->mono_ns;
	else if (cur.n_cpus && cur.cpus[0].has_t)
		out->interval_ns = (uint64_t)(cur.cpus[0].t[0] * 1e9);
	for (size_t i = 0; i < cur.n_ifaces; i++) {
		struct lr_iface_snap *is = &out->ifaces[out->n_ifaces++];
		const struct lr_peer_iface *pp = prev_iface(prev, &cur.ifaces[i]);

		build_iface(&cur.ifaces[i], is);
		iface_rates(&cur.ifaces[i], pp, cur.mono_ns, prev ? prev->mono_ns : 0, is);
		if (build_queues(&cur, &cur.ifaces[i], prev, pp, is) < 0 ||
		    build_serving(&cur, &cur.ifaces[i], is) < 0) {
			lr_snapshot_free(out);
			lr_peer_frame_free(&cur);
			return -ENOMEM;
		}
	}
	build_tuning(&cur, &out->tuning);
	build_stack(&cur, prev, (double)out->interval_ns / 1e9, &out->stack);
	for (size_t i = 0; i < cur.n_cpus; i++)
		build_cpu(&cur.cpus[i], prev ? prev_cpu(prev, cur.cpus[i].cpu) : NULL,
			  &out->cpus[out->n_cpus++]);
	out->numa_nodes = count_nodes(out);
	snprintf(host, hostlen, "%s", cur.host);
	lr_peer_frame_free(&rx->used);
	rx->used = cur;
	rx->have_used = true;
	note_peaks(rx, out);
	return 1;
}

int lr_peer_rx_record(struct lr_peer_rx *rx, struct lr_recorder *rec,
		      const struct lr_snapshot *local, char *err, size_t errlen)
{
	char host[LR_PEER_HOST_MAX];
	int got;

	if (!rx)
		return 0;
	got = lr_peer_rx_build(rx, local, &rx->snap, host, sizeof(host));
	if (got == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (got <= 0 || !rec)
		return got < 0 ? got : 0;
	return lr_recorder_write_peer(rec, &rx->snap, host, err, errlen);
}

/* The frame's softnet drops per CPU (cumulative event counts) into the summary. */
static void softnet_summary(const struct lr_peer_frame *f, struct lr_peer_summary *out)
{
	const size_t cap = LR_ARRAY_SIZE(out->softnet_cpus);

	out->netdev_max_backlog = f->has_tuning ? f->tuning.netdev_max_backlog : -1;
	out->has_tuning = f->has_tuning;
	out->tuning = f->tuning;
	for (size_t i = 0; i < f->n_cpus; i++) {
		const struct lr_peer_cpu *c = &f->cpus[i];
		/* sums of rate x interval: whole events up to rounding */
		uint64_t d = (uint64_t)llround(c->n[2]), q = (uint64_t)llround(c->n[3]);
		size_t at;

		if (!c->has_n)
			continue;
		out->softnet_known = true;
		out->softnet_dropped += d;
		out->softnet_squeezed += q;
		if (!d)
			continue;
		for (at = out->n_softnet_cpus; at > 0 && out->softnet_cpus[at - 1].dropped < d; at--)
			if (at < cap)
				out->softnet_cpus[at] = out->softnet_cpus[at - 1];
		if (at < cap) {
			out->softnet_cpus[at].cpu = c->cpu;
			out->softnet_cpus[at].dropped = d;
			if (out->n_softnet_cpus < cap)
				out->n_softnet_cpus++;
		}
	}
}

int lr_peer_rx_summary(struct lr_peer_rx *rx, struct lr_peer_summary *out)
{
	const struct lr_peer_frame *f;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&rx->lock);
	f = rx->have_new ? &rx->newest : rx->have_used ? &rx->used : NULL;
	if (!f) {
		rc = -ENODATA;
	} else {
		snprintf(out->host, sizeof(out->host), "%s", f->host);
		out->ended = rx->ended && f->end;
		out->frames = atomic_load(&rx->frames);
		out->n_ifaces = f->n_ifaces < LR_ARRAY_SIZE(out->ifaces)
					? f->n_ifaces
					: LR_ARRAY_SIZE(out->ifaces);
		memcpy(out->ifaces, f->ifaces, out->n_ifaces * sizeof(out->ifaces[0]));
		out->stack_known = f->has_stack ? f->stack_known : 0;
		memcpy(out->stack, f->stack, sizeof(out->stack));
		softnet_summary(f, out);
		for (size_t i = 0; i < out->n_ifaces; i++) {
			const struct peak *p = peak_of(rx, out->ifaces[i].name, false);

			out->peak_rx_bps[i] = p ? p->rx_bps : -1;
			out->peak_tx_bps[i] = p ? p->tx_bps : -1;
		}
	}
	pthread_mutex_unlock(&rx->lock);
	return rc;
}

const struct lr_snapshot *lr_peer_rx_snapshot(const struct lr_peer_rx *rx, const char **host)
{
	if (!rx || !rx->have_used)
		return NULL;
	if (host)
		*host = rx->used.host;
	return &rx->snap;
}
