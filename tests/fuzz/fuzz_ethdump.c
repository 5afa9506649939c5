// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the `ethtool -S` dump parser, the classifier on every name it yields,
 * and the name index (every entry must be found again by its name and ordinal). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/classify.h"
#include "linerate/ethdump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	lr_ethdump_free(&d);
	return 0;
}
