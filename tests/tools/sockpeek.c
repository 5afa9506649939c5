// SPDX-License-Identifier: GPL-2.0-or-later
/* sockpeek PID PORT: the kernel's view of another process's sockets. Every socket of PID whose
 * local or remote port is PORT is duplicated with pidfd_getfd (root, Linux 5.6+) and its
 * options read with getsockopt, one line each:
 *   tcp|udp local=PORT remote=PORT nodelay=0|1 tos=N tclass=N maxpacing=BYTES/s
 *   pmtudisc=N keepalive=0|1 keepidle=S keepintvl=S keepcnt=N segment=BYTES gro=0|1
 * (segment and gro: UDP's UDP_SEGMENT and UDP_GRO, -1 on TCP)
 * A test's witness that an option reached the socket, whichever program set it. */
#include <stdbool.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int port_of(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)ss)->sin_port);
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return -1;
}

static long opt(int fd, int level, int name)
{
	uint64_t v = 0;
	socklen_t l = sizeof(v);

	if (getsockopt(fd, level, name, &v, &l) < 0)
		return -1;
	return l == 4 ? (long)(uint32_t)v : (long)v;
}

int main(int argc, char **argv)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int pidfd, port;

	if (argc != 3) {
		fprintf(stderr, "usage: sockpeek PID PORT\n");
		return 2;
	}
	port = atoi(argv[2]);
	pidfd = (int)syscall(SYS_pidfd_open, atoi(argv[1]), 0);
	snprintf(path, sizeof(path), "/proc/%s/fd", argv[1]);
	dir = opendir(path);
	if (pidfd < 0 || !dir) {
		fprintf(stderr, "sockpeek: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	while ((d = readdir(dir))) {
		struct sockaddr_storage a, b;
		socklen_t la = sizeof(a), lb = sizeof(b);
		int type = 0, fd, lp, rp;
		socklen_t tl = sizeof(type);

		if (d->d_name[0] == '.')
			continue;
		fd = (int)syscall(SYS_pidfd_getfd, pidfd, atoi(d->d_name), 0);
		if (fd < 0)
			continue;
		memset(&b, 0, sizeof(b));
		if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) < 0 ||
		    getsockname(fd, (struct sockaddr *)&a, &la) < 0 ||
		    (a.ss_family != AF_INET && a.ss_family != AF_INET6)) {
			close(fd);
			continue;
		}
		getpeername(fd, (struct sockaddr *)&b, &lb);
		lp = port_of(&a);
		rp = port_of(&b);
		if (lp == port || rp == port) {
			bool v6 = a.ss_family == AF_INET6, tcp = type == SOCK_STREAM;

			printf("%s local=%d remote=%d nodelay=%ld tos=%ld tclass=%ld maxpacing=%ld "
			       "pmtudisc=%ld keepalive=%ld keepidle=%ld keepintvl=%ld keepcnt=%ld "
			       "segment=%ld gro=%ld\n",
			       tcp ? "tcp" : "udp", lp, rp,
			       tcp ? opt(fd, IPPROTO_TCP, TCP_NODELAY) : -1, opt(fd, IPPROTO_IP, IP_TOS),
			       v6 ? opt(fd, IPPROTO_IPV6, IPV6_TCLASS) : -1,
			       opt(fd, SOL_SOCKET, SO_MAX_PACING_RATE),
			       v6 ? opt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER)
				  : opt(fd, IPPROTO_IP, IP_MTU_DISCOVER),
			       opt(fd, SOL_SOCKET, SO_KEEPALIVE),
			       tcp ? opt(fd, IPPROTO_TCP, TCP_KEEPIDLE) : -1,
			       tcp ? opt(fd, IPPROTO_TCP, TCP_KEEPINTVL) : -1,
			       tcp ? opt(fd, IPPROTO_TCP, TCP_KEEPCNT) : -1,
			       tcp ? -1 : opt(fd, IPPROTO_UDP, UDP_SEGMENT),
			       tcp ? -1 : opt(fd, IPPROTO_UDP, UDP_GRO));
		}
		close(fd);
	}
	closedir(dir);
	close(pidfd);
	return 0;
}
