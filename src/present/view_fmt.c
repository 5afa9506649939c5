// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared view helpers: number and rate formatting (unknown is "-", never 0), the derived
 * display quantities (% of link, wire utilisation, goodput ceiling), graph scaling and
 * drawing (UTF-8 blocks or ASCII), pane titles and separators. Pure; main thread.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"
#include "linerate/present/view.h"

static void fmt_scaled(char *buf, size_t len, double v, const char *const *units, size_t nunits)
{
	size_t i = 0;

	while (v >= 999.95 && i + 1 < nunits) {
		v /= 1000;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.0f %s", v, units[0]);
	else if (v >= 99.95)
		snprintf(buf, len, "%.1f %s", v, units[i]);
	else
		snprintf(buf, len, "%.2f %s", v, units[i]);
}

void lr_view_fmt_rate(char *buf, size_t len, double bps, bool bytes)
{
	static const char *const bit_units[] = {"b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s", "Pb/s"};
	static const char *const byte_units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s"};

	if (!(bps >= 0) || !isfinite(bps)) {
		snprintf(buf, len, "-");
		return;
	}
	if (bytes)
		fmt_scaled(buf, len, bps / 8, byte_units, LR_ARRAY_SIZE(byte_units));
	else
		fmt_scaled(buf, len, bps, bit_units, LR_ARRAY_SIZE(bit_units));
}

void lr_view_fmt_num(char *buf, size_t len, double v)
{
	if (!(v >= 0) || !isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	lr_fmt_si(buf, len, v);
}

void lr_view_fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};

	if (!(bytes >= 0) || !isfinite(bytes)) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_scaled(buf, len, bytes, units, LR_ARRAY_SIZE(units));
}

void lr_view_fmt_speed(char *buf, size_t len, int64_t speed_mbps)
{
	if (speed_mbps <= 0)
		snprintf(buf, len, "-");
	else if (speed_mbps >= 1000 && speed_mbps % 1000 == 0)
		snprintf(buf, len, "%lldG", (long long)(speed_mbps / 1000));
	else if (speed_mbps >= 1000)
		snprintf(buf, len, "%.1fG", (double)speed_mbps / 1000);
	else
		snprintf(buf, len, "%lldM", (long long)speed_mbps);
}

/* The smallest 1-2-5 step >= v. */
static double nice_ceil(double v)
{
	double p = pow(10, floor(log10(v)));

	if (v <= p * 1.0000001)
		return p;
	if (v <= p * 2)
		return 2 * p;
	if (v <= p * 5)
		return 5 * p;
	return 10 * p;
}

double lr_view_scale_top(enum lr_scale mode, double max_v, double link_max)
{
	if ((mode == LR_SCALE_LINK || mode == LR_SCALE_LOG) && link_max > 0)
		return link_max;
	if (!(max_v >= 1000) || !isfinite(max_v))
		return 1000;
	return nice_ceil(max_v);
}

double lr_view_series_max(const struct lr_series *s, uint32_t n)
{
	double m = 0;

	for (uint32_t i = 0; i < n && i < s->len; i++) {
		float v = lr_series_get(s, i);

		if (isfinite(v) && v > m)
			m = v;
	}
	return m;
}

void lr_view_graph(struct lr_frame *f, struct lr_rect r, const struct lr_series *s, double top,
		   bool log_scale, double log_floor, bool ascii, enum lr_role role)
{
	int levels = r.h * 8;

	if (r.w <= 0 || r.h <= 0 || !(top > 0))
		return;
	for (int i = 0; i < r.w; i++) {
		int x = r.x + r.w - 1 - i, level;
		float v = lr_series_get(s, (uint32_t)i);
		double frac;

		if ((uint32_t)i >= s->len)
			break;
		if (!isfinite(v) || v < 0) {
			lr_frame_put(f, x, r.y + r.h - 1, ascii ? '-' : 0x00b7, LR_ROLE_LABEL);
			continue;
		}
		if (log_scale)
			frac = v <= log_floor || top <= log_floor
				       ? 0
				       : log10(v / log_floor) / log10(top / log_floor);
		else
			frac = v / top;
		if (frac > 1)
			frac = 1;
		level = (int)lround(frac * levels);
		if (level == 0 && v > 0 && (!log_scale || v > log_floor))
			level = 1;	/* a trickle stays visible */
		for (int k = 0; k < r.h; k++) {
			int fill = level - k * 8;
			uint32_t cp;

			if (fill <= 0)
				break;
			if (fill > 8)
				fill = 8;
			if (ascii)
				cp = fill == 8 ? '#' : fill >= 4 ? '+' : '.';
			else
				cp = 0x2580 + (uint32_t)fill;	/* U+2581 lower 1/8 ... U+2588 full */
			lr_frame_put(f, x, r.y + r.h - 1 - k, cp, role);
		}
	}
}

void lr_view_pane_title(struct lr_frame *f, struct lr_rect r, const char *title, bool ascii)
{
	int n;

	lr_frame_fill(f, (struct lr_rect){r.x, r.y, r.w, 1}, ascii ? '-' : 0x2500, LR_ROLE_BORDER);
	lr_frame_put(f, r.x, r.y, ' ', LR_ROLE_BORDER);
	n = lr_frame_text(f, r.x + 1, r.y, r.w - 2, LR_ROLE_TITLE, title);
	lr_frame_put(f, r.x + 1 + n, r.y, ' ', LR_ROLE_BORDER);
}

void lr_view_overlay(struct lr_frame *f, struct lr_rect r, bool ascii)
{
	lr_frame_fill(f, r, ' ', LR_ROLE_HELP);
	if (r.w < 2 || r.h < 2)
		return;
	lr_frame_fill(f, (struct lr_rect){r.x, r.y, r.w, 1}, ascii ? '-' : 0x2500, LR_ROLE_HELP);
	lr_frame_fill(f, (struct lr_rect){r.x, r.y + r.h - 1, r.w, 1}, ascii ? '-' : 0x2500,
		      LR_ROLE_HELP);
	for (int y = r.y + 1; y < r.y + r.h - 1; y++) {
		lr_frame_put(f, r.x, y, ascii ? '|' : 0x2502, LR_ROLE_HELP);
		lr_frame_put(f, r.x + r.w - 1, y, ascii ? '|' : 0x2502, LR_ROLE_HELP);
	}
	lr_frame_put(f, r.x, r.y, ascii ? '+' : 0x250c, LR_ROLE_HELP);		/* ┌ */
	lr_frame_put(f, r.x + r.w - 1, r.y, ascii ? '+' : 0x2510, LR_ROLE_HELP);	/* ┐ */
	lr_frame_put(f, r.x, r.y + r.h - 1, ascii ? '+' : 0x2514, LR_ROLE_HELP);	/* └ */
	lr_frame_put(f, r.x + r.w - 1, r.y + r.h - 1, ascii ? '+' : 0x2518, LR_ROLE_HELP); /* ┘ */
}

void lr_view_vline(struct lr_frame *f, int x, int y0, int h, bool ascii)
{
	for (int y = y0; y < y0 + h; y++)
		lr_frame_put(f, x, y, ascii ? '|' : 0x2502, LR_ROLE_BORDER);
}

int lr_view_text_words(struct lr_frame *f, int x, int y, int maxw, enum lr_role role, const char *s,
		       bool ascii)
{
	char buf[512];
	size_t cut;

	if (maxw <= 0)
		return 0;
	if (lr_utf8_width(s) <= maxw)
		return lr_frame_text(f, x, y, maxw, role, s);
	/* the longest run of whole words that leaves a column for the mark */
	snprintf(buf, sizeof(buf), "%s", s);
	cut = strlen(buf);
	do {
		while (cut > 0 && buf[cut - 1] != ' ')
			cut--;
		while (cut > 0 && buf[cut - 1] == ' ')
			cut--;
		buf[cut] = '\0';
	} while (cut > 0 && lr_utf8_width(buf) > maxw - 1);
	if (cut == 0)
		return 0;
	x += lr_frame_text(f, x, y, maxw - 1, role, buf);
	lr_frame_put(f, x, y, ascii ? '~' : 0x2026, role);	/* … : more did not fit */
	return lr_utf8_width(buf) + 1;
}

int lr_view_text_mark(struct lr_frame *f, int x, int y, int w, enum lr_role role, const char *s)
{
	char buf[256];
	const char *p = s;
	size_t n;

	if (w <= 0)
		return 0;
	if (lr_utf8_width(s) <= w)
		return lr_frame_text(f, x, y, w, role, s);
	/* the first w - 1 code points (UTF-8 continuation bytes never start one), then '~' */
	for (int k = 0; k < w - 1 && *p; k++)
		do
			p++;
		while ((*p & 0xc0) == 0x80);
	n = (size_t)(p - s) < sizeof(buf) - 2 ? (size_t)(p - s) : sizeof(buf) - 2;
	memcpy(buf, s, n);
	buf[n] = '~';
	buf[n + 1] = '\0';
	return lr_frame_text(f, x, y, w, role, buf);
}

bool lr_view_field(struct lr_frame *f, int x, int y, int *at, int w, enum lr_role role,
		   const char *s)
{
	int n = lr_utf8_width(s);

	if (*at + n > w) {
		*at = w;	/* the fields after this one are left out too */
		return false;
	}
	*at += lr_frame_text(f, x + *at, y, n, role, s);
	return true;
}

void lr_view_wrap(struct lr_frame *f, int x, int *y, int w, int max_rows, enum lr_role role,
		  const char *s)
{
	char line[256];

	while (*s && max_rows-- > 0) {
		size_t len = strlen(s), cut = len;

		if ((int)len > w) {
			cut = (size_t)w;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (!cut)
				cut = (size_t)w;
		}
		if (cut >= sizeof(line))
			cut = sizeof(line) - 1;
		memcpy(line, s, cut);
		line[cut] = '\0';
		lr_frame_text(f, x, (*y)++, w, role, line);
		s += cut;
		while (*s == ' ')
			s++;
	}
}
