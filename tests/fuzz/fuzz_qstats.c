// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: arbitrary bytes as a netlink datagram of netdev qstats-get replies, cut into
 * messages as the collector's receive loop does, each handed to lr_qstats_parse. A reply that
 * parses must describe a real queue (ifindex > 0, rx or tx) with only known fields marked valid.
 */
#include <linux/netlink.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/qstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* aligned copy: the kernel's datagrams are 4-byte aligned, libFuzzer's bytes are not */
	uint32_t *buf = malloc(size + 4);
	int len = size > 65536 ? 65536 : (int)size;	/* int: NLMSG_NEXT may step past the end */
	struct lr_qstat q;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		if (lr_qstats_parse(h, &q) == 0 &&
		    (q.ifindex <= 0 || (q.dir != LR_QDIR_RX && q.dir != LR_QDIR_TX) ||
		     (q.valid & ~((1u << LR_QS__COUNT) - 1))))
			abort();
	}
	free(buf);
	return 0;
}
