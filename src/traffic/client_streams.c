// SPDX-License-Identifier: GPL-2.0-or-later
/* The client's data streams around the control thread's state machine (client.c): watched while
 * the test runs (a failed stream, --rcv-timeout), stopped senders first, the TCP senders' queues
 * and the receivers drained before the counts are exchanged, and where the traffic stopped when
 * a test went silent. [control thread] */
#include <errno.h>
#include <linux/sockios.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "linerate/core/clock.h"
#include "linerate/traffic/stream.h"
#include "client_priv.h"

/* Where the traffic stopped, for the message of a test that went silent: the last data a
 * receiver got, else the last send a TCP sender's kernel took (its buffer had drained, so the
 * server was acknowledging until about then). "" before the run. */
void lr_client_where_stopped(struct lr_client *c, char *buf, size_t size)
{
	uint64_t rx = 0, tx = 0;
	bool have_rx = false, have_tx = false;

	buf[0] = '\0';
	if (!c->t0_ns)
		return;
	for (unsigned i = 0; i < lr_client_nstreams(c); i++) {
		const struct lr_stream_params *sp = lr_stream_params(c->streams[i]);
		uint64_t v = atomic_load(&lr_stream_stats(c->streams[i])->last_ns);

		if (!sp->sender) {
			have_rx = true;
			rx = v > rx ? v : rx;
		} else if (!sp->udp) {
			have_tx = true;
			tx = v > tx ? v : tx;
		}
	}
	if (have_rx && rx > c->t0_ns)
		snprintf(buf, size, "; the last data from the server arrived %.2f s into the test",
			 (double)(rx - c->t0_ns) / 1e9);
	else if (have_rx)
		snprintf(buf, size, "; no data from the server arrived");
	else if (have_tx && tx > c->t0_ns)
		snprintf(buf, size, "; the TCP send buffer last drained %.2f s into the test",
			 (double)(tx - c->t0_ns) / 1e9);
}

void lr_client_stop_streams(struct lr_client *c, int which)
{
	unsigned n = lr_client_nstreams(c);

	for (unsigned i = 0; i < n; i++)
		if (!c->joined[i] &&
		    (which < 0 || (int)lr_stream_params(c->streams[i])->sender == which))
			lr_stream_stop(c->streams[i]);
	for (unsigned i = 0; i < n; i++)
		if (!c->joined[i] &&
		    (which < 0 || (int)lr_stream_params(c->streams[i])->sender == which)) {
			lr_stream_join(c->streams[i]);
			c->joined[i] = true;
		}
}

/* A stream that failed (reset, --snd-timeout) or receivers idle past --rcv-timeout end the
 * test: -errno (reported), else 0. */
int lr_client_check_streams(struct lr_client *c, uint64_t now)
{
	uint64_t last = c->t0_ns;
	bool rx = false;

	for (unsigned i = 0; i < lr_client_nstreams(c); i++) {
		const struct lr_stream_params *sp = lr_stream_params(c->streams[i]);
		int e = lr_stream_error(c->streams[i]);

		if (e == -ETIMEDOUT && !sp->udp && c->tc.snd_timeout_ms) {
			lr_client_set_err(
				c,
				"data stream %u: the server acknowledged nothing for %u ms "
				"(--snd-timeout)",
				i + 1, c->tc.snd_timeout_ms);
			return e;
		}
		if (e == -ECONNRESET || e == -EPIPE) {
			lr_client_set_err(c, "the server reset data stream %u during the test",
					  i + 1);
			return e;
		}
		if (e) {
			lr_client_set_err(c, "data stream %u failed during the test: %s", i + 1,
					  strerror(-e));
			return e;
		}
		if (!sp->sender) {
			uint64_t v = atomic_load(&lr_stream_stats(c->streams[i])->last_ns);

			rx = true;
			last = v > last ? v : last;
		}
	}
	if (rx && now > last && now - last >= c->rcv_timeout_ns) {
		char tail[96];

		lr_client_where_stopped(c, tail, sizeof(tail));
		lr_client_set_err(c, "no data from the server for %.1f s (--rcv-timeout)%s",
				  (double)c->rcv_timeout_ns / 1e9, tail);
		return -ETIMEDOUT;
	}
	return 0;
}

#define DRAIN_MAX_NS (500 * LR_NSEC_PER_MSEC)

/* iperf3 counts only what it reads before TEST_END arrives: let the stopped TCP senders' queues
 * empty first (bounded), so both sides' byte counts agree. */
void lr_client_wait_sent_drained(struct lr_client *c)
{
	uint64_t end = lr_clock_mono_ns() + DRAIN_MAX_NS;
	bool sends = false;

	for (unsigned i = 0; i < lr_client_nstreams(c); i++)
		sends |= lr_stream_params(c->streams[i])->sender;
	/* under -R nothing of ours is in flight, and the server sends until TEST_END: waiting
	 * here would make its test longer than -t (55 ms at -t 3, 1.8 % more bytes) */
	if (!sends)
		return;
	while (!c->tc.udp && lr_clock_mono_ns() < end && !atomic_load(&c->stop)) {
		int pending = 0;

		for (unsigned i = 0; i < lr_client_nstreams(c); i++) {
			const struct lr_stream_params *sp = lr_stream_params(c->streams[i]);
			int q = 0;

			if (sp->sender && ioctl(sp->fd, SIOCOUTQ, &q) == 0)
				pending += q;
		}
		if (!pending)
			break;
		if (lr_clock_sleep_until(lr_clock_mono_ns() + 5 * LR_NSEC_PER_MSEC) < 0)
			break;
	}
	/* acked is not yet read: give the peer's reader (and UDP in flight) a moment. A linerate
	 * server (it offered peer stats) reads on after TEST_END, and its receivers' seconds end
	 * at TEST_END as iperf3's do: the wait would only lengthen them. */
	if (!c->peer_offered) /* set by this (control) thread */
		(void)lr_clock_sleep_until(lr_clock_mono_ns() + 50 * LR_NSEC_PER_MSEC);
}

/* Receivers take what is still in flight once the server stopped: until quiet (bounded). */
void lr_client_drain_receivers(struct lr_client *c)
{
	uint64_t end = lr_clock_mono_ns() + DRAIN_MAX_NS, prev = UINT64_MAX;
	int quiet = 0;
	bool any = false;

	for (unsigned i = 0; i < lr_client_nstreams(c); i++)
		any |= !lr_stream_params(c->streams[i])->sender;
	while (any && quiet < 2 && lr_clock_mono_ns() < end && !atomic_load(&c->stop)) {
		uint64_t sum = 0;

		for (unsigned i = 0; i < lr_client_nstreams(c); i++)
			if (!lr_stream_params(c->streams[i])->sender)
				sum += atomic_load(&lr_stream_stats(c->streams[i])->bytes);
		quiet = sum == prev ? quiet + 1 : 0;
		prev = sum;
		if (lr_clock_sleep_until(lr_clock_mono_ns() + 20 * LR_NSEC_PER_MSEC) < 0)
			break;
	}
}
