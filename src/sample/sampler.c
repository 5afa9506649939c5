// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sampler thread. Wakes on absolute CLOCK_MONOTONIC deadlines (a condition variable
 * timed wait, so a stop or an interval change wakes it at once), reads every collector,
 * turns counters into rates over the measured interval and publishes one snapshot per tick
 * on the board. It owns every collector, fd and libnl socket; the main thread talks to it
 * only through atomics and the board. A late tick is not caught up with a burst: the next
 * deadline moves forward.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linerate/sample/board.h"
#include "linerate/core/clock.h"
#include "linerate/collect/cpu.h"
#include "linerate/sample/cpuwin.h"
#include "linerate/sample/gencol.h"
#include "linerate/sample/iftable.h"
#include "linerate/sample/qdiscsrc.h"
#include "linerate/sample/qstatsrc.h"
#include "linerate/sample/queuetab.h"
#include "linerate/collect/irqmap.h"
#include "linerate/core/log.h"
#include "linerate/collect/nllink.h"
#include "linerate/collect/numa.h"
#include "linerate/collect/procnet.h"
#include "linerate/sample/queuecpu.h"
#include "linerate/sample/rate.h"
#include "linerate/sample/sampler.h"
#include "linerate/sample/snapshot.h"
#include "linerate/collect/snmp.h"
#include "linerate/core/sysio.h"
#include "linerate/collect/tuning.h"

#define TUNING_EVERY_NS (10 * LR_NSEC_PER_SEC)
#define IRQMAP_EVERY_NS (5 * LR_NSEC_PER_SEC)

struct lr_sampler {
	struct lr_sysio io;
	struct lr_board *board;
	enum lr_source source;
	struct lr_nllink *nl;		/* netlink source */
	bool relink;			/* re-dump the link list before the next counters */
	int procnet_fd;			/* proc source */
	char *procnet_buf;
	size_t procnet_len;
	struct lr_iftable *ifs;
	struct lr_cpu_reader *cpu_reader;
	struct lr_cpuwin cpuwin;		/* CPU readings: percentages over >= 100 ms */
	struct lr_snmp_reader *snmp_reader;
	struct lr_snmp_raw snmp_prev, snmp_cur;
	struct lr_gencol *gen;		/* traffic streams of this process */
	struct lr_qstatsrc *qstats;	/* per-queue counters; NULL: kernel without qstats-get */
	struct lr_qdiscsrc *qdisc;	/* every qdisc, on nl's socket; NULL: not a live kernel */
	struct lr_irqmap irq;		/* scratch for one interface at a time */
	struct lr_irq_rows irq_rows;	/* /proc/interrupts, read once per round */
	struct lr_numa numa;		/* CPU -> node, re-read with the tuning */
	struct lr_queuecpus *qcpus;	/* queue -> CPU per interface, from the IRQ maps */
	size_t irq_next;		/* round-robin position */
	uint64_t irq_due_ns;
	uint64_t tuning_due_ns;
	struct lr_snapshot work;	/* cpus[] owned here, ifaces[] views into ifs */
	uint64_t start_ns, last_ns;
	bool have_baseline;

	bool inline_ticks;		/* no thread: lr_sampler_step ticks in the caller's */
	uint64_t next_ns;		/* inline: when the next tick is due, 0 = not yet set */
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* CLOCK_MONOTONIC */
	atomic_bool stop;
	atomic_bool reset_totals;
	_Atomic uint64_t interval_ns;
};

static uint64_t clamp_interval(uint64_t ns)
{
	if (ns < LR_INTERVAL_MIN_NS)
		return LR_INTERVAL_MIN_NS;
	if (ns > LR_INTERVAL_MAX_NS)
		return LR_INTERVAL_MAX_NS;
	return ns;
}

/* ---- counter sources ---- */

static int on_link(const struct lr_link_info *link, const struct lr_link_counters *ctr, void *arg)
{
	return lr_iftable_link(arg, link);
}

static int on_counters(const struct lr_link_counters *ctr, void *arg)
{
	struct lr_sampler *s = arg;

	if (lr_iftable_counters_by_ifindex(s->ifs, ctr) == -ENOENT)
		s->relink = true;	/* a link born since the last dump: pick it up next tick */
	return 0;
}

static int read_netlink(struct lr_sampler *s)
{
	int err;

	if (lr_nllink_links_changed(s->nl) || s->relink || !s->have_baseline) {
		s->relink = false;
		lr_iftable_links_begin(s->ifs);
		err = lr_nllink_dump_links(s->nl, on_link, s->ifs);
		if (err)
			return err;
		lr_iftable_links_end(s->ifs);
	}
	return lr_nllink_dump_counters(s->nl, on_counters, s);
}

/* /proc/net/dev columns -> metrics. Its aggregated "frame" and "carrier" columns have no
 * single stats64 field: those stay unknown with this source. */
static const enum lr_metric procnet_map[LR_PN__COUNT] = {
	[LR_PN_RX_BYTES] = LR_M_RX_BYTES,
	[LR_PN_RX_PACKETS] = LR_M_RX_PACKETS,
	[LR_PN_RX_ERRS] = LR_M_RX_ERRORS,
	[LR_PN_RX_DROP] = LR_M_RX_DROPPED,
	[LR_PN_RX_FIFO] = LR_M_RX_FIFO_ERRORS,
	[LR_PN_RX_FRAME] = LR_M__COUNT,
	[LR_PN_RX_COMPRESSED] = LR_M_RX_COMPRESSED,
	[LR_PN_RX_MULTICAST] = LR_M_MULTICAST,
	[LR_PN_TX_BYTES] = LR_M_TX_BYTES,
	[LR_PN_TX_PACKETS] = LR_M_TX_PACKETS,
	[LR_PN_TX_ERRS] = LR_M_TX_ERRORS,
	[LR_PN_TX_DROP] = LR_M_TX_DROPPED,
	[LR_PN_TX_FIFO] = LR_M_TX_FIFO_ERRORS,
	[LR_PN_TX_COLLS] = LR_M_COLLISIONS,
	[LR_PN_TX_CARRIER] = LR_M__COUNT,
	[LR_PN_TX_COMPRESSED] = LR_M_TX_COMPRESSED,
};

static int on_procnet_row(const struct lr_procnet_row *row, void *arg)
{
	uint64_t v[LR_M__COUNT] = {0}, valid = 0;

	for (unsigned c = 0; c < LR_PN__COUNT; c++) {
		if (procnet_map[c] == LR_M__COUNT)
			continue;
		v[procnet_map[c]] = row->v[c];
		valid |= LR_M_BIT(procnet_map[c]);
	}
	return lr_iftable_counters_by_name(arg, row->name, v, valid);
}

static int read_procnet(struct lr_sampler *s)
{
	/* 64 MiB holds /proc/net/dev of ~400k interfaces */
	ssize_t n = lr_sysio_pread_grow(&s->io, s->procnet_fd, &s->procnet_buf, &s->procnet_len,
					64u << 20);
	int rows;

	if (n < 0)
		return (int)n;
	rows = lr_procnet_parse(s->procnet_buf, (size_t)n, on_procnet_row, s->ifs, NULL);
	if (rows < 0)
		return rows;
	lr_iftable_drop_unseen(s->ifs);
	return 0;
}

/* ---- CPUs and the stack ---- */

static void stack_field(struct lr_stack_snap *st, uint32_t bit, uint64_t a, uint64_t b,
			uint64_t dt_ns, double *per_s, uint64_t *total, uint32_t valid_both)
{
	uint64_t d;

	if (!(valid_both & bit) || !lr_rate_delta(a, b, LR_SNMP_WIDTH, &d))
		return;
	*per_s = lr_rate_per_sec(d, dt_ns);
	*total += d;
	st->valid |= bit;
}

static void build_stack(struct lr_sampler *s, uint64_t dt_ns)
{
	struct lr_stack_snap *st = &s->work.stack;
	const struct lr_snmp_raw *a = &s->snmp_prev, *b = &s->snmp_cur;
	uint32_t both = a->valid & b->valid;

	st->valid = 0;
	stack_field(st, LR_STACKV_TCP_RETRANS, a->tcp_retrans, b->tcp_retrans, dt_ns,
		    &st->tcp_retrans_per_s, &st->tcp_retrans_total, both);
	stack_field(st, LR_STACKV_UDP_IN_ERRORS, a->udp_in_errors, b->udp_in_errors, dt_ns,
		    &st->udp_in_errors_per_s, &st->udp_in_errors_total, both);
	stack_field(st, LR_STACKV_UDP_RCVBUF, a->udp_rcvbuf_errors, b->udp_rcvbuf_errors, dt_ns,
		    &st->udp_rcvbuf_errors_per_s, &st->udp_rcvbuf_errors_total, both);
	stack_field(st, LR_STACKV_UDP_SNDBUF, a->udp_sndbuf_errors, b->udp_sndbuf_errors, dt_ns,
		    &st->udp_sndbuf_errors_per_s, &st->udp_sndbuf_errors_total, both);
	for (unsigned d = 0; d < LR_SD__COUNT; d++)
		stack_field(st, LR_STACKV_DROP(d), a->drop[d], b->drop[d], dt_ns,
			    &st->drop_per_s[d], &st->drop_total[d], both);
}

/* One interface's IRQ map per call, each interface every IRQMAP_EVERY_NS. A round reads
 * /proc/interrupts once for all its interfaces (megabytes on a host with a thousand CPUs). */
static void refresh_irqmap(struct lr_sampler *s, uint64_t now_ns)
{
	const char *name;

	if (now_ns < s->irq_due_ns)
		return;
	if (s->irq_next == 0)
		lr_irq_rows_reset(&s->irq_rows);
	name = lr_iftable_name(s->ifs, s->irq_next);
	if (!name) {
		lr_queuecpus_prune(s->qcpus);
		s->irq_next = 0;
		s->irq_due_ns = now_ns + IRQMAP_EVERY_NS;
		return;
	}
	s->irq_next++;
	if (lr_iftable_set_numa_node(s->ifs, name, lr_numa_iface_node(&s->io, name)))
		lr_log(LR_LOG_DEBUG, "%s: gone before its NUMA node was read", name);
	if (lr_irqmap_build_rows(&s->io, name, &s->irq_rows, &s->irq) == 0 &&
	    (lr_iftable_set_serving(s->ifs, name, s->irq.serving.cpu, s->irq.serving.n) == -ENOMEM ||
	     lr_queuecpus_set(s->qcpus, name, &s->irq) == -ENOMEM))
		lr_log(LR_LOG_WARN, "%s: out of memory for the IRQ map", name);
}

/* Each CPU's NUMA node and the count of nodes with CPUs (consumers show NUMA only from two
 * nodes on, so a machine without NUMA shows nothing of it). */
static void numa_nodes(struct lr_sampler *s)
{
	struct lr_snapshot *w = &s->work;

	w->numa_nodes = s->numa.n_nodes;
	for (size_t c = 0; c < w->n_cpus; c++) {
		int node = lr_numa_cpu_node(&s->numa, w->cpus[c].cpu);

		w->cpus[c].node = node;
		if (node >= 0)
			w->cpus[c].valid |= LR_CPUV_NODE;
	}
	for (size_t k = 0; k < w->n_streams; k++)
		w->streams[k].node = lr_numa_cpu_node(&s->numa, w->streams[k].cpu);
}

/* The busiest CPU in softirq among those serving each interface (all CPUs when none known).
 * Both lists are sorted by CPU number: one merge walk, linear in CPUs. */
static void hottest_softirq(struct lr_snapshot *w)
{
	for (size_t i = 0; i < w->n_ifaces; i++) {
		struct lr_iface_snap *f = &w->ifaces[i];
		double best = -1;
		int cpu = -1;
		size_t j = 0;

		for (size_t c = 0; c < w->n_cpus; c++) {
			const struct lr_cpu_snap *k = &w->cpus[c];

			if (f->n_serving_cpus) {
				while (j < f->n_serving_cpus && f->serving_cpus[j] < k->cpu)
					j++;
				if (j == f->n_serving_cpus)
					break;
				if (f->serving_cpus[j] != k->cpu)
					continue;
			}
			if ((k->valid & LR_CPUV_TIMES) && k->softirq_pct > best) {
				best = k->softirq_pct;
				cpu = k->cpu;
			}
		}
		f->softirq_max_pct = best;
		f->softirq_cpu = cpu;
	}
}

int lr_sampler_tick(struct lr_sampler *s, uint64_t now_ns)
{
	uint64_t real_ns = lr_clock_real_ns();	/* next to now_ns, before the collectors run */
	bool first = !s->have_baseline;
	uint64_t dt_ns = first ? 0 : now_ns - s->last_ns;
	int err;

	if (atomic_exchange(&s->reset_totals, false)) {
		lr_iftable_reset_totals(s->ifs);
		memset(&s->work.stack, 0, sizeof(s->work.stack));
	}
	err = s->source == LR_SOURCE_NETLINK ? read_netlink(s) : read_procnet(s);
	if (err && first)
		return err;
	if (err)
		lr_log(LR_LOG_WARN, "reading interface counters: %s", strerror(-err));
	if (s->cpu_reader && lr_cpu_reader_read(s->cpu_reader, lr_cpuwin_slot(&s->cpuwin)) < 0)
		lr_log(LR_LOG_DEBUG, "per-CPU counters unreadable this tick");
	lr_cpuwin_push(&s->cpuwin, now_ns);
	if (s->snmp_reader && lr_snmp_reader_read(s->snmp_reader, &s->snmp_cur) < 0)
		lr_log(LR_LOG_DEBUG, "/proc/net/snmp unreadable this tick");
	if (now_ns >= s->tuning_due_ns) {
		lr_tuning_read(&s->io, &s->work.tuning);
		if (lr_numa_read(&s->io, &s->numa) < 0)
			lr_log(LR_LOG_WARN, "out of memory for the NUMA topology");
		s->tuning_due_ns = now_ns + TUNING_EVERY_NS;
	}
	refresh_irqmap(s, now_ns);
	err = lr_iftable_finish(s->ifs, now_ns, dt_ns, first, &s->work);
	if (err)
		return err;
	lr_qstatsrc_tick(s->qstats, now_ns, dt_ns, first, &s->work);
	lr_qdiscsrc_tick(s->qdisc, s->nl, now_ns, first, &s->work);
	if (!first) {
		err = lr_cpuwin_build(&s->cpuwin, &s->work, dt_ns);
		if (err)
			return err;
		build_stack(s, dt_ns);
		hottest_softirq(&s->work);
		for (size_t i = 0; i < s->work.n_ifaces; i++) {
			struct lr_iface_snap *f = &s->work.ifaces[i];
			size_t nq = 0;
			const int *qcpu = f->n_queues ? lr_queuecpus_get(s->qcpus, f->name, &nq) : NULL;

			lr_queuetab_cpus(f, &s->work, qcpu, nq);
		}
		err = lr_gencol_read(s->gen, dt_ns, &s->work);
		if (err)
			return err;
		numa_nodes(s);	/* after the streams: their CPUs' nodes too */
		s->work.mono_ns = now_ns;
		s->work.real_ns = real_ns;
		s->work.elapsed_ns = now_ns - s->start_ns;
		s->work.interval_ns = dt_ns;
		s->work.target_interval_ns = atomic_load(&s->interval_ns);
		s->work.source = s->source;
		err = lr_board_publish(s->board, &s->work);
		if (err)
			return err;
	} else {
		s->start_ns = now_ns;
	}
	s->snmp_prev = s->snmp_cur;
	s->last_ns = now_ns;
	s->have_baseline = true;
	return 0;
}

/* ---- the thread, or its loop in the caller's ---- */

/* The tick that was due at next, taken now; returns when the following one is due, on the
 * absolute-deadline schedule (an overrun skips ahead, never bursts to catch up). */
static uint64_t take_due_tick(struct lr_sampler *s, uint64_t next, uint64_t now)
{
	uint64_t interval;

	s->work.late_ns = now > next ? now - next : 0;
	if (lr_sampler_tick(s, now))
		lr_log(LR_LOG_ERR, "sampler tick failed");
	interval = atomic_load(&s->interval_ns);
	next += interval;
	return next <= now ? now + interval : next;
}

bool lr_sampler_inline(const struct lr_sampler *s)
{
	return s->inline_ticks;
}

int lr_sampler_step(struct lr_sampler *s, uint64_t timeout_ns)
{
	uint64_t interval = atomic_load(&s->interval_ns), now = lr_clock_mono_ns();
	uint64_t next = s->next_ns ? s->next_ns : s->last_ns + interval;

	if (now < next) {
		uint64_t until = next - now > timeout_ns ? now + timeout_ns : next;
		struct timespec ts = {.tv_sec = (time_t)(until / LR_NSEC_PER_SEC),
				      .tv_nsec = (long)(until % LR_NSEC_PER_SEC)};

		/* a signal cuts the sleep short: the caller looks at its flag and comes back */
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		now = lr_clock_mono_ns();
		if (now < next)
			return 0;
	}
	s->next_ns = take_due_tick(s, next, now);
	return 1;
}

static void *sampler_main(void *arg)
{
	struct lr_sampler *s = arg;
	uint64_t next = s->last_ns + atomic_load(&s->interval_ns);
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);	/* signals are main's business */
	pthread_mutex_lock(&s->lock);
	while (!atomic_load(&s->stop)) {
		struct timespec ts = {.tv_sec = (time_t)(next / LR_NSEC_PER_SEC),
				      .tv_nsec = (long)(next % LR_NSEC_PER_SEC)};
		if (pthread_cond_timedwait(&s->wake, &s->lock, &ts) != ETIMEDOUT) {
			/* woken: stop, or a new interval counted from the last tick */
			next = s->last_ns + atomic_load(&s->interval_ns);
			if (lr_clock_mono_ns() < next)
				continue;
		}
		if (atomic_load(&s->stop))
			break;
		pthread_mutex_unlock(&s->lock);
		next = take_due_tick(s, next, lr_clock_mono_ns());
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static int open_sources(struct lr_sampler *s, const struct lr_sampler_opts *cfg)
{
	struct lr_iftable_opts o = {
		.io = &s->io,
		.ethtool = !cfg->procfs && !cfg->sysfs,	/* a replayed tree has no live driver */
		.sysfs_gauges = s->source == LR_SOURCE_PROC,
		.history = cfg->history,
		.only = cfg->ifaces,
	};
	int err;

	err = lr_iftable_open(&s->ifs, &o);
	if (!err)
		err = lr_gencol_open(&s->gen);
	if (err)
		return err;
	if (s->source == LR_SOURCE_NETLINK) {
		err = lr_nllink_open(&s->nl);
		if (err)
			return err;
		if (o.ethtool && !cfg->skip_queues && lr_qstatsrc_open(&s->qstats))	/* live only */
			s->qstats = NULL;	/* before 6.8: the drivers' ethtool names only */
		if (o.ethtool && lr_qdiscsrc_open(&s->qdisc))
			return -ENOMEM;
	} else {
		s->procnet_fd = s->io.open_ro(&s->io, "/proc/net/dev");
		if (s->procnet_fd < 0) {
			lr_log(LR_LOG_ERR, "cannot open %s/net/dev: %s", s->io.proc_root,
			       strerror(-s->procnet_fd));
			return s->procnet_fd;
		}
		s->procnet_len = 16384;
		s->procnet_buf = malloc(s->procnet_len);
		if (!s->procnet_buf)
			return -ENOMEM;
	}
	if (lr_cpu_reader_open(&s->cpu_reader, &s->io))
		s->cpu_reader = NULL;	/* logged by the reader; CPU columns stay unknown */
	if (cfg->skip_stack || lr_snmp_reader_open(&s->snmp_reader, &s->io))
		s->snmp_reader = NULL;	/* the stack's counters stay unknown */
	return 0;
}

int lr_sampler_open(struct lr_sampler **out, const struct lr_sampler_opts *cfg,
		    struct lr_board *board)
{
	struct lr_sampler *s = calloc(1, sizeof(*s));
	pthread_condattr_t attr;
	int err;

	if (!s)
		return -ENOMEM;
	s->procnet_fd = -1;
	s->board = board;
	atomic_init(&s->interval_ns, clamp_interval(cfg->interval_ns));
	atomic_init(&s->stop, false);
	atomic_init(&s->reset_totals, false);
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &attr);
	pthread_condattr_destroy(&attr);
	lr_cpuwin_init(&s->cpuwin);
	lr_irqmap_init(&s->irq);
	lr_numa_init(&s->numa);
	lr_snapshot_init(&s->work);
	s->qcpus = lr_queuecpus_new();
	/* a captured tree has no netlink: --procfs implies the /proc/net/dev source */
	s->source = cfg->procfs ? LR_SOURCE_PROC : cfg->source;
	s->inline_ticks = cfg->inline_ticks;
	err = s->qcpus ? lr_sysio_real_init(&s->io, cfg->procfs, cfg->sysfs) : -ENOMEM;
	if (!err)
		err = open_sources(s, cfg);
	if (!err)
		err = lr_sampler_tick(s, lr_clock_mono_ns());	/* the baseline */
	if (!err && cfg->ifaces) {
		char name[LR_IFNAMSIZ] = "";
		size_t missing = lr_iftable_missing(s->ifs, name, sizeof(name));

		if (missing && lr_iftable_name(s->ifs, 0) == NULL) {
			lr_log(LR_LOG_ERR, "-I: no interface named '%s'", name);
			err = -ENODEV;
		} else if (missing) {
			lr_log(LR_LOG_WARN, "-I: no interface named '%s' (yet)", name);
		}
	}
	if (err) {
		lr_sampler_close(s);
		return err;
	}
	*out = s;
	return 0;
}

int lr_sampler_start(struct lr_sampler *s)
{
	int err;

	if (s->inline_ticks)
		return 0;
	err = pthread_create(&s->thread, NULL, sampler_main, s);

	if (err)
		return -err;
	s->running = true;
	return 0;
}

void lr_sampler_stop(struct lr_sampler *s)
{
	if (!s || !s->running)
		return;
	pthread_mutex_lock(&s->lock);
	atomic_store(&s->stop, true);
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->running = false;
}

void lr_sampler_close(struct lr_sampler *s)
{
	if (!s)
		return;
	lr_sampler_stop(s);
	lr_nllink_close(s->nl);
	lr_qstatsrc_close(s->qstats);
	lr_qdiscsrc_close(s->qdisc);
	if (s->procnet_fd >= 0)
		s->io.close(&s->io, s->procnet_fd);
	free(s->procnet_buf);
	lr_iftable_close(s->ifs);
	lr_gencol_close(s->gen);
	lr_cpu_reader_close(s->cpu_reader);
	lr_snmp_reader_close(s->snmp_reader);
	lr_cpuwin_free(&s->cpuwin);
	lr_irqmap_free(&s->irq);
	lr_irq_rows_free(&s->irq_rows);
	lr_numa_free(&s->numa);
	lr_queuecpus_free(s->qcpus);
	free(s->work.cpus);	/* ifaces[] belongs to the table */
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

void lr_sampler_set_interval(struct lr_sampler *s, uint64_t interval_ns)
{
	pthread_mutex_lock(&s->lock);
	atomic_store(&s->interval_ns, clamp_interval(interval_ns));
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

uint64_t lr_sampler_interval(const struct lr_sampler *s)
{
	return atomic_load(&s->interval_ns);
}

void lr_sampler_set_traffic(struct lr_sampler *s, const struct lr_gen_source *src)
{
	lr_gencol_set_source(s->gen, src);
}

void lr_sampler_reset_totals(struct lr_sampler *s)
{
	atomic_store(&s->reset_totals, true);
}
