// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A cookie stream (glibc's fopencookie) that puts iperf3's timestamp and title in front of
 * every line, so the code that prints iperf3's lines stays a plain fprintf.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linerate/present/lineout.h"

struct lineout {
	FILE *under;
	struct lr_lineout_opts o;
	bool at_line_start;
};

static void prefix(struct lineout *l)
{
	if (l->o.timestamp_fmt) {
		char buf[128];
		time_t now = time(NULL);
		struct tm tm;

		localtime_r(&now, &tm);
		/* the format is the user's, as iperf3's --timestamps=FORMAT */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		if (strftime(buf, sizeof(buf), l->o.timestamp_fmt, &tm) > 0)
			fputs(buf, l->under);
#pragma GCC diagnostic pop
	}
	if (l->o.title)
		fprintf(l->under, "%s:  ", l->o.title);
}

static ssize_t lineout_write(void *cookie, const char *buf, size_t size)
{
	struct lineout *l = cookie;
	size_t done = 0;

	while (done < size) {
		const char *nl = memchr(buf + done, '\n', size - done);
		size_t len = nl ? (size_t)(nl - (buf + done)) + 1 : size - done;

		if (l->at_line_start)
			prefix(l);
		if (fwrite(buf + done, 1, len, l->under) != len)
			return done ? (ssize_t)done : -1;
		done += len;
		l->at_line_start = nl != NULL;
		if (nl && l->o.force_flush)
			fflush(l->under);
	}
	return (ssize_t)done;
}

static int lineout_close(void *cookie)
{
	struct lineout *l = cookie;
	int r = fflush(l->under);

	free(l);
	return r;
}

FILE *lr_lineout_open(FILE *under, const struct lr_lineout_opts *o)
{
	cookie_io_functions_t io = {.write = lineout_write, .close = lineout_close};
	struct lineout *l = calloc(1, sizeof(*l));
	FILE *f;

	if (!l)
		return NULL;
	l->under = under;
	l->o = *o;
	l->at_line_start = true;
	f = fopencookie(l, "w", io);
	if (!f)
		free(l);
	return f;
}
