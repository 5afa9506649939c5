/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Golden-frame helpers for the view tests: compare a rendered frame with
 * tests/fixtures/frames/NAME.txt (LR_UPDATE_GOLDEN=1 rewrites it), and find text in a frame. */
#ifndef LINERATE_GOLDEN_H
#define LINERATE_GOLDEN_H

struct lr_frame;

#define GOLDEN_DIR "tests/fixtures/frames"

/* Fails the running cmocka test when the frame differs from the golden file. */
void golden_check(const struct lr_frame *fr, const char *name);
/* The row of the frame holding needle, or -1; *col set to its column (in code points). */
int golden_find(const struct lr_frame *f, const char *needle, int *col);

#endif
