// SPDX-License-Identifier: GPL-2.0-or-later
/* Fixture-backed sysio for unit tests; see fake_sysio.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fakes/fake_sysio.h"

#define FAKE_FD_BASE 1000

static int fake_socket(const struct lr_sysio *io, int domain, int type, int proto)
{
	struct fake_sysio *f = io->priv;

	return FAKE_FD_BASE + f->sockets_open++;
}

static int fake_ioctl(const struct lr_sysio *io, int fd, unsigned long req, void *arg)
{
	struct fake_sysio *f = io->priv;

	f->ioctl_calls++;
	if (fd < FAKE_FD_BASE)
		return -EBADF;
	return f->ioctl_cb ? f->ioctl_cb(f->ioctl_arg, req, arg) : -EOPNOTSUPP;
}

static int fake_close(const struct lr_sysio *io, int fd)
{
	struct fake_sysio *f = io->priv;
	int (*real_close)(const struct lr_sysio *, int);
	struct lr_sysio real;

	if (fd >= FAKE_FD_BASE) {
		f->sockets_open--;
		return 0;
	}
	if (lr_sysio_real_init(&real, NULL, NULL))
		return -EINVAL;
	real_close = real.close;
	return real_close(&real, fd);
}

void fake_sysio_init(struct fake_sysio *f, const char *root)
{
	char proc[256], sys[256];

	memset(f, 0, sizeof(*f));
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	if (lr_sysio_real_init(&f->io, proc, sys))
		return;
	f->io.socket = fake_socket;
	f->io.ioctl = fake_ioctl;
	f->io.close = fake_close;
	f->io.priv = f;
}
