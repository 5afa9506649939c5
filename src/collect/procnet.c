// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/net/dev parser: one "name: 16 numbers" line per interface. Pure; runs on the sampler
 * thread when --source proc is chosen. Lines are split at the first ':' because the kernel's
 * name can touch the first number ("%6s:%8llu" on old kernels) and a netdev name can never
 * contain ':' (dev_valid_name rejects ':', '/' and whitespace). Owns nothing.
 */
#include <errno.h>
#include <string.h>

#include "linerate/collect/procnet.h"
#include "linerate/core/strutil.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Parses one line [p, end) into row. true when it is a well-formed interface line. */
static bool parse_line(const char *p, const char *end, struct lr_procnet_row *row)
{
	const char *colon = memchr(p, ':', (size_t)(end - p));
	const char *name_end;
	size_t name_len;
	unsigned i;

	if (!colon)
		return false;
	while (p < colon && is_blank(*p))
		p++;
	name_end = colon;
	while (name_end > p && is_blank(name_end[-1]))
		name_end--;
	name_len = (size_t)(name_end - p);
	if (name_len == 0 || name_len >= sizeof(row->name) || memchr(p, '\0', name_len))
		return false;
	memcpy(row->name, p, name_len);
	row->name[name_len] = '\0';

	p = colon + 1;
	for (i = 0; i < LR_PN__COUNT; i++) {
		if (p < end && !is_blank(*p) && i > 0)
			return false; /* "12x" or "1-2": numbers must be blank-separated */
		if (!lr_scan_u64(&p, end, &row->v[i]))
			return false; /* missing, not a number, or > 2^64 - 1 */
	}
	while (p < end && is_blank(*p))
		p++;
	return p == end; /* a 17th column or trailing junk: not this format */
}

int lr_procnet_parse(const char *buf, size_t len, lr_procnet_cb cb, void *arg, unsigned *bad)
{
	const char *p = buf, *end = buf + len;
	struct lr_procnet_row row;
	int rows = 0;

	if (bad)
		*bad = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *q = p;

		while (q < eol && is_blank(*q))
			q++;
		/* NOLINTNEXTLINE(bugprone-branch-clone): two kinds of skipped line, named apart */
		if (q == eol) {
			/* blank line */
		} else if (!memchr(p, ':', (size_t)(eol - p)) &&
			   memchr(p, '|', (size_t)(eol - p))) {
			/* the two header lines ("Inter-|   Receive ...", " face |bytes ...") */
		} else if (parse_line(p, eol, &row)) {
			int rc = cb ? cb(&row, arg) : 0;

			if (rc)
				return rc;
			rows++;
		} else if (bad) {
			(*bad)++;
		}
		p = nl ? nl + 1 : end;
	}
	return rows;
}
