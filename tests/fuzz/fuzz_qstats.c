// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: arbitrary bytes as a recorded run of netdev qstats-get replies, through
 * lr_qstats_parse_all (framing) and lr_qstats_parse (attributes). A reply that
 * parses must describe a real queue (ifindex > 0, rx or tx) with only known fields marked valid.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/qstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_qstat q[16];
	size_t n;

	lr_qstats_parse_all(data, size, q, 16, &n);
	if (n > 16)
		abort();
	for (size_t i = 0; i < n; i++)
		if (q[i].ifindex <= 0 || (q[i].dir != LR_QDIR_RX && q[i].dir != LR_QDIR_TX) ||
		    (q[i].valid & ~((1u << LR_QS__COUNT) - 1)))
			abort();
	return 0;
}
