// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The server end of the peer view (docs/wire.md, part 2). When a client asks, begin() starts a
 * sampler on the interface the client's address routes over (all of them when unknown) and
 * every CPU, before any data byte of the test; attach() starts a sender thread on the
 * authenticated channel, which turns each snapshot into a frame of cumulative values; end()
 * takes a last reading after the streams stopped, lets the sender put it out marked "end"
 * (bounded: 1 s), and stops everything. One test at a time, like the server.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "linerate/run/peer.h"
#include "linerate/collect/route.h"
#include "linerate/core/array.h"
#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/sample/board.h"
#include "linerate/sample/sampler.h"
#include "linerate/sample/snapshot.h"
#include "linerate/traffic/proto.h"

#define TAG_TIMEOUT_NS	 (2 * LR_NSEC_PER_SEC)
#define FRAME_TIMEOUT_NS (2 * LR_NSEC_PER_SEC)
#define END_WAIT_NS	 (1 * LR_NSEC_PER_SEC)

struct lr_peer_server {
	struct lr_server_peer_hooks hooks;
	pthread_mutex_t lock; /* active, fd/thread hand-over between acceptor and session */
	bool active; /* between begin and end */
	bool ended;
	struct lr_board *board;
	struct lr_sampler *sampler;
	char host[LR_PEER_HOST_MAX];

	int fd; /* the channel, -1 none */
	pthread_t thread;
	bool thread_started;
	atomic_bool stop; /* the sender gives up (end's deadline passed) */
	atomic_bool done; /* the sender has finished */
	_Atomic uint64_t final_seq; /* the last snapshot's seq, 0 until end() took it */

	/* the sender's own: cumulative CPU values by CPU number */
	struct lr_peer_cpu *acc;
	bool *acc_seen;
	size_t n_acc, cap_acc;	/* both arrays: by CPU number up to n_acc, room for cap_acc */
};

/* ---- snapshot -> frame ---- */

static int acc_cpu(struct lr_peer_server *ps, const struct lr_cpu_snap *k, double dt)
{
	struct lr_peer_cpu *a;

	if (k->cpu < 0 || k->cpu >= (1 << 20))
		return 0;
	if ((size_t)k->cpu >= ps->n_acc) {
		size_t cap_acc = ps->cap_acc, cap_seen = ps->cap_acc;

		/* zeroed: slots past n_acc are never written, so all of them are still zero */
		if (lr_array_grow_zero(&ps->acc, &cap_acc, (size_t)k->cpu + 1, sizeof(*ps->acc)) ||
		    lr_array_grow_zero(&ps->acc_seen, &cap_seen, (size_t)k->cpu + 1,
				       sizeof(*ps->acc_seen)))
			return -ENOMEM;
		ps->cap_acc = cap_acc;
		ps->n_acc = (size_t)k->cpu + 1;
	}
	a = &ps->acc[k->cpu];
	a->cpu = k->cpu;
	a->node = (k->valid & LR_CPUV_NODE) ? k->node : -1;
	ps->acc_seen[k->cpu] = true;
	if (k->valid & LR_CPUV_TIMES) {
		a->has_t = true;
		a->t[0] += dt;
		a->t[1] += k->user_pct / 100 * dt;
		a->t[2] += k->system_pct / 100 * dt;
		a->t[3] += k->irq_pct / 100 * dt;
		a->t[4] += k->softirq_pct / 100 * dt;
		a->t[5] += k->idle_pct / 100 * dt;
	}
	if (k->valid & LR_CPUV_SOFTIRQS) {
		a->has_q = true;
		a->q[0] += dt;
		a->q[1] += k->net_rx_per_s * dt;
		a->q[2] += k->net_tx_per_s * dt;
	}
	if (k->valid & LR_CPUV_SOFTNET) {
		a->has_n = true;
		a->n[0] += dt;
		a->n[1] += k->softnet_processed_per_s * dt;
		a->n[2] += k->softnet_dropped_per_s * dt;
		a->n[3] += k->softnet_squeezed_per_s * dt;
	}
	return 0;
}

/* The interface's link state and its queues (the first LR_PEER_MAX_QUEUES, while the frame
 * has room for them: docs/wire.md §P4.1). */
static void link_state(const struct lr_iface_snap *is, struct lr_peer_iface *pi,
		       struct lr_peer_frame *f)
{
	pi->duplex = is->duplex;
	pi->ring_rx = is->ring_rx;
	pi->ring_rx_max = is->ring_rx_max;
	pi->ring_tx = is->ring_tx;
	pi->ring_tx_max = is->ring_tx_max;
	snprintf(pi->driver, sizeof(pi->driver), "%s", is->driver);
	pi->features_known = is->features_known;
	pi->features = is->features & is->features_known;
	pi->numa_node = is->numa_known ? is->numa_node : -1;
	pi->operstate = is->operstate <= 6 ? is->operstate : -1;
	pi->queue_source = is->queue_source <= LR_QSRC_ETHTOOL ? (int)is->queue_source : 0;
	pi->s_first = f->n_serving;
	for (size_t k = 0; k < is->n_serving_cpus && pi->n_s < LR_PEER_MAX_SERVING &&
			   f->n_serving < LR_PEER_MAX_SERVING_FRAME;
	     k++)
		if (is->serving_cpus[k] >= 0 && is->serving_cpus[k] <= (1 << 20)) {
			f->serving[f->n_serving++] = is->serving_cpus[k];
			pi->n_s++;
		}
	pi->q_first = f->n_queues;
	for (size_t k = 0; k < is->n_queues && pi->n_q < LR_PEER_MAX_QUEUES &&
			   f->n_queues < LR_PEER_MAX_QUEUES_FRAME;
	     k++) {
		const struct lr_queue_snap *q = &is->queues[k];
		struct lr_peer_queue *pq = &f->queues[f->n_queues];

		if (!q->base_ns || q->queue > 65535 ||
		    (pi->n_q && q->queue <= pq[-1].queue)) /* the wire wants them rising */
			continue;
		pq->queue = q->queue;
		pq->known = q->valid & 0x3f;
		pq->base_ns = q->base_ns;
		memcpy(pq->c, q->cum, sizeof(pq->c));
		pq->cpu = q->cpu;
		pq->cpu_softirq_pct = q->cpu_softirq_pct;
		f->n_queues++;
		pi->n_q++;
	}
}

static void tuning_of(const struct lr_tuning_snap *t, struct lr_peer_tuning *pt)
{
	pt->rmem_max = t->rmem_max;
	pt->wmem_max = t->wmem_max;
	pt->netdev_max_backlog = t->netdev_max_backlog;
	memcpy(pt->tcp_rmem, t->tcp_rmem, sizeof(pt->tcp_rmem));
	memcpy(pt->tcp_wmem, t->tcp_wmem, sizeof(pt->tcp_wmem));
	pt->tcp_window_scaling = t->tcp_window_scaling;
	pt->tcp_timestamps = t->tcp_timestamps;
	pt->tcp_sack = t->tcp_sack;
	snprintf(pt->tcp_congestion, sizeof(pt->tcp_congestion), "%s", t->tcp_congestion);
}

_Static_assert(LR_PS__COUNT - LR_PS_STACK_DROP == LR_SD__COUNT,
	       "the wire's stack drops are collect/snmp.h's, in its order");

/* The egress root qdisc's drops since the sampler's first reading of it (every qdisc under it
 * counted there too) and its name as tc prints it: the sender qdisc stage of a -R test. */
static void qdisc_state(const struct lr_iface_snap *is, struct lr_peer_iface *pi)
{
	if (is->qdisc.cum_valid & LR_QDV_BIT(LR_QDC_DROPS))
		pi->qdisc_drops = (int64_t)(is->qdisc.cum[LR_QDC_DROPS] & INT64_MAX);
	lr_snapshot_root_qdisc(is, pi->qdisc, sizeof(pi->qdisc));
}

/* Folds the snapshot into the CPU sums (once per snapshot: accumulate) and encodes a frame. */
static int encode(struct lr_peer_server *ps, const struct lr_snapshot *s, bool accumulate, bool end,
		  char **out, size_t *len)
{
	struct lr_peer_frame f = {.seq = s->seq, .mono_ns = s->mono_ns, .end = end};
	double dt = (double)s->interval_ns / 1e9;
	size_t ni = s->n_ifaces < LR_PEER_MAX_IFACES ? s->n_ifaces : LR_PEER_MAX_IFACES;
	size_t nq = 0, ns = 0;
	int rc = -ENOMEM;

	memcpy(f.host, ps->host, sizeof(f.host));
	for (size_t i = 0; accumulate && i < s->n_cpus; i++)
		if (acc_cpu(ps, &s->cpus[i], dt) < 0)
			return -ENOMEM;
	for (size_t i = 0; i < ni; i++) {
		nq += s->ifaces[i].n_queues;
		ns += s->ifaces[i].n_serving_cpus;
	}
	nq = nq < LR_PEER_MAX_QUEUES_FRAME ? nq : LR_PEER_MAX_QUEUES_FRAME;
	ns = ns < LR_PEER_MAX_SERVING_FRAME ? ns : LR_PEER_MAX_SERVING_FRAME;
	f.ifaces = calloc(ni + 1, sizeof(*f.ifaces));
	f.cpus = calloc(ps->n_acc + 1, sizeof(*f.cpus));
	f.queues = calloc(nq + 1, sizeof(*f.queues));
	f.serving = calloc(ns + 1, sizeof(*f.serving));
	if (!f.ifaces || !f.cpus || !f.queues || !f.serving)
		goto out;
	f.has_tuning = true;
	tuning_of(&s->tuning, &f.tuning);
	for (size_t i = 0; i < ni; i++) {
		const struct lr_iface_snap *is = &s->ifaces[i];
		struct lr_peer_iface *pi = &f.ifaces[f.n_ifaces];

		if (!is->base_ns || strlen(is->name) >= sizeof(pi->name))
			continue;
		lr_peer_iface_unknown(pi);
		memcpy(pi->name, is->name, strlen(is->name) + 1);
		pi->gen = is->generation;
		pi->base_ns = is->base_ns;
		pi->mtu = is->mtu;
		pi->speed_mbps = is->speed_mbps;
		pi->softirq_max_pct = is->softirq_max_pct;
		pi->softirq_cpu = is->softirq_cpu;
		for (unsigned k = 0; k < LR_PC__COUNT; k++) {
			enum lr_metric m = lr_peer_ctr_metric(k);

			if (is->cum_valid & LR_M_BIT(m)) {
				pi->known |= 1u << k;
				pi->c[k] = is->cum[m];
			}
		}
		link_state(is, pi, &f);
		qdisc_state(is, pi);
		f.n_ifaces++;
	}
	for (size_t c = 0; c < ps->n_acc && f.n_cpus < LR_PEER_MAX_CPUS; c++)
		if (ps->acc_seen[c])
			f.cpus[f.n_cpus++] = ps->acc[c];
	if (s->stack.valid) {
		f.has_stack = true;
		f.stack_known =
			(s->stack.valid & LR_STACKV_TCP_RETRANS ? 1u << LR_PS_TCP_RETRANS : 0) |
			(s->stack.valid & LR_STACKV_UDP_IN_ERRORS ? 1u << LR_PS_UDP_IN_ERRORS : 0) |
			(s->stack.valid & LR_STACKV_UDP_RCVBUF ? 1u << LR_PS_UDP_RCVBUF_ERRORS
							       : 0) |
			(s->stack.valid & LR_STACKV_UDP_SNDBUF ? 1u << LR_PS_UDP_SNDBUF_ERRORS : 0);
		f.stack[LR_PS_TCP_RETRANS] = s->stack.tcp_retrans_total;
		f.stack[LR_PS_UDP_IN_ERRORS] = s->stack.udp_in_errors_total;
		f.stack[LR_PS_UDP_RCVBUF_ERRORS] = s->stack.udp_rcvbuf_errors_total;
		f.stack[LR_PS_UDP_SNDBUF_ERRORS] = s->stack.udp_sndbuf_errors_total;
		for (unsigned d = 0; d < LR_SD__COUNT; d++)
			if (s->stack.valid & LR_STACKV_DROP(d)) {
				f.stack_known |= 1u << (LR_PS_STACK_DROP + d);
				f.stack[LR_PS_STACK_DROP + d] = s->stack.drop_total[d];
			}
	}
	rc = lr_peer_frame_encode(&f, out, len);
out:
	free(f.ifaces);
	free(f.cpus);
	free(f.queues);
	free(f.serving);
	return rc;
}

/* ---- the sender thread ---- */

static int send_frame(struct lr_peer_server *ps, const struct lr_snapshot *s, bool fresh, bool end)
{
	struct lr_proto_conn cc = {.fd = ps->fd, .stop = &ps->stop, .side_fd = -1};
	uint8_t hdr[4];
	char *body = NULL;
	size_t len;
	int rc = encode(ps, s, fresh, end, &body, &len);

	if (rc == 0 && len > LR_PEER_FRAME_MAX)
		rc = -EMSGSIZE;
	if (rc == 0) {
		lr_proto_len_encode((uint32_t)len, hdr);
		rc = lr_proto_write(&cc, hdr, 4, FRAME_TIMEOUT_NS);
	}
	if (rc == 0)
		rc = lr_proto_write(&cc, body, len, FRAME_TIMEOUT_NS);
	free(body);
	return rc;
}

static void *sender(void *arg)
{
	struct lr_peer_server *ps = arg;
	struct lr_proto_conn cc = {.fd = ps->fd, .stop = &ps->stop, .side_fd = -1};
	struct lr_snapshot snap;
	char tag[LR_PEER_TAG_LEN];
	uint64_t seen = 0;
	bool have = false;
	int rc;

	lr_snapshot_init(&snap);
	rc = lr_proto_read(&cc, tag, sizeof(tag), TAG_TIMEOUT_NS);
	if (rc == 0 && memcmp(tag, LR_PEER_TAG, LR_PEER_TAG_LEN))
		rc = -EPROTO;
	while (rc == 0 && !atomic_load(&ps->stop)) {
		uint64_t fin;
		int got = 0;

		if (lr_board_wait(ps->board, seen, 100 * LR_NSEC_PER_MSEC))
			got = lr_board_read(ps->board, &snap, &seen);
		fin = atomic_load(&ps->final_seq);
		if (got < 0) {
			rc = got;
			break;
		}
		if (got > 0) {
			have = true;
			rc = send_frame(ps, &snap, true, fin && seen >= fin);
			if (rc < 0 || (fin && seen >= fin))
				break;
		}
		/* the last reading was read before end() marked it: send it again as the end */
		if (fin && seen >= fin) {
			if (have)
				rc = send_frame(ps, &snap, false, true);
			break;
		}
	}
	if (rc < 0 && rc != -ECANCELED)
		lr_log(LR_LOG_INFO, "server: peer-stats channel ended: %s", strerror(-rc));
	shutdown(ps->fd, SHUT_RDWR);
	lr_snapshot_free(&snap);
	atomic_store(&ps->done, true);
	return NULL;
}

/* ---- the hooks ---- */

static void stop_sampling(struct lr_peer_server *ps)
{
	lr_sampler_close(ps->sampler);
	lr_board_close(ps->board);
	ps->sampler = NULL;
	ps->board = NULL;
	free(ps->acc);
	free(ps->acc_seen);
	ps->acc = NULL;
	ps->acc_seen = NULL;
	ps->n_acc = ps->cap_acc = 0;
}

static int hook_begin(void *arg, const struct lr_server_peer_test *t)
{
	struct lr_peer_server *ps = arg;
	struct lr_sampler_opts o = {.interval_ns = (uint64_t)t->interval_ms * LR_NSEC_PER_MSEC};
	char ifname[LR_IFNAMSIZ];
	struct utsname u;
	int rc;

	pthread_mutex_lock(&ps->lock);
	if (ps->active) {
		pthread_mutex_unlock(&ps->lock);
		return -EBUSY;
	}
	if (lr_route_iface(t->remote_host, ifname, sizeof(ifname)) == 0)
		o.ifaces = ifname;
	if (uname(&u) == 0)
		snprintf(ps->host, sizeof(ps->host), "%s", u.nodename);
	else
		snprintf(ps->host, sizeof(ps->host), "?");
	rc = lr_board_open(&ps->board);
	if (rc == 0)
		rc = lr_sampler_open(&ps->sampler, &o, ps->board);
	if (rc == 0)
		rc = lr_sampler_start(ps->sampler);
	if (rc < 0) {
		lr_log(LR_LOG_WARN, "server: cannot sample for the peer view: %s", strerror(-rc));
		stop_sampling(ps);
	} else {
		ps->active = true;
		ps->ended = false;
		ps->fd = -1;
		ps->thread_started = false;
		atomic_store(&ps->stop, false);
		atomic_store(&ps->done, false);
		atomic_store(&ps->final_seq, 0);
		lr_log(LR_LOG_DEBUG, "server: peer view samples %s", o.ifaces ? o.ifaces : "all");
	}
	pthread_mutex_unlock(&ps->lock);
	return rc;
}

static void hook_attach(void *arg, int fd)
{
	struct lr_peer_server *ps = arg;
	sigset_t all, old;
	int fl;

	pthread_mutex_lock(&ps->lock);
	if (!ps->active || ps->ended || ps->thread_started) {
		pthread_mutex_unlock(&ps->lock);
		close(fd);
		return;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	ps->fd = fd;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ps->thread_started = pthread_create(&ps->thread, NULL, sender, ps) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ps->thread_started) {
		close(fd);
		ps->fd = -1;
	}
	pthread_mutex_unlock(&ps->lock);
}

static void hook_end(void *arg)
{
	struct lr_peer_server *ps = arg;
	uint64_t deadline;

	pthread_mutex_lock(&ps->lock);
	if (!ps->active) {
		pthread_mutex_unlock(&ps->lock);
		return;
	}
	ps->ended = true; /* no channel after this */
	pthread_mutex_unlock(&ps->lock);
	/* the last reading: the streams have stopped, so it sees every byte of the test */
	lr_sampler_stop(ps->sampler);
	if (lr_sampler_tick(ps->sampler, lr_clock_mono_ns()) == 0) {
		struct lr_snapshot s;
		uint64_t seq = 0;

		lr_snapshot_init(&s);
		if (lr_board_read(ps->board, &s, &seq) >= 0)
			atomic_store(&ps->final_seq, seq ? seq : 1);
		lr_snapshot_free(&s);
	} else {
		atomic_store(&ps->final_seq, 1);
	}
	if (ps->thread_started) {
		deadline = lr_clock_mono_ns() + END_WAIT_NS;
		while (!atomic_load(&ps->done) && lr_clock_mono_ns() < deadline)
			if (lr_clock_sleep_until(lr_clock_mono_ns() + 10 * LR_NSEC_PER_MSEC) < 0)
				break;
		atomic_store(&ps->stop, true);
		pthread_join(ps->thread, NULL);
		close(ps->fd);
		ps->fd = -1;
		ps->thread_started = false;
	}
	pthread_mutex_lock(&ps->lock);
	stop_sampling(ps);
	ps->active = false;
	pthread_mutex_unlock(&ps->lock);
}

int lr_peer_server_open(struct lr_peer_server **out)
{
	struct lr_peer_server *ps = calloc(1, sizeof(*ps));

	if (!ps)
		return -ENOMEM;
	pthread_mutex_init(&ps->lock, NULL);
	ps->fd = -1;
	atomic_init(&ps->stop, false);
	atomic_init(&ps->done, false);
	atomic_init(&ps->final_seq, 0);
	ps->hooks = (struct lr_server_peer_hooks){
		.arg = ps, .begin = hook_begin, .attach = hook_attach, .end = hook_end};
	*out = ps;
	return 0;
}

const struct lr_server_peer_hooks *lr_peer_server_hooks(struct lr_peer_server *ps)
{
	return &ps->hooks;
}

void lr_peer_server_close(struct lr_peer_server *ps)
{
	if (!ps)
		return;
	hook_end(ps);
	pthread_mutex_destroy(&ps->lock);
	free(ps);
}
