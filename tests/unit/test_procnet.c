// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/net/dev parser on captured and hand-made trees; numbers checked against the files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/fake_sysio.h"
#include "linerate/collect/procnet.h"

#define MAXROWS 32

struct rows {
	struct lr_procnet_row r[MAXROWS];
	int n;
	int stop_at;	/* return 7 from the callback at this row (1-based), 0 never */
};

static int collect(const struct lr_procnet_row *row, void *arg)
{
	struct rows *rs = arg;

	if (rs->n < MAXROWS)
		rs->r[rs->n] = *row;
	rs->n++;
	return rs->stop_at && rs->n == rs->stop_at ? 7 : 0;
}

static const struct lr_procnet_row *find(const struct rows *rs, const char *name)
{
	int i;

	for (i = 0; i < rs->n && i < MAXROWS; i++)
		if (!strcmp(rs->r[i].name, name))
			return &rs->r[i];
	return NULL;
}

/* Reads <tree>/proc/net/dev through the fake sysio and parses it. */
static int parse_tree(const char *tree, struct rows *rs, unsigned *bad)
{
	struct fake_sysio f;
	char root[256], buf[16384];
	ssize_t n;

	snprintf(root, sizeof(root), FIXTURES "/%s", tree);
	fake_sysio_init(&f, root);
	n = f.io.read_file(&f.io, "/proc/net/dev", buf, sizeof(buf));
	assert_true(n > 0);
	memset(rs, 0, sizeof(*rs));
	return lr_procnet_parse(buf, (size_t)n, collect, rs, bad);
}

static void test_pcp_4_15(void **state)
{
	struct rows rs;
	const struct lr_procnet_row *r;
	unsigned bad = 99;

	(void)state;
	assert_int_equal(parse_tree("pcp-procnet-4.15.14", &rs, &bad), 9);
	assert_int_equal(bad, 0);
	assert_string_equal(rs.r[0].name, "tun0");
	assert_string_equal(rs.r[8].name, "docker0");
	r = find(&rs, "enp0s25");
	assert_non_null(r);
	assert_int_equal(r->v[LR_PN_RX_BYTES], 18690974820ULL);	/* > 2^32 */
	assert_int_equal(r->v[LR_PN_RX_PACKETS], 23296412);
	assert_int_equal(r->v[LR_PN_RX_MULTICAST], 236404);
	assert_int_equal(r->v[LR_PN_TX_BYTES], 3777745438ULL);
	assert_int_equal(r->v[LR_PN_TX_PACKETS], 20458657);
	r = find(&rs, "tun0");
	assert_int_equal(r->v[LR_PN_TX_DROP], 46);
	assert_int_equal(r->v[LR_PN_TX_BYTES], 120529230);
	r = find(&rs, "virbr0-nic");
	assert_non_null(r);
	assert_int_equal(r->v[LR_PN_RX_BYTES], 0);
}

static void test_sysstat_root1(void **state)
{
	struct rows rs;
	const struct lr_procnet_row *r;
	unsigned bad;

	(void)state;
	assert_int_equal(parse_tree("sysstat-root1", &rs, &bad), 6);
	assert_int_equal(bad, 0);
	r = find(&rs, "wlp5s0");
	assert_int_equal(r->v[LR_PN_RX_BYTES], 60065311);
	assert_int_equal(r->v[LR_PN_RX_DROP], 848);
	assert_int_equal(r->v[LR_PN_RX_MULTICAST], 2558);
	assert_int_equal(r->v[LR_PN_TX_PACKETS], 21420);
	r = find(&rs, "virbr0-1");
	assert_int_equal(r->v[LR_PN_RX_FRAME], 250);
	assert_int_equal(r->v[LR_PN_TX_COLLS], 150);
	assert_int_equal(r->v[LR_PN_TX_BYTES], 2001);
}

static void test_this_host(void **state)
{
	struct rows rs;
	const struct lr_procnet_row *r;
	unsigned bad;

	(void)state;
	assert_int_equal(parse_tree("this-host", &rs, &bad), 4);
	assert_int_equal(bad, 0);
	r = find(&rs, "eth0");
	assert_int_equal(r->v[LR_PN_RX_BYTES], 24257907);
	assert_int_equal(r->v[LR_PN_RX_PACKETS], 795);
	assert_int_equal(r->v[LR_PN_TX_BYTES], 42440);
	assert_int_equal(r->v[LR_PN_TX_PACKETS], 533);
	assert_int_equal(find(&rs, "lo")->v[LR_PN_TX_BYTES], 3267);
}

/* 2.6-era "%6s:%8lu": "eth0:4294967296" with no blank after the colon. */
static void test_old_kernel_no_space(void **state)
{
	struct rows rs;
	const struct lr_procnet_row *r;
	unsigned bad;
	int i;

	(void)state;
	assert_int_equal(parse_tree("handmade-oldkernel", &rs, &bad), 4);
	assert_int_equal(bad, 0);
	r = find(&rs, "eth0");
	assert_non_null(r);
	assert_int_equal(r->v[LR_PN_RX_BYTES], 4294967296ULL);
	assert_int_equal(r->v[LR_PN_RX_PACKETS], 3145728);
	assert_int_equal(r->v[LR_PN_RX_MULTICAST], 742);
	assert_int_equal(r->v[LR_PN_TX_BYTES], 1073741824);
	r = find(&rs, "eth1");
	for (i = 0; i < LR_PN__COUNT; i++)	/* every column lands in its own slot */
		if (i != LR_PN_RX_BYTES && i != LR_PN_RX_PACKETS && i != LR_PN_TX_BYTES &&
		    i != LR_PN_TX_PACKETS)
			assert_int_equal(r->v[i], i < 8 ? i - 1 : i - 3);
	assert_int_equal(r->v[LR_PN_RX_BYTES], 123456789);
	assert_int_equal(r->v[LR_PN_TX_BYTES], 987654321);
	assert_int_equal(r->v[LR_PN_TX_COMPRESSED], 12);
	r = find(&rs, "bond0");
	assert_true(r->v[LR_PN_RX_BYTES] == UINT64_MAX);
}

static void test_odd_names_no_trailing_newline(void **state)
{
	struct rows rs;
	const struct lr_procnet_row *r;
	unsigned bad;
	int i;

	(void)state;
	assert_int_equal(parse_tree("handmade-oddnames", &rs, &bad), 4);
	assert_int_equal(bad, 0);
	r = find(&rs, "veth-a.b_c@x");
	assert_non_null(r);
	for (i = 0; i < LR_PN__COUNT; i++)
		assert_int_equal(r->v[i], i + 1);
	r = find(&rs, "abcdefghijklmno");	/* 15 bytes: IFNAMSIZ - 1 */
	assert_non_null(r);
	assert_int_equal(r->v[LR_PN_TX_PACKETS], 8);
	r = find(&rs, "\xc3\xa9th0");	/* last line, no newline */
	assert_non_null(r);
	assert_int_equal(r->v[LR_PN_RX_BYTES], 11);
	assert_int_equal(r->v[LR_PN_TX_BYTES], 22);
	assert_int_equal(r->v[LR_PN_TX_COMPRESSED], 0);
}

static void test_garbage_and_overflow(void **state)
{
	static const char text[] =
		"Inter-|   Receive                                                |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
		"errs drop fifo colls carrier compressed\n"
		"\n"
		"  eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
		"  eth1: 18446744073709551616 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"	/* 2^64 */
		"  eth2: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"				/* 15 */
		"  eth3: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"			/* 17 */
		"  eth4: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 -16\n"
		"  eth5: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16x\n"
		"      : 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"			/* no name */
		"abcdefghijklmnop: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"		/* 16 bytes */
		"garbage without colon\n"
		"  eth6:\t1\t2 3 4 5 6 7 8 9 10 11 12 13 14 15 16   \r\n";
	struct rows rs = {0};
	unsigned bad = 0;

	(void)state;
	assert_int_equal(lr_procnet_parse(text, sizeof(text) - 1, collect, &rs, &bad), 2);
	assert_int_equal(bad, 8);
	assert_string_equal(rs.r[0].name, "eth0");
	assert_int_equal(rs.r[0].v[LR_PN_TX_COMPRESSED], 16);
	assert_string_equal(rs.r[1].name, "eth6");
	assert_int_equal(rs.r[1].v[LR_PN_RX_BYTES], 1);
	assert_int_equal(rs.r[1].v[LR_PN_TX_COMPRESSED], 16);
}

static void test_len_bounds_and_callback_stop(void **state)
{
	static const char text[] = "lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
				   "a: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
				   "b: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";
	struct rows rs = {0};
	unsigned bad = 0;
	size_t first = strlen("lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n");

	(void)state;
	/* len cuts "a: 1 2 3" short: the parser must not read past len. */
	assert_int_equal(lr_procnet_parse(text, first + 8, collect, &rs, &bad), 1);
	assert_int_equal(bad, 1);
	memset(&rs, 0, sizeof(rs));
	rs.stop_at = 2;
	assert_int_equal(lr_procnet_parse(text, sizeof(text) - 1, collect, &rs, NULL), 7);
	assert_int_equal(rs.n, 2);
	assert_int_equal(lr_procnet_parse("", 0, collect, &rs, &bad), 0);
	assert_int_equal(lr_procnet_parse(text, sizeof(text) - 1, NULL, NULL, NULL), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcp_4_15),
		cmocka_unit_test(test_sysstat_root1),
		cmocka_unit_test(test_this_host),
		cmocka_unit_test(test_old_kernel_no_space),
		cmocka_unit_test(test_odd_names_no_trailing_newline),
		cmocka_unit_test(test_garbage_and_overflow),
		cmocka_unit_test(test_len_bounds_and_callback_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
