// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The peer's part of a headless report (docs/peer-stats.md): its counters over the test, and
 * the sentence a verdict over both ends needs, naming where on the peer packets were dropped
 * (its NIC's drop/FIFO counters, its softirq backlog is in the CPU CSV, its sockets' UDP
 * errors). Text after linerate's own verdict, or a "linerate_peer" object in -J.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "linerate/app/peer.h"
#include "linerate/core/strutil.h"

/* The counters that mean a packet was lost on that host, with what each says. */
static const struct {
	enum lr_peer_ctr c;
	const char *what;
} iface_drops[] = {
	{LR_PC_RX_DROPPED, "rx_dropped"},
	{LR_PC_RX_MISSED, "rx_missed (NIC FIFO full)"},
	{LR_PC_RX_FIFO, "rx_fifo"},
	{LR_PC_RX_OVER, "rx_over"},
	{LR_PC_NIC_FIFO, "NIC fifo counters"},
	{LR_PC_NIC_DROP, "NIC drop counters"},
	{LR_PC_RX_ERRORS, "rx_errors"},
	{LR_PC_TX_DROPPED, "tx_dropped"},
};
static const struct {
	enum lr_peer_stack s;
	const char *what;
} stack_drops[] = {
	{LR_PS_UDP_RCVBUF_ERRORS, "UDP RcvbufErrors (socket receive buffer full)"},
	{LR_PS_UDP_IN_ERRORS, "UDP InErrors (beyond RcvbufErrors)"},
	{LR_PS_UDP_SNDBUF_ERRORS, "UDP SndbufErrors"},
};

static const char *role_name(const struct lr_traffic_config *tc)
{
	return tc->bidir ? "sender and receiver" : tc->reverse ? "the sender" : "the receiver";
}

/* "veth1 rx_dropped 12, UDP RcvbufErrors 3" into buf; false when nothing moved. */
static bool drops_text(const struct lr_peer_summary *ps, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ps->n_ifaces; i++)
		for (size_t k = 0; k < LR_ARRAY_SIZE(iface_drops); k++) {
			const struct lr_peer_iface *pi = &ps->ifaces[i];

			if ((pi->known & (1u << iface_drops[k].c)) && pi->c[iface_drops[k].c] &&
			    n < size)
				n += (size_t)snprintf(buf + n, size - n, "%s%s %s %llu",
						      n ? ", " : "", pi->name, iface_drops[k].what,
						      (unsigned long long)pi->c[iface_drops[k].c]);
		}
	for (size_t k = 0; k < LR_ARRAY_SIZE(stack_drops); k++) {
		uint64_t v = ps->stack[stack_drops[k].s];

		/* InErrors counts every RcvbufError too: only what it saw beyond them */
		if (stack_drops[k].s == LR_PS_UDP_IN_ERRORS &&
		    (ps->stack_known & (1u << LR_PS_UDP_RCVBUF_ERRORS)))
			v = v > ps->stack[LR_PS_UDP_RCVBUF_ERRORS]
				    ? v - ps->stack[LR_PS_UDP_RCVBUF_ERRORS]
				    : 0;
		if ((ps->stack_known & (1u << stack_drops[k].s)) && v && n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s%s %llu", n ? ", " : "",
					      stack_drops[k].what, (unsigned long long)v);
	}
	/* its softirq's backlog: packets the kernel dropped before any socket saw them */
	if (ps->softnet_known && ps->softnet_dropped && n < size) {
		n += (size_t)snprintf(buf + n, size - n, "%ssoftnet backlog drops %llu (",
				      n ? ", " : "", (unsigned long long)ps->softnet_dropped);
		for (size_t k = 0; k < ps->n_softnet_cpus && n < size; k++)
			n += (size_t)snprintf(buf + n, size - n, "%scpu%d %llu", k ? " " : "",
					      ps->softnet_cpus[k].cpu,
					      (unsigned long long)ps->softnet_cpus[k].dropped);
		if (n < size && ps->netdev_max_backlog >= 0)
			n += (size_t)snprintf(buf + n, size - n, "; netdev_max_backlog %lld",
					      (long long)ps->netdev_max_backlog);
		if (n < size)
			n += (size_t)snprintf(buf + n, size - n, ")");
	}
	return n > 0;
}

bool lr_peer_report_loss(const struct lr_peer_summary *ps, const struct lr_traffic_config *tc,
			 char *buf, size_t size)
{
	char drops[512];
	bool lost = drops_text(ps, drops, sizeof(drops));

	int n = snprintf(buf, size, "on %s, %s: ", role_name(tc), ps->host);

	if (n >= 0 && (size_t)n < size)	/* what does not fit is cut: the counts come first */
		lr_strlcpy(buf + n, lost ? drops : "none in its counters", size - (size_t)n);
	return lost;
}

/* "    MTU 1500, 10000 Mb/s, ring rx 512/4096 tx 512/4096, ixgbe, NUMA node 1": what is known */
static void link_text(FILE *f, const struct lr_peer_iface *pi)
{
	if (pi->mtu >= 0)
		fprintf(f, "    MTU %lld", (long long)pi->mtu);
	else
		fprintf(f, "    MTU unknown");
	if (pi->speed_mbps >= 0)
		fprintf(f, ", %lld Mb/s", (long long)pi->speed_mbps);
	if (pi->ring_rx >= 0)
		fprintf(f, ", ring rx %lld/%lld tx %lld/%lld", (long long)pi->ring_rx,
			(long long)pi->ring_rx_max, (long long)pi->ring_tx,
			(long long)pi->ring_tx_max);
	if (pi->driver[0])
		fprintf(f, ", %s", pi->driver);
	if (pi->numa_node >= 0)
		fprintf(f, ", NUMA node %d", pi->numa_node);
	if (pi->n_q)
		fprintf(f, ", %zu queues", pi->n_q);
	fputc('\n', f);
}

void lr_peer_report_text(FILE *f, const struct lr_peer_summary *ps,
			 const struct lr_traffic_config *tc)
{
	char loss[600];

	fprintf(f, "\nPeer %s (%s), its own counters over the test%s:\n", ps->host, role_name(tc),
		ps->ended ? "" : " (its last sample did not arrive)");
	for (size_t i = 0; i < ps->n_ifaces; i++) {
		const struct lr_peer_iface *pi = &ps->ifaces[i];

		fprintf(f, "  %s: rx %llu bytes %llu packets, tx %llu bytes %llu packets", pi->name,
			(unsigned long long)pi->c[LR_PC_RX_BYTES],
			(unsigned long long)pi->c[LR_PC_RX_PACKETS],
			(unsigned long long)pi->c[LR_PC_TX_BYTES],
			(unsigned long long)pi->c[LR_PC_TX_PACKETS]);
		if (ps->peak_rx_bps[i] >= 0 && ps->peak_tx_bps[i] >= 0)
			fprintf(f, "; peak rx %.2f Mbit/s, tx %.2f Mbit/s",
				ps->peak_rx_bps[i] / 1e6, ps->peak_tx_bps[i] / 1e6);
		fputc('\n', f);
		link_text(f, pi);
	}
	if (ps->softnet_known)
		fprintf(f, "  softnet: %llu dropped, %llu time squeezes (all CPUs)\n",
			(unsigned long long)ps->softnet_dropped,
			(unsigned long long)ps->softnet_squeezed);
	lr_peer_report_loss(ps, tc, loss, sizeof(loss));
	fprintf(f, "  loss %s\n", loss);
}

/* v when known, else null: "unknown" must not read as 0 */
static json_t *known_or_null(int64_t v)
{
	return v >= 0 ? json_integer((json_int_t)v) : json_null();
}

/* The interface's link state as the peer reported it. */
static void link_json(json_t *j, const struct lr_peer_iface *pi)
{
	json_object_set_new(j, "mtu", known_or_null(pi->mtu));
	json_object_set_new(j, "speed_mbps", known_or_null(pi->speed_mbps));
	json_object_set_new(j, "ring_rx", known_or_null(pi->ring_rx));
	json_object_set_new(j, "ring_rx_max", known_or_null(pi->ring_rx_max));
	json_object_set_new(j, "ring_tx", known_or_null(pi->ring_tx));
	json_object_set_new(j, "ring_tx_max", known_or_null(pi->ring_tx_max));
	json_object_set_new(j, "driver", pi->driver[0] ? json_string(pi->driver) : json_null());
	json_object_set_new(j, "numa_node", known_or_null(pi->numa_node));
	json_object_set_new(j, "queues", json_integer((json_int_t)pi->n_q));
}

static json_t *tuning_json(const struct lr_peer_tuning *t)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "rmem_max", known_or_null(t->rmem_max));
	json_object_set_new(o, "wmem_max", known_or_null(t->wmem_max));
	json_object_set_new(o, "netdev_max_backlog", known_or_null(t->netdev_max_backlog));
	json_object_set_new(o, "tcp_rmem",
			    json_pack("[o,o,o]", known_or_null(t->tcp_rmem[0]),
				      known_or_null(t->tcp_rmem[1]), known_or_null(t->tcp_rmem[2])));
	json_object_set_new(o, "tcp_wmem",
			    json_pack("[o,o,o]", known_or_null(t->tcp_wmem[0]),
				      known_or_null(t->tcp_wmem[1]), known_or_null(t->tcp_wmem[2])));
	json_object_set_new(o, "tcp_window_scaling", known_or_null(t->tcp_window_scaling));
	json_object_set_new(o, "tcp_timestamps", known_or_null(t->tcp_timestamps));
	json_object_set_new(o, "tcp_sack", known_or_null(t->tcp_sack));
	json_object_set_new(o, "tcp_congestion", t->tcp_congestion[0]
							 ? json_string(t->tcp_congestion)
							 : json_null());
	return o;
}

json_t *lr_peer_report_json(const struct lr_peer_summary *ps, const struct lr_traffic_config *tc)
{
	json_t *o = json_object(), *ifs = json_array(), *st = json_object();
	char drops[512];

	if (!o || !ifs || !st) {
		json_decref(o);
		json_decref(ifs);
		json_decref(st);
		return NULL;
	}
	json_object_set_new(o, "host", json_string(ps->host));
	json_object_set_new(o, "role",
			    json_string(tc->bidir     ? "both"
					: tc->reverse ? "sender"
						      : "receiver"));
	json_object_set_new(o, "complete", json_boolean(ps->ended));
	json_object_set_new(o, "samples", json_integer((json_int_t)ps->frames));
	for (size_t i = 0; i < ps->n_ifaces; i++) {
		const struct lr_peer_iface *pi = &ps->ifaces[i];
		json_t *j = json_object();

		if (!j)
			continue;
		json_object_set_new(j, "name", json_string(pi->name));
		link_json(j, pi);
		if (ps->peak_rx_bps[i] >= 0)
			json_object_set_new(j, "peak_rx_bps", json_real(ps->peak_rx_bps[i]));
		if (ps->peak_tx_bps[i] >= 0)
			json_object_set_new(j, "peak_tx_bps", json_real(ps->peak_tx_bps[i]));
		for (unsigned k = 0; k < LR_PC__COUNT; k++)
			if (pi->known & (1u << k))
				json_object_set_new(j, lr_peer_ctr_name(k),
						    json_integer((json_int_t)pi->c[k]));
		json_array_append_new(ifs, j);
	}
	json_object_set_new(o, "interfaces", ifs);
	for (size_t k = 0; k < LR_ARRAY_SIZE(stack_drops); k++)
		if (ps->stack_known & (1u << stack_drops[k].s))
			json_object_set_new(st,
					    k == 0   ? "udp_rcvbuf_errors"
					    : k == 1 ? "udp_in_errors"
						     : "udp_sndbuf_errors",
					    json_integer((json_int_t)ps->stack[stack_drops[k].s]));
	if (ps->stack_known & (1u << LR_PS_TCP_RETRANS))
		json_object_set_new(st, "tcp_retrans",
				    json_integer((json_int_t)ps->stack[LR_PS_TCP_RETRANS]));
	if (ps->softnet_known) {
		json_t *sn = json_object(), *cpus = json_array();

		for (size_t k = 0; cpus && k < ps->n_softnet_cpus; k++)
			json_array_append_new(
				cpus, json_pack("{s:i,s:I}", "cpu", ps->softnet_cpus[k].cpu,
						"dropped",
						(json_int_t)ps->softnet_cpus[k].dropped));
		json_object_set_new(sn, "dropped", json_integer((json_int_t)ps->softnet_dropped));
		json_object_set_new(sn, "squeezed",
				    json_integer((json_int_t)ps->softnet_squeezed));
		json_object_set_new(sn, "top_cpus", cpus ? cpus : json_null());
		json_object_set_new(st, "softnet", sn);
	}
	json_object_set_new(o, "stack", st);
	json_object_set_new(o, "tuning", ps->has_tuning ? tuning_json(&ps->tuning) : json_null());
	json_object_set_new(
		o, "loss", drops_text(ps, drops, sizeof(drops)) ? json_string(drops) : json_null());
	return o;
}
