/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The peer-stats extension's wire format (docs/wire.md, part 2): the server's offer and the
 * sample frames it streams to the client during a test. Pure codecs over plain structs, so the
 * traffic layer carries them without knowing the sampler; decoding treats the bytes as
 * untrusted (bounded counts, exact types, ranges). [any] */
#ifndef LINERATE_PEER_WIRE_H
#define LINERATE_PEER_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/traffic/proto.h"

#define LR_PEER_VERSION		1
#define LR_PEER_OFFER_STATE	80 /* 'P': not an iperf3 state value */
#define LR_PEER_OFFER_MAX	1024
#define LR_PEER_FRAME_MAX	(1u << 20)
#define LR_PEER_MAX_IFACES	256
#define LR_PEER_MAX_CPUS	8192
/* queue rows: per interface and per frame (a 256-queue NIC's rows fit; a frame stays far
 * under LR_PEER_FRAME_MAX: ~120 bytes a queue) */
#define LR_PEER_MAX_QUEUES	 256
#define LR_PEER_MAX_QUEUES_FRAME 1024
/* the CPUs serving an interface (IRQ affinity + RPS), per interface and per frame */
#define LR_PEER_MAX_SERVING	  1024
#define LR_PEER_MAX_SERVING_FRAME 4096
#define LR_PEER_DRIVER_MAX	32
#define LR_PEER_CONG_MAX	32
#define LR_PEER_QDISC_MAX	40 /* "kind handle:" */
#define LR_PEER_HOST_MAX	65 /* nodename + NUL */
#define LR_PEER_INTERVAL_MIN_MS 50
#define LR_PEER_INTERVAL_MAX_MS 10000
#define LR_PEER_HELLO_MARK	'P'
#define LR_PEER_TAG		"peer-stats/1\n"
#define LR_PEER_TAG_LEN		13

/* Interface counters carried, cumulative (names are the wire keys, see lr_peer_ctr_name). */
enum lr_peer_ctr {
	LR_PC_RX_BYTES,
	LR_PC_TX_BYTES,
	LR_PC_RX_PACKETS,
	LR_PC_TX_PACKETS,
	LR_PC_RX_DROPPED,
	LR_PC_TX_DROPPED,
	LR_PC_RX_ERRORS,
	LR_PC_TX_ERRORS,
	LR_PC_RX_FIFO,
	LR_PC_RX_MISSED,
	LR_PC_RX_OVER,
	LR_PC_NIC_FIFO,
	LR_PC_NIC_DROP,
	LR_PC__COUNT
};

enum lr_peer_stack {
	LR_PS_TCP_RETRANS,
	LR_PS_UDP_IN_ERRORS,
	LR_PS_UDP_RCVBUF_ERRORS,
	LR_PS_UDP_SNDBUF_ERRORS,
	/* the loss ledger's ip and transport witnesses, in collect/snmp.h's enum lr_stack_drop
	 * order from LR_PS_STACK_DROP (added within version 1: absent = unknown) */
	LR_PS_IP_IN_DISCARDS,
	LR_PS_STACK_DROP = LR_PS_IP_IN_DISCARDS,
	LR_PS_IP_IN_HDR_ERRORS,
	LR_PS_IP_IN_ADDR_ERRORS,
	LR_PS_IP_REASM_FAILS,
	LR_PS_UDP_NO_PORTS,
	LR_PS_UDP_IN_CSUM_ERRORS,
	LR_PS_TCP_BACKLOG_DROP,
	LR_PS_TCP_RCVQ_DROP,
	LR_PS_TCP_ZERO_WINDOW_DROP,
	LR_PS_TCP_OFO_DROP,
	LR_PS_TCP_DSACK_RECV_SEGS,	/* spurious retransmits, not a drop (snmp.h) */
	LR_PS__COUNT
};

/* One queue of an interface: cumulative counts since base_ns (the server's first reading of
 * it), in the order rx packets, rx bytes, tx packets, tx bytes, rx drops, tx drops; bit f of
 * known: c[f] is known. */
struct lr_peer_queue {
	unsigned queue;
	uint32_t known;
	uint64_t base_ns;
	uint64_t c[6];
	int cpu; /* the CPU its IRQ is served on, -1 unknown */
	double cpu_softirq_pct; /* -1 unknown */
};

/* Link state a frame may carry (fields added within version 1: absent = unknown). */
struct lr_peer_iface {
	char name[16];
	uint32_t gen;
	uint64_t base_ns; /* server clock of the first reading the sums start from */
	int64_t mtu, speed_mbps; /* -1 unknown */
	int duplex; /* 0 half, 1 full, -1 unknown */
	int64_t ring_rx, ring_rx_max, ring_tx, ring_tx_max; /* -1 unknown */
	char driver[LR_PEER_DRIVER_MAX]; /* "" unknown */
	uint32_t features, features_known; /* the sampler's enum lr_feature bits */
	int numa_node; /* -1 unknown */
	int operstate; /* IF_OPER_* as the kernel gives it, 0..6; -1 unknown (an older peer) */
	double softirq_max_pct; /* -1 unknown */
	int softirq_cpu; /* -1 unknown */
	uint32_t known; /* bit (1 << lr_peer_ctr): c[] is known */
	uint64_t c[LR_PC__COUNT];
	/* its egress qdiscs: the root's drops since base_ns (every qdisc under it), -1 unknown
	 * (an older linerate peer, no qdisc read); the root as tc names it, "tbf 8001:" */
	int64_t qdisc_drops;
	char qdisc[LR_PEER_QDISC_MAX];
	int queue_source; /* 0 none, 1 qstats, 2 ethtool (enum lr_queue_source) */
	size_t q_first, n_q; /* its queues: the frame's queues[q_first .. q_first + n_q) */
	size_t s_first, n_s; /* its serving CPUs: the frame's serving[s_first .. + n_s) */
};

struct lr_peer_cpu {
	int cpu;
	bool has_t, has_q, has_n;
	double t[6]; /* cov_s, user, system, irq, softirq, idle seconds */
	double q[3]; /* cov_s, NET_RX, NET_TX softirqs */
	double n[4]; /* cov_s, softnet processed, dropped, squeezed */
	int node; /* NUMA node, -1 unknown */
};

/* The server's tuning sysctls (the sampler's lr_tuning_snap, which traffic/ cannot name):
 * -1 / "" unknown. */
struct lr_peer_tuning {
	int64_t rmem_max, wmem_max, netdev_max_backlog;
	int64_t tcp_rmem[3], tcp_wmem[3];
	int64_t tcp_window_scaling, tcp_timestamps, tcp_sack;
	char tcp_congestion[LR_PEER_CONG_MAX];
};

struct lr_peer_frame {
	uint64_t seq;
	uint64_t mono_ns;
	bool end;
	char host[LR_PEER_HOST_MAX];
	struct lr_peer_iface *ifaces; /* malloc'd by decode; caller's for encode */
	size_t n_ifaces;
	struct lr_peer_cpu *cpus;
	size_t n_cpus;
	struct lr_peer_queue *queues; /* every interface's, in interface order */
	size_t n_queues;
	int *serving; /* every interface's serving CPUs, in interface order */
	size_t n_serving;
	bool has_tuning;
	struct lr_peer_tuning tuning;
	bool has_stack;
	uint32_t stack_known; /* bit (1 << lr_peer_stack): stack[] is known */
	uint64_t stack[LR_PS__COUNT];
};

struct lr_peer_offer {
	unsigned version;
	unsigned interval_ms;
	uint32_t max_frame;
	uint16_t probe_port;	/* "probe_port": latency probes' UDP port; 0 = none (part 3) */
};

const char *lr_peer_ctr_name(enum lr_peer_ctr c);
/* How long the peer may be silent before its figures are stale: three of its intervals, at
 * least 2 s. One rule for the views and the metrics endpoint, so /metrics drops a stopped
 * peer's series when the screen marks it stale. */
static inline uint64_t lr_peer_stale_bound_ns(uint64_t interval_ns)
{
	uint64_t b = 3 * interval_ns;

	return b < 2 * LR_NSEC_PER_SEC ? 2 * LR_NSEC_PER_SEC : b;
}
/* A struct lr_peer_iface / lr_peer_tuning with every field unknown (-1 / ""). */
void lr_peer_iface_unknown(struct lr_peer_iface *i);
void lr_peer_tuning_unknown(struct lr_peer_tuning *t);

/* The offer's JSON body (without the state byte and length). *out malloc'd. 0 or -errno. */
int lr_peer_offer_encode(const struct lr_peer_offer *o, char **out, size_t *len) LR_MUST_CHECK;
int lr_peer_offer_decode(const char *buf, size_t len, struct lr_peer_offer *o,
			 char err[LR_PROTO_ERR_MAX]) LR_MUST_CHECK;

/* One frame's JSON body. *out malloc'd. 0 or -errno (-EINVAL: counts over the limits). */
int lr_peer_frame_encode(const struct lr_peer_frame *f, char **out, size_t *len) LR_MUST_CHECK;
/* Decodes into *f (arrays malloc'd; free with lr_peer_frame_free, also after an error).
 * 0 or -EINVAL/-E2BIG/-ENOMEM with a reason in err. */
int lr_peer_frame_decode(const char *buf, size_t len, struct lr_peer_frame *f,
			 char err[LR_PROTO_ERR_MAX]) LR_MUST_CHECK;
void lr_peer_frame_free(struct lr_peer_frame *f); /* NULL-safe; leaves it empty */

#endif
