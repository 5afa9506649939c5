/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The syscall seam: every file read, socket and ioctl a collector makes goes through a
 * struct lr_sysio, so unit tests can serve /proc and /sys from a fixture tree and script
 * ioctl replies (tests/unit/fakes/fake_sysio.c). [any] */
#ifndef LINERATE_SYSIO_H
#define LINERATE_SYSIO_H

#include <sys/types.h>

#include "linerate/core/common.h"

/* Called once per directory entry ("." and ".." skipped); non-zero stops the walk. */
typedef int (*lr_dir_cb)(const char *name, void *arg);

struct lr_sysio {	/* every call returns -errno on failure */
	/* Paths are the kernel's absolute paths ("/proc/net/dev", "/sys/class/net/eth0/mtu");
	 * the implementation maps them onto proc_root/sys_root. */
	int (*open_ro)(const struct lr_sysio *io, const char *path);	/* fd */
	/* Reads the whole file from offset 0 into buf, NUL-terminated. Returns the length, or
	 * -EOVERFLOW when len - 1 bytes were not enough (grow the buffer and retry). */
	ssize_t (*pread_all)(const struct lr_sysio *io, int fd, char *buf, size_t len);
	ssize_t (*read_file)(const struct lr_sysio *io, const char *path, char *buf, size_t len);
	int (*list_dir)(const struct lr_sysio *io, const char *path, lr_dir_cb cb, void *arg);
	int (*socket)(const struct lr_sysio *io, int domain, int type, int proto);
	int (*ioctl)(const struct lr_sysio *io, int fd, unsigned long req, void *arg);
	int (*close)(const struct lr_sysio *io, int fd);
	char proc_root[256];	/* "/proc" live, or a captured tree's proc/ (--procfs) */
	char sys_root[256];	/* "/sys" live, or --sysfs */
	void *priv;		/* the fake's script */
};

/* The real seam. procfs/sysfs NULL = live /proc and /sys. -ENAMETOOLONG on long roots. */
int lr_sysio_real_init(struct lr_sysio *io, const char *procfs, const char *sysfs) LR_MUST_CHECK;

/* Maps a kernel path onto the roots into out. -ENAMETOOLONG or -EINVAL (not /proc or /sys). */
int lr_sysio_map_path(const struct lr_sysio *io, const char *path, char *out, size_t len);

/* pread_all into *buf, doubling *cap (realloc) while the file does not fit, up to limit
 * bytes. For readers that keep a proc file open: it allocates only when the file outgrew
 * the buffer. Returns the length, -EFBIG past limit, -ENOMEM, or pread_all's -errno. */
ssize_t lr_sysio_pread_grow(const struct lr_sysio *io, int fd, char **buf, size_t *cap,
			    size_t limit);

/* Reads a small sysfs/procfs value ("1500\n") as an unsigned number. 0 or -errno. */
int lr_sysio_read_u64(const struct lr_sysio *io, const char *path, uint64_t *out) LR_MUST_CHECK;

#endif
