/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/net/dev: the 16 counter columns of every interface. Pure parser + reader. [sampler] */
#ifndef LINERATE_PROCNET_H
#define LINERATE_PROCNET_H

#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

enum lr_procnet_col {	/* the file's column order */
	LR_PN_RX_BYTES,
	LR_PN_RX_PACKETS,
	LR_PN_RX_ERRS,
	LR_PN_RX_DROP,		/* kernel prints rx_dropped + rx_missed_errors */
	LR_PN_RX_FIFO,
	LR_PN_RX_FRAME,		/* length + over + crc + frame errors */
	LR_PN_RX_COMPRESSED,
	LR_PN_RX_MULTICAST,
	LR_PN_TX_BYTES,
	LR_PN_TX_PACKETS,
	LR_PN_TX_ERRS,
	LR_PN_TX_DROP,
	LR_PN_TX_FIFO,
	LR_PN_TX_COLLS,
	LR_PN_TX_CARRIER,	/* carrier + aborted + window + heartbeat errors */
	LR_PN_TX_COMPRESSED,
	LR_PN__COUNT
};

struct lr_procnet_row {
	char name[LR_IFNAMSIZ];
	uint64_t v[LR_PN__COUNT];
};

/* Called for each interface line; non-zero stops the parse and is returned. */
typedef int (*lr_procnet_cb)(const struct lr_procnet_row *row, void *arg);

/* Parses the text of /proc/net/dev (NUL-terminated, len bytes). Split at ':' so old kernels'
 * "eth0:123" (no space) parse. Lines that are not "name: 16 numbers" are skipped and counted
 * in *bad (may be NULL). Returns the number of rows, or the callback's non-zero value. */
int lr_procnet_parse(const char *buf, size_t len, lr_procnet_cb cb, void *arg, unsigned *bad);

#endif
