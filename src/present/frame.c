// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cell frame views draw into: clipped text drawing, text export for golden tests and the
 * cell diff the curses blitter uses to redraw only what changed. Pure; runs on the main
 * thread. A frame owns its cell array; resizing reuses it unless the frame grows.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/present/frame.h"
#include "linerate/core/array.h"

/* Unchanged cells between two changed ones that a run bridges: rewriting a few cells costs
 * fewer bytes than a cursor-movement sequence. */
#define DIFF_BRIDGE 4

void lr_frame_init(struct lr_frame *f)
{
	memset(f, 0, sizeof(*f));
}

void lr_frame_free(struct lr_frame *f)
{
	if (!f)
		return;
	free(f->cells);
	lr_frame_init(f);
}

static void note_clip(struct lr_frame *f, int x, int y)
{
	if (!f->clipped++) {
		f->clip_x = x;
		f->clip_y = y;
	}
}

void lr_frame_clear(struct lr_frame *f)
{
	size_t n = (size_t)f->w * (size_t)f->h;

	f->clipped = 0;
	for (size_t i = 0; i < n; i++) {
		f->cells[i].cp = ' ';
		f->cells[i].role = LR_ROLE_NONE;
	}
}

int lr_frame_resize(struct lr_frame *f, int w, int h)
{
	size_t n;

	if (w < 0 || h < 0 || w > 10000 || h > 10000)
		return -EINVAL;
	n = (size_t)w * (size_t)h;
	if (lr_array_grow(&f->cells, &f->cap, n, sizeof(*f->cells)))
		return -ENOMEM;
	f->w = w;
	f->h = h;
	lr_frame_clear(f);
	return 0;
}

int lr_frame_copy(struct lr_frame *dst, const struct lr_frame *src)
{
	int err;

	if (dst == src)
		return 0;
	err = lr_frame_resize(dst, src->w, src->h);
	if (err)
		return err;
	if (src->w && src->h)
		memcpy(dst->cells, src->cells, (size_t)src->w * (size_t)src->h * sizeof(*src->cells));
	return 0;
}

const struct lr_cell *lr_frame_at(const struct lr_frame *f, int x, int y)
{
	if (x < 0 || y < 0 || x >= f->w || y >= f->h)
		return NULL;
	return &f->cells[(size_t)y * (size_t)f->w + (size_t)x];
}

/* Code points known to take exactly one column everywhere: ASCII, Latin, Greek, Cyrillic,
 * punctuation, arrows, box drawing, blocks, geometric shapes, braille. Anything else (control
 * characters, combining marks, CJK wide characters, emoji) would shift the columns after it
 * and is drawn as '?'; interface names may hold any bytes. */
static bool narrow(uint32_t cp)
{
	return (cp >= 0x20 && cp < 0x7f) || (cp >= 0xa0 && cp < 0x300) ||
	       (cp >= 0x370 && cp < 0x530) || (cp >= 0x2010 && cp < 0x2060) ||
	       (cp >= 0x2190 && cp < 0x2200) || (cp >= 0x2500 && cp < 0x2600) ||
	       (cp >= 0x2800 && cp < 0x2900);
}

void lr_frame_put(struct lr_frame *f, int x, int y, uint32_t cp, enum lr_role role)
{
	struct lr_cell *c;

	if (x < 0 || y < 0 || x >= f->w || y >= f->h)
		return;
	if (!narrow(cp))
		cp = '?';
	c = &f->cells[(size_t)y * (size_t)f->w + (size_t)x];
	c->cp = cp;
	c->role = (uint8_t)role;
}

void lr_frame_fill(struct lr_frame *f, struct lr_rect r, uint32_t cp, enum lr_role role)
{
	for (int y = r.y; y < r.y + r.h; y++)
		for (int x = r.x; x < r.x + r.w; x++)
			lr_frame_put(f, x, y, cp, role);
}

void lr_frame_set_role(struct lr_frame *f, struct lr_rect r, enum lr_role role)
{
	for (int y = r.y; y < r.y + r.h; y++)
		for (int x = r.x; x < r.x + r.w; x++)
			if (x >= 0 && y >= 0 && x < f->w && y < f->h)
				f->cells[(size_t)y * (size_t)f->w + (size_t)x].role = (uint8_t)role;
}

/* Decodes one UTF-8 sequence at *p; malformed input yields '?' and consumes one byte. */
static uint32_t utf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	uint32_t cp;
	int n;

	if (s[0] < 0x80) {
		*p = s + 1;
		return s[0];
	}
	if ((s[0] & 0xe0) == 0xc0) {
		cp = s[0] & 0x1f;
		n = 1;
	} else if ((s[0] & 0xf0) == 0xe0) {
		cp = s[0] & 0x0f;
		n = 2;
	} else if ((s[0] & 0xf8) == 0xf0) {
		cp = s[0] & 0x07;
		n = 3;
	} else {
		*p = s + 1;
		return '?';
	}
	for (int i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*p = s + 1;
			return '?';
		}
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong encodings */
	if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000)) {
		*p = s + 1;
		return '?';
	}
	*p = s + n + 1;
	return cp;
}

int lr_utf8_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n = 0;

	while (*p) {
		utf8_next(&p);
		n++;
	}
	return n;
}

int lr_frame_text(struct lr_frame *f, int x, int y, int maxw, enum lr_role role, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n = 0;

	if (maxw < 0)
		maxw = f->w - x;
	while (*p && n < maxw) {
		uint32_t cp = utf8_next(&p);

		lr_frame_put(f, x + n, y, cp, role);
		n++;
	}
	if (*p || x + n > f->w)
		note_clip(f, x, y);
	return n;
}

int lr_frame_printf(struct lr_frame *f, int x, int y, int maxw, enum lr_role role,
		    const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return lr_frame_text(f, x, y, maxw, role, buf);
}

int lr_frame_text_right(struct lr_frame *f, int x, int y, int w, enum lr_role role, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int len = lr_utf8_width(s);

	if (w <= 0)
		return 0;
	if (len > w)
		note_clip(f, x, y);
	while (len > w) {	/* drop leading code points */
		utf8_next(&p);
		len--;
	}
	return lr_frame_text(f, x + w - len, y, len, role, (const char *)p);
}

static size_t utf8_put(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

char *lr_frame_to_text(const struct lr_frame *f)
{
	size_t len = 0, cap = (size_t)f->w * (size_t)f->h * 4 + (size_t)f->h + 1;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	for (int y = 0; y < f->h; y++) {
		size_t row_end = len;

		for (int x = 0; x < f->w; x++) {
			uint32_t cp = f->cells[(size_t)y * (size_t)f->w + (size_t)x].cp;

			len += utf8_put(out + len, cp);
			if (cp != ' ')
				row_end = len;
		}
		len = row_end;
		out[len++] = '\n';
	}
	out[len] = '\0';
	return out;
}

static bool cell_differs(const struct lr_frame *a, const struct lr_frame *b, size_t i)
{
	return a->cells[i].cp != b->cells[i].cp || a->cells[i].role != b->cells[i].role;
}

bool lr_frame_diff_next(const struct lr_frame *prev, const struct lr_frame *cur, size_t *pos,
			struct lr_frame_run *run)
{
	size_t n = (size_t)cur->w * (size_t)cur->h;
	bool whole = !prev || prev->w != cur->w || prev->h != cur->h;

	if (cur->w == 0)
		return false;
	if (whole) {
		if (*pos >= n)
			return false;
		run->y = (int)(*pos / (size_t)cur->w);
		run->x0 = 0;
		run->x1 = cur->w;
		*pos = (size_t)(run->y + 1) * (size_t)cur->w;
		return true;
	}
	while (*pos < n && !cell_differs(prev, cur, *pos))
		(*pos)++;
	if (*pos >= n)
		return false;
	run->y = (int)(*pos / (size_t)cur->w);
	run->x0 = (int)(*pos % (size_t)cur->w);
	{
		size_t row_end = (size_t)(run->y + 1) * (size_t)cur->w;
		size_t last = *pos, i = *pos + 1;

		for (; i < row_end; i++) {
			if (cell_differs(prev, cur, i))
				last = i;
			else if (i - last > DIFF_BRIDGE)
				break;
		}
		run->x1 = (int)(last - (size_t)run->y * (size_t)cur->w) + 1;
		*pos = last + 1;
	}
	return true;
}

size_t lr_frame_diff_count(const struct lr_frame *prev, const struct lr_frame *cur)
{
	size_t n = (size_t)cur->w * (size_t)cur->h, c = 0;

	if (!prev || prev->w != cur->w || prev->h != cur->h)
		return n;
	for (size_t i = 0; i < n; i++)
		c += cell_differs(prev, cur, i);
	return c;
}
