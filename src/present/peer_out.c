// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The peer's part of a headless report (docs/wire.md, the peer-stats extension): its counters
 * over the test and where on it packets were lost (diagnose/peer_loss.h), as text after
 * linerate's own verdict, or as the "linerate_peer" object of -J. Pure formatting; main thread.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "linerate/core/common.h"
#include "linerate/diagnose/peer_loss.h"
#include "linerate/present/peer_out.h"
#include "linerate/traffic/traffic.h"

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

	fprintf(f, "\nPeer %s (%s), its own counters over the test%s:\n", ps->host, lr_peer_loss_role(tc),
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
	lr_peer_loss_sentence(ps, tc, loss, sizeof(loss));
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

/* The socket counters of -J's "stack" object, by their JSON names. */
static const struct {
	enum lr_peer_stack s;
	const char *name;
} stack_names[] = {
	{LR_PS_UDP_RCVBUF_ERRORS, "udp_rcvbuf_errors"},
	{LR_PS_UDP_IN_ERRORS, "udp_in_errors"},
	{LR_PS_UDP_SNDBUF_ERRORS, "udp_sndbuf_errors"},
};

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
			    json_string(tc->rr_req_bytes ? "answerer"
					: tc->bidir	 ? "both"
					: tc->reverse	 ? "sender"
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
	for (size_t k = 0; k < LR_ARRAY_SIZE(stack_names); k++)
		if (ps->stack_known & (1u << stack_names[k].s))
			json_object_set_new(st, stack_names[k].name,
					    json_integer((json_int_t)ps->stack[stack_names[k].s]));
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
		o, "loss", lr_peer_loss_drops(ps, drops, sizeof(drops)) ? json_string(drops) : json_null());
	return o;
}
