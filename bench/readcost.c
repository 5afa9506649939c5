// SPDX-License-Identifier: MIT
/*
 * bench helper: the floor under a sampler tick on this machine. Times, per operation, a pread of
 * each /proc file a tick reads, one RTM_GETSTATS netlink dump of every link, one RTM_GETQDISC
 * dump of every qdisc, the two ethtool
 * ioctls per interface (GSSET_INFO, GSTATS), and the CPU one timer wake-up costs a process
 * that does nothing else, all as CPU time of this thread (the machine is shared). Prints
 * "name<TAB>microseconds<TAB>note" lines. Built by bench/run.sh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 2000

static char buf[1 << 20];

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU, not wall: the box is shared */
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double cpu_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + ru.ru_utime.tv_usec +
	       ru.ru_stime.tv_usec;
}

static void time_file(const char *path)
{
	double t0;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i;

	if (fd < 0) {
		printf("%s\t-\tcannot open: %s\n", path, strerror(errno));
		return;
	}
	t0 = now_us();
	for (i = 0; i < ROUNDS; i++)
		n = pread(fd, buf, sizeof(buf), 0);
	printf("pread %s\t%.2f\t%zd bytes\n", path, (now_us() - t0) / ROUNDS, n);
	close(fd);
}

/* One RTM_GETSTATS dump (64-bit link stats of every interface) or RTM_GETQDISC dump (every
 * qdisc); returns the messages seen or -1. */
static int nl_dump(int fd, unsigned int seq, int type)
{
	struct {
		struct nlmsghdr nh;
		union {
			struct if_stats_msg ifsm;
			struct tcmsg tcm;	/* all zero: every device */
		};
	} req;
	int links = 0;

	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(type == RTM_GETSTATS ? sizeof(req.ifsm) : sizeof(req.tcm));
	req.nh.nlmsg_type = (unsigned short)type;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = seq;
	if (type == RTM_GETSTATS)
		req.ifsm.filter_mask = 1U << (IFLA_STATS_LINK_64 - 1);
	if (send(fd, &req, sizeof(req), 0) < 0)
		return -1;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh;

		if (n <= 0)
			return -1;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (size_t)n); nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_type == NLMSG_DONE)
				return links;
			if (nh->nlmsg_type == NLMSG_ERROR)
				return -1;
			links++;
		}
	}
}

static void time_netlink(int type, const char *name, const char *what)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), i, n = 0;
	double t0;

	if (fd < 0) {
		printf("netlink %s dump\t-\tno socket\n", name);
		return;
	}
	t0 = now_us();
	for (i = 0; i < ROUNDS; i++)
		n = nl_dump(fd, (unsigned int)i + 1, type);
	printf("netlink %s dump\t%.2f\t%d %s per dump\n", name, (now_us() - t0) / ROUNDS, n, what);
	close(fd);
}

static void time_ethtool(const char *ifname)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} sset;
	struct ethtool_stats *st;
	struct ifreq ifr;
	double t0, t1;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), i;
	uint32_t n;

	if (fd < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	memset(&sset, 0, sizeof(sset));
	sset.hdr.cmd = ETHTOOL_GSSET_INFO;
	sset.hdr.sset_mask = 1ULL << ETH_SS_STATS;
	ifr.ifr_data = (char *)&sset;
	t0 = now_us();
	for (i = 0; i < ROUNDS; i++) {
		sset.hdr.sset_mask = 1ULL << ETH_SS_STATS;
		if (ioctl(fd, SIOCETHTOOL, &ifr) < 0) {
			printf("ethtool GSSET_INFO %s\t-\t%s\n", ifname, strerror(errno));
			close(fd);
			return;
		}
	}
	t1 = now_us();
	n = sset.hdr.sset_mask ? sset.len : 0;
	printf("ethtool GSSET_INFO %s\t%.2f\t%u stats\n", ifname, (t1 - t0) / ROUNDS, n);
	st = calloc(1, sizeof(*st) + n * sizeof(uint64_t));
	if (!st) {
		close(fd);
		return;
	}
	ifr.ifr_data = (char *)st;
	t0 = now_us();
	for (i = 0; i < ROUNDS; i++) {
		st->cmd = ETHTOOL_GSTATS;
		st->n_stats = n;
		if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
			break;
	}
	printf("ethtool GSTATS %s\t%.2f\t%u values\n", ifname, (now_us() - t0) / ROUNDS, n);
	free(st);
	close(fd);
}

/* CPU charged to a process for one timer wake-up that does no work (clock_nanosleep, 10 ms). */
static void time_wakeup(void)
{
	struct timespec d = {0, 10 * 1000 * 1000};
	double c0 = cpu_us();
	int i;

	for (i = 0; i < 100; i++)
		clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL);
	printf("empty timer wake-up (CPU)\t%.2f\t100 sleeps of 10 ms, rusage\n",
	       (cpu_us() - c0) / 100);
}

int main(int argc, char **argv)
{
	static const char *files[] = {"/proc/net/dev",	"/proc/stat",
				      "/proc/softirqs", "/proc/net/softnet_stat",
				      "/proc/net/snmp", "/proc/interrupts"};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		time_file(files[i]);
	time_netlink(RTM_GETSTATS, "RTM_GETSTATS", "links");
	time_netlink(RTM_GETQDISC, "RTM_GETQDISC", "qdiscs");
	if (argc > 1)
		time_ethtool(argv[1]);
	time_wakeup();
	return 0;
}
