// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Prometheus exposition of docs/design.md §13, after node_exporter's conventions: base
 * units, `_total` counters, one # HELP and # TYPE per family, families with no series left
 * out. Counters are the exporter's own 64-bit sums per series: they start from the kernel's
 * cumulative value when a series is first seen, then add what the kernel counted between two
 * snapshots (a 64-bit counter going backwards is a reset: that interval is dropped, as the
 * sampler drops it; 32-bit softirq/softnet counters wrap). So a series never goes backwards
 * while linerate runs, and a restart of linerate is the only reset Prometheus sees. [any]
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linerate/core/array.h"
#include "linerate/present/prom.h"
#include "linerate/sample/ifrate.h"
#include "linerate/sample/rate.h"
#include "linerate/traffic/peer_wire.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"
#include "prom_priv.h"

/* ---- the series ---- */

struct ifser {
	char name[LR_IFNAMSIZ];
	int ifindex;
	uint32_t generation;
	bool present;		/* in the last snapshot fed */
	uint64_t seen_ns;	/* its mono_ns */
	uint64_t have;		/* LR_M_BIT: last[] holds a reading of this device */
	uint64_t known;		/* LR_M_BIT: acc[] is rendered */
	uint64_t last[LR_M__COUNT], acc[LR_M__COUNT];
	int64_t mtu, line_mbps;	/* line_mbps: lr_ifrate_line_mbps, -1 none */
	uint8_t operstate;
};

/* Per-CPU counters: /proc/stat columns user..steal (LR_CT_*), then these. */
enum { C_NET_TX = LR_CT_STEAL + 1, C_NET_RX, C_SN_PROCESSED, C_SN_DROPPED, C_SN_SQUEEZED, C__COUNT };

struct cpuser {
	bool present;
	uint32_t have;		/* bit c: last[c]/acc[c] known */
	uint64_t last[C__COUNT], acc[C__COUNT];
	int node;		/* NUMA node for the `node` label, -1 unknown (no label) */
};

/* A traffic stream of this process: its totals restart with each test (traffic_generation). */
enum { S_BYTES, S_PACKETS, S_RETRANS, S_LOST, S_OOO, S__COUNT };

struct strser {
	int id;
	bool sender, udp;
	bool present, have;
	uint32_t generation;
	uint64_t seen_ns;
	uint64_t last[S__COUNT], acc[S__COUNT];
	int64_t rtt_us, cwnd_bytes;
};

struct lr_prom {
	struct strser *streams;
	size_t n_streams, cap_streams;
	struct ifser *ifs;	/* sorted by name */
	size_t n_ifs, cap_ifs;
	struct cpuser *cpus;	/* indexed by the kernel's CPU number */
	size_t n_cpus, cap_cpus;
	long user_hz;		/* /proc/stat ticks per second */
	bool have_snap;
	uint64_t real_ns, interval_ns;
	uint64_t mono_ns;	/* the last local snapshot's */
	struct peer_series *peer;	/* the peer view's (side="peer"), NULL until one came */
	struct prom_queues *queues;	/* per-queue counters (prom_queues.c), NULL until a queue */
	struct prom_qdiscs *qdiscs;	/* qdisc series (prom_qdisc.c), NULL until a qdisc */
};

int lr_prom_open(struct lr_prom **out)
{
	struct lr_prom *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->user_hz = sysconf(_SC_CLK_TCK);
	if (p->user_hz <= 0)
		p->user_hz = 100;	/* USER_HZ on every Linux architecture */
	*out = p;
	return 0;
}

void lr_prom_close(struct lr_prom *p)
{
	if (!p)
		return;
	free(p->ifs);
	free(p->cpus);
	free(p->streams);
	lr_prom_peer_free(p->peer);
	lr_prom_queues_free(p->queues);
	lr_prom_qdiscs_free(p->qdiscs);
	free(p);
}

static int cmp_ifser(const void *e, const void *name)
{
	return strcmp(((const struct ifser *)e)->name, name);
}

static struct ifser *iface_get(struct lr_prom *p, const char *name)
{
	bool added;
	struct ifser *e = lr_array_sorted_get(&p->ifs, &p->n_ifs, &p->cap_ifs, sizeof(*e), name,
					      cmp_ifser, &added);

	if (e && added) {
		lr_strlcpy(e->name, name, sizeof(e->name));
		e->ifindex = -1;	/* no device yet */
	}
	return e;
}

/* Adds what one interface counted since the last snapshot fed. The kernel's stats64 counters
 * (raw[]) are the device's own; the driver sums (nic_*) exist only as the sampler's cum[],
 * which restarts from 0 with a new device. */
static void iface_update(struct ifser *e, const struct lr_iface_snap *f)
{
	/* another device under this name: re-created (new ifindex) or a new generation */
	bool same = e->ifindex >= 0 && f->generation == e->generation &&
		    !(f->ifindex > 0 && e->ifindex > 0 && f->ifindex != e->ifindex);

	if (!same)
		e->have = 0;
	for (unsigned m = 0; m < LR_M__COUNT; m++) {
		bool nic = m >= LR_M_NIC_FIFO;
		uint64_t bit = LR_M_BIT(m), cur, add;

		if (!((nic ? f->cum_valid : f->raw_valid) & bit))
			continue;
		cur = nic ? f->cum[m] : f->raw[m];
		if (!(e->have & bit))
			add = cur;	/* a device's first reading: all it counted so far */
		else if (cur >= e->last[m])
			add = cur - e->last[m];
		else
			add = nic ? cur : 0;	/* cum restarted from 0; a kernel reset: dropped */
		e->acc[m] += add;
		e->last[m] = cur;
		e->have |= bit;
		e->known |= bit;
	}
	if (f->ifindex > 0 || e->ifindex < 0)
		e->ifindex = f->ifindex > 0 ? f->ifindex : 0;
	e->generation = f->generation;
	e->mtu = f->mtu;
	e->line_mbps = lr_ifrate_line_mbps(f);
	e->operstate = f->operstate;
}

static void cpu_count(struct cpuser *c, unsigned i, uint64_t cur, unsigned width)
{
	uint64_t d;

	if (!(c->have & (1u << i)))
		c->acc[i] = cur;	/* first seen: the kernel's count since boot */
	else if (lr_rate_delta(c->last[i], cur, width, &d))
		c->acc[i] += d;
	/* else: a 64-bit counter went backwards (iowait does): nothing is added */
	c->last[i] = cur;
	c->have |= 1u << i;
}

static void cpu_update(struct cpuser *c, const struct lr_cpu_raw *r)
{
	if (r->valid & LR_CPUV_TIMES)
		for (unsigned t = LR_CT_USER; t <= LR_CT_STEAL; t++)
			if (r->time_valid & (1u << t))
				cpu_count(c, t, r->time[t], LR_CPU_TIME_WIDTH);
	if (r->valid & LR_CPUV_SOFTIRQS) {
		cpu_count(c, C_NET_TX, r->net_tx, LR_CPU_SOFTIRQ_WIDTH);
		cpu_count(c, C_NET_RX, r->net_rx, LR_CPU_SOFTIRQ_WIDTH);
	}
	if (r->valid & LR_CPUV_SOFTNET) {
		cpu_count(c, C_SN_PROCESSED, r->softnet_processed, LR_CPU_SOFTNET_WIDTH);
		cpu_count(c, C_SN_DROPPED, r->softnet_dropped, LR_CPU_SOFTNET_WIDTH);
		cpu_count(c, C_SN_SQUEEZED, r->softnet_squeezed, LR_CPU_SOFTNET_WIDTH);
	}
}

static int cpus_update(struct lr_prom *p, const struct lr_snapshot *s)
{
	size_t need = s->n_cpus ? (size_t)s->cpus[s->n_cpus - 1].cpu + 1 : 0;

	if (need > p->n_cpus) {
		/* slots past n_cpus are never written, so all of them are still zero */
		if (lr_array_grow_zero(&p->cpus, &p->cap_cpus, need, sizeof(*p->cpus)))
			return -ENOMEM;
		p->n_cpus = need;
	}
	for (size_t i = 0; i < p->n_cpus; i++)
		p->cpus[i].present = false;
	for (size_t i = 0; i < s->n_cpus; i++) {
		const struct lr_cpu_snap *k = &s->cpus[i];

		if (k->cpu < 0 || (size_t)k->cpu >= p->n_cpus)
			continue;
		p->cpus[k->cpu].present = true;
		p->cpus[k->cpu].node = (k->valid & LR_CPUV_NODE) ? k->node : -1;
		cpu_update(&p->cpus[k->cpu], &k->raw);
	}
	return 0;
}

static struct strser *stream_get(struct lr_prom *p, const struct lr_stream_snap *k)
{
	for (size_t i = 0; i < p->n_streams; i++)
		if (p->streams[i].id == k->id && p->streams[i].sender == k->sender &&
		    p->streams[i].udp == k->udp)
			return &p->streams[i];
	if (lr_array_grow(&p->streams, &p->cap_streams, p->n_streams + 1, sizeof(*p->streams)))
		return NULL;
	memset(&p->streams[p->n_streams], 0, sizeof(*p->streams));
	p->streams[p->n_streams].id = k->id;
	p->streams[p->n_streams].sender = k->sender;
	p->streams[p->n_streams].udp = k->udp;
	return &p->streams[p->n_streams++];
}

/* A new test (another generation) counts from 0 again: its totals are added, not diffed. */
static int streams_update(struct lr_prom *p, const struct lr_snapshot *s)
{
	LR_PROM_ALL_ABSENT(p->streams, p->n_streams);
	for (size_t i = 0; i < s->n_streams; i++) {
		const struct lr_stream_snap *k = &s->streams[i];
		struct strser *e = stream_get(p, k);
		const uint64_t cur[S__COUNT] = {k->total_bytes, k->total_packets,
						k->total_retransmits, k->total_lost,
						k->total_out_of_order};
		bool same;

		if (!e)
			return -ENOMEM;
		same = e->have && e->generation == s->traffic_generation;
		for (unsigned c = 0; c < S__COUNT; c++) {
			e->acc[c] += !same || cur[c] < e->last[c] ? cur[c] : cur[c] - e->last[c];
			e->last[c] = cur[c];
		}
		e->have = e->present = true;
		e->generation = s->traffic_generation;
		e->seen_ns = s->mono_ns;
		e->rtt_us = k->rtt_us;
		e->cwnd_bytes = k->cwnd_bytes;
	}
	LR_PROM_FORGET(p->streams, p->n_streams, s->mono_ns);
	return 0;
}

int lr_prom_update(struct lr_prom *p, const struct lr_snapshot *s)
{
	LR_PROM_ALL_ABSENT(p->ifs, p->n_ifs);
	for (size_t i = 0; i < s->n_ifaces; i++) {
		struct ifser *e = iface_get(p, s->ifaces[i].name);

		if (!e)
			return -ENOMEM;
		iface_update(e, &s->ifaces[i]);
		e->present = true;
		e->seen_ns = s->mono_ns;
	}
	LR_PROM_FORGET(p->ifs, p->n_ifs, s->mono_ns);
	p->have_snap = true;
	p->mono_ns = s->mono_ns;
	p->real_ns = s->real_ns;
	p->interval_ns = s->target_interval_ns;
	if (streams_update(p, s) || lr_prom_queues_update(&p->queues, s) ||
	    lr_prom_qdiscs_update(&p->qdiscs, s))
		return -ENOMEM;
	return cpus_update(p, s);
}

/* ---- the text ---- */

void lr_prom_put(struct lr_prom_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if ((size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		size_t need = b->len + (size_t)n + 1;

		/* the first growth starts at 16 kB, not at a few bytes */
		if (lr_array_grow(&b->p, &b->cap, need < 16384 ? 16384 : need, 1)) {
			b->oom = true;
			return;
		}
	}
}

/* A label value: backslash, double quote and newline escaped (interface names may hold the
 * first two). */
void lr_prom_put_label(struct lr_prom_buf *b, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			lr_prom_put(b, "\\%c", *v);
		else if (*v == '\n')
			lr_prom_put(b, "\\n");
		else
			lr_prom_put(b, "%c", *v);
	}
}

/* # HELP and # TYPE. OpenMetrics names a counter family without its _total suffix. */
void lr_prom_header(struct lr_prom_buf *b, enum lr_prom_format f, const struct prom_fam *fm)
{
	const char *sfx = fm->counter && f == LR_PROM_TEXT ? "_total" : "";

	lr_prom_put(b, "# HELP %s%s %s\n# TYPE %s%s %s\n", fm->name, sfx, fm->help, fm->name, sfx,
	    fm->counter ? "counter" : "gauge");
}

void lr_prom_sample_name(struct lr_prom_buf *b, const struct prom_fam *fm)
{
	lr_prom_put(b, "%s%s", fm->name, fm->counter ? "_total" : "");
}

/* The peer's samples of a family, after ours (a family's samples stay together). */
static void render_peer_iface_counter(const struct lr_prom *p, enum lr_prom_format f,
				      struct lr_prom_buf *b, size_t k, bool *head);
static void render_peer_cpu_times(const struct lr_prom *p, enum lr_prom_format f,
				  struct lr_prom_buf *b, bool *head);
static void render_peer_cpu_counter(const struct lr_prom *p, enum lr_prom_format f,
				    struct lr_prom_buf *b, size_t k, bool *head);

static const struct {
	struct prom_fam fm;
	enum lr_metric m;
} iface_counters[] = {
	{{"linerate_iface_rx_bytes", true, "Bytes received (the kernel's rx_bytes)."},
	 LR_M_RX_BYTES},
	{{"linerate_iface_tx_bytes", true, "Bytes sent (the kernel's tx_bytes)."}, LR_M_TX_BYTES},
	{{"linerate_iface_rx_packets", true, "Packets received (rx_packets)."}, LR_M_RX_PACKETS},
	{{"linerate_iface_tx_packets", true, "Packets sent (tx_packets)."}, LR_M_TX_PACKETS},
	{{"linerate_iface_rx_dropped", true,
	  "Received packets dropped (rx_dropped; --source proc adds rx_missed_errors)."},
	 LR_M_RX_DROPPED},
	{{"linerate_iface_tx_dropped", true, "Packets dropped on send (tx_dropped)."},
	 LR_M_TX_DROPPED},
	{{"linerate_iface_rx_errors", true, "Receive errors (rx_errors)."}, LR_M_RX_ERRORS},
	{{"linerate_iface_tx_errors", true, "Send errors (tx_errors)."}, LR_M_TX_ERRORS},
	{{"linerate_iface_rx_fifo", true, "Receive FIFO overruns (rx_fifo_errors)."},
	 LR_M_RX_FIFO_ERRORS},
	{{"linerate_iface_rx_missed", true,
	  "Packets the NIC missed for lack of buffers (rx_missed_errors)."},
	 LR_M_RX_MISSED_ERRORS},
	{{"linerate_iface_rx_over", true, "Receive ring overruns (rx_over_errors)."},
	 LR_M_RX_OVER_ERRORS},
	{{"linerate_iface_nic_fifo", true,
	  "Driver counters (ethtool -S) classified fifo, summed, since linerate started."},
	 LR_M_NIC_FIFO},
	{{"linerate_iface_nic_drop", true,
	  "Driver counters (ethtool -S) classified drop, summed, since linerate started."},
	 LR_M_NIC_DROP},
	{{"linerate_iface_nic_error", true,
	  "Driver counters (ethtool -S) classified error, summed, since linerate started."},
	 LR_M_NIC_ERROR},
	{{"linerate_iface_nic_pause", true,
	  "Driver counters (ethtool -S) classified pause, summed, since linerate started."},
	 LR_M_NIC_PAUSE},
};

static void render_iface_counters(const struct lr_prom *p, enum lr_prom_format f,
				  struct lr_prom_buf *b)
{
	for (size_t k = 0; k < LR_ARRAY_SIZE(iface_counters); k++) {
		uint64_t bit = LR_M_BIT(iface_counters[k].m);
		bool head = false;

		for (size_t i = 0; i < p->n_ifs; i++) {
			const struct ifser *e = &p->ifs[i];

			if (!e->present || !(e->known & bit))
				continue;
			if (!head)
				lr_prom_header(b, f, &iface_counters[k].fm);
			head = true;
			lr_prom_sample_name(b, &iface_counters[k].fm);
			lr_prom_put(b, "{iface=\"");
			lr_prom_put_label(b, e->name);
			lr_prom_put(b, "\"} %llu\n", (unsigned long long)e->acc[iface_counters[k].m]);
		}
		render_peer_iface_counter(p, f, b, k, &head);
	}
}

enum gauge { G_SPEED, G_MTU, G_UP };

static const struct prom_fam iface_gauges[] = {
	[G_SPEED] = {"linerate_iface_link_speed_bps", false,
		     "Link speed in bits per second when it is a line rate (absent: unknown, or nominal "
		     "as on lo, veth, bridge, virtio_net)."},
	[G_MTU] = {"linerate_iface_mtu_bytes", false, "MTU in bytes."},
	[G_UP] = {"linerate_iface_up", false,
		  "1 when the operational state (RFC 2863) is up, 0 otherwise (absent: unknown)."},
};

static bool gauge_value(const struct ifser *e, enum gauge g, long long *v)
{
	switch (g) {
	case G_SPEED:
		*v = e->line_mbps * 1000000;
		return e->line_mbps > 0;
	case G_MTU:
		*v = e->mtu;
		return e->mtu >= 0;
	case G_UP:
		*v = e->operstate == 6;	/* IF_OPER_UP */
		return e->operstate != 0;	/* IF_OPER_UNKNOWN */
	}
	return false;
}

static void render_iface_gauges(const struct lr_prom *p, enum lr_prom_format f,
				struct lr_prom_buf *b)
{
	for (size_t g = 0; g < LR_ARRAY_SIZE(iface_gauges); g++) {
		bool head = false;

		for (size_t i = 0; i < p->n_ifs; i++) {
			long long v;

			if (!p->ifs[i].present || !gauge_value(&p->ifs[i], (enum gauge)g, &v))
				continue;
			if (!head)
				lr_prom_header(b, f, &iface_gauges[g]);
			head = true;
			lr_prom_put(b, "%s{iface=\"", iface_gauges[g].name);
			lr_prom_put_label(b, p->ifs[i].name);
			lr_prom_put(b, "\"} %lld\n", v);
		}
	}
}

static const char *const cpu_modes[] = {
	[LR_CT_USER] = "user", [LR_CT_NICE] = "nice",	    [LR_CT_SYSTEM] = "system",
	[LR_CT_IDLE] = "idle", [LR_CT_IOWAIT] = "iowait",   [LR_CT_IRQ] = "irq",
	[LR_CT_SOFTIRQ] = "softirq", [LR_CT_STEAL] = "steal",
};

static const struct prom_fam cpu_seconds = {
	"linerate_cpu_seconds", true,
	"Seconds each CPU spent in each mode (/proc/stat; user and nice include guest time)."};

/* ",node=\"1\"" when the CPU's NUMA node is known, else "" (issue 19). */
static const char *node_label(const struct cpuser *k, char *buf, size_t len)
{
	if (k->node < 0)
		return "";
	snprintf(buf, len, ",node=\"%d\"", k->node);
	return buf;
}

static void render_cpu_times(const struct lr_prom *p, enum lr_prom_format f,
			     struct lr_prom_buf *b)
{
	bool head = false;

	for (size_t c = 0; c < p->n_cpus; c++) {
		const struct cpuser *k = &p->cpus[c];
		char nl[32];

		if (!k->present)
			continue;
		for (unsigned t = LR_CT_USER; t <= LR_CT_STEAL; t++) {
			uint64_t ticks = k->acc[t];

			if (!(k->have & (1u << t)))
				continue;
			if (!head)
				lr_prom_header(b, f, &cpu_seconds);
			head = true;
			lr_prom_put(b, "linerate_cpu_seconds_total{cpu=\"%zu\"%s,mode=\"%s\"} %llu.%02llu\n",
			    c, node_label(k, nl, sizeof(nl)), cpu_modes[t], (unsigned long long)(ticks / (uint64_t)p->user_hz),
			    (unsigned long long)(ticks % (uint64_t)p->user_hz * 100 /
						 (uint64_t)p->user_hz));
		}
	}
	render_peer_cpu_times(p, f, b, &head);
}

static const struct {
	struct prom_fam fm;
	unsigned idx;
	const char *label;	/* extra label, "" none */
} cpu_counters[] = {
	{{"linerate_softirqs", true, "NET_RX and NET_TX softirqs run per CPU (/proc/softirqs)."},
	 C_NET_RX, "type=\"NET_RX\""},
	{{"linerate_softirqs", true, ""}, C_NET_TX, "type=\"NET_TX\""},
	{{"linerate_softnet_processed", true,
	  "Packets processed by the CPU's backlog (/proc/net/softnet_stat column 1)."},
	 C_SN_PROCESSED, ""},
	{{"linerate_softnet_dropped", true,
	  "Packets dropped: the CPU's backlog was full (softnet_stat column 2)."},
	 C_SN_DROPPED, ""},
	{{"linerate_softnet_times_squeezed", true,
	  "NET_RX runs cut short by the budget with work left (softnet_stat column 3)."},
	 C_SN_SQUEEZED, ""},
};

static void render_cpu_counters(const struct lr_prom *p, enum lr_prom_format f,
				struct lr_prom_buf *b)
{
	bool head = false;

	for (size_t k = 0; k < LR_ARRAY_SIZE(cpu_counters); k++) {
		unsigned i = cpu_counters[k].idx;

		/* a family spread over several rows (softirqs' types) has one header */
		if (k == 0 || strcmp(cpu_counters[k - 1].fm.name, cpu_counters[k].fm.name))
			head = false;

		for (size_t c = 0; c < p->n_cpus; c++) {
			const struct cpuser *s = &p->cpus[c];
			char nl[32];

			if (!s->present || !(s->have & (1u << i)))
				continue;
			if (!head)
				lr_prom_header(b, f, &cpu_counters[k].fm);
			head = true;
			lr_prom_sample_name(b, &cpu_counters[k].fm);
			lr_prom_put(b, "{cpu=\"%zu\"%s%s%s} %llu\n", c, node_label(s, nl, sizeof(nl)),
			    cpu_counters[k].label[0] ? "," : "", cpu_counters[k].label,
			    (unsigned long long)s->acc[i]);
		}
		render_peer_cpu_counter(p, f, b, k, &head);
	}
}

/* Which stream counters mean something: bytes always, packets for UDP, retransmits for a TCP
 * sender, loss and reordering for a UDP receiver (the sequence numbers it saw). */
static bool stream_has(const struct strser *e, unsigned c)
{
	switch (c) {
	case S_BYTES:
		return true;
	case S_PACKETS:
		return e->udp;
	case S_RETRANS:
		return !e->udp && e->sender;
	default:
		return e->udp && !e->sender;
	}
}

static const struct prom_fam stream_counters[S__COUNT] = {
	[S_BYTES] = {"linerate_stream_bytes", true,
		     "Bytes of this process's traffic stream (sent or received), all tests."},
	[S_PACKETS] = {"linerate_stream_packets", true, "UDP datagrams of the stream."},
	[S_RETRANS] = {"linerate_stream_retransmits", true,
		       "TCP retransmits of the stream (tcpi_total_retrans)."},
	[S_LOST] = {"linerate_stream_lost", true,
		    "UDP datagrams lost, from the receiver's sequence numbers."},
	[S_OOO] = {"linerate_stream_out_of_order", true, "UDP datagrams received out of order."},
};

static const struct prom_fam stream_gauges[] = {
	{"linerate_stream_rtt_seconds", false, "Smoothed RTT of a TCP sending stream."},
	{"linerate_stream_cwnd_bytes", false, "Congestion window of a TCP sending stream."},
};

static void stream_labels(struct lr_prom_buf *b, const struct strser *e)
{
	lr_prom_put(b, "{stream=\"%d\",direction=\"%s\",protocol=\"%s\"}", e->id,
	    e->sender ? "send" : "recv", e->udp ? "udp" : "tcp");
}

static void render_streams(const struct lr_prom *p, enum lr_prom_format f, struct lr_prom_buf *b)
{
	for (unsigned c = 0; c < S__COUNT; c++) {
		bool head = false;

		for (size_t i = 0; i < p->n_streams; i++) {
			const struct strser *e = &p->streams[i];

			if (!e->present || !stream_has(e, c))
				continue;
			if (!head)
				lr_prom_header(b, f, &stream_counters[c]);
			head = true;
			lr_prom_sample_name(b, &stream_counters[c]);
			stream_labels(b, e);
			lr_prom_put(b, " %llu\n", (unsigned long long)e->acc[c]);
		}
	}
	for (unsigned g = 0; g < LR_ARRAY_SIZE(stream_gauges); g++) {
		bool head = false;

		for (size_t i = 0; i < p->n_streams; i++) {
			const struct strser *e = &p->streams[i];
			int64_t v = g == 0 ? e->rtt_us : e->cwnd_bytes;

			if (!e->present || e->udp || !e->sender || v < 0)
				continue;
			if (!head)
				lr_prom_header(b, f, &stream_gauges[g]);
			head = true;
			lr_prom_put(b, "%s", stream_gauges[g].name);
			stream_labels(b, e);
			if (g == 0)
				lr_prom_put(b, " %.6f\n", (double)v / 1e6);
			else
				lr_prom_put(b, " %lld\n", (long long)v);
		}
	}
}

/* ---- the peer view's series: side="peer", host (prom_peer.c keeps them) ---- */

int lr_prom_update_peer(struct lr_prom *p, const struct lr_snapshot *peer, const char *host)
{
	return lr_prom_peer_update(&p->peer, peer, host, p->mono_ns);
}

static const struct peer_series *peer_live(const struct lr_prom *p)
{
	const struct peer_series *q = p->peer;

	/* rendered while the peer's newest snapshot is as recent as the peer view wants it (a
	 * test that ended, a peer stopped, takes its series with it, as the screen marks it) */
	return q && p->mono_ns - q->seen_ns <= lr_peer_stale_bound_ns(q->interval_ns) ? q : NULL;
}

static void peer_labels(struct lr_prom_buf *b, const struct peer_series *q)
{
	lr_prom_put(b, ",side=\"peer\",host=\"");
	lr_prom_put_label(b, q->host);
	lr_prom_put(b, "\"}");
}

static void render_peer_iface_counter(const struct lr_prom *p, enum lr_prom_format f,
				      struct lr_prom_buf *b, size_t k, bool *head)
{
	const struct peer_series *q = peer_live(p);
	enum lr_metric m = iface_counters[k].m;

	for (size_t i = 0; q && i < q->n_ifs; i++) {
		const struct peer_if *e = &q->ifs[i];

		if (!e->present || !(e->known & LR_M_BIT(m)))
			continue;
		if (!*head)
			lr_prom_header(b, f, &iface_counters[k].fm);
		*head = true;
		lr_prom_sample_name(b, &iface_counters[k].fm);
		lr_prom_put(b, "{iface=\"");
		lr_prom_put_label(b, e->name);
		lr_prom_put(b, "\"");
		peer_labels(b, q);
		lr_prom_put(b, " %llu\n", (unsigned long long)e->acc[m]);
	}
}

static void render_peer_cpu_times(const struct lr_prom *p, enum lr_prom_format f,
				  struct lr_prom_buf *b, bool *head)
{
	static const char *const modes[] = {"user", "system", "irq", "softirq", "idle"};
	const struct peer_series *q = peer_live(p);

	for (size_t i = 0; q && i < q->n_cpus; i++)
		for (unsigned t = PC_USER; t <= PC_IDLE; t++) {
			const struct peer_cpu *c = &q->cpus[i];

			if (!c->present || !(c->have & (1u << t)))
				continue;
			if (!*head)
				lr_prom_header(b, f, &cpu_seconds);
			*head = true;
			lr_prom_put(b, "linerate_cpu_seconds_total{cpu=\"%d\",mode=\"%s\"", c->cpu, modes[t]);
			peer_labels(b, q);
			lr_prom_put(b, " %.3f\n", c->acc[t]);
		}
}

static void render_peer_cpu_counter(const struct lr_prom *p, enum lr_prom_format f,
				    struct lr_prom_buf *b, size_t k, bool *head)
{
	const struct peer_series *q = peer_live(p);
	unsigned idx = cpu_counters[k].idx;
	unsigned t = idx == C_NET_RX ? PC_NET_RX : idx == C_NET_TX ? PC_NET_TX
		     : idx == C_SN_PROCESSED ? PC_SN_PROCESSED : idx == C_SN_DROPPED ? PC_SN_DROPPED
		     : PC_SN_SQUEEZED;

	for (size_t i = 0; q && i < q->n_cpus; i++) {
		const struct peer_cpu *c = &q->cpus[i];

		if (!c->present || !(c->have & (1u << t)))
			continue;
		if (!*head)
			lr_prom_header(b, f, &cpu_counters[k].fm);
		*head = true;
		lr_prom_sample_name(b, &cpu_counters[k].fm);
		lr_prom_put(b, "{cpu=\"%d\"%s%s", c->cpu, cpu_counters[k].label[0] ? "," : "",
		    cpu_counters[k].label);
		peer_labels(b, q);
		lr_prom_put(b, " %.0f\n", c->acc[t]);
	}
}

static const struct prom_fam meta[] = {
	{"linerate_sample_interval_seconds", false, "The sampling interval asked for (-i)."},
	{"linerate_last_sample_timestamp_seconds", false,
	 "Wall-clock time of the newest sample served (Unix seconds)."},
};

int lr_prom_render(const struct lr_prom *p, enum lr_prom_format f, struct lr_prom_buf *b)
{
	if (p->have_snap) {
		lr_prom_header(b, f, &meta[0]);
		lr_prom_put(b, "%s %.3f\n", meta[0].name, (double)p->interval_ns / 1e9);
		lr_prom_header(b, f, &meta[1]);
		lr_prom_put(b, "%s %.3f\n", meta[1].name, (double)p->real_ns / 1e9);
		render_iface_counters(p, f, b);
		render_iface_gauges(p, f, b);
		lr_prom_queues_render(p->queues, f, b);
		lr_prom_qdiscs_render(p->qdiscs, f, b);
		render_cpu_times(p, f, b);
		render_cpu_counters(p, f, b);
		render_streams(p, f, b);
	}
	if (f == LR_PROM_OPENMETRICS)
		lr_prom_put(b, "# EOF\n");
	return b->oom ? -ENOMEM : 0;
}

void lr_prom_buf_free(struct lr_prom_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
