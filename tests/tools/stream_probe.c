// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stream_probe: drives one linerate stream (the data path alone, no control protocol) for
 * tests and measurements. `recv` binds a port and counts what arrives for -t seconds;
 * `send` sends to HOST:PORT for -t seconds. Prints one key=value line at the end.
 *   stream_probe recv [-u] -p PORT -l LEN -t SECS [--no-gso] [--64]
 *   stream_probe send [-u] -c HOST -p PORT -l LEN -b BPS -t SECS [--no-gso] [--64] [-Z]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/common.h"
#include "linerate/core/log.h"
#include "linerate/traffic/stream.h"

static int usage(void)
{
	fprintf(stderr, "usage: stream_probe recv|send [-u] [-c HOST] -p PORT -l LEN [-b BPS] "
			"-t SECS [--no-gso] [--64] [-Z]\n");
	return 2;
}

static int open_recv(bool udp, int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	int fd = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0), one = 1, big = 4 << 20;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (udp) /* TCP keeps the kernel's buffer autotuning, as iperf3 without -w */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		return -1;
	if (!udp) {
		int c;

		if (listen(fd, 1) < 0)
			return -1;
		c = accept(fd, NULL, NULL);
		close(fd);
		return c;
	}
	return fd;
}

static int open_send(bool udp, const char *host, int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	int fd = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0), big = 4 << 20;

	if (fd < 0 || inet_pton(AF_INET, host, &a.sin_addr) != 1)
		return -1;
	if (udp)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		return -1;
	return fd;
}

int main(int argc, char **argv)
{
	struct lr_stream_params p = {.id = 1, .len = 0, .cpu = -1};
	const char *host = NULL;
	double secs = 2;
	int port = 5201, i, err;
	struct lr_stream *s;
	struct rusage ru;

	if (argc < 2)
		return usage();
	p.sender = !strcmp(argv[1], "send");
	if (!p.sender && strcmp(argv[1], "recv"))
		return usage();
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-u"))
			p.udp = true;
		else if (!strcmp(a, "--no-gso"))
			p.no_gso = true;
		else if (!strcmp(a, "--64"))
			p.udp_64bit_seq = true;
		else if (!strcmp(a, "-Z"))
			p.zerocopy = true;
		else if (v && !strcmp(a, "-c"))
			host = argv[++i];
		else if (v && !strcmp(a, "-p"))
			port = atoi(argv[++i]);
		else if (v && !strcmp(a, "-l"))
			p.len = strtoul(argv[++i], NULL, 0);
		else if (v && !strcmp(a, "-b"))
			p.rate_bps = strtoull(argv[++i], NULL, 0);
		else if (v && !strcmp(a, "-t"))
			secs = atof(argv[++i]);
		else if (v && !strcmp(a, "-A"))
			p.cpu = atoi(argv[++i]);
		else
			return usage();
	}
	if (!p.len)
		p.len = p.udp ? 1400 : 131072;
	if (p.sender && !host)
		return usage();
	lr_log_set_echo(LR_LOG_INFO);
	p.fd = p.sender ? open_send(p.udp, host, port) : open_recv(p.udp, port);
	if (p.fd < 0) {
		fprintf(stderr, "stream_probe: socket: %s\n", strerror(errno));
		return 1;
	}
	err = lr_stream_open(&s, &p);
	if (err == 0)
		err = lr_stream_start(s);
	if (err < 0) {
		fprintf(stderr, "stream_probe: %s\n", strerror(-err));
		return 1;
	}
	uint64_t until = lr_clock_mono_ns() + (uint64_t)(secs * 1e9);

	while (lr_clock_mono_ns() < until && !atomic_load(&lr_stream_stats(s)->end_ns))
		lr_clock_sleep_until(lr_clock_mono_ns() + 10 * LR_NSEC_PER_MSEC < until
					     ? lr_clock_mono_ns() + 10 * LR_NSEC_PER_MSEC
					     : until);
	lr_stream_stop(s);
	lr_stream_join(s);
	const struct lr_stream_stats *st = lr_stream_stats(s);
	double dur = (double)(atomic_load(&st->end_ns) - atomic_load(&st->start_ns)) / 1e9;

	getrusage(RUSAGE_SELF, &ru);
	printf("role=%s path=\"%s\" packets=%llu bytes=%llu secs=%.3f bps=%.0f pps=%.0f lost=%llu "
	       "out_of_order=%llu max_seq=%llu jitter_us=%.1f retransmits=%llu cpu_s=%.2f "
	       "error=%d\n",
	       p.sender ? "send" : "recv", lr_stream_path(s),
	       (unsigned long long)atomic_load(&st->packets),
	       (unsigned long long)atomic_load(&st->bytes), dur,
	       (double)atomic_load(&st->bytes) * 8 / dur, (double)atomic_load(&st->packets) / dur,
	       (unsigned long long)atomic_load(&st->lost),
	       (unsigned long long)atomic_load(&st->out_of_order),
	       (unsigned long long)atomic_load(&st->max_seq),
	       (double)atomic_load(&st->jitter_ns) / 1000.0,
	       (unsigned long long)atomic_load(&st->retransmits),
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
	       lr_stream_error(s));
	lr_stream_close(s);
	return 0;
}
