// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exposition as the metrics endpoint serves it (core/exporter.h): the exporter's ops over
 * struct lr_prom, and the content negotiation (OpenMetrics when the Accept header ranks it
 * above the text format, as Prometheus asks) with the Content-Type to answer with. [any]
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "linerate/core/exporter.h"
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

static int ex_update(void *ctx, const struct lr_snapshot *s)
{
	return lr_prom_update(ctx, s);
}

static int ex_update_peer(void *ctx, const struct lr_snapshot *peer, const char *host)
{
	return lr_prom_update_peer(ctx, peer, host);
}

static int ex_render(void *ctx, const char *accept, struct lr_exporter_body *out)
{
	enum lr_prom_format f = lr_prom_negotiate(accept);
	struct lr_prom_buf b = {0};
	int err = lr_prom_render(ctx, f, &b);

	if (err) {
		lr_prom_buf_free(&b);
		return err;
	}
	out->p = b.p;	/* handed over: the endpoint frees it once sent */
	out->len = b.len;
	out->content_type = lr_prom_content_type(f);
	return 0;
}

static void ex_close(void *ctx)
{
	lr_prom_close(ctx);
}

static const struct lr_exporter_ops prom_ops = {
	.update = ex_update,
	.update_peer = ex_update_peer,
	.render = ex_render,
	.close = ex_close,
};

int lr_prom_exporter(struct lr_exporter *out)
{
	struct lr_prom *p;
	int err = lr_prom_open(&p);

	if (err)
		return err;
	out->ops = &prom_ops;
	out->ctx = p;
	return 0;
}
