// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the theme file parser. Any input either parses into a theme whose colours
 * are in range, or fails with -EINVAL and a "file:line: message" error; then the whole text is
 * also drawn into a frame (UTF-8 decoding of arbitrary bytes) and exported as text. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/present/frame.h"
#include "linerate/present/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[LR_THEME_ERR_MAX];
	struct lr_theme t;
	struct lr_frame f;
	char *copy, *text;
	int rc;

	/* the parser takes a length: no NUL terminator, exact-size heap copy for ASan */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	rc = lr_theme_parse(&t, copy, size, "fuzz.theme", err, sizeof(err));
	if (rc != 0 && rc != -EINVAL)
		abort();
	if (rc == -EINVAL && strncmp(err, "fuzz.theme:", 11))
		abort();
	for (int r = 0; r < LR_ROLE__COUNT; r++)
		if (t.role[r].fg < -1 || t.role[r].fg > 255 || t.role[r].bg < -1 ||
		    t.role[r].bg > 255 || t.role[r].attrs > 15)
			abort();
	free(copy);

	/* arbitrary bytes through the frame's UTF-8 path */
	copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	lr_frame_init(&f);
	if (lr_frame_resize(&f, 40, 4) == 0) {
		lr_frame_text(&f, 0, 0, -1, LR_ROLE_VALUE, copy);
		lr_frame_text_right(&f, 0, 1, 40, LR_ROLE_VALUE, copy);
		text = lr_frame_to_text(&f);
		free(text);
	}
	lr_frame_free(&f);
	free(copy);
	return 0;
}
