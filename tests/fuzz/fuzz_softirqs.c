// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: /proc/softirqs parser (header CPU names x NET_RX/NET_TX rows). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/cpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_cpu_table t;
	char *buf = malloc(size ? size : 1);
	size_t c;
	int n;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	lr_cpu_table_init(&t);
	n = lr_cpu_parse_softirqs(buf, size, &t);
	if (n > (int)t.n)
		abort();
	for (c = 0; c < t.n; c++)
		if (t.cpu[c].valid & ~(uint32_t)LR_CPUV_SOFTIRQS)
			abort();	/* scratch bits must not leak out */
	lr_cpu_table_free(&t);
	free(buf);
	return 0;
}
