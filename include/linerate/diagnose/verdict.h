/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end of a test: what the NIC, the CPUs and the stack saw over the test's own measured
 * seconds, and the verdict — achieved rate against line rate and the goodput ceiling at this
 * MTU (only where the link's speed is real, from what the interface is), where loss happened
 * by every witness (the receiver's own count, TCP retransmits, the NIC, driver, stack, socket
 * and softnet counters), the hottest CPU, and the one next step the evidence supports, within
 * the test's own limits (-b, -P). Snapshots are accumulated as they come. [main] */
#ifndef LINERATE_VERDICT_H
#define LINERATE_VERDICT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "linerate/core/common.h"
#include "linerate/collect/metrics.h"
#include "linerate/collect/snmp.h"
#include "linerate/diagnose/ledger.h"

struct lr_snapshot;

#define LR_VERDICT_IFACES 64
#define LR_VERDICT_CPUS 4096		/* CPU numbers above are left out of the verdict */
/* The verdict's CPU figures are means over blocks of at least this long, per CPU: the same
 * steady load reads the same at -i 0.01 and -i 0.5 (the sampler's own window is 100 ms). */
#define LR_VERDICT_CPU_BLOCK_NS (500 * LR_NSEC_PER_MSEC)

/* One block of CPU time being summed: percentages x nanoseconds, per CPU number. */
struct lr_verdict_cpu_block {
	uint64_t ns;
	double softirq[LR_VERDICT_CPUS], idle[LR_VERDICT_CPUS];
	uint64_t known_ns[LR_VERDICT_CPUS];
	int max_cpu;			/* highest CPU number summed, -1 none */
};

struct lr_verdict_iface {
	char name[LR_IFNAMSIZ];
	uint64_t total[LR_M__COUNT];	/* over the ticks inside the test's window */
	uint64_t valid;			/* LR_M_BIT: seen valid at least once */
	int64_t speed_mbps, mtu, ring_rx, ring_rx_max;
	char driver[32];
	char kind[16];			/* netlink link kind: "veth", "bridge", "" physical */
	/* The busiest serving CPU's softirq % (all CPUs when none known), the highest block
	 * mean (LR_VERDICT_CPU_BLOCK_NS); before the first block, the highest tick. */
	double hot_pct;
	int hot_cpu;
	unsigned hot_blocks;		/* blocks with a serving CPU above 95 % softirq */
	bool others_idle;		/* ... while another CPU stayed under 50 % busy */
	double tick_hot_pct;		/* the highest tick's, for a test shorter than a block */
	int tick_hot_cpu;
	char top_drv[3][33];		/* driver fifo/drop counters that moved most */
	/* its egress root qdisc's drops inside the window (the kernel's skbs), and its name
	 * ("tbf 8001:"); known once a tick inside the window had them */
	uint64_t qdisc_drops;
	bool qdisc_known;
	char qdisc_name[32];
	uint64_t prev_qdisc_cum;	/* the never-reset sum at the last reading */
	bool prev_qdisc_valid;
	/* the root qdisc's backlog at its fullest read inside the window (a gauge: the queue a
	 * latency probe waited in, latency.h); known once a tick inside the window had it */
	uint64_t qdisc_backlog_max_bytes, qdisc_backlog_max_packets;
	bool qdisc_backlog_known;
	uint64_t top_drv_total[3];
	/* the last reading of the never-reset sums: a missed snapshot loses nothing */
	uint64_t prev_cum[LR_M__COUNT];
	uint64_t prev_cum_valid;
	int prev_ifindex;
	uint32_t prev_generation;
	int numa_node1;			/* the device's NUMA node + 1, 0 unknown (verdict_numa.c) */
	/* ticks of the test with stream threads moving data (their node known), those where most
	 * ran off this device's node, and of those the ticks its node's CPUs were mostly idle */
	unsigned numa_stream_ticks, numa_remote_ticks, numa_remote_idle_ticks;
	int numa_stream_node1, numa_stream_cpu1;	/* where the last remote one ran, + 1 */
};

/* Per-queue rx packets over the test and the CPU serving each queue (verdict_queue.c): one
 * queue taking most of them on a saturated CPU while other queues' CPUs idle is RSS. */
#define LR_VERDICT_QIFS 8	/* interfaces with known queues tracked */
#define LR_VERDICT_QUEUES 128	/* queues per interface tracked; the rest counted together */
struct lr_verdict_queue {
	uint64_t rx_packets;
	int cpu;			/* last known, -1 none */
	double softirq_ns, idle_ns;	/* that CPU's % x ns while known */
	uint64_t known_ns;
};
struct lr_verdict_qif {
	char name[LR_IFNAMSIZ];
	struct lr_verdict_queue q[LR_VERDICT_QUEUES];
	unsigned n;			/* queue numbers 0..n-1 seen */
	uint64_t rx_other;		/* rx packets of queues numbered LR_VERDICT_QUEUES and up */
};

struct lr_verdict_acc {
	char want[LR_IFNAMSIZ];		/* the route interface, "" = the busiest */
	uint64_t first_ns, last_ns;	/* span of the ticks taken in (cover the window) */
	uint64_t prev_mono_ns;		/* the last snapshot seen, taken in or not */
	unsigned ticks;			/* ticks taken in */
	unsigned ticks_left_out;	/* before the streams started / after they ended */
	/* The test's window from its streams (CLOCK_MONOTONIC): the first start, the last end
	 * once every started stream has ended. 0 = not seen. Without streams (sampling only)
	 * every tick counts. */
	uint64_t win_start_ns, win_end_ns;
	/* ticks were taken in for streams that moved data before their start was known: they
	 * are the test's own, kept when the start shows up */
	bool took_moving;
	struct lr_verdict_iface ifs[LR_VERDICT_IFACES];
	unsigned n_ifs;
	uint64_t tcp_retrans, udp_rcvbuf, udp_in_errors, udp_sndbuf;	/* stack, in the window */
	uint64_t stack_drop[LR_SD__COUNT];	/* the ledger's ip/transport witnesses, in it */
	uint32_t stack_valid;
	double softnet_drops;		/* all CPUs, in the window */
	int softnet_cpu;		/* the CPU that dropped most in one tick, -1 none */
	bool softnet_valid;
	struct lr_verdict_cpu_block blk;	/* the block being summed */
	unsigned cpu_blocks;		/* blocks judged */
	int64_t rmem_max, tcp_window_scaling, netdev_max_backlog;
	/* NUMA (verdict_numa.c), from the latest snapshot: each CPU's node + 1 (0 unknown) and
	 * the count of nodes with CPUs (below 2: no NUMA rule) */
	uint16_t cpu_node1[LR_VERDICT_CPUS];
	unsigned numa_nodes;
	struct lr_verdict_qif qifs[LR_VERDICT_QIFS];	/* verdict_queue.c */
	unsigned n_qifs;
};

/* What the traffic achieved, from the test's own results (-1 = not applicable / unknown). */
struct lr_verdict_traffic {
	bool ran;
	bool udp;
	bool reverse, bidir;		/* who received: the peer (up), this host (down) */
	unsigned parallel;
	uint64_t bitrate_bps;		/* -b per stream, 0 unlimited */
	uint64_t window_bytes;		/* -w, 0 unset or unknown */
	bool one_link;			/* the peer is on this host's link: the ledger's wire stage */
	double up_bps, down_bps;	/* receiver-side goodput, client->server / server->client */
	double sent_up_bps, sent_down_bps;	/* what the senders sent (a cap is theirs), -1 */
	int64_t retransmits;		/* TCP, the senders' own count */
	int64_t udp_lost, udp_packets;	/* UDP, the receivers' own count */
	/* the same per direction (enum lr_ledger_dir: [0] up, client -> server; [1] down),
	 * -1 unknown. The ledger reads them under --bidir, where the totals mix both */
	int64_t dir_retransmits[2], dir_udp_lost[2], dir_udp_packets[2];
	int64_t dir_sent_bytes[2];	/* the senders' bytes, per direction, -1 unknown */
};

void lr_verdict_init(struct lr_verdict_acc *a, const char *iface);	/* iface may be NULL */
void lr_verdict_add(struct lr_verdict_acc *a, const struct lr_snapshot *s);
/* The interface the verdict speaks of: the wanted one, else the one that moved most bytes. */
const struct lr_verdict_iface *lr_verdict_pick(const struct lr_verdict_acc *a);

struct lr_verdict {
	const struct lr_verdict_iface *iface;	/* NULL: nothing was sampled */
	double seconds;				/* the test's measured seconds (else sampled) */
	double sampled_seconds;			/* span of the ticks the NIC figures add up */
	bool test_window;			/* seconds are the test's own (its streams) */
	double rx_bps, tx_bps;			/* the interface's own counters over seconds */
	double line_pct;			/* busier direction vs link speed, -1 unknown */
	bool speed_nominal;			/* the link's speed is not a line rate */
	char nominal_why[48];			/* "veth", "loopback", ... "" */
	double ceiling_bps;			/* goodput ceiling at this MTU, -1 unknown */
	double ceiling_pct;			/* achieved goodput vs ceiling, -1 unknown */
	bool capped;				/* the test reached its own -b */
	/* loss, by witness (this host's counters are over the test's window) */
	int64_t udp_lost, udp_packets;		/* the receiver's own count, -1 unknown */
	int64_t retransmits;			/* TCP senders' count in the test, -1 unknown */
	uint64_t nic_fifo, nic_drop, stack_drop, errors;	/* the interface */
	uint64_t udp_rcvbuf, udp_in_errors, softnet_drop;	/* this host's stack */
	bool receiver_local;			/* this host received (-R); else the peer did */
	double hot_pct;				/* the hottest serving CPU's softirq % */
	int hot_cpu;				/* -1 unknown */
	bool hot_saturated;			/* above 95 % for a quarter of the blocks */
	char loss[320];				/* every witness that saw loss, "" none */
	char loss_where[400];			/* where it happened, by the evidence, "" none */
	char next_step[320];			/* the one next step, or why there is none */
	bool step_retrans;			/* next_step is about TCP's retransmits */
	/* latency under load (latency.h): held or rose and where, "" when no probes ran */
	int latency_judgement;			/* enum lr_latency_judgement */
	char latency[400];
};

void lr_verdict_compute(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			struct lr_verdict *v);
/* The loss ledger of one direction of the test (dir: enum lr_ledger_dir) from these books
 * (this host's end) and the peer's totals (NULL: a plain iperf3 or --no-peer-stats: its stages
 * unknown); host is this host's name. Under --bidir each host receives only one direction's
 * data: its receiver stages (nic rx, backlog, ip, transport) are the direction it receives,
 * its sender stages (socket, qdisc, driver tx) the one it sends, and the sent and lost counts
 * are that direction's (dir_*). false when there is none to build (no test, or a direction
 * the test did not run). verdict_ledger.c */
struct lr_peer_summary;
bool lr_verdict_ledger_dir(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			   const struct lr_peer_summary *peer, const char *host, enum lr_ledger_dir dir,
			   struct lr_ledger *out);
/* The test's first direction: its one, or up under --bidir. */
bool lr_verdict_ledger(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
		       const struct lr_peer_summary *peer, const char *host, struct lr_ledger *out);
/* The directions t ran into dirs (up, or down under -R; both under --bidir): their number. */
unsigned lr_verdict_dirs(const struct lr_verdict_traffic *t, enum lr_ledger_dir dirs[2]);
/* The ledger's evidence alone (the same books): the live ledger (ledger_live.h) diffs it. */
bool lr_verdict_ledger_input(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			     const struct lr_peer_summary *peer, const char *host, enum lr_ledger_dir dir,
			     struct lr_ledger_input *in);
/* Where the ledger puts the loss becomes the verdict's place and next step (both ends'
 * evidence outranks this host's alone). */
void lr_verdict_conclude(struct lr_verdict *v, const struct lr_ledger *l);
/* Of n ledgers (a --bidir test's two), the one whose loss is worst: the larger share of what
 * was sent when both know it, else the larger count; NULL when none lost any. */
const struct lr_ledger *lr_verdict_worst(const struct lr_ledger *const *l, unsigned n);

/* The latency probes' sentence into v->latency (verdict_latency.c): the rule of latency.h
 * with the queue these books show, on the side that sent or received. l NULL: no probes. */
struct lr_latency;
void lr_verdict_latency(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			const struct lr_latency *l, struct lr_verdict *v);

/* "182 Mbit/s", "9.41 Gbit/s", "512 bit/s": the unit the verdict's sentences use. */
void lr_verdict_fmt_bps(char *buf, size_t len, double bps);

#endif
