// SPDX-License-Identifier: GPL-2.0-or-later
/* The headless text (sar's shape, present/sar_text.c) on one second of full-size frames at 10G:
 * 812743 frames of 1514 bytes, and the 24 bytes a counter never sees (preamble, FCS, gap) on
 * each, are 812743 × 1538 × 8 = 9,999,989,872 bit/s on the wire: %util 100.00, worked out by
 * hand from the README's definition, in a tick's row and in the Average block. The same second
 * on a veth has no line rate: "-". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/present/runsum.h"
#include "linerate/present/sar_text.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL
#define FRAMES 812743ULL
#define FRAME_BYTES 1514ULL

/* one second of FRAMES received on i, nothing sent, as the sampler leaves it */
static void one_second(struct lr_snapshot *s, struct lr_iface_snap *i, const char *driver)
{
	memset(s, 0, sizeof(*s));
	memset(i, 0, sizeof(*i));
	strcpy(i->name, "eth1");
	strcpy(i->driver, driver);
	i->speed_mbps = 10000;
	i->mtu = 1500;
	i->interval_ns = SEC;
	i->delta[LR_M_RX_BYTES] = FRAMES * FRAME_BYTES;
	i->delta[LR_M_RX_PACKETS] = FRAMES;
	i->per_s[LR_M_RX_BYTES] = (double)(FRAMES * FRAME_BYTES);
	i->per_s[LR_M_RX_PACKETS] = (double)FRAMES;
	i->valid = LR_M_BIT(LR_M_RX_BYTES) | LR_M_BIT(LR_M_RX_PACKETS) | LR_M_BIT(LR_M_TX_BYTES) |
		   LR_M_BIT(LR_M_TX_PACKETS);
	s->seq = 1;
	s->real_ns = 1700000000ULL * SEC;
	s->interval_ns = SEC;
	s->ifaces = i;
	s->n_ifaces = 1;
}

/* the fields of the first line of text that names eth1, in *f (at most n) */
static int eth1_row(char *text, char f[][32], int n)
{
	char *line = strstr(text, " eth1 "), *end, *tok, *save = NULL;
	int k = 0;

	assert_non_null(line);
	while (line > text && line[-1] != '\n')
		line--;
	end = strchr(line, '\n');
	if (end)
		*end = '\0';
	for (tok = strtok_r(line, " ", &save); tok && k < n; tok = strtok_r(NULL, " ", &save))
		snprintf(f[k++], sizeof(f[0]), "%s", tok);
	return k;
}

static char *print_tick(const struct lr_snapshot *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	lr_sar_print_tick(f, s);
	fclose(f);
	return text;
}

static void test_tick_at_10g(void **state)
{
	struct lr_snapshot s;
	struct lr_iface_snap i;
	char f[12][32], *text;

	(void)state;
	one_second(&s, &i, "ixgbe");
	text = print_tick(&s);
	assert_non_null(strstr(text, "%util"));
	/* time IFACE rxMbit/s txMbit/s rxpck/s txpck/s drop/s fifo/s %util */
	assert_int_equal(eth1_row(text, f, 12), 9);
	assert_string_equal(f[2], "9843.94");	/* 812743 × 1514 × 8 / 1e6 */
	assert_string_equal(f[3], "0.00");
	assert_string_equal(f[4], "812743.0");
	assert_string_equal(f[8], "100.00");
	free(text);

	/* the same second on a veth: 10000 Mbit/s is the kernel's word, not a line rate */
	one_second(&s, &i, "veth");
	text = print_tick(&s);
	assert_int_equal(eth1_row(text, f, 12), 9);
	assert_string_equal(f[2], "9843.94");
	assert_string_equal(f[8], "-");
	free(text);
}

static void test_average_at_10g(void **state)
{
	struct lr_snapshot s;
	struct lr_iface_snap i;
	struct lr_runsum rs;
	char f[12][32], *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	lr_runsum_init(&rs);
	one_second(&s, &i, "ixgbe");
	assert_int_equal(lr_runsum_add(&rs, &s), 0);
	s.seq = 2;
	s.real_ns += SEC;
	assert_int_equal(lr_runsum_add(&rs, &s), 0);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	lr_sar_print_average(out, &rs);
	fclose(out);
	assert_int_equal(eth1_row(text, f, 12), 9);
	assert_string_equal(f[0], "Average:");
	assert_string_equal(f[2], "9843.94");
	assert_string_equal(f[4], "812743.0");
	assert_string_equal(f[8], "100.00");
	free(text);
	lr_runsum_free(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_at_10g),
		cmocka_unit_test(test_average_at_10g),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
