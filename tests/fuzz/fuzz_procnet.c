// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: lr_procnet_parse on arbitrary bytes (no NUL terminator). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/procnet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int touch(const struct lr_procnet_row *row, void *arg)
{
	uint64_t *sum = arg;
	size_t i;

	*sum += strlen(row->name);
	for (i = 0; i < LR_PN__COUNT; i++)
		*sum += row->v[i];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);	/* exact size: ASan sees any over-read */
	uint64_t sum = 0;
	unsigned bad = 0;
	int rows;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	rows = lr_procnet_parse(buf, size, touch, &sum, &bad);
	if (rows < 0 || (size_t)rows + bad > size)
		abort();	/* a row or a bad line needs at least one byte */
	free(buf);
	return 0;
}
