// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the `ethtool -S` dump parser, the classifier on every name it yields,
 * the name index (every entry must be found again by its name and ordinal), and the
 * --explain formatter on the input as one dump and split in two (text and CSV). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/classify.h"
#include "linerate/collect/ethdump.h"
#include "linerate/present/explain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void explain_both(const struct lr_ethdump *d, const uint8_t *data, size_t size)
{
	struct lr_explain_opts o = {.driver = size & 1 ? "igb" : NULL};
	struct lr_ethdump d1, d2;
	FILE *null = fopen("/dev/null", "w");

	if (!null)
		return;
	if (lr_explain_write(null, d, NULL, &o))
		abort();
	if (!lr_ethdump_parse(&d1, (const char *)data, size / 2)) {
		if (!lr_ethdump_parse(&d2, (const char *)data + size / 2, size - size / 2)) {
			o.csv = true;
			if (lr_explain_write(null, &d1, &d2, &o))
				abort();
			o.csv = false;
			if (lr_explain_write(null, &d1, &d2, &o))
				abort();
			lr_ethdump_free(&d2);
		}
		lr_ethdump_free(&d1);
	}
	fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_ethdump d;
	size_t i, len;

	if (lr_ethdump_parse(&d, (const char *)data, size))
		return 0;
	for (i = 0; i < d.n; i++) {
		const struct lr_ethdump_entry *e = &d.entries[i];
		struct lr_counter_class c;

		len = strlen(e->name);
		if (!len || len > LR_ETHDUMP_NAME_MAX || e->name[0] == ' ' ||
		    e->name[len - 1] == ' ')
			abort();
		if (lr_ethdump_find(&d, e->name, e->dup) != e)
			abort();
		c = lr_classify(i & 1 ? "igb" : NULL, e->name);
		if ((unsigned)c.cat >= LR_CAT__COUNT)
			abort();
	}
	explain_both(&d, data, size);
	lr_ethdump_free(&d);
	return 0;
}
