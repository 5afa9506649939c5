// SPDX-License-Identifier: GPL-2.0-or-later
/* The views' number formats, autoscale and graph cells, without a snapshot: rates and sizes as
 * the panes print them, the 1-2-5 scale top, a graph's top row full exactly at the scale. (The
 * frames themselves: test_views.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "linerate/present/frame.h"
#include "linerate/present/ui.h"
#include "linerate/present/view.h"
#include "linerate/sample/snapshot.h"

static void test_formatting(void **state)
{
	char b[32];

	(void)state;
	lr_view_fmt_rate(b, sizeof(b), 1000, false);
	assert_string_equal(b, "1.00 kb/s");
	lr_view_fmt_rate(b, sizeof(b), 999, false);
	assert_string_equal(b, "999 b/s");
	lr_view_fmt_rate(b, sizeof(b), 38.41e9, false);
	assert_string_equal(b, "38.41 Gb/s");
	lr_view_fmt_rate(b, sizeof(b), 400e9, false);
	assert_string_equal(b, "400.0 Gb/s");
	lr_view_fmt_rate(b, sizeof(b), 400e9, true);
	assert_string_equal(b, "50.00 GB/s");
	lr_view_fmt_rate(b, sizeof(b), -1, false);
	assert_string_equal(b, "-");
	lr_view_fmt_rate(b, sizeof(b), NAN, false);
	assert_string_equal(b, "-");
	lr_view_fmt_speed(b, sizeof(b), 2500);
	assert_string_equal(b, "2.5G");
	lr_view_fmt_speed(b, sizeof(b), 400000);
	assert_string_equal(b, "400G");
	lr_view_fmt_speed(b, sizeof(b), -1);
	assert_string_equal(b, "-");
	lr_view_fmt_bytes(b, sizeof(b), 212.4e9);
	assert_string_equal(b, "212.4 GB");
}

/* Autoscale: a 1-2-5 step at or above the peak, from 1 kbit/s to 400 Gbit/s. */
static void test_scale(void **state)
{
	(void)state;
	assert_true(lr_view_scale_top(LR_SCALE_AUTO, 0, -1) == 1000);
	assert_true(lr_view_scale_top(LR_SCALE_AUTO, 1000, -1) == 1000);
	assert_true(lr_view_scale_top(LR_SCALE_AUTO, 1001, -1) == 2000);
	assert_true(lr_view_scale_top(LR_SCALE_AUTO, 38.41e9, -1) == 50e9);
	assert_true(lr_view_scale_top(LR_SCALE_AUTO, 399e9, -1) == 500e9);
	assert_true(lr_view_scale_top(LR_SCALE_AUTO, 400e9, -1) == 500e9);
	assert_true(lr_view_scale_top(LR_SCALE_AUTO, 9.41e9, 10e9) == 10e9);
	assert_true(lr_view_scale_top(LR_SCALE_LINK, 1e6, 40e9) == 40e9);
	assert_true(lr_view_scale_top(LR_SCALE_LINK, 3e6, -1) == 5e6);	/* unknown speed */
}

/* The graph's top row is full exactly when the value reaches the scale, at any magnitude. */
static void test_graph_magnitudes(void **state)
{
	static const double vals[] = {1e3, 7e5, 9.41e9, 38.4e9, 400e9};
	struct lr_frame f;
	struct lr_series s;

	(void)state;
	lr_frame_init(&f);
	assert_int_equal(lr_frame_resize(&f, 4, 3), 0);
	for (size_t i = 0; i < LR_ARRAY_SIZE(vals); i++) {
		double top = lr_view_scale_top(LR_SCALE_AUTO, vals[i], -1);

		memset(&s, 0, sizeof(s));
		s.v[0] = (float)vals[i];		/* oldest: full */
		s.v[1] = (float)(top / 2);		/* half: 12 of 24 eighths */
		s.v[2] = NAN;				/* unknown */
		s.v[3] = 0;
		s.head = 4;
		s.len = 4;
		lr_frame_clear(&f);
		lr_view_graph(&f, (struct lr_rect){0, 0, 4, 3}, &s, top, false, 1000, false,
			      LR_ROLE_GRAPH_RX);
		if (vals[i] == top)
			assert_int_equal(lr_frame_at(&f, 0, 0)->cp, 0x2588);
		else
			assert_int_not_equal(lr_frame_at(&f, 0, 2)->cp, ' ');
		assert_int_equal(lr_frame_at(&f, 1, 1)->cp, 0x2584);	/* 4/8 of the middle */
		assert_int_equal(lr_frame_at(&f, 1, 0)->cp, ' ');
		assert_int_equal(lr_frame_at(&f, 2, 2)->cp, 0x00b7);	/* unknown: a dot */
		assert_int_equal(lr_frame_at(&f, 3, 2)->cp, ' ');	/* zero: empty */
	}
	lr_frame_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formatting),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_graph_magnitudes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
