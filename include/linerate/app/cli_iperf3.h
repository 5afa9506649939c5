/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rest of iperf3's options (issue 10), parsed beside cli.c so that its table stays short:
 * -n -k -N -S --dscp -4 -6 -Z -L and the long-only ones. [main] */
#ifndef LINERATE_CLI_IPERF3_H
#define LINERATE_CLI_IPERF3_H

#include <getopt.h>
#include <stddef.h>

struct lr_config;
struct lr_traffic_config;

#define LR_CLI_IPERF3_SHORT "n:k:NS:46ZL:mX:d::F:"	/* appended to cli.c's short options */
#define LR_CLI_IPERF3_BASE  1024		/* long-only codes start here */

/* iperf3's long options, NULL-terminated; cli.c appends them to its own. */
extern const struct option lr_cli_iperf3_opts[];
/* Handles option c (a short letter of LR_CLI_IPERF3_SHORT or a code from the table): 0 done,
 * -EINVAL with the reason in err, 1 when c is not one of these. *traffic_opt is set to the
 * option's name when it needs -c. */
int lr_cli_iperf3_opt(int c, const char *arg, struct lr_config *cfg, const char **traffic_opt,
		      char *err, size_t len);
/* iperf3's HOST%DEV (-c, -B): DEV is --bind-dev's, except after an IPv6 link-local literal,
 * where it is the address's scope and stays. Returns arg, or buf holding HOST; NULL when DEV
 * is empty or longer than an interface name. */
const char *lr_cli_iperf3_host_dev(const char *arg, char *buf, size_t len,
				   struct lr_traffic_config *t);
/* -b RATE[/BURST] into t (BURST 1 to 1000, iperf3's). 0 or -EINVAL. */
int lr_cli_iperf3_bitrate(const char *arg, struct lr_traffic_config *t);
/* Checks that need every option: 0 or -EINVAL with the reason. */
int lr_cli_iperf3_validate(struct lr_config *cfg, char *err, size_t len);

#endif
