// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: /proc/stat parser into a CPU table, then the percentage maths between the
 * parsed reading and a second parse of the same text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/cpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_cpu_table t, prev;
	char *buf = malloc(size ? size : 1);
	double u, s, i, si, id;
	size_t c;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	lr_cpu_table_init(&t);
	lr_cpu_parse_stat(buf, size, &t);
	if (t.n > LR_CPU_MAX || t.n > t.cap)
		abort();
	prev = t;
	prev.cpu = NULL;
	if (t.n && !(prev.cpu = malloc(t.n * sizeof(*t.cpu))))
		goto out;
	if (t.n)
		memcpy(prev.cpu, t.cpu, t.n * sizeof(*t.cpu));
	lr_cpu_parse_stat(buf, size, &t);
	if (lr_cpu_pct(&prev.all, &t.all, &u, &s, &i, &si, &id))
		abort();	/* same text twice: zero delta must be refused */
	for (c = 0; c < t.n; c++) {
		if (t.cpu[c].present && !t.cpu[c].valid)
			abort();
		if (lr_cpu_pct(&prev.cpu[c], &t.cpu[c], &u, &s, &i, &si, &id))
			abort();
	}
	free(prev.cpu);
out:
	lr_cpu_table_free(&t);
	free(buf);
	return 0;
}
