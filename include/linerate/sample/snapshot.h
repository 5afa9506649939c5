/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A snapshot: everything one sampler tick measured, as rates over the measured interval,
 * per interface, per CPU and for the stack. The sampler builds one per tick and publishes it
 * on the board; consumers (views, CSV, verdict) get a deep copy, so nothing is shared across
 * threads. "Unknown" is a cleared valid bit or -1, never 0. [any] */
#ifndef LINERATE_SNAPSHOT_H
#define LINERATE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/collect/classify.h"
#include "linerate/core/common.h"
#include "linerate/collect/cpu.h"
#include "linerate/collect/metrics.h"
#include "linerate/collect/snmp.h"
#include "linerate/collect/tuning.h"

#define LR_HIST_LEN 512	/* points of graph history per series (wider than any terminal) */

/* Where the interface counters come from (--source; --replay: recorded CSVs). */
enum lr_source { LR_SOURCE_NETLINK, LR_SOURCE_PROC, LR_SOURCE_REPLAY };

enum lr_series_id { LR_SER_RX_BPS, LR_SER_TX_BPS, LR_SER_RX_PPS, LR_SER_TX_PPS, LR_SER__COUNT };

struct lr_series {	/* ring of the last `len` values, newest at (head - 1); NAN = unknown */
	float v[LR_HIST_LEN];
	uint32_t head;
	uint32_t len;
};

/* A driver counter of category fifo/drop/error/pause that has moved since start (or reset). */
struct lr_drv_counter {
	char name[33];		/* ETH_GSTRING_LEN names may use all 32 bytes */
	enum lr_counter_cat cat;
	bool per_queue;
	uint64_t delta;		/* this interval */
	uint64_t total;		/* since start or reset */
	double per_s;		/* delta / interval */
};

/* Where an interface's per-queue counters come from (docs/design.md §12). */
enum lr_queue_source { LR_QSRC_NONE, LR_QSRC_QSTATS, LR_QSRC_ETHTOOL };

enum lr_queue_valid {	/* struct lr_queue_snap.valid: the field is known this interval */
	LR_QV_RX_PACKETS = 1u << 0,
	LR_QV_RX_BYTES = 1u << 1,
	LR_QV_TX_PACKETS = 1u << 2,
	LR_QV_TX_BYTES = 1u << 3,
	LR_QV_RX_DROPS = 1u << 4,
	LR_QV_TX_DROPS = 1u << 5,
};

/* One queue index of an interface over the tick: its rx and tx halves together (iperf3's
 * and the drivers' "queue 3" is a channel: rx-3 and tx-3 share the IRQ on most NICs). */
struct lr_queue_snap {
	unsigned queue;
	uint32_t valid;		/* enum lr_queue_valid */
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes, rx_drops, tx_drops;	/* interval */
	double rx_pps, tx_pps;
	int cpu;		/* the CPU its IRQ is served on, -1 unknown */
	double cpu_softirq_pct;	/* that CPU's softirq share, -1 unknown */
	/* each field's sum of every interval since the queue was first read, never reset, in
	 * LR_QV_* bit order: a consumer that missed a snapshot diffs these (CSV) */
	uint64_t cum[6];
	uint64_t base_ns;	/* CLOCK_MONOTONIC of the first reading cum[] starts from */
};

/* Qdisc figures (docs/design.md §14, stage "qdisc"; collect/qdisc.h reads them). The kernel
 * counts skbs: one GSO packet that a qdisc drops whole is one drop, one datagram only when the
 * qdisc (tbf) or the path segmented it first. */
enum lr_qdisc_counter {	/* the cumulative ones, in the order of delta[], cum[] and raw[] */
	LR_QDC_DROPS,		/* packets this qdisc (or, at a root, any qdisc under it) dropped */
	LR_QDC_OVERLIMITS,	/* times this qdisc itself throttled: a shaper over its rate */
	LR_QDC_REQUEUES,	/* packets the driver handed back (its ring was full) */
	LR_QDC_BYTES,		/* bytes sent on */
	LR_QDC_PACKETS,		/* packets sent on */
	LR_QDC__COUNT
};

#define LR_QDV_BIT(c) (1u << (c))	/* struct lr_qdisc_figures.valid bit of a counter */
enum {	/* ... and of the two gauges */
	LR_QDV_BACKLOG_BYTES = 1u << LR_QDC__COUNT,
	LR_QDV_BACKLOG_PACKETS = 1u << (LR_QDC__COUNT + 1),
};

struct lr_qdisc_figures {
	uint32_t valid;		/* LR_QDV_BIT(c) and LR_QDV_BACKLOG_*: known this interval. A
				 * counter is unknown on the first reading, and over an interval in
				 * which the qdisc was replaced (its counters restarted): dropped,
				 * never negative */
	uint64_t interval_ns;	/* what delta[] covers: the tick, or since the last good dump */
	uint64_t delta[LR_QDC__COUNT];	/* this interval's counts */
	double drops_per_s;	/* delta[LR_QDC_DROPS] over interval_ns; known with its bit */
	uint64_t backlog_bytes, backlog_packets;	/* gauges: queued at this tick's read */
	/* each counter's sum of every known interval since base_ns, never reset: a consumer that
	 * missed a snapshot diffs these and loses nothing (CSV) */
	uint32_t cum_valid;	/* LR_QDV_BIT(c): cum[c] has been known */
	uint64_t cum[LR_QDC__COUNT];
	uint64_t base_ns;	/* CLOCK_MONOTONIC of the first reading cum[] starts from; 0 none */
};

/* One qdisc of an interface as the kernel listed it (`tc -s qdisc show dev IF`). */
struct lr_qdisc_snap {
	uint32_t handle;	/* major << 16 | minor (tc's "1:" is 0x10000; 0 for a default) */
	uint32_t parent;	/* LR_QDISC_PARENT_ROOT (collect/qdisc.h) for the egress root,
				 * LR_QDISC_PARENT_INGRESS for ingress/clsact, else a class */
	char kind[16];		/* "tbf", "htb", "pfifo_fast", "mq", "noqueue", ... */
	struct lr_qdisc_figures f;
	uint32_t raw_valid;	/* LR_QDV_BIT(c): raw[c] known */
	uint64_t raw[LR_QDC__COUNT];	/* the kernel's own counters as read (tc -s's numbers);
					 * what an exporter's _total counters start from */
};

struct lr_peak {	/* of a per-second rate since start or reset; valid once n > 0 */
	double min, max, sum;	/* avg = sum / n */
	uint64_t n;
};

struct lr_iface_snap {
	char name[LR_IFNAMSIZ];
	int ifindex;
	uint32_t generation;	/* +1 each time the name came back with another ifindex */
	char kind[16];		/* "veth", "bond", "vlan", "" for physical/unknown */
	int master_ifindex;	/* 0 none */
	uint8_t operstate;	/* IF_OPER_* (RFC 2863): 0 unknown ... 6 up */
	int64_t mtu;		/* -1 unknown */
	int64_t speed_mbps;	/* -1 unknown (lo, veth, link down) */
	int duplex;		/* 0 half, 1 full, -1 unknown */
	char driver[32], driver_version[32], fw_version[32], bus_info[32];	/* "" unknown */
	int64_t ring_rx, ring_rx_max, ring_tx, ring_tx_max;			/* -1 unknown */
	uint32_t features, features_known;	/* enum lr_feature bits */
	int ethtool_err;	/* -errno why driver stats could not be read, 0 fine */

	uint64_t interval_ns;	/* the measured interval this snapshot's deltas cover */
	uint64_t valid;		/* LR_M_BIT(m): delta[m]/per_s[m] are known this interval */
	uint64_t stale;		/* LR_M_BIT(m): did not move while siblings did; per_s[m] is
				 * the rate over the last real change, delta[m] is 0 */
	uint64_t delta[LR_M__COUNT];
	double per_s[LR_M__COUNT];
	uint64_t total_valid;	/* LR_M_BIT(m): total[m] is known */
	uint64_t total[LR_M__COUNT];	/* since start or the last reset (key r) */
	/* Sum of every valid delta since this interface (generation) was first read, never
	 * reset: a consumer that missed a snapshot diffs these and loses nothing (CSV). */
	uint64_t cum_valid;
	uint64_t cum[LR_M__COUNT];
	uint64_t base_ns;	/* CLOCK_MONOTONIC of the first reading cum[] starts from */
	/* The kernel's own stats64 counters as last read (raw_valid: LR_M_BIT(m), stats64 only):
	 * cumulative since the device was created, resets included; what an exporter's _total
	 * counters start from (prom.c). */
	uint64_t raw_valid;
	uint64_t raw[LR_M__COUNT];
	struct lr_peak peak_rx_bps, peak_tx_bps, peak_rx_pps, peak_tx_pps;

	/* CPUs serving this interface (its IRQs' effective affinity, plus RPS). */
	int *serving_cpus;
	size_t n_serving_cpus;
	double softirq_max_pct;	/* busiest serving CPU (all CPUs when none known); -1 unknown */
	int softirq_cpu;	/* its number, -1 unknown */

	int numa_node;		/* the device's NUMA node; known only when numa_known */
	bool numa_known;

	struct lr_drv_counter *moved;	/* driver counters (not traffic/other) that moved */
	size_t n_moved;

	enum lr_queue_source queue_source;
	struct lr_queue_snap *queues;	/* by queue index; none when queue_source is NONE */
	size_t n_queues;

	/* Egress qdiscs. qdisc: the interface's total, which is its root qdisc's figures alone:
	 * the kernel makes a root count every drop under it (mq and mqprio add up their children
	 * when dumped; htb, prio, tbf, drr, hfsc count a child's refused enqueue as their own drop,
	 * and a child's later drops reach every ancestor through qdisc_tree_reduce_backlog), so
	 * adding any child would count its drops twice. Backlog and requeues add up the same
	 * way; overlimits are the root's own throttling only (a shaping child's are in its entry
	 * of qdiscs[]). A root replaced mid-run drops that interval. The root of a veth or lo is
	 * noqueue: it cannot queue or drop, so its 0 is a real 0.
	 * qdiscs[]: every qdisc of the interface in the kernel's order (root first), ingress and
	 * clsact too (not on the egress path: never in the total).
	 * Unknown (qdisc.valid 0, no qdiscs): --source proc, a captured tree, a replay or a peer
	 * (not carried yet), an interface with no qdisc (down), or one a kernel reply about did
	 * not parse (unknown for the rest of the run). */
	struct lr_qdisc_figures qdisc;
	struct lr_qdisc_snap *qdiscs;
	size_t n_qdiscs;

	struct lr_series hist[LR_SER__COUNT];

	size_t cap_serving, cap_moved, cap_queues, cap_qdiscs;	/* capacities: lr_snapshot_* */
};

struct lr_cpu_snap {
	int cpu;		/* the kernel's CPU number */
	uint32_t valid;		/* enum lr_cpu_valid */
	double user_pct, system_pct, irq_pct, softirq_pct, idle_pct;	/* user includes nice;
									 * idle includes iowait */
	double steal_pct;	/* given to other guests by the hypervisor; the six add up to
				 * 100; -1 unknown (no steal column) */
	uint64_t times_window_ns;	/* the percentages cover this much (>= 100 ms, see
					 * LR_CPU_WINDOW_MIN_NS), not the tick's interval */
	double net_rx_per_s, net_tx_per_s;
	double softnet_processed_per_s, softnet_dropped_per_s, softnet_squeezed_per_s;
	struct lr_cpu_raw raw;	/* the kernel's counters as read this tick (own valid bits) */
	int node;		/* NUMA node; known only with LR_CPUV_NODE in valid */
};

struct lr_stack_snap {
	uint32_t valid;		/* enum lr_stack_valid */
	double tcp_retrans_per_s, udp_in_errors_per_s, udp_rcvbuf_errors_per_s,
		udp_sndbuf_errors_per_s;
	uint64_t tcp_retrans_total, udp_in_errors_total, udp_rcvbuf_errors_total,
		udp_sndbuf_errors_total;
	/* the ledger's ip and transport witnesses (enum lr_stack_drop), valid bit
	 * LR_STACKV_DROP(d) */
	double drop_per_s[LR_SD__COUNT];
	uint64_t drop_total[LR_SD__COUNT];
};

/* One traffic stream of this process during the tick (docs/design.md §4, --streams-csv). */
struct lr_stream_snap {
	int id;			/* iperf3 stream id */
	bool sender;		/* this side sends on it */
	bool udp;
	bool valid;		/* the per-interval fields are known (not the stream's first read) */
	bool packets_unknown;	/* a TCP stream on a kernel without TCP_INFO's segment count */
	uint64_t bytes, packets;	/* this interval */
	double bps, pps;
	uint64_t retransmits, lost, out_of_order;	/* this interval */
	double jitter_ms;	/* UDP receiver; -1 unknown */
	int64_t cwnd_bytes, rtt_us;	/* TCP sender; -1 unknown */
	uint64_t start_ns;	/* CLOCK_MONOTONIC when the stream started counting, 0 unknown */
	uint64_t end_ns;	/* CLOCK_MONOTONIC when it stopped (a receiver: its last byte),
				 * 0 while it runs or unknown */
	int cpu;		/* the CPU its thread last moved data on, -1 unknown */
	int node;		/* that CPU's NUMA node, -1 unknown */
	int64_t target_bps;	/* -b of this stream, bit/s: 0 unlimited, -1 unknown */
	uint64_t length;	/* -l: bytes per UDP datagram / TCP write, 0 unknown */
	char congestion[17];	/* TCP: the data socket's congestion control, "" unknown/UDP */
	/* since the stream started, never reset: a consumer that missed a snapshot diffs these */
	uint64_t total_bytes, total_packets, total_retransmits, total_lost, total_out_of_order;
};

struct lr_snapshot {
	uint64_t seq;			/* 1, 2, ... per tick */
	uint64_t mono_ns;		/* CLOCK_MONOTONIC of this tick */
	uint64_t real_ns;		/* CLOCK_REALTIME of this tick (CSV `time`) */
	uint64_t elapsed_ns;		/* since the sampler started */
	uint64_t interval_ns;		/* measured since the previous tick */
	uint64_t target_interval_ns;	/* what the user asked for */
	uint64_t late_ns;		/* how late this tick woke after its deadline */
	enum lr_source source;

	struct lr_iface_snap *ifaces;	/* sorted by name */
	size_t n_ifaces;
	struct lr_cpu_snap *cpus;	/* sorted by CPU number */
	size_t n_cpus;
	struct lr_cpu_snap cpu_all;	/* the aggregate "cpu" line */
	struct lr_stack_snap stack;
	struct lr_tuning_snap tuning;
	struct lr_stream_snap *streams;	/* traffic of this process, when it runs any */
	size_t n_streams;
	uint32_t traffic_generation;	/* +1 when the traffic source changed (a restarted test) */
	unsigned numa_nodes;		/* NUMA nodes with CPUs; 0 unknown (no NUMA, a peer) */

	/* capacities: owned by lr_snapshot_* */
	size_t cap_ifaces, cap_cpus, cap_streams;
};

void lr_snapshot_init(struct lr_snapshot *s);
/* Shallow assignment of one interface (pointers shared) that skips the graph history when
 * neither side has any: headless runs keep none, and it is most of the struct. */
void lr_iface_snap_assign(struct lr_iface_snap *dst, const struct lr_iface_snap *src);
void lr_snapshot_free(struct lr_snapshot *s);	/* NULL-safe; leaves an empty snapshot */
/* Deep copy; reuses dst's buffers and only allocates when src is larger. 0 or -ENOMEM. */
int lr_snapshot_copy(struct lr_snapshot *dst, const struct lr_snapshot *src) LR_MUST_CHECK;

/* Helpers for consumers. */
const struct lr_iface_snap *lr_snapshot_iface(const struct lr_snapshot *s, const char *name);
/* The interface's egress root qdisc as tc names it ("tbf 8001:") into buf; false (buf "")
 * when none was listed. */
bool lr_snapshot_root_qdisc(const struct lr_iface_snap *i, char *buf, size_t len);
/* The row of CPU number cpu (cpus[] is sorted by number: a binary search), NULL if absent. */
const struct lr_cpu_snap *lr_snapshot_cpu(const struct lr_snapshot *s, int cpu);
/* Newest-first value i (0 = newest) of a series, NAN when beyond its length. */
float lr_series_get(const struct lr_series *s, uint32_t i);
/* Appends v (NAN = unknown) as the newest value, dropping the oldest when full. */
void lr_series_push(struct lr_series *s, double v);
/* Counts a per-second rate into a peak; a negative or NaN value (unknown) is not a rate. */
void lr_peak_add(struct lr_peak *p, double v);

#endif
