// SPDX-License-Identifier: GPL-2.0-or-later
/* The client's latency prober (DESIGN section 16, docs/wire.md part 3): one thread per test,
 * started when a linerate server offered a probe port. It sends ping-pong probes (the next as
 * soon as the last is answered) for the idle baseline, then one every LR_PROBE_EVERY_NS, and
 * matches each answer against its OWN record of the sequence's send time: the echoed time is
 * never read, so a peer cannot make up a round trip. Receive times are CLOCK_MONOTONIC read
 * when poll wakes us, not SO_TIMESTAMPNS: the kernel's stamp is CLOCK_REALTIME, which steps
 * with the wall clock and cannot be subtracted from a monotonic send time; the wake-up delay
 * it adds (microseconds on an idle core) is part of what an application would see too.
 * Counters are under lock: the prober writes, any thread copies. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/proto.h"

#include "probe_priv.h"

/* Outstanding probes by sequence modulo the ring: at one probe every 10 ms and a 2 s timeout
 * about 200 are outstanding at most, so 512 slots never wrap onto a live one under load; when
 * one would (the ping-pong baseline on a link that loses everything), the old probe is lost
 * early rather than forgotten. */
#define RING	     512
#define POLL_MAX_NS  (50 * LR_NSEC_PER_MSEC) /* the stop flag's latency */
#define FLUSH_NS     (100 * LR_NSEC_PER_MSEC) /* the end's wait for probes in flight */

struct slot {
	uint64_t seq;
	uint64_t sent_ns;
	bool used, load;
};

struct lr_probe_client {
	int fd;
	struct sockaddr_storage to;
	socklen_t to_len;
	char cookie[LR_PROTO_COOKIE_LEN];
	pthread_t thread;
	bool started, stopped;
	atomic_bool stop;	/* the thread ends */
	atomic_bool quiet;	/* no more probes: the test ends */
	atomic_bool load;	/* TEST_RUNNING came */
	uint64_t t0_ns;
	/* thread only */
	struct slot ring[RING];
	unsigned outstanding;
	uint64_t next_seq;
	/* under lock: the counts, and cond for the baseline and the flush */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct lr_probe_stats st;
};

void lr_probe_stats_empty(struct lr_probe_stats *out, enum lr_probe_state st)
{
	memset(out, 0, sizeof(*out));
	out->state = st;
	out->every_ns = LR_PROBE_EVERY_NS;
	out->timeout_ns = LR_PROBE_TIMEOUT_NS;
	out->size_bytes = LR_PROBE_SIZE_DEF;
}

/* under lock */
static void lose(struct lr_probe_client *p, struct slot *s)
{
	p->st.lost++;
	if (s->load)
		p->st.load_lost++;
	s->used = false;
	p->outstanding--;
}

static void expire(struct lr_probe_client *p, uint64_t now)
{
	if (!p->outstanding)
		return;
	pthread_mutex_lock(&p->lock);
	for (unsigned i = 0; i < RING; i++)
		if (p->ring[i].used && now - p->ring[i].sent_ns >= LR_PROBE_TIMEOUT_NS)
			lose(p, &p->ring[i]);
	pthread_mutex_unlock(&p->lock);
}

static void send_one(struct lr_probe_client *p, uint64_t now)
{
	uint8_t buf[LR_PROBE_SIZE_DEF];
	uint64_t seq = p->next_seq++;
	struct slot *s = &p->ring[seq % RING];
	bool load = atomic_load(&p->load);

	if (lr_probe_encode(buf, sizeof(buf), LR_PROBE_T_REQUEST, p->cookie, seq, now) < 0)
		return;
	pthread_mutex_lock(&p->lock);
	if (s->used)
		lose(p, s);
	*s = (struct slot){.seq = seq, .sent_ns = now, .used = true, .load = load};
	p->outstanding++;
	p->st.sent++;
	if (load)
		p->st.load_sent++;
	pthread_mutex_unlock(&p->lock);
	/* a failed send (no route, a full buffer) is a probe the link did not carry: it stays
	 * outstanding and times out as lost */
	(void)sendto(p->fd, buf, sizeof(buf), MSG_NOSIGNAL | MSG_DONTWAIT,
		     (const struct sockaddr *)&p->to, p->to_len);
}

static bool same_sender(const struct lr_probe_client *p, const struct sockaddr_storage *from,
			socklen_t len)
{
	return len == p->to_len && !memcmp(from, &p->to, len);
}

/* Reads every waiting datagram; true when one answered a probe. */
static bool receive(struct lr_probe_client *p)
{
	bool got = false;

	for (;;) {
		uint8_t buf[LR_PROBE_SIZE_MAX + 1];
		struct sockaddr_storage from = {.ss_family = AF_UNSPEC};
		socklen_t flen = sizeof(from);
		ssize_t n = recvfrom(p->fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC,
				     (struct sockaddr *)&from, &flen);
		uint64_t now = lr_clock_mono_ns(), seq = 0;
		struct slot *s = NULL;

		if (n < 0)
			return got;	/* EAGAIN, or an ICMP error: the probe times out */
		if (same_sender(p, &from, flen) &&
		    lr_probe_decode(buf, (size_t)n, LR_PROBE_T_REPLY, LR_PROBE_SIZE_DEF, p->cookie,
				    &seq) == 0)
			s = &p->ring[seq % RING];
		pthread_mutex_lock(&p->lock);
		if (!s || !s->used || s->seq != seq) {
			p->st.refused++;	/* not ours, or late, repeated, never sent */
		} else {
			lr_lathist_add(s->load ? &p->st.load : &p->st.idle, now - s->sent_ns);
			p->st.answered++;
			if (s->load)
				p->st.load_answered++;
			s->used = false;
			p->outstanding--;
			got = true;
			pthread_cond_broadcast(&p->cond);
		}
		pthread_mutex_unlock(&p->lock);
	}
}

static bool baseline_done(struct lr_probe_client *p, uint64_t now)
{
	bool done;

	pthread_mutex_lock(&p->lock);
	done = p->st.idle.count >= LR_PROBE_BASELINE;
	pthread_mutex_unlock(&p->lock);
	return done || now - p->t0_ns >= LR_PROBE_BASELINE_NS || atomic_load(&p->load);
}

static void *prober_main(void *arg)
{
	struct lr_probe_client *p = arg;
	uint64_t next = lr_clock_mono_ns();

	while (!atomic_load(&p->stop)) {
		struct pollfd pfd = {.fd = p->fd, .events = POLLIN};
		uint64_t now = lr_clock_mono_ns(), wait;
		bool pingpong = !baseline_done(p, now);

		expire(p, now);
		if (!atomic_load(&p->quiet) && now >= next) {
			send_one(p, now);
			/* ping-pong: the next goes when this one is answered, or after every_ns;
			 * then a fixed cadence that never bursts to catch up after a stall */
			next = pingpong || next + LR_PROBE_EVERY_NS <= now ? now + LR_PROBE_EVERY_NS
									   : next + LR_PROBE_EVERY_NS;
		}
		wait = atomic_load(&p->quiet) || next <= now ? POLL_MAX_NS : next - now;
		if (wait > POLL_MAX_NS)
			wait = POLL_MAX_NS;
		if (poll(&pfd, 1, (int)((wait + LR_NSEC_PER_MSEC - 1) / LR_NSEC_PER_MSEC)) > 0 &&
		    receive(p) && pingpong)
			next = lr_clock_mono_ns();
	}
	return NULL;
}

int lr_probe_client_start(struct lr_probe_client **out, int fd, const struct sockaddr *to,
			  socklen_t to_len, const char *cookie)
{
	struct lr_probe_client *p = calloc(1, sizeof(*p));
	pthread_condattr_t ca;
	sigset_t all, old;
	int rc;

	if (!p || to_len > sizeof(p->to)) {
		free(p);
		close(fd);
		return p ? -EINVAL : -ENOMEM;
	}
	p->fd = fd;
	memcpy(&p->to, to, to_len);
	p->to_len = to_len;
	memcpy(p->cookie, cookie, sizeof(p->cookie));
	lr_probe_stats_empty(&p->st, LR_PROBE_IDLE);
	atomic_init(&p->stop, false);
	atomic_init(&p->quiet, false);
	atomic_init(&p->load, false);
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cond, &ca);
	pthread_condattr_destroy(&ca);
	p->t0_ns = lr_clock_mono_ns();
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&p->thread, NULL, prober_main, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		lr_probe_client_free(p);
		return -rc;
	}
	p->started = true;
	*out = p;
	return 0;
}

static void wait_until(struct lr_probe_client *p, uint64_t deadline)
{
	struct timespec ts = {.tv_sec = (time_t)(deadline / LR_NSEC_PER_SEC),
			      .tv_nsec = (long)(deadline % LR_NSEC_PER_SEC)};

	pthread_cond_timedwait(&p->cond, &p->lock, &ts);
}

void lr_probe_client_baseline(struct lr_probe_client *p, const atomic_bool *stop)
{
	uint64_t until = p->t0_ns + LR_PROBE_BASELINE_NS;

	pthread_mutex_lock(&p->lock);
	while (p->st.idle.count < LR_PROBE_BASELINE && !atomic_load(stop) &&
	       lr_clock_mono_ns() < until) {
		uint64_t soon = lr_clock_mono_ns() + POLL_MAX_NS; /* to see *stop */

		wait_until(p, soon < until ? soon : until);
	}
	pthread_mutex_unlock(&p->lock);
}

void lr_probe_client_load(struct lr_probe_client *p)
{
	pthread_mutex_lock(&p->lock);
	atomic_store(&p->load, true);
	p->st.state = LR_PROBE_LOAD;
	pthread_mutex_unlock(&p->lock);
}

void lr_probe_client_quiet(struct lr_probe_client *p)
{
	if (p)
		atomic_store(&p->quiet, true);
}

void lr_probe_client_stop(struct lr_probe_client *p)
{
	uint64_t until = lr_clock_mono_ns() + FLUSH_NS;

	if (!p || p->stopped)
		return;
	atomic_store(&p->quiet, true);
	pthread_mutex_lock(&p->lock);
	while (p->st.sent > p->st.answered + p->st.lost && lr_clock_mono_ns() < until)
		wait_until(p, until);
	pthread_mutex_unlock(&p->lock);
	atomic_store(&p->stop, true);
	if (p->started)
		pthread_join(p->thread, NULL);
	p->stopped = true;
	pthread_mutex_lock(&p->lock);
	p->st.state = LR_PROBE_DONE;
	/* -d's word on the engine itself, whatever the outputs make of it */
	lr_debug(LR_DEBUG_INFO,
		 "latency probes: sent %llu, answered %llu (idle %llu, load %llu), lost %llu, in "
		 "flight %llu, refused %llu",
		 (unsigned long long)p->st.sent, (unsigned long long)p->st.answered,
		 (unsigned long long)p->st.idle.count, (unsigned long long)p->st.load.count,
		 (unsigned long long)p->st.lost,
		 (unsigned long long)(p->st.sent - p->st.answered - p->st.lost),
		 (unsigned long long)p->st.refused);
	pthread_mutex_unlock(&p->lock);
}

void lr_probe_client_stats(struct lr_probe_client *p, struct lr_probe_stats *out)
{
	pthread_mutex_lock(&p->lock);
	*out = p->st;
	pthread_mutex_unlock(&p->lock);
}

int lr_probe_client_addr(struct lr_probe_client *p, bool server, struct sockaddr_storage *ss,
			 socklen_t *len)
{
	if (server) {
		*ss = p->to;
		*len = p->to_len;
		return 0;
	}
	*len = sizeof(*ss);
	return getsockname(p->fd, (struct sockaddr *)ss, len) < 0 ? -errno : 0;
}

void lr_probe_client_free(struct lr_probe_client *p)
{
	if (!p)
		return;
	lr_probe_client_stop(p);
	close(p->fd);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
}
