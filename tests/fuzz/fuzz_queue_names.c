// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: arbitrary bytes as an `ethtool -S` counter name (a driver's, or a line of a
 * saved dump) into the per-queue name rules. Checks what the callers rely on: a queue index
 * within range, a direction of the enum, a metric that is a piece of the name.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/queue_names.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lr_queue_names *qn;
	struct lr_queue_name q;
	char name[256];

	if (!qn && lr_queue_names_open(&qn))
		abort();
	if (size >= sizeof(name))
		size = sizeof(name) - 1;
	memcpy(name, data, size);
	name[size] = '\0';
	if (lr_queue_name_parse(qn, name, &q)) {
		if (q.queue > 65535 || q.dir > LR_QDIR_TX || !strstr(name, q.metric))
			abort();
	}
	return 0;
}
