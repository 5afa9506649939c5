// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cell frame: clipping, UTF-8 decoding (malformed input never reaches the terminal),
 * right alignment, text export, and the diff the blitter uses to send only changed cells.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "linerate/present/frame.h"

static void test_text_and_clipping(void **state)
{
	struct lr_frame f;
	char *t;

	(void)state;
	lr_frame_init(&f);
	assert_int_equal(lr_frame_resize(&f, 8, 3), 0);
	assert_int_equal(lr_frame_text(&f, 0, 0, -1, LR_ROLE_VALUE, "hello"), 5);
	/* clipped at the right edge, but the return says how much was asked */
	assert_int_equal(lr_frame_text(&f, 5, 1, -1, LR_ROLE_VALUE, "abcdef"), 3);
	assert_int_equal(lr_frame_text(&f, 6, 2, 2, LR_ROLE_VALUE, "xyz"), 2);
	/* off-frame drawing is ignored */
	lr_frame_put(&f, -1, 0, 'X', LR_ROLE_ALERT);
	lr_frame_put(&f, 0, 3, 'X', LR_ROLE_ALERT);
	lr_frame_text(&f, -2, 2, -1, LR_ROLE_VALUE, "QRS");
	t = lr_frame_to_text(&f);
	assert_string_equal(t, "hello\n     abc\nS     xy\n");
	free(t);
	assert_int_equal(lr_frame_at(&f, 0, 0)->role, LR_ROLE_VALUE);
	assert_null(lr_frame_at(&f, 8, 0));
	lr_frame_free(&f);
	lr_frame_free(NULL);
}

static void test_utf8(void **state)
{
	struct lr_frame f;
	char *t;

	(void)state;
	lr_frame_init(&f);
	assert_int_equal(lr_frame_resize(&f, 10, 2), 0);
	/* "█▲é" are three cells */
	assert_int_equal(lr_frame_text(&f, 0, 0, -1, LR_ROLE_NONE, "\xe2\x96\x88\xe2\x96\xb2\xc3\xa9"),
			 3);
	assert_int_equal(lr_frame_at(&f, 0, 0)->cp, 0x2588);
	assert_int_equal(lr_frame_at(&f, 1, 0)->cp, 0x25b2);
	assert_int_equal(lr_frame_at(&f, 2, 0)->cp, 0xe9);
	/* malformed, overlong and control bytes become '?' */
	lr_frame_text(&f, 0, 1, -1, LR_ROLE_NONE, "\xff\xc0\xaf\x1b[\x07");
	t = lr_frame_to_text(&f);
	assert_string_equal(t, "\xe2\x96\x88\xe2\x96\xb2\xc3\xa9\n????[?\n");
	free(t);
	assert_int_equal(lr_utf8_width("a\xe2\x96\x88z"), 3);
	/* wide and zero-width code points would shift the columns: '?' (CJK, emoji, combining) */
	lr_frame_clear(&f);
	lr_frame_text(&f, 0, 0, -1, LR_ROLE_NONE, "e\xe4\xb8\xad\xf0\x9f\x98\x80\xcc\x81\xe2\xa0\x81");
	assert_int_equal(lr_frame_at(&f, 0, 0)->cp, 'e');
	assert_int_equal(lr_frame_at(&f, 1, 0)->cp, '?');
	assert_int_equal(lr_frame_at(&f, 2, 0)->cp, '?');
	assert_int_equal(lr_frame_at(&f, 3, 0)->cp, '?');
	assert_int_equal(lr_frame_at(&f, 4, 0)->cp, 0x2801);	/* braille stays */
	lr_frame_free(&f);
}

static void test_right_align(void **state)
{
	struct lr_frame f;
	char *t;

	(void)state;
	lr_frame_init(&f);
	assert_int_equal(lr_frame_resize(&f, 6, 2), 0);
	lr_frame_text_right(&f, 0, 0, 6, LR_ROLE_VALUE, "42");
	lr_frame_text_right(&f, 0, 1, 4, LR_ROLE_VALUE, "123456");	/* keeps the tail */
	t = lr_frame_to_text(&f);
	assert_string_equal(t, "    42\n3456\n");
	free(t);
	lr_frame_free(&f);
}

static void test_resize_reuses_and_clears(void **state)
{
	struct lr_frame f, g;
	struct lr_cell *cells;

	(void)state;
	lr_frame_init(&f);
	lr_frame_init(&g);
	assert_int_equal(lr_frame_resize(&f, 20, 10), 0);
	cells = f.cells;
	lr_frame_put(&f, 1, 1, 'x', LR_ROLE_ALERT);
	assert_int_equal(lr_frame_resize(&f, 10, 5), 0);
	assert_ptr_equal(f.cells, cells);	/* shrinking does not allocate */
	assert_int_equal(lr_frame_at(&f, 1, 1)->cp, ' ');
	assert_int_equal(lr_frame_resize(&f, -1, 5), -EINVAL);
	lr_frame_put(&f, 2, 2, 'y', LR_ROLE_TX);
	assert_int_equal(lr_frame_copy(&g, &f), 0);
	assert_int_equal(g.w, 10);
	assert_int_equal(lr_frame_at(&g, 2, 2)->cp, 'y');
	assert_int_equal(lr_frame_at(&g, 2, 2)->role, LR_ROLE_TX);
	lr_frame_free(&f);
	lr_frame_free(&g);
}

static void test_diff(void **state)
{
	struct lr_frame a, b;
	struct lr_frame_run run;
	size_t pos = 0;
	int runs = 0;

	(void)state;
	lr_frame_init(&a);
	lr_frame_init(&b);
	assert_int_equal(lr_frame_resize(&a, 40, 4), 0);
	assert_int_equal(lr_frame_resize(&b, 40, 4), 0);
	lr_frame_text(&a, 0, 0, -1, LR_ROLE_VALUE, "rx 38.41 Gb/s");
	lr_frame_text(&b, 0, 0, -1, LR_ROLE_VALUE, "rx 38.41 Gb/s");
	assert_int_equal(lr_frame_diff_count(&a, &b), 0);
	assert_false(lr_frame_diff_next(&a, &b, &pos, &run));

	/* one digit changes, and a role alone changes further along: two runs on row 0 */
	lr_frame_put(&b, 4, 0, '9', LR_ROLE_VALUE);
	lr_frame_put(&b, 30, 0, ' ', LR_ROLE_ALERT);
	/* two changes 3 cells apart on row 2 are bridged into one run */
	lr_frame_put(&b, 10, 2, 'a', LR_ROLE_NONE);
	lr_frame_put(&b, 14, 2, 'b', LR_ROLE_NONE);
	assert_int_equal(lr_frame_diff_count(&a, &b), 4);
	pos = 0;
	while (lr_frame_diff_next(&a, &b, &pos, &run)) {
		switch (runs++) {
		case 0:
			assert_int_equal(run.y, 0);
			assert_int_equal(run.x0, 4);
			assert_int_equal(run.x1, 5);
			break;
		case 1:
			assert_int_equal(run.y, 0);
			assert_int_equal(run.x0, 30);
			assert_int_equal(run.x1, 31);
			break;
		case 2:
			assert_int_equal(run.y, 2);
			assert_int_equal(run.x0, 10);
			assert_int_equal(run.x1, 15);
			break;
		default:
			fail();
		}
	}
	assert_int_equal(runs, 3);

	/* another size (or no previous frame): every row whole */
	runs = 0;
	pos = 0;
	while (lr_frame_diff_next(NULL, &b, &pos, &run)) {
		assert_int_equal(run.x0, 0);
		assert_int_equal(run.x1, 40);
		assert_int_equal(run.y, runs);
		runs++;
	}
	assert_int_equal(runs, 4);
	assert_int_equal(lr_frame_resize(&a, 40, 5), 0);
	assert_int_equal(lr_frame_diff_count(&a, &b), 160);
	lr_frame_free(&a);
	lr_frame_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_and_clipping),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_right_align),
		cmocka_unit_test(test_resize_reuses_and_clears),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
