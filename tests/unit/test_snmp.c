// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/net/snmp and /proc/net/netstat parser and reader on captured files from 2.6.32 to 6.x,
 * and the drop witnesses of the loss ledger's ip and transport stages on a namespace that
 * made some of them move (tests/fixtures/netns-drops). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fakes/fake_sysio.h"
#include "linerate/collect/snmp.h"
#include "linerate/core/log.h"

#define ALL (LR_STACKV_TCP_RETRANS | LR_STACKV_UDP_IN_ERRORS | LR_STACKV_UDP_RCVBUF | \
	     LR_STACKV_UDP_SNDBUF)

static int parse_file(const char *tree, const char *file, struct lr_snmp_raw *out)
{
	struct fake_sysio f;
	char root[256], buf[16384];
	ssize_t n;

	snprintf(root, sizeof(root), FIXTURES "/%s", tree);
	fake_sysio_init(&f, root);
	n = f.io.read_file(&f.io, file, buf, sizeof(buf));
	assert_true(n > 0);
	return lr_snmp_parse(buf, (size_t)n, out);
}

static int parse_tree(const char *tree, struct lr_snmp_raw *out)
{
	return parse_file(tree, "/proc/net/snmp", out);
}

static void test_kernels(void **state)
{
	static const struct {
		const char *tree;
		uint64_t retrans, in_err, rcvbuf, sndbuf;
	} cases[] = {
		{"pcp-snmp-2.6.32", 773, 0, 0, 0},	/* Udp has 6 columns */
		{"pcp-snmp-3.19.0", 513784, 0, 0, 0},	/* Tcp value line ends in a blank */
		{"datadog-network", 2763, 0, 0, 0},
		{"sysstat-root1", 304, 0, 0, 0},
		{"gosysinfo-fedora30", 10752, 0, 0, 0},
		{"nodeexp-fixtures", 227, 0, 9, 8},
		{"this-host", 0, 0, 0, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < LR_ARRAY_SIZE(cases); i++) {
		struct lr_snmp_raw r;

		assert_true(parse_tree(cases[i].tree, &r) >= 4);
		assert_int_equal(r.valid & ALL, ALL);
		assert_int_equal(r.bad, 0);
		assert_int_equal(r.tcp_retrans, cases[i].retrans);
		assert_int_equal(r.udp_in_errors, cases[i].in_err);
		assert_int_equal(r.udp_rcvbuf_errors, cases[i].rcvbuf);
		assert_int_equal(r.udp_sndbuf_errors, cases[i].sndbuf);
	}
}

/* Before 2.6.18 Udp had no RcvbufErrors/SndbufErrors: unknown, not 0. UdpLite must not be
 * taken for Udp, and columns are matched by name, not position. */
static void test_old_udp_and_udplite(void **state)
{
	static const char text[] =
		"Tcp: RtoAlgorithm RtoMin RtoMax MaxConn RetransSegs\n"
		"Tcp: 1 200 120000 -1 42\n"
		"Udp: InDatagrams NoPorts InErrors OutDatagrams\n"
		"Udp: 10 1 7 12\n"
		"UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors\n"
		"UdpLite: 0 0 99 0 99 99";	/* no trailing newline */
	struct lr_snmp_raw r;

	(void)state;
	assert_int_equal(lr_snmp_parse(text, sizeof(text) - 1, &r), 3);
	assert_int_equal(r.valid, LR_STACKV_TCP_RETRANS | LR_STACKV_UDP_IN_ERRORS |
					  LR_STACKV_DROP(LR_SD_UDP_NO_PORTS));
	assert_int_equal(r.drop[LR_SD_UDP_NO_PORTS], 1);
	assert_int_equal(r.tcp_retrans, 42);
	assert_int_equal(r.udp_in_errors, 7);
	assert_int_equal(r.udp_rcvbuf_errors, 0);
}

static void test_bad_values(void **state)
{
	static const char shortline[] = "Tcp: A B RetransSegs\nTcp: 1 2\n"
					"Udp: InErrors RcvbufErrors SndbufErrors\n"
					"Udp: -1 x 18446744073709551616\n";
	static const char junk[] = "Icmp: InMsgs\nIcmp: 1\nnothing here\n";
	struct lr_snmp_raw r;

	(void)state;
	assert_int_equal(lr_snmp_parse(shortline, sizeof(shortline) - 1, &r), 0);
	assert_int_equal(r.valid, 0);
	assert_int_equal(lr_snmp_parse(junk, sizeof(junk) - 1, &r), -EINVAL);
	assert_int_equal(lr_snmp_parse("", 0, &r), -EINVAL);
	/* a header with no value line */
	assert_int_equal(lr_snmp_parse("Tcp: RetransSegs\n", 17, &r), -EINVAL);
}

static void test_reader(void **state)
{
	struct lr_snmp_reader *rd = NULL;
	struct lr_snmp_raw r;
	struct fake_sysio f;

	(void)state;
	fake_sysio_init(&f, FIXTURES "/pcp-snmp-3.19.0");
	assert_int_equal(lr_snmp_reader_open(&rd, &f.io), 0);
	assert_true(lr_snmp_reader_read(rd, &r) >= 4);
	assert_int_equal(r.tcp_retrans, 513784);
	assert_true(lr_snmp_reader_read(rd, &r) >= 4);	/* re-read, same fd */
	assert_int_equal(r.tcp_retrans, 513784);
	lr_snmp_reader_close(rd);
	lr_snmp_reader_close(NULL);

	fake_sysio_init(&f, FIXTURES "/handmade-oldkernel");	/* has no net/snmp */
	assert_int_equal(lr_snmp_reader_open(&rd, &f.io), -ENOENT);
}


#define IP_BITS LR_STACKV_IP_DROPS
#define TCP_BITS LR_STACKV_TCP_DROPS

/* A namespace that dropped 5 packets for an address not its own (forwarding off), let 2
 * reassemblies time out (their second fragments dropped at ingress) and refused 7 datagrams
 * to a closed port: each witness its own column, read by name (tests/fixtures/README.md). */
static void test_drop_witnesses(void **state)
{
	static const uint64_t want[LR_SD__COUNT] = {
		[LR_SD_IP_IN_ADDR_ERRORS] = 5, [LR_SD_IP_REASM_FAILS] = 2, [LR_SD_UDP_NO_PORTS] = 7,
	};
	struct lr_snmp_raw r;

	(void)state;
	assert_true(parse_tree("netns-drops", &r) > 0);
	assert_int_equal(r.valid & IP_BITS, IP_BITS);
	for (int d = LR_SD_IP_IN_DISCARDS; d <= LR_SD_UDP_IN_CSUM_ERRORS; d++) {
		assert_true(r.valid & LR_STACKV_DROP(d));
		assert_int_equal(r.drop[d], want[d]);
	}
	assert_int_equal(r.valid & TCP_BITS, 0);	/* TcpExt is netstat's */
	/* the same machine's own: NoPorts and InErrors apart, RcvbufErrors = InErrors */
	assert_true(parse_tree("host-stack", &r) > 0);
	assert_int_equal(r.drop[LR_SD_UDP_NO_PORTS], 17800455);
	assert_int_equal(r.udp_in_errors, 1112804);
	assert_int_equal(r.udp_rcvbuf_errors, 1112804);
	assert_int_equal(r.drop[LR_SD_UDP_IN_CSUM_ERRORS], 0);
	/* netstat: TcpExt's four drop counters, known (0 on both), and the D-SACKed
	 * retransmits; nothing of snmp's */
	assert_int_equal(parse_file("netns-drops", "/proc/net/netstat", &r), 5);
	assert_int_equal(r.valid, TCP_BITS | LR_STACKV_DROP(LR_SD_TCP_DSACK_RECV_SEGS));
	assert_int_equal(parse_file("host-stack", "/proc/net/netstat", &r), 5);
	assert_int_equal(r.valid, TCP_BITS | LR_STACKV_DROP(LR_SD_TCP_DSACK_RECV_SEGS));
	assert_int_equal(r.drop[LR_SD_TCP_DSACK_RECV_SEGS], 27963);	/* the file's own */
	/* 2.6.32 has no InCsumErrors (3.10): unknown, not 0 */
	assert_true(parse_tree("pcp-snmp-2.6.32", &r) > 0);
	assert_false(r.valid & LR_STACKV_DROP(LR_SD_UDP_IN_CSUM_ERRORS));
	assert_true(r.valid & LR_STACKV_DROP(LR_SD_UDP_NO_PORTS));
}

/* TcpExt's columns by name, wherever the kernel puts them; a kernel before 5.0 lacks
 * TCPRcvQDrop and TCPZeroWindowDrop: unknown. IpExt is not TcpExt. */
static void test_tcpext_by_name(void **state)
{
	static const char text[] =
		"TcpExt: SyncookiesSent TCPOFODrop TCPBacklogDrop TCPOFOQueue\n"
		"TcpExt: 9 31 17 1000\n"
		"IpExt: TCPBacklogDrop InOctets\n"
		"IpExt: 99 12345\n";
	struct lr_snmp_raw r;

	(void)state;
	assert_int_equal(lr_snmp_parse(text, sizeof(text) - 1, &r), 2);
	assert_int_equal(r.drop[LR_SD_TCP_OFO_DROP], 31);
	assert_int_equal(r.drop[LR_SD_TCP_BACKLOG_DROP], 17);
	assert_int_equal(r.valid, LR_STACKV_DROP(LR_SD_TCP_OFO_DROP) |
					  LR_STACKV_DROP(LR_SD_TCP_BACKLOG_DROP));
	assert_string_equal(lr_stack_drop_name(LR_SD_TCP_ZERO_WINDOW_DROP),
			    "TcpExt TCPZeroWindowDrop");
}

/* A line that does not parse makes its own counters unknown, no other line's. */
static void test_line_does_not_parse(void **state)
{
	static const char text[] =
		"Ip: Forwarding InDiscards InHdrErrors InAddrErrors ReasmFails\n"
		"Ip: 2 1 2 3 4\n"
		"Udp: InErrors NoPorts RcvbufErrors\n"
		"Udp: 5 6 x7\n"		/* junk in a wanted column */
		"TcpExt: TCPBacklogDrop TCPOFODrop\n"
		"TcpExt: 8\n"			/* shorter than its header */
		"Tcp: RetransSegs\n";		/* no value line */
	struct lr_snmp_raw r;

	(void)state;
	assert_int_equal(lr_snmp_parse(text, sizeof(text) - 1, &r), 4);
	assert_int_equal(r.valid, IP_BITS);
	assert_int_equal(r.drop[LR_SD_IP_REASM_FAILS], 4);
	assert_true(r.bad & LR_STACKV_UDP_IN_ERRORS);
	assert_true(r.bad & LR_STACKV_DROP(LR_SD_UDP_NO_PORTS));
	assert_int_equal(r.bad & TCP_BITS, TCP_BITS);
	assert_true(r.bad & LR_STACKV_TCP_RETRANS);
	assert_false(r.bad & IP_BITS);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/net/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static unsigned warnings_naming(uint64_t *seen, const char *what)
{
	struct lr_log_entry e[16];
	size_t n = lr_log_read(seen, e, 16);
	unsigned hits = 0;

	for (size_t i = 0; i < n; i++)
		hits += e[i].level == LR_LOG_WARN && strstr(e[i].msg, what) != NULL;
	return hits;
}

/* The reader: a netstat whose TcpExt line does not parse is one warning naming it, TCP's drops
 * stay unknown even once the line reads well again, and snmp's counters go on. */
static void test_reader_dead_line(void **state)
{
	char dir[] = "/tmp/lr-snmp-XXXXXX", sub[600];
	struct lr_snmp_reader *rd = NULL;
	struct lr_snmp_raw r;
	struct fake_sysio f;
	uint64_t seen = 0;

	(void)state;
	warnings_naming(&seen, "");	/* earlier tests' messages */
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/proc", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/proc/net", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	write_file(dir, "snmp", "Ip: InDiscards\nIp: 3\nUdp: NoPorts\nUdp: 4\n");
	write_file(dir, "netstat", "TcpExt: TCPBacklogDrop TCPOFODrop\nTcpExt: 8\n");
	fake_sysio_init(&f, dir);
	assert_int_equal(lr_snmp_reader_open(&rd, &f.io), 0);
	assert_int_equal(lr_snmp_reader_read(rd, &r), 2);
	assert_int_equal(r.drop[LR_SD_IP_IN_DISCARDS], 3);
	assert_int_equal(r.valid & TCP_BITS, 0);
	assert_int_equal(warnings_naming(&seen, "TcpExt line of /proc/net/netstat"), 1);
	assert_int_equal(lr_snmp_reader_read(rd, &r), 2);	/* not warned again */
	assert_int_equal(warnings_naming(&seen, "TcpExt"), 0);
	write_file(dir, "netstat", "TcpExt: TCPBacklogDrop TCPOFODrop\nTcpExt: 8 9\n");
	write_file(dir, "snmp", "Ip: InDiscards\nIp: 5\nUdp: NoPorts\nUdp: 4\n");
	assert_int_equal(lr_snmp_reader_read(rd, &r), 2);
	assert_int_equal(r.valid & TCP_BITS, 0);	/* unknown for the rest of the run */
	assert_int_equal(r.drop[LR_SD_IP_IN_DISCARDS], 5);
	lr_snmp_reader_close(rd);
	unlink(strcat(strcpy(sub, dir), "/proc/net/snmp"));
	unlink(strcat(strcpy(sub, dir), "/proc/net/netstat"));
	rmdir(strcat(strcpy(sub, dir), "/proc/net"));
	rmdir(strcat(strcpy(sub, dir), "/proc"));
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernels),
		cmocka_unit_test(test_old_udp_and_udplite),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_drop_witnesses),
		cmocka_unit_test(test_tcpext_by_name),
		cmocka_unit_test(test_line_does_not_parse),
		cmocka_unit_test(test_reader_dead_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
