// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where on the peer packets were lost (docs/wire.md, the peer-stats extension): its NIC's
 * drop and FIFO counters, its sockets' UDP errors and its softirq backlog over the test, named
 * with their counts, and the peer's role in the test. Pure; main thread.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/core/strutil.h"
#include "linerate/diagnose/peer_loss.h"
#include "linerate/traffic/traffic.h"

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

const char *lr_peer_loss_role(const struct lr_traffic_config *tc)
{
	if (tc->rr_req_bytes)	/* --rr: it receives the requests and sends the answers */
		return "the answering end";
	return tc->bidir ? "sender and receiver" : tc->reverse ? "the sender" : "the receiver";
}

bool lr_peer_loss_drops(const struct lr_peer_summary *ps, char *buf, size_t size)
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

bool lr_peer_loss_sentence(const struct lr_peer_summary *ps, const struct lr_traffic_config *tc,
			 char *buf, size_t size)
{
	char drops[512];
	bool lost = lr_peer_loss_drops(ps, drops, sizeof(drops));

	int n = snprintf(buf, size, "on %s, %s: ", lr_peer_loss_role(tc), ps->host);

	if (n >= 0 && (size_t)n < size)	/* what does not fit is cut: the counts come first */
		lr_strlcpy(buf + n, lost ? drops : "none in its counters", size - (size_t)n);
	return lost;
}
