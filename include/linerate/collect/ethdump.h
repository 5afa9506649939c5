/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parser for saved `ethtool -S IFACE` output (what support engineers get pasted in tickets):
 * a "NIC statistics:" header, then lines "     name: value". Names may hold spaces, dots,
 * brackets and colons ("rxq0: rx_bytes", "[0]: rx_discards", "port.rx_discards"); CRLF,
 * tabs and stray lines (prompts, mail quoting, errors) are tolerated and counted.
 * Pure: text in, list out. [any] */
#ifndef LINERATE_ETHDUMP_H
#define LINERATE_ETHDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

#define LR_ETHDUMP_NAME_MAX 255 /* longer "names" are counted as garbage */

struct lr_ethdump_entry {
	char *name; /* owned by the dump, NUL-terminated, trimmed */
	uint64_t value;
	unsigned dup; /* 0 for the first entry with this name, 1 for the next... */
};

struct lr_ethdump { /* zero-initialise, fill with lr_ethdump_parse, release with _free */
	struct lr_ethdump_entry *entries; /* in file order */
	size_t n;
	size_t garbage;	 /* non-blank lines that are neither a header nor "name: value" */
	size_t headers;	 /* section headers seen ("NIC statistics:", "... stats for X:") */
	bool nic_header; /* "NIC statistics:" was among them */
	struct lr_ethdump_entry **by_name; /* sorted by (name, dup), for lr_ethdump_find */
};

/* Parses text[0..len) (need not be NUL-terminated; NUL bytes make a line garbage). The
 * dump must be zeroed or freed before. 0, or -ENOMEM (the dump is then empty). */
int lr_ethdump_parse(struct lr_ethdump *d, const char *text, size_t len) LR_MUST_CHECK;
void lr_ethdump_free(struct lr_ethdump *d); /* NULL-safe; leaves *d zeroed */

/* The dup-th entry named `name`, or NULL. O(log n). */
const struct lr_ethdump_entry *lr_ethdump_find(const struct lr_ethdump *d, const char *name,
					       unsigned dup);

#endif
