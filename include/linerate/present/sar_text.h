/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `linerate --headless` on a terminal: sar -n DEV's shape. Each tick a header with the time
 * and one aligned row per interface (rx/tx bit/s, packets/s, drops/s, FIFO/s, % of the link
 * with the wire's own bytes); at the end an "Average:" block over the run. [present] */
#ifndef LINERATE_SAR_TEXT_H
#define LINERATE_SAR_TEXT_H

#include <stdio.h>

struct lr_runsum;
struct lr_snapshot;

void lr_sar_print_tick(FILE *f, const struct lr_snapshot *s);
void lr_sar_print_average(FILE *f, const struct lr_runsum *rs);

#endif
