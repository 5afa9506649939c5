// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which queue an IRQ serves, read from its /proc/interrupts action name: the number the
 * driver put after the interface name ("eth2-TxRx-3", "eth2-rx-3", "i40e-eth2-TxRx-3"), the
 * virtqueue pair index of virtio-net ("virtio2-input.3", "virtio2-output.3") or mlx5's
 * completion vector ("mlx5_comp3@pci:0000:..."; channel N uses comp vector N). By rules of
 * naming, not per-driver tables; a name that carries no such number is queue -1, never 0.
 */
#include <string.h>

#include "linerate/collect/irqmap.h"

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == ',';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Contains "rx"/"tx" (any case) within [p, p+n)? */
static bool has_pair(const char *p, size_t n, char a)
{
	for (size_t i = 0; i + 1 < n; i++)
		if ((p[i] | 0x20) == a && (p[i + 1] | 0x20) == 'x')
			return true;
	return false;
}

/* The trailing decimal number of [p, p+n) when a separator or letter precedes it; -1 none. */
static int trailing_number(const char *p, size_t n)
{
	size_t i = n;
	long v = 0, mul = 1;

	while (i && is_digit(p[i - 1]))
		i--;
	if (i == n || i == 0 || n - i > 5) /* no digits, all digits, or beyond 99999 */
		return -1;
	for (size_t k = n; k > i; k--, mul *= 10)
		v += (p[k - 1] - '0') * mul;
	return (int)v;
}

/* "<ifname>-...-<N>" within token t: the part after the interface name. */
static int iface_queue(const char *t, size_t tl, const char *ifname, size_t il,
		       enum lr_irq_dir *dir)
{
	for (size_t i = 0; il && i + il <= tl; i++) {
		const char *rest;
		size_t rl;
		bool rx, tx;

		if (memcmp(t + i, ifname, il) || (i && t[i - 1] != '-'))
			continue;
		if (i + il < tl && t[i + il] != '-')
			continue;
		rest = t + i + il;
		rl = tl - i - il;
		rx = has_pair(rest, rl, 'r');
		tx = has_pair(rest, rl, 't');
		*dir = rx == tx ? LR_IRQ_DIR_BOTH : rx ? LR_IRQ_DIR_RX : LR_IRQ_DIR_TX;
		return trailing_number(rest, rl);
	}
	return -2; /* not this interface's token */
}

/* "<virtio>-input.N" / "<virtio>-output.N". */
static int virtio_queue(const char *t, size_t tl, const char *vio, size_t vl, enum lr_irq_dir *dir)
{
	static const struct {
		const char *s;
		enum lr_irq_dir dir;
	} kinds[] = {{"-input.", LR_IRQ_DIR_RX}, {"-output.", LR_IRQ_DIR_TX}};

	if (!vl || tl <= vl || memcmp(t, vio, vl))
		return -2;
	for (size_t k = 0; k < 2; k++) {
		size_t kl = strlen(kinds[k].s);

		if (tl - vl > kl && !memcmp(t + vl, kinds[k].s, kl)) {
			*dir = kinds[k].dir;
			return trailing_number(t + vl + kl - 1, tl - vl - kl + 1);
		}
	}
	return -2;
}

/* "<drv>_comp<N>@..." (mlx5: one completion vector per channel). */
static int comp_queue(const char *t, size_t tl)
{
	const char *at = memchr(t, '@', tl);
	size_t n = at ? (size_t)(at - t) : tl, i = n;

	while (i && is_digit(t[i - 1]))
		i--;
	if (i == n || i < 5 || memcmp(t + i - 5, "_comp", 5))
		return -2;
	return trailing_number(t, n);
}

int lr_irq_desc_queue(const char *desc, size_t len, const char *ifname, const char *virtio,
		      enum lr_irq_dir *dir)
{
	const char *p = desc, *end = desc + len;
	size_t il = ifname ? strlen(ifname) : 0, vl = virtio ? strlen(virtio) : 0;
	enum lr_irq_dir d = LR_IRQ_DIR_BOTH;
	int found = -1;

	while (p < end) {
		const char *t;
		int q;

		while (p < end && is_sep(*p))
			p++;
		t = p;
		while (p < end && !is_sep(*p))
			p++;
		if (p == t)
			break;
		q = iface_queue(t, (size_t)(p - t), ifname, il, &d);
		if (q == -2)
			q = virtio_queue(t, (size_t)(p - t), virtio, vl, &d);
		if (q == -2) {
			d = LR_IRQ_DIR_BOTH;
			q = comp_queue(t, (size_t)(p - t));
		}
		if (q >= 0) {
			found = q;
			break;
		}
	}
	if (dir)
		*dir = found >= 0 ? d : LR_IRQ_DIR_BOTH;
	return found;
}
