// SPDX-License-Identifier: GPL-2.0-or-later
/* --rr's data path (rr.h, docs/wire.md part 4): one flow per stream with one transaction in
 * flight, as netperf's TCP_RR and UDP_RR. The client's thread writes the request, reads the
 * whole response and keeps the round trip; the server's reads the whole request and answers.
 * The request's first bytes carry the transaction's number and the response echoes them, so
 * a UDP client tells a late answer from the one it waits for. Bytes count as a bulk stream's
 * do (the client's requests sent, the server's received), so iperf3's results agree at both
 * ends. The stream thread owns its counts; others read them after lr_stream_join. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/rr.h"
#include "stream_priv.h"

#define relaxed memory_order_relaxed

static size_t tag_len(const struct lr_stream *s)
{
	size_t n = LR_RR_TAG_BYTES;

	n = s->p.rr_req_bytes < n ? s->p.rr_req_bytes : n;
	return s->p.rr_resp_bytes < n ? s->p.rr_resp_bytes : n;
}

int lr_stream_rr_setup(struct lr_stream *s)
{
	const struct lr_stream_params *p = &s->p;
	uint32_t max = p->udp ? LR_RR_UDP_MAX : LR_RR_TCP_MAX;
	int one = 1;

	if (!p->rr_req_bytes || !p->rr_resp_bytes || p->rr_req_bytes > max ||
	    p->rr_resp_bytes > max)
		return -EINVAL;
	/* the client's request and response side by side; the server answers from where the
	 * request came in, so the echo of its first bytes costs nothing */
	s->buf_len = (size_t)p->rr_req_bytes + p->rr_resp_bytes;
	s->buf = lr_stream_buf_alloc(s->buf_len);
	if (!s->buf)
		return -ENOMEM;
	/* a request must leave at once: Nagle would hold a short one back for an ACK */
	if (!p->udp && setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		lr_log(LR_LOG_INFO, "stream %d: no TCP_NODELAY: %s", p->id, strerror(errno));
	lr_lathist_reset(&s->rr.rtt);
	atomic_store(&s->path, p->udp ? "udp rr" : "tcp rr");
	return 0;
}

/* Sends n bytes whole (TCP may take them in parts). 0, 1 stopped, or -errno. */
static int send_all(struct lr_stream *s, const uint8_t *b, size_t n)
{
	while (n) {
		ssize_t w = send(s->p.fd, b, n, MSG_NOSIGNAL);

		if (w > 0) {
			b += w;
			n -= (size_t)w;
		} else if (w < 0 && errno != EAGAIN && errno != EINTR && errno != ENOBUFS) {
			return -errno;
		} else if (lr_stream_stopping(s)) {
			return 1;
		}
	}
	return 0;
}

/* Reads exactly n bytes of a TCP stream. 0, 1 stopped (once stopping and past give_up_ns), or
 * -errno (-ECONNRESET at EOF). */
static int recv_all(struct lr_stream *s, uint8_t *b, size_t n, uint64_t give_up_ns)
{
	while (n) {
		ssize_t r = recv(s->p.fd, b, n, 0);

		if (r > 0) {
			b += r;
			n -= (size_t)r;
		} else if (r == 0) {
			return -ECONNRESET;
		} else if (errno != EAGAIN && errno != EINTR) {
			return -errno;
		} else if (lr_stream_stopping(s) && lr_clock_mono_ns() >= give_up_ns) {
			return 1;
		}
	}
	return 0;
}

static void put_tag(uint8_t *b, size_t n, uint32_t seq)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(seq >> (8 * i));
}

static void counted(struct lr_stream *s, size_t bytes)
{
	atomic_fetch_add_explicit(&s->st.bytes, bytes, relaxed);
	if (s->p.udp)
		atomic_fetch_add_explicit(&s->st.packets, 1, relaxed);
	lr_stream_note_cpu(s);
}

/* The client's UDP wait for the answer to the request in req: 0 answered, 2 lost (no answer
 * within LR_RR_TIMEOUT_NS of t0, also when stopping: a transaction ends answered or lost),
 * -errno. Answers to earlier transactions are late: counted and dropped; a datagram of another
 * size is no answer at all. */
static int udp_answer(struct lr_stream *s, const uint8_t *req, uint8_t *resp, uint64_t t0)
{
	size_t tl = tag_len(s);

	for (;;) {
		ssize_t r = recv(s->p.fd, resp, s->p.rr_resp_bytes, MSG_TRUNC);

		if (r == (ssize_t)s->p.rr_resp_bytes && !memcmp(resp, req, tl))
			return 0;
		if (r == (ssize_t)s->p.rr_resp_bytes) {
			s->rr.late++;
			continue;
		}
		if (r >= 0)
			continue; /* no answer: a late setup datagram of iperf3's */
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		if (lr_clock_mono_ns() - t0 >= LR_RR_TIMEOUT_NS)
			return 2;
	}
}

static void client_loop(struct lr_stream *s)
{
	uint8_t *req = s->buf, *resp = s->buf + s->p.rr_req_bytes;
	uint32_t seq = 0;

	while (!lr_stream_stopping(s)) {
		uint64_t t0, t1;
		int rc;

		put_tag(req, tag_len(s), ++seq);
		t0 = lr_clock_mono_ns();
		rc = send_all(s, req, s->p.rr_req_bytes);
		if (rc == 0)
			counted(s, s->p.rr_req_bytes);
		if (rc == 0)
			rc = s->p.udp
				     ? udp_answer(s, req, resp, t0)
				     : recv_all(s, resp, s->p.rr_resp_bytes, t0 + LR_RR_TIMEOUT_NS);
		t1 = lr_clock_mono_ns();
		if (rc == 2) {
			s->rr.lost++;
			continue;
		}
		if (rc == 1)
			break; /* stopped with no answer for LR_RR_TIMEOUT_NS: not one */
		if (rc < 0) {
			lr_stream_fail(s, rc);
			break;
		}
		s->last_rx_ns = t1;
		atomic_store_explicit(&s->st.last_ns, t1, relaxed);
		s->rr.transactions++;
		lr_lathist_add(&s->rr.rtt, t1 - t0);
	}
}

/* The server's side: a request in, its response out. A UDP datagram of another size (a late
 * setup datagram of iperf3's) is no request. */
static void server_loop(struct lr_stream *s)
{
	size_t req = s->p.rr_req_bytes;

	while (!lr_stream_stopping(s)) {
		int rc = 0;

		if (s->p.udp) {
			ssize_t r = recv(s->p.fd, s->buf, req, MSG_TRUNC);

			if (r < 0 && errno != EAGAIN && errno != EINTR)
				rc = -errno;
			else if (r != (ssize_t)req)
				continue;
		} else {
			rc = recv_all(s, s->buf, req, 0);
		}
		if (rc == 1)
			break;
		if (rc == -ECONNRESET && !s->p.udp)
			break; /* the client closed: the test is over */
		if (rc < 0) {
			lr_stream_fail(s, rc);
			break;
		}
		s->last_rx_ns = lr_clock_mono_ns();
		atomic_store_explicit(&s->st.last_ns, s->last_rx_ns, relaxed);
		counted(s, req);
		if (s->p.udp) /* iperf3's results read a receiver's datagrams here */
			atomic_fetch_add_explicit(&s->st.max_seq, 1, relaxed);
		rc = send_all(s, s->buf, s->p.rr_resp_bytes);
		if (rc == 1)
			break;
		if (rc < 0) {
			lr_stream_fail(s, rc);
			break;
		}
		s->rr.transactions++;
	}
}

void lr_stream_rr_loop(struct lr_stream *s)
{
	if (s->p.rr_client)
		client_loop(s);
	else
		server_loop(s);
}

void lr_stream_rr_add(const struct lr_stream *s, struct lr_rr_result *sum)
{
	if (!s->p.rr_req_bytes)
		return;
	sum->on = true;
	sum->udp = s->p.udp;
	sum->flows++;
	sum->req_bytes = s->p.rr_req_bytes;
	sum->resp_bytes = s->p.rr_resp_bytes;
	lr_rr_result_merge(sum, &s->rr);
}
