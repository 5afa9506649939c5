/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --rr's options, parsed beside cli.c so that its table stays short: -l REQ[,RESP] and the
 * checks that need every option seen. [main] */
#ifndef LINERATE_CLI_RR_H
#define LINERATE_CLI_RR_H

#include <stddef.h>

struct lr_config;
struct lr_traffic_config;

/* -l REQ,RESP into t (both 1 to 2^32-1, length cleared). 0, or -1 when arg is not two sizes. */
int lr_cli_rr_sizes(const char *arg, struct lr_traffic_config *t);
/* --rr against the rest of the command line, and its sizes settled (netperf's 1,1 by default;
 * the data streams' iperf3 length the larger). 0, or -EINVAL with the reason in err. */
int lr_cli_rr_valid(struct lr_config *cfg, char *err, size_t len);

#endif
