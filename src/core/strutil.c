// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Strict number parsing for the command line and proc files, and SI formatting. Pure and
 * locale-independent: the CSV and the parsers never see a decimal comma. [any]
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/strutil.h"

int lr_parse_u64(const char *s, uint64_t *out)
{
	const char *p = s;
	uint64_t v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*out = v;
	return 0;
}

/* strtod honours LC_NUMERIC; we only ever setlocale(LC_CTYPE), so '.' is the point. */
int lr_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v))
		return -ERANGE;
	*out = v;
	return 0;
}

static int parse_scaled(const char *s, double base, uint64_t *out)
{
	char num[64];
	size_t n;
	double v, mult = 1;
	int err;

	if (!s || !*s)
		return -EINVAL;
	n = strlen(s);
	if (n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n + 1);
	switch (num[n - 1]) {
	case 'k': case 'K': mult = base; break;
	case 'm': case 'M': mult = base * base; break;
	case 'g': case 'G': mult = base * base * base; break;
	case 't': case 'T': mult = base * base * base * base; break;
	default: break;
	}
	if (mult != 1)
		num[n - 1] = '\0';
	if (num[0] == '-' || num[0] == '+')
		return -EINVAL;
	err = lr_parse_double(num, &v);
	if (err)
		return err;
	v *= mult;
	if (v < 0 || v >= 18446744073709551615.0)
		return -ERANGE;
	*out = (uint64_t)round(v);	/* not llround: above 2^63 it overflows long long */
	return 0;
}

int lr_parse_rate_bps(const char *s, uint64_t *out)
{
	return parse_scaled(s, 1000.0, out);
}

int lr_parse_size_bytes(const char *s, uint64_t *out)
{
	return parse_scaled(s, 1024.0, out);
}

bool lr_scan_u64(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	bool any = false;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
		any = true;
	}
	if (!any)
		return false;
	*pp = p;
	*out = v;
	return true;
}

size_t lr_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);

	if (size) {
		size_t c = n < size - 1 ? n : size - 1;

		memcpy(dst, src, c);
		dst[c] = '\0';
	}
	return n;
}

void lr_fmt_si(char *buf, size_t len, double v)
{
	static const char *const prefix[] = {"", "k", "M", "G", "T", "P"};
	unsigned i = 0;
	double a = fabs(v);

	while (a >= 999.5 && i + 1 < LR_ARRAY_SIZE(prefix)) {
		a /= 1000;
		v /= 1000;
		i++;
	}
	if (i == 0 && a == floor(a))
		snprintf(buf, len, "%.0f", v);
	else if (a >= 99.95)
		snprintf(buf, len, "%.0f%s", v, prefix[i]);
	else if (a >= 9.995)
		snprintf(buf, len, "%.1f%s", v, prefix[i]);
	else
		snprintf(buf, len, "%.2f%s", v, prefix[i]);
}

int lr_err_inval(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}
