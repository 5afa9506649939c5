// SPDX-License-Identifier: GPL-2.0-or-later
/* --listen: the value parser (and cli.c's use of it), and the HTTP server in-process on
 * loopback, spoken to with plain sockets: 200 for GET /metrics and /, 404 and 405 otherwise,
 * an oversized request refused, a port in use reported as such, a first scrape that waits
 * for the first snapshot, a flood of connections from the scraper's own address. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/app/cli.h"
#include "linerate/app/config.h"
#include "linerate/core/exporter.h"
#include "linerate/present/prom.h"
#include "linerate/run/metrics_http.h"
#include "linerate/sample/snapshot.h"


/* The endpoint serving the Prometheus exposition, as the app opens it. */
static int open_prom(struct lr_metrics_http **m, const char *spec, char *err, size_t len)
{
	struct lr_exporter exp;

	if (lr_prom_exporter(&exp))
		return -ENOMEM;
	return lr_metrics_http_open(m, spec, &exp, err, len);
}

static void test_listen_values(void **state)
{
	struct sockaddr_storage a;
	const struct sockaddr_in *in = (const struct sockaddr_in *)&a;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&a;
	static const char *const bad[] = {"", "abc", "0", "65536", "9100x", "::1:9100", "[::1]",
					  "[::1]9100", "1.2.3.4.5:9100", ":", "[nothost]:80"};
	socklen_t len;
	char err[256];

	(void)state;
	assert_int_equal(lr_metrics_listen_parse("9100", &a, &len, err, sizeof(err)), 0);
	assert_int_equal(a.ss_family, AF_INET);	/* PORT alone: loopback only */
	assert_int_equal(ntohl(in->sin_addr.s_addr), INADDR_LOOPBACK);
	assert_int_equal(ntohs(in->sin_port), 9100);
	assert_int_equal(lr_metrics_listen_parse("0.0.0.0:80", &a, &len, err, sizeof(err)), 0);
	assert_int_equal(in->sin_addr.s_addr, htonl(INADDR_ANY));
	assert_int_equal(lr_metrics_listen_parse("[::]:9100", &a, &len, err, sizeof(err)), 0);
	assert_int_equal(a.ss_family, AF_INET6);
	assert_true(IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr));
	assert_int_equal(lr_metrics_listen_parse(":9100", &a, &len, err, sizeof(err)), 0);
	assert_int_equal(a.ss_family, AF_INET6);	/* every address, both families */
	assert_int_equal(lr_metrics_listen_parse("[::1]:65535", &a, &len, err, sizeof(err)), 0);
	assert_true(IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr));
	assert_int_equal(ntohs(in6->sin6_port), 65535);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];

		err[0] = '\0';
		assert_int_equal(lr_metrics_listen_parse(bad[i], &a, &len, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "--listen: invalid value '%s'", bad[i]);
		assert_non_null(strstr(err, want));
	}
}

static int parse(struct lr_config *cfg, char *err, size_t len, int argc, const char **argv)
{
	return lr_cli_parse(argc, (char **)argv, true, cfg, err, len);
}

static void test_cli_listen(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(parse(&cfg, err, sizeof(err), 4,
			       (const char *[]){"linerate", "--headless", "--listen", "9100", NULL}),
			 0);
	assert_string_equal(cfg.listen, "9100");
	assert_int_equal(parse(&cfg, err, sizeof(err), 3,
			       (const char *[]){"linerate", "--listen", "[::]:9100", NULL}),
			 0);
	assert_int_equal(cfg.mode, LR_MODE_DASHBOARD);
	assert_int_not_equal(parse(&cfg, err, sizeof(err), 3,
				   (const char *[]){"linerate", "--listen", "x:y", NULL}),
			     0);
	assert_non_null(strstr(err, "'x:y'"));
	assert_int_not_equal(parse(&cfg, err, sizeof(err), 4,
				   (const char *[]){"linerate", "-s", "--listen", "9100", NULL}),
			     0);
	assert_non_null(strstr(err, "--listen"));
}

/* One request on a fresh connection; the whole answer (the server closes). */
static char *http(int port, const char *req, size_t *out_len)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	struct timeval tv = {.tv_sec = 5};
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ssize_t n;

	assert_non_null(buf);
	assert_true(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(send(fd, req, strlen(req), MSG_NOSIGNAL), (ssize_t)strlen(req));
	while (len < cap - 1 && (n = recv(fd, buf + len, cap - 1 - len, 0)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(fd);
	if (out_len)
		*out_len = len;
	return buf;
}

static void test_server_answers(void **state)
{
	struct lr_metrics_http *m = NULL, *m2 = NULL;
	struct lr_snapshot s;
	struct lr_iface_snap ifs[1];
	char spec[32], err[256], *r, *big;
	int port = 20000 + (int)(getpid() % 20000);

	(void)state;
	snprintf(spec, sizeof(spec), "127.0.0.1:%d", port);
	if (open_prom(&m, spec, err, sizeof(err)) == -EADDRINUSE) {
		port++;	/* taken by someone else: try the next one */
		snprintf(spec, sizeof(spec), "127.0.0.1:%d", port);
		assert_int_equal(open_prom(&m, spec, err, sizeof(err)), 0);
	}
	assert_non_null(m);
	/* one interface whose kernel counters read 1234 rx bytes */
	lr_snapshot_init(&s);
	memset(ifs, 0, sizeof(ifs));
	strcpy(ifs[0].name, "eth7");
	ifs[0].ifindex = 4;
	ifs[0].mtu = ifs[0].speed_mbps = -1;
	ifs[0].raw_valid = LR_M_BIT(LR_M_RX_BYTES);
	ifs[0].raw[LR_M_RX_BYTES] = 1234;
	s.ifaces = ifs;
	s.n_ifaces = 1;
	s.mono_ns = 1;
	assert_int_equal(lr_metrics_http_publish(m, &s), 0);

	r = http(port, "GET /metrics HTTP/1.0\r\n\r\n", NULL);
	assert_non_null(strstr(r, "HTTP/1.1 200 "));
	assert_non_null(strstr(r, "text/plain; version=0.0.4"));
	assert_non_null(strstr(r, "\nlinerate_iface_rx_bytes_total{iface=\"eth7\"} 1234\n"));
	assert_null(strstr(r, "tx_bytes"));	/* not in the snapshot: absent */
	free(r);
	r = http(port, "GET /metrics HTTP/1.0\r\nAccept: application/openmetrics-text\r\n\r\n",
		 NULL);
	assert_non_null(strstr(r, "application/openmetrics-text; version=1.0.0"));
	assert_non_null(strstr(r, "\n# EOF\n"));
	free(r);
	r = http(port, "GET / HTTP/1.0\r\n\r\n", NULL);
	assert_non_null(strstr(r, " 200 "));
	assert_non_null(strstr(r, "href=\"/metrics\""));
	free(r);
	r = http(port, "GET /metricsx HTTP/1.0\r\n\r\n", NULL);
	assert_non_null(strstr(r, "HTTP/1.1 404 "));
	free(r);
	r = http(port, "DELETE /metrics HTTP/1.0\r\n\r\n", NULL);
	assert_non_null(strstr(r, "HTTP/1.1 405 "));
	assert_non_null(strstr(r, "Allow: GET, HEAD"));
	free(r);
	r = http(port, "HEAD /metrics HTTP/1.0\r\n\r\n", NULL);
	assert_non_null(strstr(r, "HTTP/1.1 200 "));
	assert_null(strstr(r, "linerate_iface"));	/* headers only */
	free(r);
	assert_int_equal(lr_metrics_http_scrapes(m), 2 + 1);	/* the two GETs and the HEAD */

	/* 20 KiB of headers: past the request limit, never a 200 */
	big = malloc(24 * 1024);
	assert_non_null(big);
	strcpy(big, "GET /metrics HTTP/1.0\r\nX-Pad: ");
	memset(big + strlen(big), 'a', 20 * 1024);
	strcpy(big + strlen("GET /metrics HTTP/1.0\r\nX-Pad: ") + 20 * 1024, "\r\n\r\n");
	r = http(port, big, NULL);
	assert_null(strstr(r, " 200 "));
	free(r);
	free(big);

	/* the same port again: in use, said so */
	assert_int_equal(open_prom(&m2, spec, err, sizeof(err)), -EADDRINUSE);
	assert_non_null(strstr(err, spec));
	assert_non_null(strstr(err, strerror(EADDRINUSE)));
	lr_metrics_http_close(m);
}

/* A connection to port from 127.0.0.src that sends what (NULL: nothing) and stays open; its
 * receive buffer rcvbuf bytes and its segments 536 (0: the defaults). */
static int hold_conn(int port, int src, const char *what, int rcvbuf)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	struct sockaddr_in from = {.sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(0x7f000000u | (unsigned)src)};
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	if (rcvbuf) {	/* and small segments: the server's send buffer stays small too */
		int mss = 536;

		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
		setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof(mss));
	}
	assert_int_equal(bind(fd, (struct sockaddr *)&from, sizeof(from)), 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	if (what)
		assert_int_equal(send(fd, what, strlen(what), MSG_NOSIGNAL), (ssize_t)strlen(what));
	return fd;
}

/* Closed by the server: the client's own socket reads the end (or a reset). */
static bool closed_by_server(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK);

	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

static int open_endpoint(struct lr_metrics_http **m, int port)
{
	char spec[32], err[256];

	snprintf(spec, sizeof(spec), "127.0.0.1:%d", port);
	if (open_prom(m, spec, err, sizeof(err)) == -EADDRINUSE) {
		snprintf(spec, sizeof(spec), "127.0.0.1:%d", ++port);
		assert_int_equal(open_prom(m, spec, err, sizeof(err)), 0);
	}
	return port;
}

/* Idle connections past both bounds (64 from each of four addresses, then 100 from the
 * scraper's own address 127.0.0.1: 356 in all) and a half-sent request, then a scrape from
 * 127.0.0.1: answered (each new connection closed the least recently active idle one: anyone's
 * at the total, the address's own at its bound), the half-sent request, the newest of its
 * address, kept, and at most the bounds left open, as the clients' own sockets see. */
static void test_flood_same_address(void **state)
{
	enum { OWN = 100, OTHERS = 4, N = OWN + OTHERS * LR_METRICS_MAX_PER_IP };
	struct lr_metrics_http *m = NULL;
	struct lr_snapshot s;
	char *r;
	int fds[N], slow, port, open_own = 0, open_all = 0;

	(void)state;
	port = open_endpoint(&m, 20000 + (int)((getpid() + 3571) % 20000));
	lr_snapshot_init(&s);
	assert_int_equal(lr_metrics_http_publish(m, &s), 0);
	for (int i = 0; i < N; i++)
		fds[i] = hold_conn(port, i >= OTHERS * LR_METRICS_MAX_PER_IP ? 1 :
				   2 + i / LR_METRICS_MAX_PER_IP, NULL, 0);
	slow = hold_conn(port, 1, "GET /metrics HTTP/1.1\r\nHost: x\r\n", 0);
	r = http(port, "GET /metrics HTTP/1.0\r\n\r\n", NULL);
	assert_non_null(strstr(r, "HTTP/1.1 200 "));
	free(r);
	for (int i = 0; i < N; i++) {
		bool open_now = !closed_by_server(fds[i]);

		open_own += open_now && i >= OTHERS * LR_METRICS_MAX_PER_IP;
		open_all += open_now;
		close(fds[i]);
	}
	assert_false(closed_by_server(slow));
	close(slow);
	assert_true(open_own >= 1 && open_own <= LR_METRICS_MAX_PER_IP);
	assert_true(open_all <= LR_METRICS_MAX_CONNS);
	lr_metrics_http_close(m);
}

/* A connection whose answer is still being sent (a page far larger than the socket buffers,
 * its reader not reading) is never the one closed, though it is the oldest: read afterwards,
 * the page is whole. */
static void test_flood_spares_an_answer(void **state)
{
	enum { NIF = 400, N = 100 };
	static struct lr_iface_snap ifs[NIF];
	struct lr_metrics_http *m = NULL;
	struct lr_snapshot s;
	size_t cap = 8 << 20, len = 0;
	char *page = malloc(cap), *body, *clen;
	int fds[N], big, port;
	ssize_t n;

	(void)state;
	assert_non_null(page);
	port = open_endpoint(&m, 20000 + (int)((getpid() + 6007) % 20000));
	lr_snapshot_init(&s);
	for (int i = 0; i < NIF; i++) {
		snprintf(ifs[i].name, sizeof(ifs[i].name), "eth%d", i);
		ifs[i].ifindex = i + 2;
		ifs[i].mtu = ifs[i].speed_mbps = -1;
		ifs[i].raw_valid = ~0ull;
	}
	s.ifaces = ifs;
	s.n_ifaces = NIF;
	assert_int_equal(lr_metrics_http_publish(m, &s), 0);
	big = hold_conn(port, 1, "GET /metrics HTTP/1.0\r\n\r\n", 2048);
	usleep(100000);	/* the answer queued: the server's send is stalled on our window */
	for (int i = 0; i < N; i++)
		fds[i] = hold_conn(port, 1, NULL, 0);
	while (len < cap - 1 && (n = recv(big, page + len, cap - 1 - len, 0)) > 0)
		len += (size_t)n;
	page[len] = '\0';
	for (int i = 0; i < N; i++)
		close(fds[i]);
	close(big);
	lr_metrics_http_close(m);
	assert_non_null(strstr(page, "HTTP/1.1 200 "));
	body = strstr(page, "\r\n\r\n");
	clen = strcasestr(page, "\r\nContent-Length: ");
	assert_non_null(body);
	assert_non_null(clen);
	/* every byte the header announced came (a closed connection ends it short) */
	assert_int_equal(strtoull(clen + strlen("\r\nContent-Length: "), NULL, 10),
			 len - (size_t)(body + 4 - page));
	assert_true(len > 100000);	/* more than the socket buffers held */
	free(page);
}

struct feeder {
	struct lr_metrics_http *m;
	atomic_bool stop;
	unsigned long fed;
};

/* The run loop's side: a snapshot per iteration whose counter keeps growing. */
static void *feed(void *arg)
{
	struct feeder *f = arg;
	struct lr_iface_snap ifs[1];
	struct lr_snapshot s;

	lr_snapshot_init(&s);
	memset(ifs, 0, sizeof(ifs));
	strcpy(ifs[0].name, "eth7");
	ifs[0].ifindex = 4;
	ifs[0].mtu = ifs[0].speed_mbps = -1;
	ifs[0].raw_valid = LR_M_BIT(LR_M_RX_BYTES);
	s.ifaces = ifs;
	s.n_ifaces = 1;
	usleep(50000);	/* the first scrape comes before the first snapshot */
	while (!atomic_load(&f->stop)) {
		ifs[0].raw[LR_M_RX_BYTES] += 1000;
		s.mono_ns++;
		if (lr_metrics_http_publish(f->m, &s))
			break;
		f->fed++;
		usleep(1000);	/* a run loop publishes once per tick (10 ms at the fastest) */
	}
	return NULL;
}

/* Scrapes while another thread publishes (TSan's case): every page is whole, the first one
 * too (sent before the feeder's first snapshot, it waits for it), and the counter never goes
 * backwards from one scrape to the next. */
static void test_scrapes_during_publishing(void **state)
{
	struct feeder f = {0};
	pthread_t t;
	char spec[32], err[256];
	unsigned long long prev = 0;
	const char *bad = NULL;
	int port = 20000 + (int)((getpid() + 7919) % 20000);

	(void)state;
	snprintf(spec, sizeof(spec), "127.0.0.1:%d", port);
	if (open_prom(&f.m, spec, err, sizeof(err)) == -EADDRINUSE) {
		snprintf(spec, sizeof(spec), "127.0.0.1:%d", ++port);
		assert_int_equal(open_prom(&f.m, spec, err, sizeof(err)), 0);
	}
	atomic_init(&f.stop, false);
	assert_int_equal(pthread_create(&t, NULL, feed, &f), 0);
	/* checked after the join: an assertion must not leave the feeder running */
	for (int i = 0; i < 30 && !bad; i++) {
		char *r = http(port, "GET /metrics HTTP/1.0\r\n\r\n", NULL);
		const char *v = strstr(r, "linerate_iface_rx_bytes_total{iface=\"eth7\"} ");
		unsigned long long n;

		if (!strstr(r, " 200 ")) {
			bad = "a scrape was not answered 200";
		} else if (!v) {
			bad = i ? "a page without the counter" : "the first page without the counter";
		} else {
			n = strtoull(v + strlen("linerate_iface_rx_bytes_total{iface=\"eth7\"} "),
				     NULL, 10);
			if (n < prev || n % 1000)
				bad = "a counter went backwards or a page was torn";
			prev = n;
		}
		free(r);
	}
	atomic_store(&f.stop, true);
	pthread_join(t, NULL);
	if (bad)
		fail_msg("%s", bad);
	assert_true(prev > 0);
	assert_true(f.fed > 0);
	lr_metrics_http_close(f.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listen_values),
		cmocka_unit_test(test_cli_listen),
		cmocka_unit_test(test_server_answers),
		cmocka_unit_test(test_scrapes_during_publishing),
		cmocka_unit_test(test_flood_same_address),
		cmocka_unit_test(test_flood_spares_an_answer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
