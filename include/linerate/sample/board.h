/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The snapshot board: the sampler publishes, the main thread reads, by copy. [any] */
#ifndef LINERATE_BOARD_H
#define LINERATE_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_board;	/* opaque: a mutex, a condition variable and one snapshot */
struct lr_snapshot;

int lr_board_open(struct lr_board **out) LR_MUST_CHECK;
void lr_board_close(struct lr_board *b);	/* NULL-safe */

/* [sampler] Copies snap onto the board and wakes readers. 0 or -ENOMEM. */
int lr_board_publish(struct lr_board *b, const struct lr_snapshot *snap) LR_MUST_CHECK;

/* [main] Copies the board's snapshot into *out when it is newer than *seen (then updates
 * *seen). Returns 1 when copied, 0 when nothing new, -ENOMEM. *out keeps its buffers. */
int lr_board_read(struct lr_board *b, struct lr_snapshot *out, uint64_t *seen) LR_MUST_CHECK;

/* [main] Waits until a snapshot newer than seen exists or timeout_ns passes. true if newer. */
bool lr_board_wait(struct lr_board *b, uint64_t seen, uint64_t timeout_ns);

#endif
