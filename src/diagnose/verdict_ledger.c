// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict's books as the loss ledger's evidence (this host's interface and stack counters
 * over the test's window, the peer's from its frames), and the verdict concluded from the
 * ledger: where the evidence of both ends puts the loss replaces "read the receiver's
 * counters". Pure; main thread.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linerate/core/strutil.h"
#include "linerate/diagnose/ledger.h"
#include "linerate/diagnose/peer_loss.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/sample/snapshot.h"

static int64_t local_ctr(const struct lr_verdict_iface *f, enum lr_metric m)
{
	return f && (f->valid & LR_M_BIT(m)) ? (int64_t)f->total[m] : -1;
}

static void local_end(const struct lr_verdict_acc *a, const char *host, struct lr_ledger_end *e)
{
	const struct lr_verdict_iface *f = lr_verdict_pick(a);

	lr_ledger_end_init(e);
	snprintf(e->host, sizeof(e->host), "%s", host ? host : "");
	if (f) {
		snprintf(e->iface, sizeof(e->iface), "%s", f->name);
		e->if_tx_packets = local_ctr(f, LR_M_TX_PACKETS);
		e->if_rx_packets = local_ctr(f, LR_M_RX_PACKETS);
		e->tx_dropped = local_ctr(f, LR_M_TX_DROPPED);
		e->tx_errors = local_ctr(f, LR_M_TX_ERRORS);
		e->rx_missed = local_ctr(f, LR_M_RX_MISSED_ERRORS);
		e->rx_fifo = local_ctr(f, LR_M_RX_FIFO_ERRORS);
		e->rx_over = local_ctr(f, LR_M_RX_OVER_ERRORS);
		e->nic_drop = local_ctr(f, LR_M_NIC_DROP);
		e->nic_fifo = local_ctr(f, LR_M_NIC_FIFO);
		if (f->qdisc_known) {
			e->qdisc_drops = (int64_t)f->qdisc_drops;
			lr_strlcpy(e->qdisc, f->qdisc_name, sizeof(e->qdisc));
		}
	}
	if (a->stack_valid & LR_STACKV_UDP_SNDBUF)
		e->udp_sndbuf = (int64_t)a->udp_sndbuf;
	if (a->stack_valid & LR_STACKV_UDP_RCVBUF)
		e->udp_rcvbuf = (int64_t)a->udp_rcvbuf;
	if (a->stack_valid & LR_STACKV_UDP_IN_ERRORS)
		e->udp_in_errors = (int64_t)a->udp_in_errors;
	for (unsigned d = 0; d < LR_SD__COUNT; d++)
		if (a->stack_valid & LR_STACKV_DROP(d))
			e->stack_drop[d] = (int64_t)a->stack_drop[d];
	if (a->softnet_valid)
		e->softnet_dropped = llround(a->softnet_drops);
}

static int64_t peer_ctr(const struct lr_peer_iface *p, enum lr_peer_ctr c)
{
	return p && (p->known & (1u << c)) ? (int64_t)p->c[c] : -1;
}

static int64_t peer_stack(const struct lr_peer_summary *ps, enum lr_peer_stack s)
{
	return ps->stack_known & (1u << s) ? (int64_t)ps->stack[s] : -1;
}

/* The peer's test interface: the one that moved most bytes over the test. */
static const struct lr_peer_iface *peer_iface(const struct lr_peer_summary *ps)
{
	const struct lr_peer_iface *best = NULL;
	uint64_t most = 0;

	for (size_t i = 0; i < ps->n_ifaces; i++) {
		const struct lr_peer_iface *p = &ps->ifaces[i];
		uint64_t b = p->c[LR_PC_RX_BYTES] + p->c[LR_PC_TX_BYTES];

		if (!best || b > most) {
			best = p;
			most = b;
		}
	}
	return best;
}

static void peer_end(const struct lr_peer_summary *ps, struct lr_ledger_end *e)
{
	const struct lr_peer_iface *p;

	lr_ledger_end_init(e);
	if (!ps)
		return;		/* a plain iperf3, or --no-peer-stats: every stage unknown */
	lr_strlcpy(e->host, ps->host, sizeof(e->host));
	p = peer_iface(ps);
	if (p) {
		snprintf(e->iface, sizeof(e->iface), "%s", p->name);
		e->if_tx_packets = peer_ctr(p, LR_PC_TX_PACKETS);
		e->if_rx_packets = peer_ctr(p, LR_PC_RX_PACKETS);
		e->tx_dropped = peer_ctr(p, LR_PC_TX_DROPPED);
		e->rx_missed = peer_ctr(p, LR_PC_RX_MISSED);
		e->rx_fifo = peer_ctr(p, LR_PC_RX_FIFO);
		e->rx_over = peer_ctr(p, LR_PC_RX_OVER);
		e->nic_drop = peer_ctr(p, LR_PC_NIC_DROP);
		e->nic_fifo = peer_ctr(p, LR_PC_NIC_FIFO);
		/* an older linerate peer sends no qdisc: its sender qdisc stage stays unknown */
		e->qdisc_drops = p->qdisc_drops;
		lr_strlcpy(e->qdisc, p->qdisc, sizeof(e->qdisc));
	}
	e->udp_sndbuf = peer_stack(ps, LR_PS_UDP_SNDBUF_ERRORS);
	e->udp_rcvbuf = peer_stack(ps, LR_PS_UDP_RCVBUF_ERRORS);
	e->udp_in_errors = peer_stack(ps, LR_PS_UDP_IN_ERRORS);
	for (unsigned d = 0; d < LR_SD__COUNT; d++)
		e->stack_drop[d] = peer_stack(ps, (enum lr_peer_stack)(LR_PS_STACK_DROP + d));
	if (ps->softnet_known)
		e->softnet_dropped = (int64_t)ps->softnet_dropped;
}

unsigned lr_verdict_dirs(const struct lr_verdict_traffic *t, enum lr_ledger_dir dirs[2])
{
	if (!t->ran)
		return 0;
	if (!t->bidir) {
		dirs[0] = t->reverse ? LR_LDIR_DOWN : LR_LDIR_UP;
		return 1;
	}
	dirs[0] = LR_LDIR_UP;
	dirs[1] = LR_LDIR_DOWN;
	return 2;
}

/* TCP: the segments this direction's senders sent, their bytes at the MSS of the test
 * interface's MTU (1448 when unknown: 1500 less IP and TCP with timestamps); -1 unknown */
static int64_t tcp_segments(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			    enum lr_ledger_dir dir)
{
	const struct lr_verdict_iface *f = lr_verdict_pick(a);
	int64_t mss = f && f->mtu > 52 + 536 ? f->mtu - 52 : 1448;
	int64_t bytes = t->dir_sent_bytes[dir];

	return t->udp || bytes <= 0 ? -1 : bytes / mss;
}

bool lr_verdict_ledger_input(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			     const struct lr_peer_summary *peer, const char *host,
			     enum lr_ledger_dir dir, struct lr_ledger_input *in)
{
	struct lr_ledger_end local, far;
	enum lr_ledger_dir dirs[2];
	unsigned n = lr_verdict_dirs(t, dirs);

	memset(in, 0, sizeof(*in));
	if (!n || (dir != dirs[0] && (n < 2 || dir != dirs[1])))
		return false;
	in->udp = t->udp;
	in->dir = dir;
	in->bidir = t->bidir;
	in->one_link = t->one_link;
	in->sender_local = dir == LR_LDIR_UP;	/* this host is the client */
	in->tcp_segments = tcp_segments(a, t, dir);
	if (t->bidir) {	/* the totals mix both directions: this one's own counts */
		in->sent = t->udp ? t->dir_udp_packets[dir] : -1;
		in->lost = t->udp ? t->dir_udp_lost[dir] : t->dir_retransmits[dir];
	} else {
		in->sent = t->udp ? t->udp_packets : -1;
		in->lost = t->udp ? t->udp_lost : t->retransmits;
	}
	/* Each end's counters whole: the ledger reads the sender's egress stages of the end
	 * that sends this direction and the receiver's stages of the end that receives it.
	 * Under --bidir each host receives only the other direction's data, so neither set is
	 * shared; TCP's ACKs of the other direction also pass both, counted where they drop. */
	local_end(a, host, &local);
	peer_end(peer, &far);
	local.window_bytes = far.window_bytes = t->window_bytes;	/* -w sizes both ends */
	in->snd = in->sender_local ? local : far;
	in->rcv = in->sender_local ? far : local;
	return true;
}

bool lr_verdict_ledger_dir(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			   const struct lr_peer_summary *peer, const char *host,
			   enum lr_ledger_dir dir, struct lr_ledger *out)
{
	struct lr_ledger_input in;

	memset(out, 0, sizeof(*out));
	if (!lr_verdict_ledger_input(a, t, peer, host, dir, &in))
		return false;
	lr_ledger_build(&in, out);
	return true;
}

/* "TCP 29 segments retransmitted (the senders' count)" gains ", 28 of them spurious
 * (D-SACK)": the loss line says what the ledger took off. */
static void loss_spurious(struct lr_verdict *v, const struct lr_ledger *l)
{
	static const char key[] = "segments retransmitted (the senders' count)";
	char *at = strstr(v->loss, key), rest[sizeof(v->loss)];

	if (!at || l->spurious <= 0)
		return;
	at += sizeof(key) - 1;
	lr_strlcpy(rest, at, sizeof(rest));
	snprintf(at, sizeof(v->loss) - (size_t)(at - v->loss), ", %lld of them spurious (D-SACK)%s",
		 (long long)l->spurious, rest);
}

bool lr_verdict_ledger(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
		       const struct lr_peer_summary *peer, const char *host, struct lr_ledger *out)
{
	enum lr_ledger_dir dirs[2];

	if (!lr_verdict_dirs(t, dirs)) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	return lr_verdict_ledger_dir(a, t, peer, host, dirs[0], out);
}

/* A ledger's loss as a share of what was sent, or (sent unknown: TCP) its count. */
static double badness(const struct lr_ledger *l, bool *share)
{
	*share = l->sent > 0;
	return l->sent > 0 ? (double)l->lost / (double)l->sent : (double)l->lost;
}

const struct lr_ledger *lr_verdict_worst(const struct lr_ledger *const *l, unsigned n)
{
	const struct lr_ledger *w = NULL;
	double wb = 0;
	bool ws = false;

	for (unsigned i = 0; i < n; i++) {
		bool s;
		double b;

		if (!l[i] || l[i]->lost <= 0)
			continue;
		b = badness(l[i], &s);
		/* a share and a count do not compare: a known share wins over a count */
		if (!w || (s && !ws) || (s == ws && b > wb)) {
			w = l[i];
			wb = b;
			ws = s;
		}
	}
	return w;
}

void lr_verdict_conclude(struct lr_verdict *v, const struct lr_ledger *l)
{
	loss_spurious(v, l);
	if (l->reordered) {	/* TCP's retransmits were not loss: no step about them */
		lr_strlcpy(v->loss_where, l->conclusion, sizeof(v->loss_where));
		if (v->step_retrans)
			lr_strlcpy(v->next_step, "the retransmits were reordering, not loss: nothing "
				   "to fix for loss", sizeof(v->next_step));
		return;
	}
	if (l->lost <= 0)
		return;
	/* the ledger reads both ends: where it puts the loss is the place, its advice the step
	 * (one of --bidir's two: its conclusion names its direction, the step does too) */
	lr_strlcpy(v->loss_where, l->conclusion, sizeof(v->loss_where));
	if (l->advice[0])
		snprintf(v->next_step, sizeof(v->next_step), "%s%s%.*s",
			 l->bidir ? lr_ledger_dir_name(l->dir) : "", l->bidir ? ": " : "",
			 (int)sizeof(v->next_step) - 8, l->advice);
}
