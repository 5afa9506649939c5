// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * UDP data path of a stream, iperf3's datagram format. Sender: paced batches, each datagram
 * exactly `len` bytes with its own header and sequence number; one sendmmsg per batch, with
 * UDP GSO (UDP_SEGMENT) super-buffers when the kernel takes them, plain datagrams otherwise.
 * Receiver: recvmmsg batches, UDP GRO buffers split by the gso_size cmsg, every datagram fed to
 * the iperf3 accounting. Runs on the stream's own thread; owns its buffers.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/core/strutil.h"
#include "linerate/traffic/proto.h"
#include "stream_priv.h"

#ifndef SOL_UDP
#define SOL_UDP 17
#endif
#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

#define relaxed		   memory_order_relaxed
#define LR_UDP_PLAIN_BYTES (1u << 20) /* plain path: at most this much per batch */
#define RX_CTRL_LEN	   (CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct timespec)))
/* After a batch that drained the socket, the receiver naps (at most this long, see
 * lr_stream_udp_nap_ns) instead of blocking: the sender then finds nobody to wake (a wake-up
 * per datagram costs more than the datagram). Arrival times come from the kernel's
 * per-datagram stamps for a paced sender, from the batch's receive time for an unlimited one. */
#define LR_UDP_RX_NAP_NS     100000
#define LR_UDP_RX_NAP_MIN_NS 5000 /* shorter is not worth a sleep */

static size_t plain_msgs(size_t len, size_t buf_len)
{
	size_t n = LR_UDP_PLAIN_BYTES / len;

	if (n > LR_UDP_PLAIN_MSGS)
		n = LR_UDP_PLAIN_MSGS;
	if (n > buf_len / len)
		n = buf_len / len;
	return n ? n : 1;
}

static int sender_setup(struct lr_stream *s)
{
	size_t len = s->p.len, plain_bytes, gso_bytes = 0;
	size_t segs = LR_UDP_GSO_MAX_BYTES / len;

	if (segs > LR_UDP_GSO_MAX_SEGS)
		segs = LR_UDP_GSO_MAX_SEGS;
	if (!s->p.no_gso && segs >= 2) {
		int v = (int)len;

		if (setsockopt(s->p.fd, SOL_UDP, UDP_SEGMENT, &v, sizeof(v)) == 0)
			s->gso = true;
		else
			lr_log(LR_LOG_INFO, "stream %d: no UDP GSO (%s), plain sendmmsg", s->p.id,
			       strerror(errno));
	}
	plain_bytes = plain_msgs(len, SIZE_MAX) * len;
	if (s->gso)
		gso_bytes = LR_UDP_SEND_MSGS * segs * len;
	s->buf_len = gso_bytes > plain_bytes ? gso_bytes : plain_bytes;
	s->buf = lr_stream_buf_alloc(s->buf_len);
	if (!s->buf)
		return -ENOMEM;
	if (s->gso) {
		s->segs = segs;
		s->nmsgs = LR_UDP_SEND_MSGS;
		s->slot_len = segs * len;
		atomic_store(&s->path, "udp gso+sendmmsg");
	} else {
		s->segs = 1;
		s->nmsgs = plain_msgs(len, s->buf_len);
		s->slot_len = len;
		atomic_store(&s->path, "udp sendmmsg");
	}
	s->max_dgrams = s->nmsgs * s->segs;
	s->next_seq = 1;
	return 0;
}

/* A sysctl's one number, or -1 when it cannot be read or is not a plain number. */
static long read_sysctl(const char *path)
{
	char buf[32] = "";
	FILE *f = fopen(path, "re");
	uint64_t v;
	bool ok;

	if (!f)
		return -1;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (!ok || lr_parse_u64(buf, &v) < 0 || v > LONG_MAX)
		return -1;
	return (long)v;
}

/* A receiving socket left at the kernel's default buffer (no -w) takes the largest one the
 * host allows without privilege, net.core.rmem_max up to 4 MiB (the kernel doubles it, as for
 * -w): the default 208 KiB holds three 32 KiB datagrams, ~4 ms at 200 Mbit/s, and a receiver
 * thread woken that late on a busy host overflowed it. A -w the user gave is left alone (its
 * doubled value differs from rmem_default unless it is exactly half of it). */
#define LR_UDP_RCVBUF_ASK (4 << 20) /* at most (the kernel doubles it): 40 ms at 1.6 Gbit/s */

static void grow_rcvbuf(struct lr_stream *s)
{
	long def = read_sysctl("/proc/sys/net/core/rmem_default");
	long max = read_sysctl("/proc/sys/net/core/rmem_max");
	int cur = 0, want;
	socklen_t sl = sizeof(cur);

	if (def <= 0 || max <= 0 || max > INT_MAX / 2 ||
	    getsockopt(s->p.fd, SOL_SOCKET, SO_RCVBUF, &cur, &sl) < 0 || cur != def ||
	    2 * max <= cur)
		return;
	want = max < LR_UDP_RCVBUF_ASK ? (int)max : LR_UDP_RCVBUF_ASK;
	if (setsockopt(s->p.fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want)) < 0)
		lr_log(LR_LOG_INFO, "stream %d: SO_RCVBUF %d: %s", s->p.id, want,
		       strerror(errno));
}

static int receiver_setup(struct lr_stream *s)
{
	size_t len = s->p.len;

	if (!s->p.no_gso) {
		int one = 1;

		if (setsockopt(s->p.fd, SOL_UDP, UDP_GRO, &one, sizeof(one)) == 0)
			s->gro = true;
		else
			lr_log(LR_LOG_INFO, "stream %d: no UDP GRO (%s), plain recvmmsg", s->p.id,
			       strerror(errno));
	}
	if (s->gro) {
		s->nmsgs = LR_UDP_GRO_MSGS;
		s->slot_len = LR_UDP_GRO_BUF;
		atomic_store(&s->path, "udp gro+recvmmsg");
	} else {
		s->nmsgs = plain_msgs(len, SIZE_MAX);
		s->slot_len = len;
		atomic_store(&s->path, "udp recvmmsg");
	}
	/* Copies into a slot 16 bytes into a page ran at half speed (see stream.c); big slots
	 * start on a page, small ones on a cache line. */
	s->slot_stride = s->slot_len >= 4096 ? (s->slot_len + 4095) & ~(size_t)4095
					     : (s->slot_len + 63) & ~(size_t)63;
	s->buf_len = s->nmsgs * s->slot_stride;
	s->buf = lr_stream_buf_alloc(s->buf_len);
	s->ctrl = calloc(s->nmsgs, RX_CTRL_LEN);
	if (!s->buf || !s->ctrl)
		return -ENOMEM;
	/* Kernel arrival stamps (CLOCK_REALTIME): jitter needs only differences, so the offset
	 * to the sender's monotonic clock cancels out. Only for a paced sender: on veth and
	 * loopback the stamp is taken on the sending CPU, which an unlimited sender saturates
	 * (~7% fewer 64-byte datagrams); there the batch's receive time serves, as iperf3's
	 * read time does. */
	{
		int one = 1, rcvbuf = 0;
		socklen_t sl = sizeof(rcvbuf);

		grow_rcvbuf(s);
		s->rx_tstamp = s->p.rate_bps &&
			       setsockopt(s->p.fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) == 0;
		getsockopt(s->p.fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &sl);
		s->rcvbuf = rcvbuf > 0 ? (uint64_t)rcvbuf : 212992;
	}
	lr_udp_acct_init(&s->acct);
	return 0;
}

int lr_stream_udp_setup(struct lr_stream *s)
{
	int err;

	s->msgs = calloc(LR_UDP_PLAIN_MSGS, sizeof(*s->msgs));
	s->iov = calloc(LR_UDP_PLAIN_MSGS, sizeof(*s->iov));
	if (!s->msgs || !s->iov)
		return -ENOMEM;
	err = s->p.sender ? sender_setup(s) : receiver_setup(s);
	if (err < 0)
		return err;
	if (s->p.sender) {
		/* Deterministic filler, so GSO and plain runs are byte-identical past the header.
		 */
		uint32_t x = 0x2545f491u;
		size_t i;

		for (i = 0; i < s->buf_len; i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			/* --repeating-payload: iperf3's digits, counted from the datagram's start */
			s->buf[i] = s->p.repeating_payload ? (uint8_t)('0' + i % s->p.len % 10)
							   : (uint8_t)x;
		}
		/* every datagram slot carries the same filler (the header differs) */
		for (i = s->p.len; i + s->p.len <= s->buf_len; i += s->p.len)
			memcpy(s->buf + i, s->buf, s->p.len);
	}
	return 0;
}

/* The kernel refused a GSO send: switch this socket to plain datagrams for good. */
static void gso_fallback(struct lr_stream *s, int err)
{
	int zero = 0;

	/* the sends carry no UDP_SEGMENT cmsg: the socket option is the only thing making them
	 * GSO; if it cannot be cleared, plain sends would still be split and refused */
	if (setsockopt(s->p.fd, SOL_UDP, UDP_SEGMENT, &zero, sizeof(zero)) < 0) {
		lr_stream_fail(s, -errno);
		return;
	}
	s->gso = false;
	s->segs = 1;
	s->nmsgs = plain_msgs(s->p.len, s->buf_len);
	s->slot_len = s->p.len;
	s->max_dgrams = s->nmsgs;
	atomic_store(&s->path, "udp sendmmsg");
	lr_log(LR_LOG_INFO, "stream %d: UDP GSO send failed (%s), plain sendmmsg", s->p.id,
	       strerror(-err));
}

/* EIO: no checksum offload on the route (older kernels); EINVAL/EMSGSIZE: a segment plus
 * headers exceeds the route MTU (the kernel would have to fragment, which GSO cannot). */
static bool gso_refused(int err)
{
	return err == -EIO || err == -EINVAL || err == -EMSGSIZE || err == -ENOPROTOOPT ||
	       err == -EOPNOTSUPP;
}

/* Writes headers for n datagrams from next_seq on and lays out the messages; returns the
 * number of messages. */
static unsigned build_batch(struct lr_stream *s, size_t n, uint64_t now_ns)
{
	size_t len = s->p.len, i, left = n;
	bool seq64 = s->p.udp_64bit_seq;
	struct lr_udp_hdr h;
	unsigned m = 0;

	lr_udp_hdr_set_time(&h, now_ns);
	for (i = 0; i < n; i++) {
		h.seq = s->next_seq + i;
		lr_udp_hdr_encode(s->buf + i * len, &h, seq64);
	}
	/* Datagrams sit back to back in buf; a message covers `segs` of them. */
	for (i = 0; left; m++) {
		size_t k = left < s->segs ? left : s->segs;

		s->iov[m].iov_base = s->buf + i * len;
		s->iov[m].iov_len = k * len;
		memset(&s->msgs[m].msg_hdr, 0, sizeof(s->msgs[m].msg_hdr));
		s->msgs[m].msg_hdr.msg_iov = &s->iov[m];
		s->msgs[m].msg_hdr.msg_iovlen = 1;
		i += k;
		left -= k;
	}
	return m;
}

void lr_stream_udp_send_loop(struct lr_stream *s)
{
	size_t len = s->p.len;
	bool counted = true; /* false once -n/-k is reached */

	while (!lr_stream_stopping(s)) {
		uint64_t now = lr_clock_mono_ns(), sent = 0;
		size_t n;
		unsigned m;
		int r, i;

		lr_stream_pace_refresh(s, now);
		if (s->p.burst && s->pacer.rate_bps) {	/* -b RATE/BURST: the burst's rest */
			n = s->burst_left ? s->burst_left : s->p.burst;
			if (n > s->max_dgrams)
				n = s->max_dgrams;
		} else {
			n = lr_pacer_batch(&s->pacer, now, len, s->max_dgrams);
		}
		if (s->p.max_bytes || s->count_taken) {	/* -n/-k: whole datagrams */
			n = counted ? lr_stream_count_take(s, n, len) : 0;
			if (!n) {
				counted = false;
				lr_pacer_wait(now + LR_STREAM_SLICE_NS, 0, &s->stop, NULL, 0);
				continue;
			}
		}
		if (s->pacer.rate_bps && !(s->p.burst && s->burst_left)) {
			/* a burst is charged and waited for whole at its start (stream.c) */
			uint64_t at = lr_pacer_reserve(&s->pacer, now,
						       (s->p.burst ? s->p.burst : n) * len);

			s->burst_left = s->p.burst;

			if (at > now) {
				lr_pacer_wait(at, LR_STREAM_SLICE_NS, &s->stop, &s->rate_gen,
					      s->rate_gen_seen);
				if (lr_stream_stopping(s))	/* as the TCP sender */
					break;
				now = lr_clock_mono_ns();
			}
		}
		m = build_batch(s, n, now);
		r = sendmmsg(s->p.fd, s->msgs, m, MSG_NOSIGNAL);
		lr_stream_note_cpu(s);
		if (r < 0) {
			lr_stream_count_unsent(s, n, len);
			int err = -errno;

			if (s->gso && gso_refused(err)) {
				gso_fallback(s, err);
				if (lr_stream_error(s))
					break;
			} else if (err == -EAGAIN || err == -EINTR || err == -ENOBUFS ||
				   err == -ECONNREFUSED) {
				/* nothing sent: the same sequence numbers go again (iperf3 3.15+);
				 * a refused port (peer not up yet or gone) gets a short breather */
				if (err == -ECONNREFUSED)
					lr_pacer_wait(lr_clock_mono_ns() + 1000000, 0, &s->stop,
						      NULL, 0);
			} else {
				lr_stream_fail(s, err);
				break;
			}
			continue;
		}
		for (i = 0; i < r; i++)
			sent += s->msgs[i].msg_len / len;
		s->next_seq += sent;
		s->burst_left -= sent < s->burst_left ? (unsigned)sent : s->burst_left;
		lr_stream_count_unsent(s, n - sent, len);
		atomic_fetch_add_explicit(&s->st.bytes, sent * len, relaxed);
		atomic_fetch_add_explicit(&s->st.packets, sent, relaxed);
	}
}

static void publish_acct(struct lr_stream *s)
{
	const struct lr_udp_acct *a = &s->acct;

	atomic_store_explicit(&s->st.lost, a->lost, relaxed);
	atomic_store_explicit(&s->st.out_of_order, a->out_of_order, relaxed);
	atomic_store_explicit(&s->st.jitter_ns, (uint64_t)a->jitter_ns, relaxed);
	atomic_store_explicit(&s->st.max_seq, a->max_seq, relaxed);
}

/* Reads the UDP_GRO segment size (0 when absent) and the kernel arrival stamp. */
static size_t parse_cmsgs(struct msghdr *mh, uint64_t *arrival_ns)
{
	struct cmsghdr *cm;
	size_t gso = 0;

	for (cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level == SOL_UDP && cm->cmsg_type == UDP_GRO &&
		    cm->cmsg_len >= CMSG_LEN(sizeof(int))) {
			int g;

			memcpy(&g, CMSG_DATA(cm), sizeof(g));
			gso = g > 0 ? (size_t)g : 0;
		} else if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SO_TIMESTAMPNS &&
			   cm->cmsg_len >= CMSG_LEN(sizeof(struct timespec))) {
			struct timespec ts;

			memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
			*arrival_ns = (uint64_t)ts.tv_sec * LR_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
		}
	}
	return gso;
}

static void nap(long ns)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = ns};

	nanosleep(&ts, NULL);
}

/* How long the drained socket can be left alone: until a quarter of its buffer has filled at
 * the rate the last batch arrived, at most LR_UDP_RX_NAP_NS. The kernel charges each queued
 * skb its truesize (its length rounded up to a power of two plus ~640 bytes), so a 212 KiB
 * buffer holds ~25 datagrams of 8900 bytes: a fixed 100 us nap at 200k datagrams/s
 * overflowed it. */
long lr_stream_udp_nap_ns(uint64_t rcvbuf, int msgs, uint64_t bytes, uint64_t dt_ns)
{
	uint64_t per = bytes / (uint64_t)msgs + 320, truesize = 512, fits, ns;

	while (truesize < per)
		truesize <<= 1;
	fits = rcvbuf / (truesize + 640);
	ns = fits / 4 * dt_ns / (uint64_t)msgs;
	return ns > LR_UDP_RX_NAP_NS ? LR_UDP_RX_NAP_NS : (long)ns;
}

void lr_stream_udp_recv_loop(struct lr_stream *s)
{
	bool seq64 = s->p.udp_64bit_seq, idle = true, woke;
	size_t i;

	for (i = 0; i < s->nmsgs; i++) {
		s->iov[i].iov_base = s->buf + i * s->slot_stride;
		s->iov[i].iov_len = s->slot_len;
	}
	s->last_batch_ns = lr_clock_mono_ns();
	while (!lr_stream_stopping(s)) {
		uint64_t bytes = 0, dgrams = 0, now, dt;
		uint32_t og = atomic_load_explicit(&s->omit_gen, memory_order_acquire);
		int r, k;

		if (og != s->omit_seen) { /* -O's mark: iperf3 zeroes the jitter and starts over */
			s->omit_seen = og;
			s->acct.jitter_ns = 0;
			s->acct.have_transit = false;
			publish_acct(s);
		}

		for (i = 0; i < s->nmsgs; i++) {
			struct msghdr *mh = &s->msgs[i].msg_hdr;

			memset(mh, 0, sizeof(*mh));
			mh->msg_iov = &s->iov[i];
			mh->msg_iovlen = 1;
			mh->msg_control = s->ctrl + i * RX_CTRL_LEN;
			mh->msg_controllen = RX_CTRL_LEN;
		}
		/* Busy: take what is queued without sleeping in the kernel. Idle: block (the
		 * socket timeout bounds it for the stop flag). */
		r = recvmmsg(s->p.fd, s->msgs, (unsigned)s->nmsgs,
			     idle ? MSG_WAITFORONE : MSG_DONTWAIT, NULL);
		if (r < 0) {
			if (errno == EAGAIN)
				idle = true;
			else if (errno != EINTR && errno != ECONNREFUSED) {
				lr_stream_fail(s, -errno);
				break;
			}
			continue;
		}
		woke = idle; /* the first batch after blocking says nothing about the rate */
		idle = false;
		now = lr_clock_mono_ns(); /* arrival time when the kernel gave none */
		dt = now - s->last_batch_ns;
		s->last_batch_ns = now;
		for (k = 0; k < r; k++) {
			struct msghdr *mh = &s->msgs[k].msg_hdr;
			const uint8_t *p = mh->msg_iov->iov_base;
			uint64_t at = now;
			size_t total = s->msgs[k].msg_len, g = parse_cmsgs(mh, &at), off;

			if (!g || g > total)
				g = total;
			if (!total) {
				dgrams++;
				s->acct.short_dgrams++;
				continue;
			}
			for (off = 0; off < total; off += g) {
				size_t seg = total - off < g ? total - off : g;

				/* a resent setup datagram that came late (or its resent reply, in
				 * -R): the handshake's, never data */
				if (lr_proto_udp_is_setup(p + off, seg)) {
					s->setup_dgrams++;
					continue;
				}
				lr_udp_acct_feed(&s->acct, p + off, seg, seq64, at);
				dgrams++;
				bytes += seg;
			}
		}
		if (bytes) {
			s->last_rx_ns = now;
			atomic_store_explicit(&s->st.last_ns, now, relaxed);
			lr_stream_note_cpu(s);
		}
		atomic_fetch_add_explicit(&s->st.bytes, bytes, relaxed);
		atomic_fetch_add_explicit(&s->st.packets, dgrams, relaxed);
		publish_acct(s);
		if ((size_t)r < s->nmsgs && r > 0 && !woke) {
			long ns = lr_stream_udp_nap_ns(s->rcvbuf, r, bytes, dt);

			if (ns >= LR_UDP_RX_NAP_MIN_NS)
				nap(ns);
		}
	}
	publish_acct(s);
	if (s->setup_dgrams)
		lr_log(LR_LOG_INFO, "stream %d: %llu late UDP setup datagram(s) not counted",
		       s->p.id, (unsigned long long)s->setup_dgrams);
}
