// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the NUMA parsers — a device's numa_node value, a node directory name and
 * a node's cpulist recorded into a topology (twice, as two nodes naming the same CPUs). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/numa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_numa t;
	char *buf = malloc(size + 1);
	int node = -5;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (lr_numa_parse_node_id(buf, size, &node) == 0 && (node < -1 || node >= LR_NUMA_MAX_NODES))
		abort();
	node = lr_numa_node_dirname(buf);
	if (node < -1 || node >= LR_NUMA_MAX_NODES)
		abort();
	lr_numa_init(&t);
	if (lr_numa_add_node(&t, 1, buf, size) >= 0 && lr_numa_add_node(&t, 0, buf, size) >= 0) {
		for (size_t c = 0; c < t.n_cpu; c++)
			if (t.cpu_node[c] != -1 && t.cpu_node[c] != 1) /* the first node keeps it */
				abort();
	}
	lr_numa_free(&t);
	free(buf);
	return 0;
}
