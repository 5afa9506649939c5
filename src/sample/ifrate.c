// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An interface snapshot's derived rates: a counter's per-second rate when known (valid or
 * stale), bits/s, drops and FIFO misses per second, % of link speed, wire utilisation and the
 * goodput ceiling at an MTU. Unknown is -1, never 0. Pure; any thread. The views, the live
 * hints, the CSV, Prometheus, the report and the verdict read the same figures through here,
 * and the one rule for whether a link's speed is a line rate at all (a veth's 10000 Mbit/s is
 * not: it carries whatever the CPUs move).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"

#define WIRE_OVERHEAD_BYTES 24	/* preamble 7 + SFD 1 + FCS 4 + inter-frame gap 12 */

struct kind_why {
	const char *key, *why;
};

/* netlink link kinds (IFLA_INFO_KIND) whose speed, when they report one, is set by software */
static const struct kind_why nominal_kinds[] = {
	{"veth", "veth"},
	{"tun", "tun/tap"},
	{"tap", "tun/tap"},
	{"bridge", "bridge"},
	{"dummy", "dummy"},
	{"bond", "bond (its members' speeds added)"},
	{"team", "team (its members' speeds added)"},
	{"macvlan", "macvlan"},
	{"macvtap", "macvtap"},
	{"ipvlan", "ipvlan"},
	{"ipvtap", "ipvtap"},
	{"vxlan", "vxlan"},
	{"geneve", "geneve"},
	{"gre", "tunnel"},
	{"gretap", "tunnel"},
	{"ip6gre", "tunnel"},
	{"ip6gretap", "tunnel"},
	{"ipip", "tunnel"},
	{"ip6tnl", "tunnel"},
	{"sit", "tunnel"},
	{"vti", "tunnel"},
	{"vti6", "tunnel"},
	{"erspan", "tunnel"},
	{"bareudp", "tunnel"},
	{"wireguard", "wireguard"},
	{"vrf", "vrf"},
	{"ifb", "ifb"},
	{"nlmon", "nlmon"},
	{"netkit", "netkit"},
	{"vcan", "vcan"},
	{"vxcan", "vxcan"},
	{"virt_wifi", "virt_wifi"},
	{"xfrm", "xfrm"},
	{"batadv", "batadv"},
};

/* drivers (ethtool -i) whose speed is advertised by a host or made up by the driver */
static const struct kind_why nominal_drivers[] = {
	{"veth", "veth"},
	{"tun", "tun/tap"},
	{"bridge", "bridge"},
	{"dummy", "dummy"},
	{"bonding", "bond (its members' speeds added)"},
	{"team", "team (its members' speeds added)"},
	{"virtio_net", "paravirtual NIC (virtio_net)"},
	{"vmxnet3", "paravirtual NIC (vmxnet3)"},
	{"hv_netvsc", "paravirtual NIC (hv_netvsc)"},
	{"netvsc", "paravirtual NIC (netvsc)"},
	{"vif", "paravirtual NIC (xen netfront)"},
	{"xen_netfront", "paravirtual NIC (xen)"},
};

const char *lr_ifrate_nominal_why(const char *name, const char *kind, const char *driver)
{
	if (name && !strcmp(name, "lo"))
		return "loopback";
	for (size_t i = 0; kind && kind[0] && i < LR_ARRAY_SIZE(nominal_kinds); i++)
		if (!strcmp(kind, nominal_kinds[i].key))
			return nominal_kinds[i].why;
	for (size_t i = 0; driver && driver[0] && i < LR_ARRAY_SIZE(nominal_drivers); i++)
		if (!strcmp(driver, nominal_drivers[i].key))
			return nominal_drivers[i].why;
	return NULL;
}

int64_t lr_ifrate_line_mbps(const struct lr_iface_snap *ifs)
{
	if (ifs->speed_mbps <= 0 || lr_ifrate_nominal_why(ifs->name, ifs->kind, ifs->driver))
		return -1;
	return ifs->speed_mbps;
}

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
	int64_t line = lr_ifrate_line_mbps(ifs);

	if (line <= 0 || m < 0)
		return -1;
	return m * 100.0 / ((double)line * 1e6);
}

double lr_ifrate_wire_pct(const struct lr_iface_snap *ifs, bool tx)
{
	double bytes = lr_ifrate_per_s(ifs, tx ? LR_M_TX_BYTES : LR_M_RX_BYTES);
	double pkts = lr_ifrate_per_s(ifs, tx ? LR_M_TX_PACKETS : LR_M_RX_PACKETS);
	int64_t line = lr_ifrate_line_mbps(ifs);

	if (line <= 0 || bytes < 0 || pkts < 0)
		return -1;
	return (bytes + WIRE_OVERHEAD_BYTES * pkts) * 8 * 100.0 / ((double)line * 1e6);
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
