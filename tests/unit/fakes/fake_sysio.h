/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A sysio for unit tests: files come from a fixture tree (<root>/proc, <root>/sys) through the
 * real path mapping; socket() hands out fake fds and ioctl() calls a scripted callback
 * (ethtool's cmd_expect idea). Tests run from the repository top. */
#ifndef LINERATE_FAKE_SYSIO_H
#define LINERATE_FAKE_SYSIO_H

#include "linerate/core/sysio.h"

#define FIXTURES "tests/fixtures"
#define SHARED_FIXTURES "../shared/fixtures"

typedef int (*fake_ioctl_fn)(void *arg, unsigned long req, void *data);	/* 0 / -errno */

struct fake_sysio {
	struct lr_sysio io;
	fake_ioctl_fn ioctl_cb;	/* NULL: every ioctl fails with -EOPNOTSUPP */
	void *ioctl_arg;
	int ioctl_calls;
	int sockets_open;	/* fake fds handed out and not closed yet */
};

/* root: a directory holding proc/ and/or sys/ ("tests/fixtures/sysstat-root1"). */
void fake_sysio_init(struct fake_sysio *f, const char *root);

#endif
