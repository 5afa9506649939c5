// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exposition's content negotiation: the format an HTTP Accept header asks for (OpenMetrics
 * when it ranks above the text format, as Prometheus asks) and the Content-Type to answer
 * with. Split from prom.c (the series and their text). [any]
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "linerate/present/prom.h"

/* q of one media range ("type/sub;version=...;q=0.5"), 1 when absent. */
static double media_q(const char *r, size_t len)
{
	const char *q = r;

	while ((q = memchr(q, ';', len - (size_t)(q - r))) != NULL) {
		q++;
		while (q < r + len && (*q == ' ' || *q == '\t'))
			q++;
		if (q + 2 <= r + len && (q[0] == 'q' || q[0] == 'Q') && q[1] == '=')
			return strtod(q + 2, NULL);
	}
	return 1.0;
}

static bool media_is(const char *r, size_t len, const char *type)
{
	size_t n = strlen(type);

	while (len && (*r == ' ' || *r == '\t'))
		r++, len--;
	return len >= n && !strncasecmp(r, type, n) &&
	       (len == n || r[n] == ';' || r[n] == ' ' || r[n] == '\t');
}

/* OpenMetrics when the scraper ranks it at least as high as the text format (Prometheus
 * since 2.5 lists it first). */
enum lr_prom_format lr_prom_negotiate(const char *accept)
{
	double om = 0, text = 0;

	if (!accept)
		return LR_PROM_TEXT;
	for (const char *r = accept; *r;) {
		size_t len = strcspn(r, ",");
		double q = media_q(r, len);

		if (media_is(r, len, "application/openmetrics-text") && q > om)
			om = q;
		else if ((media_is(r, len, "text/plain") || media_is(r, len, "*/*")) && q > text)
			text = q;
		r += len + (r[len] == ',');
	}
	return om > 0 && om >= text ? LR_PROM_OPENMETRICS : LR_PROM_TEXT;
}

const char *lr_prom_content_type(enum lr_prom_format f)
{
	return f == LR_PROM_OPENMETRICS ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
					: "text/plain; version=0.0.4; charset=utf-8";
}
