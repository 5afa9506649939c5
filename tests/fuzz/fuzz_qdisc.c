// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: arbitrary bytes as a recorded RTM_GETQDISC dump, through lr_qdisc_parse_all
 * (framing) and lr_qdisc_parse (attributes), the path every live dump takes. A reply that
 * parses names a real interface, a kind that is a terminated string, and only known fields.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/qdisc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_qdisc_stats q[16];
	size_t n;

	lr_qdisc_parse_all(data, size, q, 16, &n);
	for (size_t i = 0; i < n && i < 16; i++) {
		if (q[i].bad) {
			if (q[i].ifindex < 0 || q[i].valid || q[i].kind[0])
				abort();
			continue;
		}
		if (q[i].ifindex <= 0 || !memchr(q[i].kind, '\0', sizeof(q[i].kind)) ||
		    !q[i].kind[0] || (q[i].valid & ~((1u << LR_QD__COUNT) - 1)))
			abort();
	}
	return 0;
}
