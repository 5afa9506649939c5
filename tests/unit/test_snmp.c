// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/net/snmp parser and reader on captured files from 2.6.32 to 6.x. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/fake_sysio.h"
#include "linerate/collect/snmp.h"

#define ALL (LR_STACKV_TCP_RETRANS | LR_STACKV_UDP_IN_ERRORS | LR_STACKV_UDP_RCVBUF | \
	     LR_STACKV_UDP_SNDBUF)

static int parse_tree(const char *tree, struct lr_snmp_raw *out)
{
	struct fake_sysio f;
	char root[256], buf[8192];
	ssize_t n;

	snprintf(root, sizeof(root), FIXTURES "/%s", tree);
	fake_sysio_init(&f, root);
	n = f.io.read_file(&f.io, "/proc/net/snmp", buf, sizeof(buf));
	assert_true(n > 0);
	return lr_snmp_parse(buf, (size_t)n, out);
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

		assert_int_equal(parse_tree(cases[i].tree, &r), 4);
		assert_int_equal(r.valid, ALL);
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
	assert_int_equal(lr_snmp_parse(text, sizeof(text) - 1, &r), 2);
	assert_int_equal(r.valid, LR_STACKV_TCP_RETRANS | LR_STACKV_UDP_IN_ERRORS);
	assert_int_equal(r.tcp_retrans, 42);
	assert_int_equal(r.udp_in_errors, 7);
	assert_int_equal(r.udp_rcvbuf_errors, 0);
}

static void test_bad_values(void **state)
{
	static const char shortline[] = "Tcp: A B RetransSegs\nTcp: 1 2\n"
					"Udp: InErrors RcvbufErrors SndbufErrors\n"
					"Udp: -1 x 18446744073709551616\n";
	static const char junk[] = "Ip: Forwarding\nIp: 1\nnothing here\n";
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
	assert_int_equal(lr_snmp_reader_read(rd, &r), 4);
	assert_int_equal(r.tcp_retrans, 513784);
	assert_int_equal(lr_snmp_reader_read(rd, &r), 4);	/* re-read, same fd */
	assert_int_equal(r.tcp_retrans, 513784);
	lr_snmp_reader_close(rd);
	lr_snmp_reader_close(NULL);

	fake_sysio_init(&f, FIXTURES "/handmade-oldkernel");	/* has no net/snmp */
	assert_int_equal(lr_snmp_reader_open(&rd, &f.io), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernels),
		cmocka_unit_test(test_old_udp_and_udplite),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_reader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
