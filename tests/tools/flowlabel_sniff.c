// SPDX-License-Identifier: GPL-2.0-or-later
/* flowlabel_sniff IFACE PORT SECONDS: the IPv6 flow labels the kernel put on the wire. Every
 * IPv6 TCP or UDP packet on IFACE to or from PORT is read for SECONDS with an AF_PACKET socket
 * (root) and counted per flow and label; at the end one line each:
 *   tcp|udp src=PORT dst=PORT label=0xLLLLL packets=N bytes=B
 * (bytes: the IPv6 packets' lengths). "ready" goes to stderr once the socket is bound, so a
 * test can start its traffic after it; SIGTERM or SIGINT ends it early (with the lines). A test's witness that -L reached the packets, whichever
 * program sent them. Packets the host sends are seen once (outgoing copies are skipped). */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_FLOWS 256

struct flow {
	int proto;
	unsigned src, dst;
	uint32_t label;
	unsigned long long packets, bytes;
};

static volatile sig_atomic_t stop;
static struct flow flows[MAX_FLOWS];
static int n_flows;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void count(int proto, unsigned src, unsigned dst, uint32_t label, size_t len)
{
	int i;

	for (i = 0; i < n_flows; i++) {
		struct flow *f = &flows[i];

		if (f->proto == proto && f->src == src && f->dst == dst && f->label == label)
			break;
	}
	if (i == n_flows) {
		if (n_flows == MAX_FLOWS)
			return;
		flows[n_flows++] = (struct flow){.proto = proto, .src = src, .dst = dst, .label = label};
	}
	flows[i].packets++;
	flows[i].bytes += len;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_signal};	/* no SA_RESTART: poll returns */
	struct sockaddr_ll sll = {0};
	unsigned port;
	double end;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: flowlabel_sniff IFACE PORT SECONDS\n");
		return 2;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	port = (unsigned)atoi(argv[2]);
	end = now_s() + atof(argv[3]);
	fd = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_IPV6));
	if (fd < 0) {
		perror("flowlabel_sniff: socket(AF_PACKET)");
		return 1;
	}
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_IPV6);
	sll.sll_ifindex = (int)if_nametoindex(argv[1]);
	if (!sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		fprintf(stderr, "flowlabel_sniff: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	fprintf(stderr, "ready\n");
	for (;;) {
		unsigned char b[64];
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		double left = end - now_s();
		ssize_t n;

		if (left <= 0 || stop)
			break;
		if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		n = recvfrom(fd, b, sizeof(b), MSG_TRUNC, (struct sockaddr *)&from, &fl);
		if (n < 44 || from.sll_pkttype == PACKET_OUTGOING || (b[0] >> 4) != 6)
			continue;
		if (b[6] != IPPROTO_TCP && b[6] != IPPROTO_UDP)
			continue;
		{
			uint32_t label = ((uint32_t)(b[1] & 0x0f) << 16) | (uint32_t)b[2] << 8 | b[3];
			unsigned src = (unsigned)b[40] << 8 | b[41], dst = (unsigned)b[42] << 8 | b[43];

			if (src == port || dst == port)
				count(b[6], src, dst, label, (size_t)n);
		}
	}
	for (int i = 0; i < n_flows; i++)
		printf("%s src=%u dst=%u label=0x%05x packets=%llu bytes=%llu\n",
		       flows[i].proto == IPPROTO_TCP ? "tcp" : "udp", flows[i].src, flows[i].dst,
		       flows[i].label, flows[i].packets, flows[i].bytes);
	close(fd);
	return 0;
}
