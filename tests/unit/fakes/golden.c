// SPDX-License-Identifier: GPL-2.0-or-later
/* Golden-frame helpers shared by the view tests; see golden.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakes/golden.h"
#include "linerate/present/frame.h"

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

void golden_check(const struct lr_frame *fr, const char *name)
{
	char path[256], *text = lr_frame_to_text(fr), *want;
	const char *upd = getenv("LR_UPDATE_GOLDEN");

	assert_non_null(text);
	snprintf(path, sizeof(path), "%s/%s.txt", GOLDEN_DIR, name);
	if (upd && !strcmp(upd, "1")) {
		FILE *f = fopen(path, "wb");

		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	}
	want = read_all(path);
	if (!want)
		fail_msg("golden %s missing (LR_UPDATE_GOLDEN=1 writes it)", path);
	if (strcmp(want, text)) {
		fprintf(stderr, "--- golden %s\n%s--- rendered\n%s---\n", path, want, text);
		fail_msg("frame differs from %s", path);
	}
	free(want);
	free(text);
	/* issue 17: a golden frame has no text cut short (views leave out or mark what does
	 * not fit) */
	if (fr->clipped)
		fail_msg("%s: %u texts cut short, the first at row %d col %d", name, fr->clipped,
			 fr->clip_y, fr->clip_x);
}

int golden_find(const struct lr_frame *f, const char *needle, int *col)
{
	char *text = lr_frame_to_text(f), *line = text;
	int y = 0, found = -1;

	while (line && *line) {
		char *nl = strchr(line, '\n'), *hit;

		*nl = '\0';
		hit = strstr(line, needle);
		if (hit) {
			*col = 0;
			for (char *p = line; p < hit; p++)	/* count code points */
				*col += ((unsigned char)*p & 0xc0) != 0x80;
			found = y;
			break;
		}
		line = nl + 1;
		y++;
	}
	free(text);
	return found;
}
