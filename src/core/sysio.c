// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The real syscall seam. Paths under /proc and /sys are re-rooted onto --procfs/--sysfs
 * trees, so a captured machine replays exactly as a live one. Collectors keep proc files
 * open and re-read them with pread at offset 0: one syscall per file per tick. [any]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linerate/core/strutil.h"
#include "linerate/core/sysio.h"

int lr_sysio_map_path(const struct lr_sysio *io, const char *path, char *out, size_t len)
{
	const char *root, *rest;
	int n;

	if (!strncmp(path, "/proc", 5) && (path[5] == '/' || !path[5])) {
		root = io->proc_root;
		rest = path + 5;
	} else if (!strncmp(path, "/sys", 4) && (path[4] == '/' || !path[4])) {
		root = io->sys_root;
		rest = path + 4;
	} else {
		return -EINVAL;
	}
	n = snprintf(out, len, "%s%s", root, rest);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int real_open_ro(const struct lr_sysio *io, const char *path)
{
	char full[512];
	int err = lr_sysio_map_path(io, path, full, sizeof(full));
	int fd;

	if (err)
		return err;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static ssize_t real_pread_all(const struct lr_sysio *io, int fd, char *buf, size_t len)
{
	size_t got = 0;

	if (len == 0)
		return -EOVERFLOW;
	for (;;) {
		ssize_t n = pread(fd, buf + got, len - 1 - got, (off_t)got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		/* seq_file and sysfs reads fill the buffer unless the file ended (regular files
		 * of --procfs trees too): a short read is the end, no second pread to see EOF */
		if (got < len - 1)
			break;
		if (got == len - 1) {
			char probe;

			n = pread(fd, &probe, 1, (off_t)got);	/* more than fits? */
			if (n > 0)
				return -EOVERFLOW;
			break;
		}
	}
	buf[got] = '\0';
	return (ssize_t)got;
}

static ssize_t real_read_file(const struct lr_sysio *io, const char *path, char *buf, size_t len)
{
	int fd = real_open_ro(io, path);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = real_pread_all(io, fd, buf, len);
	close(fd);
	return n;
}

/* getdents64 into a stack buffer: opendir() mallocs, and the sampler lists directories on
 * its thread (IRQ maps), which is kept free of allocation. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int real_list_dir(const struct lr_sysio *io, const char *path, lr_dir_cb cb, void *arg)
{
	char full[512];
	char buf[4096] __attribute__((aligned(8)));
	int err = lr_sysio_map_path(io, path, full, sizeof(full));
	int fd, ret = 0;

	if (err)
		return err;
	fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));

		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		for (long off = 0; off < n;) {
			struct linux_dirent64 *de = (struct linux_dirent64 *)(buf + off);

			off += de->d_reclen;
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (cb(de->d_name, arg))
				goto out;
		}
	}
out:
	close(fd);
	return ret;
}

static int real_socket(const struct lr_sysio *io, int domain, int type, int proto)
{
	int fd = socket(domain, type, proto);

	return fd < 0 ? -errno : fd;
}

static int real_ioctl(const struct lr_sysio *io, int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

static int real_close(const struct lr_sysio *io, int fd)
{
	return close(fd) < 0 ? -errno : 0;
}

int lr_sysio_real_init(struct lr_sysio *io, const char *procfs, const char *sysfs)
{
	memset(io, 0, sizeof(*io));
	io->open_ro = real_open_ro;
	io->pread_all = real_pread_all;
	io->read_file = real_read_file;
	io->list_dir = real_list_dir;
	io->socket = real_socket;
	io->ioctl = real_ioctl;
	io->close = real_close;
	if (lr_strlcpy(io->proc_root, procfs ? procfs : "/proc", sizeof(io->proc_root)) >=
		    sizeof(io->proc_root) ||
	    lr_strlcpy(io->sys_root, sysfs ? sysfs : "/sys", sizeof(io->sys_root)) >=
		    sizeof(io->sys_root))
		return -ENAMETOOLONG;
	return 0;
}

ssize_t lr_sysio_pread_grow(const struct lr_sysio *io, int fd, char **buf, size_t *cap,
			    size_t limit)
{
	for (;;) {
		ssize_t n = io->pread_all(io, fd, *buf, *cap);
		char *nb;

		if (n != -EOVERFLOW)
			return n;
		if (*cap >= limit)
			return -EFBIG;
		nb = realloc(*buf, *cap * 2);
		if (!nb)
			return -ENOMEM;
		*buf = nb;
		*cap *= 2;
	}
}

int lr_sysio_read_u64(const struct lr_sysio *io, const char *path, uint64_t *out)
{
	char buf[64];
	ssize_t n = io->read_file(io, path, buf, sizeof(buf));
	const char *p = buf;

	if (n < 0)
		return (int)n;
	if (!lr_scan_u64(&p, buf + n, out))
		return -EINVAL;
	return 0;
}
