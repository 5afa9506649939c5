// SPDX-License-Identifier: GPL-2.0-or-later
/* The `ethtool -S` text parser: the real layout, names with spaces/colons/dots/brackets,
 * CRLF, tabs, mail quoting, garbage lines, duplicates, overflow, NUL bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "linerate/collect/ethdump.h"

static void parse(struct lr_ethdump *d, const char *text)
{
	assert_int_equal(lr_ethdump_parse(d, text, strlen(text)), 0);
}

static uint64_t value_of(const struct lr_ethdump *d, const char *name)
{
	const struct lr_ethdump_entry *e = lr_ethdump_find(d, name, 0);

	if (!e)
		fail_msg("no entry '%s'", name);
	return e->value;
}

/* What ethtool itself prints: "NIC statistics:" then 5 spaces, name, ": ", value. */
static void test_real_layout(void **state)
{
	static const char text[] = "NIC statistics:\n"
				   "     rx_packets: 184467440737\n"
				   "     tx_packets: 12\n"
				   "     rx_missed_errors: 31337\n"
				   "     tx_queue_0_packets: 0\n"
				   "     rx_queue_1_bytes: 18446744073709551615\n";
	struct lr_ethdump d;

	(void)state;
	parse(&d, text);
	assert_true(d.nic_header);
	assert_int_equal(d.headers, 1);
	assert_int_equal(d.garbage, 0);
	assert_int_equal(d.n, 5);
	assert_string_equal(d.entries[0].name, "rx_packets");
	assert_int_equal(d.entries[0].value, 184467440737ULL);
	assert_string_equal(d.entries[4].name, "rx_queue_1_bytes");
	assert_true(d.entries[4].value == UINT64_MAX);
	assert_int_equal(value_of(&d, "rx_missed_errors"), 31337);
	assert_int_equal(value_of(&d, "tx_queue_0_packets"), 0);
	assert_null(lr_ethdump_find(&d, "rx_bytes", 0));
	assert_null(lr_ethdump_find(&d, "rx_packets", 1));
	lr_ethdump_free(&d);
	assert_int_equal(d.n, 0);
	assert_null(d.entries);
	lr_ethdump_free(&d); /* twice is fine */
	lr_ethdump_free(NULL);
}

static void test_odd_names(void **state)
{
	static const char text[] = "NIC statistics:\n"
				   "     rxq0: rx_bytes: 55\n"	/* be2net */
				   "     [3]: rx_discards: 7\n" /* bnxt_en */
				   "     port.rx_discards: 9\n" /* i40e */
				   "     tx-0.packets: 1\n"	/* i40e/sfc */
				   "     rx_prio0_bytes: 5\n"	/* mlx5 */
				   "     rx_dropped.nic: 4\n"	/* ice */
				   "     ch5_events:2\n"	/* no space */
				   "     weird name  with spaces :   8\n";
	struct lr_ethdump d;

	(void)state;
	parse(&d, text);
	assert_int_equal(d.garbage, 0);
	assert_int_equal(d.n, 8);
	assert_int_equal(value_of(&d, "rxq0: rx_bytes"), 55);
	assert_int_equal(value_of(&d, "[3]: rx_discards"), 7);
	assert_int_equal(value_of(&d, "port.rx_discards"), 9);
	assert_int_equal(value_of(&d, "tx-0.packets"), 1);
	assert_int_equal(value_of(&d, "rx_prio0_bytes"), 5);
	assert_int_equal(value_of(&d, "rx_dropped.nic"), 4);
	assert_int_equal(value_of(&d, "ch5_events"), 2);
	assert_int_equal(value_of(&d, "weird name  with spaces"), 8);
	lr_ethdump_free(&d);
}

static void test_crlf_tabs_quoting_bom(void **state)
{
	static const char text[] = "\xef\xbb\xbfNIC statistics:\r\n"
				   "\trx_packets:\t10\r\n"
				   "> >     tx_packets: 20\r\n"
				   "   \t  \r\n"
				   "\r\n"
				   "     rx_crc_errors: 3"; /* no final newline */
	struct lr_ethdump d;

	(void)state;
	parse(&d, text);
	assert_true(d.nic_header);
	assert_int_equal(d.garbage, 0);
	assert_int_equal(d.n, 3);
	assert_int_equal(value_of(&d, "rx_packets"), 10);
	assert_int_equal(value_of(&d, "tx_packets"), 20);
	assert_int_equal(value_of(&d, "rx_crc_errors"), 3);
	lr_ethdump_free(&d);
}

static void test_garbage_is_counted(void **state)
{
	static const char text[] = "[root@host-a ~]# ethtool -S eth1\n" /* 1: ends with ' eth1' */
				   "NIC statistics:\n"
				   "     rx_packets: 10\n"
				   "     rx_bytes: abc\n"		 /* 2 */
				   "     rx_bytes 12\n"			 /* 3: no colon */
				   "     : 5\n"				 /* 4: no name */
				   "     tx_bytes: -4\n"		 /* 5: negative */
				   "     huge: 99999999999999999999\n"	 /* 6: > 2^64-1 */
				   "     long: 1234567890123456789012\n" /* 7 */
				   "no stats available\n"		 /* 8 */
				   "Standard stats for eth1:\n"		 /* a header */
				   "     tx_packets: 20\n";
	struct lr_ethdump d;

	(void)state;
	parse(&d, text);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.garbage, 8);
	assert_int_equal(d.headers, 2);
	assert_int_equal(value_of(&d, "rx_packets"), 10);
	assert_int_equal(value_of(&d, "tx_packets"), 20);
	lr_ethdump_free(&d);
}

static void test_nul_and_long_names(void **state)
{
	char text[600];
	struct lr_ethdump d;
	size_t len;

	(void)state;
	memcpy(text, "     a\0b: 1\n     ok: 2\n", 23);
	assert_int_equal(lr_ethdump_parse(&d, text, 23), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.garbage, 1);
	assert_int_equal(value_of(&d, "ok"), 2);
	lr_ethdump_free(&d);

	memset(text, 'n', LR_ETHDUMP_NAME_MAX + 1);
	len = LR_ETHDUMP_NAME_MAX + 1;
	memcpy(text + len, ": 1\n", 4);
	len += 4;
	assert_int_equal(lr_ethdump_parse(&d, text, len), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.garbage, 1);
	lr_ethdump_free(&d);
	assert_int_equal(lr_ethdump_parse(&d, text + 1, len - 1), 0); /* exactly the max */
	assert_int_equal(d.n, 1);
	assert_int_equal(strlen(d.entries[0].name), LR_ETHDUMP_NAME_MAX);
	lr_ethdump_free(&d);
}

/* Not every text is within len: the parser must stop at len, not at a NUL. */
static void test_length_bounded(void **state)
{
	static const char text[] = "     rx_packets: 10\n     tx_packets: 20\n";
	struct lr_ethdump d;

	(void)state;
	assert_int_equal(lr_ethdump_parse(&d, text, 18), 0); /* "... rx_packets: 1" */
	assert_int_equal(d.n, 1);
	assert_int_equal(value_of(&d, "rx_packets"), 1);
	lr_ethdump_free(&d);
	assert_int_equal(lr_ethdump_parse(&d, text, 0), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.garbage, 0);
	assert_false(d.nic_header);
	lr_ethdump_free(&d);
}

static void test_duplicates(void **state)
{
	static const char text[] = "NIC statistics:\n"
				   "     rx_over_errors: 1\n"
				   "     rx_bytes: 2\n"
				   "     rx_over_errors: 3\n"
				   "     rx_over_errors: 5\n";
	struct lr_ethdump d;

	(void)state;
	parse(&d, text);
	assert_int_equal(d.n, 4);
	assert_int_equal(lr_ethdump_find(&d, "rx_over_errors", 0)->value, 1);
	assert_int_equal(lr_ethdump_find(&d, "rx_over_errors", 1)->value, 3);
	assert_int_equal(lr_ethdump_find(&d, "rx_over_errors", 2)->value, 5);
	assert_null(lr_ethdump_find(&d, "rx_over_errors", 3));
	assert_int_equal(d.entries[0].dup, 0);
	assert_int_equal(d.entries[2].dup, 1);
	assert_int_equal(d.entries[3].dup, 2);
	assert_int_equal(d.entries[1].dup, 0);
	lr_ethdump_free(&d);
}

/* A large mlx5-sized dump: every name findable, file order kept. */
static void test_many(void **state)
{
	size_t cap = 20000 * 40, len = 0, i;
	char *text = malloc(cap);
	struct lr_ethdump d;

	(void)state;
	assert_non_null(text);
	len += (size_t)snprintf(text, cap, "NIC statistics:\n");
	for (i = 0; i < 20000; i++)
		len += (size_t)snprintf(text + len, cap - len, "     rx%zu_packets: %zu\n", i,
					i * 3);
	assert_int_equal(lr_ethdump_parse(&d, text, len), 0);
	assert_int_equal(d.n, 20000);
	for (i = 0; i < 20000; i += 997) {
		char name[32];

		snprintf(name, sizeof(name), "rx%zu_packets", i);
		assert_int_equal(value_of(&d, name), i * 3);
		assert_string_equal(d.entries[i].name, name);
	}
	lr_ethdump_free(&d);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_layout),
		cmocka_unit_test(test_odd_names),
		cmocka_unit_test(test_crlf_tabs_quoting_bom),
		cmocka_unit_test(test_garbage_is_counted),
		cmocka_unit_test(test_nul_and_long_names),
		cmocka_unit_test(test_length_bounded),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
