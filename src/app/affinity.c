// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -A node:N resolved to a CPU set from the live topology (collect/numa.c's reader), once at
 * option parsing on the main thread; the traffic engine only ever sees the set.
 */
#include <errno.h>

#include "linerate/app/affinity.h"
#include "linerate/collect/numa.h"

static int stop_walk(const char *name, void *arg)
{
	return 1;
}

int lr_affinity_node_cpus(int node, cpu_set_t *out)
{
	struct lr_sysio io;
	struct lr_cpuset set = {0};
	int n, ret = 0;

	if (lr_sysio_real_init(&io, NULL, NULL))
		return -ENAMETOOLONG;
	n = lr_numa_read_node_cpus(&io, node, &set);
	if (n == -ENOENT && node == 0 &&
	    io.list_dir(&io, "/sys/devices/system/node", stop_walk, NULL) == -ENOENT) {
		char buf[4096];	/* no NUMA in this kernel: one node, every online CPU */
		ssize_t len = io.read_file(&io, "/sys/devices/system/cpu/online", buf, sizeof(buf));

		n = len < 0 ? (int)len : lr_cpulist_parse(buf, (size_t)len, &set);
	}
	if (n < 0) {
		lr_cpuset_free(&set);
		return n;
	}
	CPU_ZERO(out);
	for (size_t i = 0; i < set.n; i++) {
		if (set.cpu[i] < CPU_SETSIZE) {
			CPU_SET(set.cpu[i], out);
			ret++;
		}
	}
	lr_cpuset_free(&set);
	return ret ? ret : -ENODEV;
}
