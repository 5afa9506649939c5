// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: /proc/net/softnet_stat parser, both with no CPU table (row i = CPU i) and
 * after a /proc/stat with a hole in its CPU numbers (rows mapped to online CPUs). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/cpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char stat[] = "cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu2 1 2 3 4\ncpu5 1 2 3 4\n";
	struct lr_cpu_table t;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	lr_cpu_table_init(&t);
	lr_cpu_parse_softnet(buf, size, &t);
	lr_cpu_table_free(&t);

	lr_cpu_table_init(&t);
	if (lr_cpu_parse_stat(stat, sizeof(stat) - 1, &t) != 3)
		abort();
	lr_cpu_parse_softnet(buf, size, &t);
	if (t.n > LR_CPU_MAX)
		abort();
	lr_cpu_table_free(&t);
	free(buf);
	return 0;
}
