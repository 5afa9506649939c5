// SPDX-License-Identifier: GPL-2.0-or-later
/* iperf3 control protocol: cookie, state bytes, length-prefixed JSON framing (jansson). The
 * I/O helpers are used by the client control thread and the server session thread; every read
 * has a deadline and honours a stop flag. No globals, no threads of its own. The params and
 * results codecs are in proto_json.c. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <jansson.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/proto.h"

const uint8_t lr_proto_udp_connect_msg[4] = {0x39, 0x38, 0x37, 0x36};
const uint8_t lr_proto_udp_connect_reply[4] = {0x36, 0x37, 0x38, 0x39};
const uint8_t lr_proto_udp_legacy_reply[4] = {0xb1, 0x68, 0xde, 0x3a};

bool lr_proto_udp_is_reply(const void *buf, size_t len)
{
	return len == 4 && (!memcmp(buf, lr_proto_udp_connect_reply, 4) ||
			    !memcmp(buf, lr_proto_udp_legacy_reply, 4));
}

bool lr_proto_udp_is_setup(const void *buf, size_t len)
{
	return lr_proto_udp_is_reply(buf, len) ||
	       (len == 4 && !memcmp(buf, lr_proto_udp_connect_msg, 4));
}

#define POLL_SLICE_MS 50

int lr_proto_cookie_make(char cookie[LR_PROTO_COOKIE_LEN])
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
	unsigned char rnd[LR_PROTO_COOKIE_LEN - 1];
	size_t got = 0;

	while (got < sizeof(rnd)) {
		ssize_t n = getrandom(rnd + got, sizeof(rnd) - got, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(rnd); i++)
		cookie[i] = alphabet[rnd[i] % 32];
	cookie[LR_PROTO_COOKIE_LEN - 1] = '\0';
	return 0;
}

bool lr_proto_cookie_valid(const char cookie[LR_PROTO_COOKIE_LEN])
{
	for (int i = 0; i < LR_PROTO_COOKIE_LEN - 1; i++)
		if (cookie[i] < 0x21 || cookie[i] > 0x7e)
			return false;
	return cookie[LR_PROTO_COOKIE_LEN - 1] == '\0';
}

const char *lr_proto_state_name(int state)
{
	switch (state) {
	case LR_PROTO_TEST_START: return "TEST_START";
	case LR_PROTO_TEST_RUNNING: return "TEST_RUNNING";
	case LR_PROTO_TEST_END: return "TEST_END";
	case LR_PROTO_PARAM_EXCHANGE: return "PARAM_EXCHANGE";
	case LR_PROTO_CREATE_STREAMS: return "CREATE_STREAMS";
	case LR_PROTO_SERVER_TERMINATE: return "SERVER_TERMINATE";
	case LR_PROTO_CLIENT_TERMINATE: return "CLIENT_TERMINATE";
	case LR_PROTO_EXCHANGE_RESULTS: return "EXCHANGE_RESULTS";
	case LR_PROTO_DISPLAY_RESULTS: return "DISPLAY_RESULTS";
	case LR_PROTO_IPERF_DONE: return "IPERF_DONE";
	case LR_PROTO_ACCESS_DENIED: return "ACCESS_DENIED";
	case LR_PROTO_SERVER_ERROR: return "SERVER_ERROR";
	default: return "unknown";
	}
}

/* ---- framing ---- */

int lr_proto_json_text(json_t *o, int rc, char **out, size_t *len)
{
	*out = rc ? NULL : json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!*out)
		return -ENOMEM;
	*len = strlen(*out);
	return 0;
}

void lr_proto_debug_json(const char *label, const char *buf, size_t len)
{
	json_t *o;
	char *text;

	if (lr_log_debug_level() == LR_DEBUG_OFF)
		return;
	o = json_loadb(buf, len, 0, NULL);
	text = o ? json_dumps(o, JSON_INDENT(4) | JSON_PRESERVE_ORDER) : NULL;
	lr_debug(0, "%s\n%.*s", label, text ? (int)strlen(text) : (int)len, text ? text : buf);
	free(text);
	json_decref(o);
}

void lr_proto_len_encode(uint32_t len, uint8_t hdr[4])
{
	hdr[0] = (uint8_t)(len >> 24);
	hdr[1] = (uint8_t)(len >> 16);
	hdr[2] = (uint8_t)(len >> 8);
	hdr[3] = (uint8_t)len;
}

int lr_proto_len_decode(const uint8_t hdr[4], uint32_t max, uint32_t *len)
{
	uint32_t v =
		(uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 | (uint32_t)hdr[2] << 8 | hdr[3];

	if (v == 0 || v > max)
		return -EMSGSIZE;
	*len = v;
	return 0;
}

/* ---- bounded I/O ---- */

static int wait_fd(const struct lr_proto_conn *c, short events, uint64_t deadline_ns)
{
	for (;;) {
		struct pollfd pfd[2] = {{.fd = c->fd, .events = events},
					{.fd = c->side_fd, .events = POLLIN}};
		nfds_t n = c->side_fd >= 0 && c->side_cb ? 2 : 1;
		uint64_t now = lr_clock_mono_ns();
		int ms, rc;

		if (c->stop && atomic_load(c->stop))
			return -ECANCELED;
		if (now >= deadline_ns)
			return -ETIMEDOUT;
		ms = (int)((deadline_ns - now) / LR_NSEC_PER_MSEC) + 1;
		if (ms > POLL_SLICE_MS)
			ms = POLL_SLICE_MS;
		rc = poll(pfd, n, ms);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 2 && pfd[1].revents)
			c->side_cb(c->side_arg);
		if (pfd[0].revents)
			return 0;
	}
}

int lr_proto_read(const struct lr_proto_conn *c, void *buf, size_t len, uint64_t timeout_ns)
{
	uint64_t deadline = lr_clock_mono_ns() + timeout_ns;
	size_t got = 0;

	while (got < len) {
		ssize_t n;
		int rc = wait_fd(c, POLLIN, deadline);

		if (rc < 0)
			return rc;
		n = recv(c->fd, (char *)buf + got, len - got, MSG_DONTWAIT);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
				continue;
			return -errno;
		}
		got += (size_t)n;
	}
	return 0;
}

int lr_proto_write(const struct lr_proto_conn *c, const void *buf, size_t len, uint64_t timeout_ns)
{
	uint64_t deadline = lr_clock_mono_ns() + timeout_ns;
	size_t done = 0;

	while (done < len) {
		ssize_t n = send(c->fd, (const char *)buf + done, len - done,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			int rc;

			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -errno;
			rc = wait_fd(c, POLLOUT, deadline);
			if (rc < 0)
				return rc;
			continue;
		}
		done += (size_t)n;
	}
	return 0;
}

#define WRITE_TIMEOUT_NS (10 * LR_NSEC_PER_SEC)

int lr_proto_state_send(const struct lr_proto_conn *c, int state)
{
	int8_t b = (int8_t)state;

	lr_debug(LR_DEBUG_INFO, "State change: %s set State to %d-%s", c->role ? c->role : "peer",
		 state, lr_proto_state_name(state));
	return lr_proto_write(c, &b, 1, WRITE_TIMEOUT_NS);
}

int lr_proto_state_recv(const struct lr_proto_conn *c, int *state, uint64_t timeout_ns)
{
	int8_t b;
	int rc = lr_proto_read(c, &b, 1, timeout_ns);

	if (rc == 0) {
		/* NOLINTNEXTLINE(bugprone-signed-char-misuse,cert-str34-c): iperf3's are signed */
		*state = b;
		lr_debug(LR_DEBUG_INFO, "State change: %s received and changed State to %d-%s",
			 c->role ? c->role : "peer", *state, lr_proto_state_name(*state));
	}
	return rc;
}

int lr_proto_msg_send(const struct lr_proto_conn *c, const char *buf, size_t len)
{
	uint8_t hdr[4];
	int rc;

	if (len == 0 || len > UINT32_MAX)
		return -EMSGSIZE;
	lr_proto_len_encode((uint32_t)len, hdr);
	rc = lr_proto_write(c, hdr, sizeof(hdr), WRITE_TIMEOUT_NS);
	if (rc == 0)
		rc = lr_proto_write(c, buf, len, WRITE_TIMEOUT_NS);
	return rc;
}

int lr_proto_msg_recv(const struct lr_proto_conn *c, uint32_t max, uint64_t timeout_ns, char **out,
		      size_t *out_len)
{
	uint64_t deadline = lr_clock_mono_ns() + timeout_ns;
	uint8_t hdr[4];
	uint32_t len;
	char *buf;
	uint64_t now;
	int rc;

	rc = lr_proto_read(c, hdr, sizeof(hdr), timeout_ns);
	if (rc < 0)
		return rc;
	rc = lr_proto_len_decode(hdr, max, &len);
	if (rc < 0)
		return rc;
	buf = malloc((size_t)len + 1);
	if (!buf)
		return -ENOMEM;
	now = lr_clock_mono_ns();
	rc = lr_proto_read(c, buf, len, deadline > now ? deadline - now : 0);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	buf[len] = '\0';
	*out = buf;
	*out_len = len;
	return 0;
}
