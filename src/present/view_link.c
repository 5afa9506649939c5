// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The detail view's two header lines: the link (name, speed/duplex, MTU, driver and firmware,
 * rings current/max, offloads, state) and the tuning sysctls with a warning where a setting
 * is known to cap throughput (window scaling off, a small rx ring while FIFO misses rise,
 * rmem_max too small for the UDP rate in flight). Main thread; pure drawing.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/collect/ethtool.h"
#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"
#include "linerate/present/view_numa.h"

/* Draws s and two blanks after it when it fits whole; returns the new x. */
static int field(struct lr_frame *f, int x, int y, int end, enum lr_role role, const char *s)
{
	if (x + lr_utf8_width(s) > end)
		return x;
	x += lr_frame_text(f, x, y, end - x, role, s);
	return x + 2;
}

/* Sysctl sizes: "208K", "6M", "4096", "-". */
static void fmt_size(char *buf, size_t len, int64_t v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else if (v >= 1 << 20 && v % (1 << 20) == 0)
		snprintf(buf, len, "%lldM", (long long)(v >> 20));
	else if (v >= 1 << 20)
		snprintf(buf, len, "%.1fM", (double)v / (1 << 20));
	else if (v >= 1024)
		snprintf(buf, len, "%lldK", (long long)(v / 1024));
	else
		snprintf(buf, len, "%lld", (long long)v);
}

static void first_word(char *dst, const char *src, size_t len)
{
	size_t i = 0;

	while (src[i] && src[i] != ' ' && src[i] != ',' && i + 1 < len) {
		dst[i] = src[i];
		i++;
	}
	dst[i] = '\0';
}

static bool fifo_rising(const struct lr_iface_snap *ifs)
{
	return lr_ifrate_per_s(ifs, LR_M_RX_MISSED_ERRORS) > 0 ||
	       lr_ifrate_per_s(ifs, LR_M_RX_FIFO_ERRORS) > 0 ||
	       lr_ifrate_per_s(ifs, LR_M_NIC_FIFO) > 0;
}

void lr_view_link_line(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		       const struct lr_iface_snap *ifs)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} feats[] = {
		{LR_FEAT_SG, "sg"},   {LR_FEAT_TSO, "tso"}, {LR_FEAT_GSO, "gso"},
		{LR_FEAT_GRO, "gro"}, {LR_FEAT_LRO, "lro"}, {LR_FEAT_RX_CSUM, "rxcsum"},
	};
	char buf[96], speed[16];
	int x = r.x + 1, y = r.y, end = r.x + r.w - 1;	/* a blank last column */
	size_t k = 0;
	bool remote;

	if (ctx->peer_detail) {	/* the peer's interface: its host first */
		snprintf(buf, sizeof(buf), "on %s",
			 ctx->peer_host && ctx->peer_host[0] ? ctx->peer_host : "the peer");
		x = field(f, x, y, end, LR_ROLE_WARN, buf);
	}
	x = field(f, x, y, end, LR_ROLE_TITLE, ifs->name);
	lr_view_fmt_speed(speed, sizeof(speed), ifs->speed_mbps);
	if (ifs->speed_mbps <= 0)
		snprintf(buf, sizeof(buf), "speed -");
	else if (lr_ifrate_line_mbps(ifs) < 0)	/* veth, bridge, virtio_net...: not a line rate */
		snprintf(buf, sizeof(buf), "%s nominal", speed);
	else
		snprintf(buf, sizeof(buf), "%s %s", speed,
			 ifs->duplex == 1 ? "full" : ifs->duplex == 0 ? "half" : "");
	x = field(f, x, y, end, ifs->duplex == 0 ? LR_ROLE_WARN : LR_ROLE_VALUE, buf);
	if (ifs->mtu >= 0)
		snprintf(buf, sizeof(buf), "MTU %lld", (long long)ifs->mtu);
	else
		snprintf(buf, sizeof(buf), "MTU -");
	x = field(f, x, y, end, LR_ROLE_VALUE, buf);
	if (ifs->operstate != 6 && ifs->operstate != 0)
		x = field(f, x, y, end, LR_ROLE_WARN, ifs->operstate == 2 ? "DOWN" : "not up");
	if (lr_view_numa_link_text(ctx->snap, ifs, buf, sizeof(buf), &remote))	/* NUMA only */
		x = field(f, x, y, end, remote ? LR_ROLE_WARN : LR_ROLE_LABEL, buf);
	if (ifs->driver[0]) {
		char fw[16];

		/* firmware strings run long ("6.01 0x800034a4 1.1747.0"): the first word */
		first_word(fw, ifs->fw_version, sizeof(fw));
		snprintf(buf, sizeof(buf), "%s %s%s%s", ifs->driver, ifs->driver_version,
			 fw[0] ? " fw " : "", fw);
		x = field(f, x, y, end, LR_ROLE_LABEL, buf);
	} else if (ifs->kind[0]) {
		x = field(f, x, y, end, LR_ROLE_LABEL, ifs->kind);
	}
	if (ifs->ring_rx >= 0) {
		bool low = ifs->ring_rx_max > ifs->ring_rx && fifo_rising(ifs);

		snprintf(buf, sizeof(buf), "ring rx %lld/%lld", (long long)ifs->ring_rx,
			 (long long)ifs->ring_rx_max);
		x = field(f, x, y, end, low ? LR_ROLE_ALERT : LR_ROLE_LABEL, buf);
	}
	buf[0] = '\0';
	for (size_t i = 0; i < LR_ARRAY_SIZE(feats); i++)
		if ((ifs->features_known & feats[i].bit) && (ifs->features & feats[i].bit))
			k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", k ? " " : "",
					      feats[i].name);
	if (buf[0])
		field(f, x, y, end, LR_ROLE_LABEL, buf);
}

void lr_view_tuning_line(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
			 const struct lr_iface_snap *ifs)
{
	const struct lr_tuning_snap *t = &ctx->snap->tuning;
	const struct lr_stack_snap *st = &ctx->snap->stack;
	char buf[96], a[16], b[16];
	int x = r.x + 1, y = r.y, end = r.x + r.w - 1;	/* a blank last column */
	double rx_bytes = lr_ifrate_per_s(ifs, LR_M_RX_BYTES);

	fmt_size(a, sizeof(a), t->rmem_max);
	snprintf(buf, sizeof(buf), "rmem_max %s", a);
	/* UDP drops for lack of buffer while rmem_max holds under 10 ms of the rx rate */
	x = field(f, x, y, end,
		  (st->valid & LR_STACKV_UDP_RCVBUF) && st->udp_rcvbuf_errors_per_s > 0 &&
				  t->rmem_max >= 0 && rx_bytes > 0 &&
				  (double)t->rmem_max < rx_bytes * 0.01
			  ? LR_ROLE_WARN
			  : LR_ROLE_LABEL,
		  buf);
	fmt_size(a, sizeof(a), t->tcp_rmem[2]);
	fmt_size(b, sizeof(b), t->tcp_wmem[2]);
	snprintf(buf, sizeof(buf), "tcp_rmem %s wmem %s", a, b);
	x = field(f, x, y, end, LR_ROLE_LABEL, buf);
	if (t->tcp_window_scaling == 0)
		x = field(f, x, y, end, LR_ROLE_ALERT, "window scaling OFF: 64K cap");
	/* the TCP options that are on; off ones spelled out */
	snprintf(buf, sizeof(buf), "%s%s%s%s%s",
		 t->tcp_window_scaling > 0 ? "wscale " : "",
		 t->tcp_timestamps > 0 ? "ts " : t->tcp_timestamps == 0 ? "ts-off " : "",
		 t->tcp_sack > 0 ? "sack" : t->tcp_sack == 0 ? "sack-off" : "",
		 t->tcp_window_scaling < 0 && t->tcp_timestamps < 0 && t->tcp_sack < 0 ? "tcp -" : "",
		 "");
	x = field(f, x, y, end, LR_ROLE_LABEL, buf);
	x = field(f, x, y, end, LR_ROLE_LABEL, t->tcp_congestion[0] ? t->tcp_congestion : "cc -");
	fmt_size(a, sizeof(a), t->netdev_max_backlog);
	snprintf(buf, sizeof(buf), "backlog %s", a);
	field(f, x, y, end, LR_ROLE_LABEL, buf);
}
