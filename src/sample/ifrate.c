// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An interface snapshot's derived rates: a counter's per-second rate when known (valid or
 * stale), bits/s, drops and FIFO misses per second, % of link speed, wire utilisation and the
 * goodput ceiling at an MTU. Unknown is -1, never 0. Pure; any thread. The views, the live
 * hints and the verdict read the same figures through here.
 */
#include <math.h>
#include <stddef.h>

#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"

#define WIRE_OVERHEAD_BYTES 24	/* preamble 7 + SFD 1 + FCS 4 + inter-frame gap 12 */

double lr_ifrate_per_s(const struct lr_iface_snap *ifs, enum lr_metric m)
{
	if ((unsigned)m >= LR_M__COUNT || !((ifs->valid | ifs->stale) & LR_M_BIT(m)))
		return -1;
	if (!isfinite(ifs->per_s[m]) || ifs->per_s[m] < 0)
		return -1;
	return ifs->per_s[m];
}

double lr_ifrate_bps(const struct lr_iface_snap *ifs, bool tx)
{
	double b = lr_ifrate_per_s(ifs, tx ? LR_M_TX_BYTES : LR_M_RX_BYTES);

	return b < 0 ? -1 : b * 8;
}

double lr_ifrate_line_pct(const struct lr_iface_snap *ifs)
{
	double rx = lr_ifrate_bps(ifs, false), tx = lr_ifrate_bps(ifs, true);
	double m = rx > tx ? rx : tx;

	if (ifs->speed_mbps <= 0 || m < 0)
		return -1;
	return m * 100.0 / ((double)ifs->speed_mbps * 1e6);
}

double lr_ifrate_wire_pct(const struct lr_iface_snap *ifs, bool tx)
{
	double bytes = lr_ifrate_per_s(ifs, tx ? LR_M_TX_BYTES : LR_M_RX_BYTES);
	double pkts = lr_ifrate_per_s(ifs, tx ? LR_M_TX_PACKETS : LR_M_RX_PACKETS);

	if (ifs->speed_mbps <= 0 || bytes < 0 || pkts < 0)
		return -1;
	return (bytes + WIRE_OVERHEAD_BYTES * pkts) * 8 * 100.0 / ((double)ifs->speed_mbps * 1e6);
}

double lr_ifrate_ceiling_bps(int64_t speed_mbps, int64_t mtu, bool udp)
{
	/* per frame on the wire: MTU + 14 Ethernet + 24 overhead = MTU + 38; payload: MTU minus
	 * IP 20 + TCP 20 + timestamps 12 (52), or IP 20 + UDP 8 (28) */
	double hdr = udp ? 28 : 52;

	if (speed_mbps <= 0 || mtu <= (int64_t)hdr)
		return -1;
	return (double)speed_mbps * 1e6 * ((double)mtu - hdr) / ((double)mtu + 38);
}

double lr_ifrate_sum_per_s(const struct lr_iface_snap *ifs, const enum lr_metric *m, size_t n)
{
	double s = -1;

	for (size_t i = 0; i < n; i++) {
		double v = lr_ifrate_per_s(ifs, m[i]);

		if (v >= 0)
			s = (s < 0 ? 0 : s) + v;
	}
	return s;
}

/* stats64 rx+tx dropped, or the driver's drop counters when they say more (the two often
 * count the same packets, so the larger, not the sum). */
double lr_ifrate_drops_per_s(const struct lr_iface_snap *ifs)
{
	static const enum lr_metric m[] = {LR_M_RX_DROPPED, LR_M_TX_DROPPED};
	double s = lr_ifrate_sum_per_s(ifs, m, LR_ARRAY_SIZE(m));
	double nic = lr_ifrate_per_s(ifs, LR_M_NIC_DROP);

	return nic > s ? nic : s;
}

double lr_ifrate_fifo_per_s(const struct lr_iface_snap *ifs)
{
	static const enum lr_metric m[] = {LR_M_RX_FIFO_ERRORS, LR_M_RX_MISSED_ERRORS,
					   LR_M_RX_OVER_ERRORS};
	double s = lr_ifrate_sum_per_s(ifs, m, LR_ARRAY_SIZE(m));
	double nic = lr_ifrate_per_s(ifs, LR_M_NIC_FIFO);

	return nic > s ? nic : s;
}
