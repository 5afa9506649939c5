/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line (docs/design.md §1) -> struct lr_config. Pure: no printing, no exit;
 * main.c prints the message and exits 2. [main] */
#ifndef LINERATE_CLI_H
#define LINERATE_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "linerate/core/common.h"

struct lr_config;

void lr_cli_defaults(struct lr_config *cfg);
/* Parses argv into cfg (defaults first). tty: stdin and stdout are terminals (main.c asks);
 * without one -c, -s and plain sampling take their headless form, as with -J, --json-stream
 * or --logfile, and --demo is refused. 0, or -EINVAL with a one-line message in err that
 * names the option and the value ("-i: invalid interval 'x' (0.01 to 60 seconds)"). */
int lr_cli_parse(int argc, char **argv, bool tty, struct lr_config *cfg, char *err,
		 size_t errlen) LR_MUST_CHECK;
const char *lr_cli_usage(void);

#endif
