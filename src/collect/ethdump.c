// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parser for saved `ethtool -S` text: one "name: value" per line after a "NIC statistics:"
 * header. The value is the run of digits at the end of the line, the name everything
 * between the leading blanks and the colon before it, so names with spaces and colons of
 * their own survive. Anything else non-blank is counted as garbage, never fatal. Pure;
 * the dump owns its entries. [any]
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/ethdump.h"
#include "linerate/core/array.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int add_entry(struct lr_ethdump *d, size_t *cap, const char *name, size_t nlen,
		     uint64_t value)
{
	struct lr_ethdump_entry *e;
	char *copy;

	if (lr_array_grow(&d->entries, cap, d->n + 1, sizeof(*d->entries)))
		return -ENOMEM;
	copy = malloc(nlen + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, name, nlen);
	copy[nlen] = '\0';
	e = &d->entries[d->n++];
	e->name = copy;
	e->value = value;
	e->dup = 0;
	return 0;
}

/* One line without its '\n'. Returns 0 or -ENOMEM. */
static int parse_line(struct lr_ethdump *d, size_t *cap, const char *s, size_t len)
{
	const char *end = s + len, *p, *digits, *colon;
	uint64_t v = 0;

	while (s < end && (is_blank(*s) || *s == '>')) /* indent, mail quoting */
		s++;
	while (end > s && is_blank(end[-1]))
		end--;
	if (s == end)
		return 0;
	if (memchr(s, '\0', (size_t)(end - s)))
		goto garbage;
	if (end[-1] == ':') { /* "NIC statistics:", "Standard stats for eth0:" */
		d->headers++;
		if ((size_t)(end - s) == 15 && !memcmp(s, "NIC statistics:", 15))
			d->nic_header = true;
		return 0;
	}
	digits = end;
	while (digits > s && digits[-1] >= '0' && digits[-1] <= '9')
		digits--;
	if (digits == end || end - digits > 20)
		goto garbage;
	for (p = digits; p < end; p++) {
		uint64_t dv = (uint64_t)(*p - '0');

		if (v > (UINT64_MAX - dv) / 10)
			goto garbage;
		v = v * 10 + dv;
	}
	colon = digits;
	while (colon > s && is_blank(colon[-1]))
		colon--;
	if (colon == s || colon[-1] != ':')
		goto garbage;
	colon--;
	while (colon > s && is_blank(colon[-1]))
		colon--;
	if (colon == s || (size_t)(colon - s) > LR_ETHDUMP_NAME_MAX)
		goto garbage;
	return add_entry(d, cap, s, (size_t)(colon - s), v);
garbage:
	d->garbage++;
	return 0;
}

/* Entries are compared through pointers into the one entries array, so equal names keep
 * file order (the pointer order) and no context argument is needed. */
static int cmp_entry(const void *a, const void *b)
{
	const struct lr_ethdump_entry *ea = *(const struct lr_ethdump_entry *const *)a;
	const struct lr_ethdump_entry *eb = *(const struct lr_ethdump_entry *const *)b;
	int c = strcmp(ea->name, eb->name);

	if (c)
		return c;
	return ea < eb ? -1 : ea > eb;
}

static int build_index(struct lr_ethdump *d)
{
	size_t i;

	if (!d->n)
		return 0;
	d->by_name = malloc(d->n * sizeof(*d->by_name));
	if (!d->by_name)
		return -ENOMEM;
	for (i = 0; i < d->n; i++)
		d->by_name[i] = &d->entries[i];
	qsort(d->by_name, d->n, sizeof(*d->by_name), cmp_entry);
	for (i = 1; i < d->n; i++)
		if (!strcmp(d->by_name[i - 1]->name, d->by_name[i]->name))
			d->by_name[i]->dup = d->by_name[i - 1]->dup + 1;
	return 0;
}

int lr_ethdump_parse(struct lr_ethdump *d, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	size_t cap = 0;
	int err;

	memset(d, 0, sizeof(*d));
	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3)) /* UTF-8 BOM from Windows editors */
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		err = parse_line(d, &cap, p, (size_t)(le - p));
		if (err)
			goto err_free;
		p = nl ? nl + 1 : end;
	}
	err = build_index(d);
	if (err)
		goto err_free;
	return 0;
err_free:
	lr_ethdump_free(d);
	return err;
}

void lr_ethdump_free(struct lr_ethdump *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++)
		free(d->entries[i].name);
	free(d->entries);
	free(d->by_name);
	memset(d, 0, sizeof(*d));
}

const struct lr_ethdump_entry *lr_ethdump_find(const struct lr_ethdump *d, const char *name,
					       unsigned dup)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct lr_ethdump_entry *e = d->by_name[mid];
		int c = strcmp(e->name, name);

		if (!c)
			c = e->dup < dup ? -1 : e->dup > dup;
		if (!c)
			return e;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
