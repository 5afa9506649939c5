// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iperf3 UDP header: byte-exact wire layout for 32- and 64-bit sequence numbers, decode of
 * short input, and the receiver accounting (loss gaps, reordering that gives a loss back as
 * iperf3 does, duplicates, RFC 1889 jitter on a known sequence).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "linerate/core/common.h"
#include "linerate/traffic/udp_hdr.h"

static void test_encode_32(void **state)
{
	static const uint8_t want[12] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
					 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c};
	struct lr_udp_hdr h = {.sec = 0x01020304, .usec = 0x05060708, .seq = 0xff090a0b0cULL};
	uint8_t buf[16];

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	lr_udp_hdr_encode(buf, &h, false);
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(buf[12], 0xee); /* nothing past the header */
	assert_int_equal(lr_udp_hdr_len(false), 12);
}

static void test_encode_64(void **state)
{
	static const uint8_t want[16] = {0x00, 0x00, 0x00, 0x07, 0x00, 0x0f, 0x42, 0x3f,
					 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
	struct lr_udp_hdr h = {.sec = 7, .usec = 999999, .seq = 0x1122334455667788ULL};
	uint8_t buf[16];

	(void)state;
	lr_udp_hdr_encode(buf, &h, true);
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(lr_udp_hdr_len(true), 16);
}

static void test_decode_roundtrip(void **state)
{
	struct lr_udp_hdr h = {.sec = 0xdeadbeef, .usec = 123456, .seq = 0x89abcdefULL}, out;
	uint8_t buf[64];

	(void)state;
	lr_udp_hdr_encode(buf, &h, false);
	assert_int_equal(lr_udp_hdr_decode(buf, 12, false, &out), 0);
	assert_int_equal(out.sec, h.sec);
	assert_int_equal(out.usec, h.usec);
	assert_int_equal(out.seq, 0x89abcdefULL);
	h.seq = 0x123456789abcdefULL;
	lr_udp_hdr_encode(buf, &h, true);
	assert_int_equal(lr_udp_hdr_decode(buf, sizeof(buf), true, &out), 0);
	assert_int_equal(out.seq, 0x123456789abcdefULL);
	assert_int_equal(lr_udp_hdr_decode(buf, 11, false, &out), -EINVAL);
	assert_int_equal(lr_udp_hdr_decode(buf, 15, true, &out), -EINVAL);
	assert_int_equal(lr_udp_hdr_decode(buf, 0, false, &out), -EINVAL);
}

static void test_set_time(void **state)
{
	struct lr_udp_hdr h;

	(void)state;
	lr_udp_hdr_set_time(&h, 5 * LR_NSEC_PER_SEC + 500123999ULL);
	assert_int_equal(h.sec, 5);
	assert_int_equal(h.usec, 500123);
}

/* Feeds sequence numbers with a constant transit (no jitter). */
static void feed(struct lr_udp_acct *a, const uint64_t *seqs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct lr_udp_hdr h = {.sec = 1, .usec = 0, .seq = seqs[i]};

		lr_udp_acct_add(a, &h, 100, 2 * LR_NSEC_PER_SEC);
	}
}

static void test_acct_in_order(void **state)
{
	static const uint64_t s[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	struct lr_udp_acct a;

	(void)state;
	lr_udp_acct_init(&a);
	feed(&a, s, LR_ARRAY_SIZE(s));
	assert_int_equal(a.lost, 0);
	assert_int_equal(a.out_of_order, 0);
	assert_int_equal(a.max_seq, 10);
	assert_int_equal(a.packets, 10);
	assert_int_equal(a.bytes, 1000);
	assert_true(a.jitter_ns == 0.0);
}

static void test_acct_loss_gaps(void **state)
{
	static const uint64_t s[] = {1, 2, 5, 6, 10}; /* 3,4 and 7,8,9 missing */
	struct lr_udp_acct a;

	(void)state;
	lr_udp_acct_init(&a);
	feed(&a, s, LR_ARRAY_SIZE(s));
	assert_int_equal(a.lost, 5);
	assert_int_equal(a.max_seq, 10);
	assert_int_equal(a.out_of_order, 0);
	/* a first datagram that is not 1 counts the ones before it as lost (iperf3) */
	lr_udp_acct_init(&a);
	feed(&a, (const uint64_t[]){4}, 1);
	assert_int_equal(a.lost, 3);
}

static void test_acct_reorder_gives_back(void **state)
{
	static const uint64_t s[] = {1, 3, 2, 4, 7, 5, 6, 8};
	struct lr_udp_acct a;

	(void)state;
	lr_udp_acct_init(&a);
	feed(&a, s, 2);
	assert_int_equal(a.lost, 1);
	feed(&a, s + 2, 1);
	assert_int_equal(a.lost, 0);
	assert_int_equal(a.out_of_order, 1);
	feed(&a, s + 3, LR_ARRAY_SIZE(s) - 3);
	assert_int_equal(a.lost, 0);
	assert_int_equal(a.out_of_order, 3);
	assert_int_equal(a.max_seq, 8);
}

static void test_acct_duplicates(void **state)
{
	struct lr_udp_acct a;

	(void)state;
	lr_udp_acct_init(&a);
	feed(&a, (const uint64_t[]){1, 2, 2}, 3);
	assert_int_equal(a.out_of_order, 1);
	assert_int_equal(a.lost, 0); /* never below 0 */
	/* iperf3 assumes no duplicates: a duplicate while a loss is open takes it back */
	lr_udp_acct_init(&a);
	feed(&a, (const uint64_t[]){1, 3, 3}, 3);
	assert_int_equal(a.out_of_order, 1);
	assert_int_equal(a.lost, 0);
	assert_int_equal(a.max_seq, 3);
}

/* RFC 1889: J += (|D| - J) / 16 over transit differences 16, 0, 32 us. */
static void test_acct_jitter(void **state)
{
	static const uint64_t transit_us[] = {100, 116, 116, 148};
	struct lr_udp_acct a;
	size_t i;

	(void)state;
	lr_udp_acct_init(&a);
	for (i = 0; i < LR_ARRAY_SIZE(transit_us); i++) {
		struct lr_udp_hdr h = {.sec = 10, .usec = (uint32_t)(i * 1000), .seq = i + 1};
		uint64_t arrival = 10 * LR_NSEC_PER_SEC + (i * 1000 + transit_us[i]) * 1000;

		lr_udp_acct_add(&a, &h, 64, arrival);
	}
	/* 1000; 1000 - 1000/16 = 937.5; 937.5 + (32000 - 937.5)/16 = 2878.90625 */
	assert_true(a.jitter_ns > 2878.906 && a.jitter_ns < 2878.907);
	/* the sender's clock may be far ahead of ours: only the changes count */
	lr_udp_acct_init(&a);
	for (i = 0; i < 4; i++) {
		struct lr_udp_hdr h = {.sec = 4000000000u, .usec = (uint32_t)i, .seq = i + 1};

		lr_udp_acct_add(&a, &h, 64, 5 * LR_NSEC_PER_SEC + i * 1000);
	}
	assert_true(a.jitter_ns == 0.0);
}

static void test_acct_feed_raw(void **state)
{
	struct lr_udp_hdr h = {.sec = 1, .usec = 2, .seq = 1};
	struct lr_udp_acct a;
	uint8_t d[64] = {0};

	(void)state;
	lr_udp_acct_init(&a);
	lr_udp_hdr_encode(d, &h, false);
	assert_int_equal(lr_udp_acct_feed(&a, d, sizeof(d), false, LR_NSEC_PER_SEC), 0);
	h.seq = 3;
	lr_udp_hdr_encode(d, &h, false);
	assert_int_equal(lr_udp_acct_feed(&a, d, sizeof(d), false, LR_NSEC_PER_SEC), 0);
	assert_int_equal(lr_udp_acct_feed(&a, d, 11, false, LR_NSEC_PER_SEC), -EINVAL);
	assert_int_equal(lr_udp_acct_feed(&a, d, 12, true, LR_NSEC_PER_SEC), -EINVAL);
	assert_int_equal(a.packets, 2);
	assert_int_equal(a.short_dgrams, 2);
	assert_int_equal(a.lost, 1);
	assert_int_equal(a.bytes, 128);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_32),
		cmocka_unit_test(test_encode_64),
		cmocka_unit_test(test_decode_roundtrip),
		cmocka_unit_test(test_set_time),
		cmocka_unit_test(test_acct_in_order),
		cmocka_unit_test(test_acct_loss_gaps),
		cmocka_unit_test(test_acct_reorder_gives_back),
		cmocka_unit_test(test_acct_duplicates),
		cmocka_unit_test(test_acct_jitter),
		cmocka_unit_test(test_acct_feed_raw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
