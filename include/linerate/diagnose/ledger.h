/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loss ledger (docs/design.md §14): where the packets of one direction of a test went,
 * from the sender's application to the receiver's. Every stage is witnessed by its own
 * counter on its own end, given in that counter's unit and in datagrams (UDP) or segments
 * (TCP), converted with the datagrams per skb measured on that end's interface over the
 * test's window (marked approx when converted). What no stage explains is `unaccounted`,
 * always given; the conclusion names the largest stage or says the loss is unaccounted.
 * A counter the end cannot read (a plain iperf3 peer, an older linerate) is unknown, never 0.
 * Pure: no I/O. [any] */
#ifndef LINERATE_LEDGER_H
#define LINERATE_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/collect/snmp.h"
#include "linerate/core/common.h"

enum lr_ledger_stage {
	LR_LS_SOCKET,		/* sender: the socket refused the datagram (SndbufErrors) */
	LR_LS_QDISC,		/* sender: a qdisc on the egress interface dropped it */
	LR_LS_DRIVER_TX,	/* sender: the driver dropped it (tx_dropped, tx errors) */
	LR_LS_WIRE,		/* sent by one interface, never received by the other */
	LR_LS_NIC_RX,		/* receiver: the NIC had no room (missed, FIFO, overrun) */
	LR_LS_BACKLOG,		/* receiver: the softirq backlog was full (softnet dropped) */
	LR_LS_IP,		/* receiver: IP discarded it (InDiscards, ..., ReasmFails) */
	LR_LS_TRANSPORT,	/* receiver: UDP refused it (RcvbufErrors, NoPorts, ...) or TCP
				 * dropped the segment (TcpExt TCPBacklogDrop, ..., TCPOFODrop) */
	LR_LS__COUNT
};

/* A direction of a test, named as --ledger-csv's direction column names it: up is client ->
 * server, down server -> client (-R; under --bidir both run, each its own ledger). */
enum lr_ledger_dir { LR_LDIR_UP, LR_LDIR_DOWN, LR_LDIR__COUNT };

/* One end's counters over the test's window; -1: unknown on that end. */
struct lr_ledger_end {
	char host[64];			/* "": the end shared nothing (a plain iperf3) */
	char iface[LR_IFNAMSIZ];	/* the test interface, "" unknown */
	int64_t if_tx_packets, if_rx_packets;	/* the interface's skbs */
	int64_t tx_dropped, tx_errors;
	int64_t rx_missed, rx_fifo, rx_over, nic_drop, nic_fifo;
	int64_t qdisc_drops;		/* every qdisc of the egress interface */
	char qdisc[40];			/* "tbf 8001:", "" unknown */
	int64_t softnet_dropped;	/* every CPU's backlog */
	int64_t udp_sndbuf, udp_rcvbuf, udp_in_errors;	/* host-wide */
	int64_t stack_drop[LR_SD__COUNT];	/* host-wide: Ip, Udp NoPorts/InCsumErrors, TcpExt */
	uint64_t window_bytes;		/* -w that sized its socket, 0 unset */
};

struct lr_ledger_input {
	bool udp;
	enum lr_ledger_dir dir;	/* which direction's data (a name for the outputs) */
	bool bidir;		/* the other direction ran too: this is one of two ledgers */
	bool sender_local;	/* this host sent (its end is `snd`) */
	bool one_link;		/* the two interfaces face each other: the wire stage applies */
	bool wire_unaligned;	/* the ends' counters cover different spans (a live interval: the
				 * peer's newest frame is not this tick's): the wire is unknown */
	int64_t sent;		/* datagrams (UDP) / segments (TCP) the sending engine counted */
	/* TCP: the segments the senders' bytes make at the link's MSS (MTU - 52), an estimate
	 * that only weighs the retransmits D-SACK left unexplained; 0 or -1 unknown */
	int64_t tcp_segments;
	/* UDP: the receiver's sequence count; TCP: retransmitted segments, of which the ones the
	 * sender's TcpExt TCPDSACKRecvSegs says the receiver already had are spurious */
	int64_t lost;
	struct lr_ledger_end snd, rcv;
};

#define LR_LEDGER_STAGES 12

struct lr_ledger_row {
	enum lr_ledger_stage stage;
	bool peer;		/* witnessed on the peer (else this host) */
	bool sender;		/* on the sending end */
	const char *counter;	/* "RcvbufErrors", "rx_missed_errors", "qdisc drops", ... */
	bool known;		/* the end could read it */
	int64_t count;		/* in unit (the wire's may be negative: other traffic) */
	const char *unit;	/* "skbs", "packets", "datagrams", "segments" */
	double datagrams;	/* in the test's unit */
	bool approx;		/* converted with a measured ratio */
	bool noise;		/* the wire within its noise floor: shown, never the cause */
};

struct lr_ledger {
	bool udp;
	enum lr_ledger_dir dir;			/* the input's */
	bool bidir;
	/* --rr: the requests' way only (sender = the asking end); the answers' way back is in
	 * no ledger */
	bool requests_only;
	int64_t sent, received, lost;		/* -1 unknown */
	/* TCP: the sender's retransmitted segments and, of them, the spurious ones (the receiver
	 * had them: reordering or a hasty timer, not loss); lost is the rest. -1 unknown */
	int64_t retransmitted, spurious;
	const char *unit;			/* "datagrams" / "segments" */
	double snd_per_skb, rcv_per_skb;	/* measured ratios, < 0 unknown */
	struct lr_ledger_row rows[LR_LEDGER_STAGES];
	unsigned n_rows;
	bool unaccounted_known;
	double unaccounted;			/* lost - sum of the known stages */
	bool far_unknown;			/* the peer shared no counters (no host) */
	const struct lr_ledger_row *largest;	/* NULL: none explains the loss */
	bool reordered;				/* TCP: its retransmits were spurious, not loss */
	char snd_host[64], rcv_host[64];
	char snd_qdisc[40];			/* the qdisc row's counter: the input's name */
	char wire_counter[72];			/* the wire row's, with its noise floor */
	char conclusion[400];			/* where the loss went, with its numbers */
	char advice[200];			/* what to do about it, "" nothing to say */
};

/* A stage that explains at least this share of the loss is named as its cause. */
#define LR_LEDGER_CAUSE_SHARE 0.5
/* The most segments one GRO or GSO skb carries (UDP_MAX_SEGMENTS on Debian 12's 6.1; later
 * kernels take 128, which only makes this bound cautious). A stage counted in skbs is converted
 * at the interface's average, and the skbs a full socket refuses are its biggest: -R -u -b 1G
 * -w 16K on a veth lost 306 datagrams, RcvbufErrors 12 skbs, converted 200 (65 %), and in one
 * run of a dozen under ASan below half. For UDP, the only stage that saw a drop, every stage
 * read, whose skbs can hold the whole loss at this bound, is named as the cause below the share
 * too. */
#define LR_LEDGER_SEGS_PER_SKB_MAX 64
/* TCP's: its loss is the sender's retransmits, which overcount what was lost. Through a tbf on
 * the sender's veth, ten TCP runs of 1 s with nothing else dropping, the qdisc's drops were 49
 * to 76 % of the retransmits (3108 of 6369 the lowest), and in four of them the sender's TcpExt
 * TCPRetransFail (retransmissions its own stack refused, tried again later) was 60 to 74 % of
 * its TcpRetransSegs. So a stage that explains a quarter of them is the cause. */
#define LR_LEDGER_TCP_CAUSE_SHARE 0.25

/* TCP: when this share of the retransmits was spurious (D-SACKed) and no stage saw a drop,
 * the rest is read as the same reordering (D-SACK is not guaranteed), not as loss, as long as
 * the rest is too little to matter (LR_LEDGER_TCP_LOSS_MATTERS of the segments sent): an nft
 * rule dropping 0.5 % of a veth's skbs (12254 segments) under a loaded CPU's timeouts saw
 * 30488 of 42742 retransmits D-SACKed, and more is one slow receiver away. */
#define LR_LEDGER_SPURIOUS_SHARE 0.9
/* TCP: retransmits of this share of the segments sent are loss worth naming (the verdict's
 * rule too: below it they are the ordinary probes and timers of a clean run). */
#define LR_LEDGER_TCP_LOSS_MATTERS 0.001

/* The wire stage's noise floor: interface counters are host-wide and the two ends' windows
 * differ (this host's books from the streams' start, the peer's frames from its first reading),
 * so tx - rx also counts the control connection, the peer view's frames and ARP/ND at the edges.
 * Clean 1 s to 3 s runs on a veth pair read 14 to 20 packets forward, -14 to -17 reverse (UDP,
 * UDP GSO, TCP, -P 4, -i 0.25; ip -s link: tx = rx within 1), whatever the rate or length. A
 * share of the sender's tx packets on top covers other hosts' traffic on a shared interface
 * (not measured). Within the floor the stage is shown and never named as the cause. */
#define LR_LEDGER_WIRE_NOISE_PKTS 64
#define LR_LEDGER_WIRE_NOISE_SHARE 0.001

void lr_ledger_end_init(struct lr_ledger_end *e);	/* every counter unknown */
void lr_ledger_build(const struct lr_ledger_input *in, struct lr_ledger *out);
const char *lr_ledger_stage_name(enum lr_ledger_stage s);	/* "qdisc", "transport", ... */
const char *lr_ledger_dir_name(enum lr_ledger_dir d);	/* "up", "down" */

#endif
