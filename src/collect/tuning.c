// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tuning state: the network sysctls that decide whether a link can be filled (socket buffer
 * limits, backlog, TCP options, congestion control). Read through the sysio seam from
 * /proc/sys, so --procfs trees and fixtures replay them. Called on the sampler thread at start
 * and when asked to refresh; owns nothing.
 */
#include <errno.h>
#include <string.h>

#include "linerate/core/strutil.h"
#include "linerate/collect/tuning.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int lr_tuning_parse_ints(const char *buf, size_t len, int64_t *out, size_t n)
{
	const char *p = buf, *end = buf + len;
	size_t k = 0;

	for (;;) {
		bool neg = false;
		uint64_t v;

		while (p < end && is_space(*p))
			p++;
		if (p == end)
			break;
		if (k == n)
			return -EINVAL;
		if (*p == '-') {
			neg = true;
			p++;
		}
		if (p == end || *p < '0' || *p > '9' || !lr_scan_u64(&p, end, &v))
			return -EINVAL;
		if (p < end && !is_space(*p))
			return -EINVAL;
		if (v > (uint64_t)INT64_MAX)
			return -EINVAL;
		out[k++] = neg ? -(int64_t)v : (int64_t)v;
	}
	return (int)k;
}

int lr_tuning_parse_word(const char *buf, size_t len, char *out, size_t size)
{
	const char *p = buf, *end = buf + len, *w;
	size_t wl;

	while (p < end && is_space(*p))
		p++;
	w = p;
	while (p < end && !is_space(*p) && *p)
		p++;
	wl = (size_t)(p - w);
	while (p < end && is_space(*p))
		p++;
	if (wl == 0 || p != end)
		return -EINVAL;
	if (size) {
		size_t c = wl < size - 1 ? wl : size - 1;

		memcpy(out, w, c);
		out[c] = '\0';
	}
	return 0;
}

/* Reads path into buf; length or -errno. */
static ssize_t slurp(const struct lr_sysio *io, const char *path, char *buf, size_t len)
{
	return io->read_file(io, path, buf, len);
}

static bool read_ints(const struct lr_sysio *io, const char *path, int64_t *out, size_t n)
{
	char buf[128];
	int64_t tmp[3];
	ssize_t len = slurp(io, path, buf, sizeof(buf));

	if (len < 0 || n > LR_ARRAY_SIZE(tmp))
		return false;
	if (lr_tuning_parse_ints(buf, (size_t)len, tmp, n) != (int)n)
		return false;
	memcpy(out, tmp, n * sizeof(*out));
	return true;
}

int lr_tuning_read(const struct lr_sysio *io, struct lr_tuning_snap *out)
{
	static const struct {
		const char *path;
		size_t off;
		size_t n;
	} ints[] = {
		{"/proc/sys/net/core/rmem_max", offsetof(struct lr_tuning_snap, rmem_max), 1},
		{"/proc/sys/net/core/wmem_max", offsetof(struct lr_tuning_snap, wmem_max), 1},
		{"/proc/sys/net/core/netdev_max_backlog",
		 offsetof(struct lr_tuning_snap, netdev_max_backlog), 1},
		{"/proc/sys/net/ipv4/tcp_rmem", offsetof(struct lr_tuning_snap, tcp_rmem), 3},
		{"/proc/sys/net/ipv4/tcp_wmem", offsetof(struct lr_tuning_snap, tcp_wmem), 3},
		{"/proc/sys/net/ipv4/tcp_window_scaling",
		 offsetof(struct lr_tuning_snap, tcp_window_scaling), 1},
		{"/proc/sys/net/ipv4/tcp_timestamps",
		 offsetof(struct lr_tuning_snap, tcp_timestamps), 1},
		{"/proc/sys/net/ipv4/tcp_sack", offsetof(struct lr_tuning_snap, tcp_sack), 1},
	};
	char buf[128];
	ssize_t len;
	int known = 0;
	size_t i, j;

	for (i = 0; i < LR_ARRAY_SIZE(ints); i++) {
		int64_t *dst = (int64_t *)(void *)((char *)out + ints[i].off);

		if (read_ints(io, ints[i].path, dst, ints[i].n)) {
			known++;
			continue;
		}
		for (j = 0; j < ints[i].n; j++)
			dst[j] = -1;
	}
	out->tcp_congestion[0] = '\0';
	len = slurp(io, "/proc/sys/net/ipv4/tcp_congestion_control", buf, sizeof(buf));
	if (len >= 0 && !lr_tuning_parse_word(buf, (size_t)len, out->tcp_congestion,
					      sizeof(out->tcp_congestion)))
		known++;
	else
		out->tcp_congestion[0] = '\0';
	return known;
}
