/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-CPU counters: /proc/stat times, /proc/softirqs NET_RX/NET_TX, /proc/net/softnet_stat.
 * Pure parsers fill a table indexed by the kernel's CPU number; a reader keeps the three files
 * open and re-reads them each tick without allocating (the table only grows when a higher CPU
 * number than ever before shows up). Raw counters only: rates are the sampler's job. [sampler] */
#ifndef LINERATE_CPU_H
#define LINERATE_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/core/sysio.h"

/* LR_CPUV_NODE: the snapshot's `node` is known (NUMA topology, collect/numa.h) */
enum lr_cpu_valid { LR_CPUV_TIMES = 1, LR_CPUV_SOFTIRQS = 2, LR_CPUV_SOFTNET = 4, LR_CPUV_NODE = 8 };

/* /proc/stat column order, USER_HZ ticks (u64 in the kernel). */
enum lr_cpu_time {
	LR_CT_USER, /* includes guest */
	LR_CT_NICE, /* includes guest_nice */
	LR_CT_SYSTEM,
	LR_CT_IDLE,
	LR_CT_IOWAIT, /* may go backwards (Documentation/filesystems/proc.rst) */
	LR_CT_IRQ,
	LR_CT_SOFTIRQ,
	LR_CT_STEAL,	  /* 2.6.11 */
	LR_CT_GUEST,	  /* 2.6.24 */
	LR_CT_GUEST_NICE, /* 2.6.33 */
	LR_CT__COUNT
};

/* Counter widths for the sampler's wrap handling (lr_rate_delta's `width`): the kernel keeps
 * softirq counts as unsigned int and prints softnet_stat as %08x of 32-bit fields. */
#define LR_CPU_TIME_WIDTH    64
#define LR_CPU_SOFTIRQ_WIDTH 32
#define LR_CPU_SOFTNET_WIDTH 32

/* CPU numbers at or above this are treated as malformed input (MAXSMP kernels have 8192). */
#define LR_CPU_MAX 16384

struct lr_cpu_raw {
	bool present; /* online: LR_CPUV_TIMES or LR_CPUV_SOFTNET set (see below) */
	uint64_t time[LR_CT__COUNT];
	uint32_t time_valid;	 /* bit (1u << enum lr_cpu_time): the line had that column */
	uint64_t net_rx, net_tx; /* /proc/softirqs NET_RX / NET_TX rows */
	uint64_t softnet_processed, softnet_dropped, softnet_squeezed; /* cols 0, 1, 2 */
	uint32_t valid;						       /* enum lr_cpu_valid */
};

/* Indexed by the kernel's CPU number. `all` is the aggregate "cpu" line of /proc/stat (its
 * LR_CPUV_TIMES bit only). cpu[0..n) are meaningful; n = highest CPU number seen + 1.
 * Owned by the caller; zero-initialise (or lr_cpu_table_init), free with lr_cpu_table_free. */
struct lr_cpu_table {
	struct lr_cpu_raw all;
	struct lr_cpu_raw *cpu;
	size_t n;
	size_t cap;
};

void lr_cpu_table_init(struct lr_cpu_table *t);
void lr_cpu_table_free(struct lr_cpu_table *t); /* NULL-safe; leaves an empty table */
/* Makes cpu[0..ncpu) addressable (new slots zeroed). For pre-sizing. 0 or -ENOMEM. */
int lr_cpu_table_reserve(struct lr_cpu_table *t, size_t ncpu) LR_MUST_CHECK;

/*
 * Pure parsers. buf holds len bytes (NUL not needed). Each one first clears its own valid bit
 * in every slot (a CPU that went offline disappears), then sets it for the CPUs it read; slots
 * whose other bits remain keep their values. Returns the number of CPUs read (>= 0), -EINVAL
 * when the text is not that file at all, -ENOMEM when the table could not grow. Malformed
 * lines are skipped.
 *
 * `present` marks the online CPUs: those /proc/stat or softnet_stat listed. /proc/softirqs has
 * a column for every possible CPU (VMs often have many more possible than online), so a CPU
 * known only from softirqs is not present, unless neither of the other files was read.
 *
 * lr_cpu_parse_stat: "cpu" and "cpuN" lines with 4 to 10 columns (7: pre-2.6.11, 8: + steal,
 *   9: + guest, 10: + guest_nice); time_valid says which. Only online CPUs are listed.
 * lr_cpu_parse_softirqs: the header "CPU0 CPU1 ..." names the CPU of each column (every
 *   possible CPU, online or not); the NET_RX and NET_TX rows are read. Both rows must be there
 *   for a CPU to get LR_CPUV_SOFTIRQS.
 * lr_cpu_parse_softnet: one hex row per online CPU, 9/10/11/13/15 columns (any count >= 3 is
 *   accepted). With 13 or more columns column 12 is the CPU number. With fewer (kernels
 *   before 5.10, except RHEL 8.5+ backports) the row carries no CPU number: row i is mapped to
 *   the i-th online CPU, taken from the table's LR_CPUV_TIMES slots when /proc/stat was parsed
 *   into it first, else to CPU i. LIMITATION: if CPUs went offline or online between the
 *   /proc/stat and softnet_stat reads, or stat was not read, old-kernel rows may be attributed
 *   to the wrong CPU.
 */
int lr_cpu_parse_stat(const char *buf, size_t len, struct lr_cpu_table *t);
int lr_cpu_parse_softirqs(const char *buf, size_t len, struct lr_cpu_table *t);
int lr_cpu_parse_softnet(const char *buf, size_t len, struct lr_cpu_table *t);

/* Keeps /proc/stat, /proc/softirqs and /proc/net/softnet_stat open. Opaque. */
struct lr_cpu_reader;

/* Opens the three files and sizes the buffers. A missing file is logged once (LR_LOG_WARN)
 * and its fields stay invalid; fails (-errno) only when none can be opened or on -ENOMEM.
 * io must outlive the reader. */
int lr_cpu_reader_open(struct lr_cpu_reader **out, const struct lr_sysio *io) LR_MUST_CHECK;
/* Re-reads the open files into t (stat first, so softnet rows of old kernels map to online
 * CPUs). Does not allocate unless a file outgrew its buffer or a higher CPU number appeared.
 * Returns 0 when at least one file was parsed, else the first -errno. */
int lr_cpu_reader_read(struct lr_cpu_reader *r, struct lr_cpu_table *t);
void lr_cpu_reader_close(struct lr_cpu_reader *r); /* NULL-safe */

/*
 * Percentages of the time between two readings of one CPU (or `all`): user includes nice (and
 * so guest, which the kernel already counts inside user/nice); idle includes iowait. The total
 * is user+nice+system+idle+iowait+irq+softirq+steal (guest columns are not added again), so
 * the five results sum to 100 minus steal%. Returns false (outputs untouched) when either
 * reading lacks LR_CPUV_TIMES, the total delta is 0, or a counter went backwards (CPU
 * hotplug, counter reset). iowait alone going backwards is a documented kernel quirk: it is
 * then folded into idle instead of failing, as long as idle + iowait did not go backwards.
 * Any output pointer may be NULL.
 */
bool lr_cpu_pct(const struct lr_cpu_raw *prev, const struct lr_cpu_raw *cur, double *user,
		double *system, double *irq, double *softirq, double *idle);
/* The same, and the time a hypervisor gave to other guests (steal) as a sixth share: the six
 * add up to 100. *steal is -1 when the lines have no steal column (before 2.6.11). */
bool lr_cpu_pct_steal(const struct lr_cpu_raw *prev, const struct lr_cpu_raw *cur, double *user,
		      double *system, double *irq, double *softirq, double *idle, double *steal);

#endif
