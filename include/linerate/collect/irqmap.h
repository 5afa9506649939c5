/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which IRQs and CPUs serve an interface. IRQs come from /sys/class/net/IF/device/msi_irqs
 * (directory entries are IRQ numbers) and from /proc/interrupts rows whose action names
 * mention the interface (IF, IF-TxRx-N, IF-rx-N, IF-tx-N, drv-IF-TxRx-N, and for virtio-net
 * the device's virtioN-input.M / virtioN-output.M / virtioN-virtqueues). CPUs come from each
 * IRQ's /proc/irq/N/effective_affinity_list (fallback smp_affinity_list) and the RPS masks
 * /sys/class/net/IF/queues/rx-N/rps_cpus. Built at start and on request, not per tick.
 * Pure parsers are exposed for tests and fuzzing. [sampler] */
#ifndef LINERATE_IRQMAP_H
#define LINERATE_IRQMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/collect/cpuset.h"
#include "linerate/core/sysio.h"

/* One row of /proc/interrupts, as handed to the callback (pointers valid during the call). */
struct lr_irq_line {
	const char *label; /* "25", "NMI", "IPI0" (no colon), label_len bytes */
	size_t label_len;
	int irq;	       /* the IRQ number, -1 for named rows */
	size_t n;	       /* count columns read: ncpu, or fewer ("ERR:  0") */
	const uint64_t *count; /* count[i] is the number taken by CPU cpu[i] */
	const int *cpu;	       /* from the header "CPU0 CPU1 ..." (online CPUs only) */
	const char *desc;      /* the rest: chip, hwirq, type, "name1, name2"; desc_len bytes */
	size_t desc_len;
};

typedef int (*lr_irq_cb)(const struct lr_irq_line *line, void *arg); /* non-zero stops */

/* Per-CPU arrays the parser grows to the header's width; reuse across parses, then free. */
struct lr_irq_scratch {
	uint64_t *count;
	int *cpu;
	size_t cap;
};
void lr_irq_scratch_free(struct lr_irq_scratch *s); /* NULL-safe */

/* Parses /proc/interrupts (len bytes, NUL not needed). Rows without "label:" are skipped and
 * counted in *bad (may be NULL). Returns the number of rows, the callback's non-zero value,
 * -EINVAL when the header line ("CPU0 ...") is missing, or -ENOMEM. */
int lr_interrupts_parse(const char *buf, size_t len, struct lr_irq_scratch *s, lr_irq_cb cb,
			void *arg, unsigned *bad);

/* Decides from a row's IRQ number (-1 named rows) and the rest of its line (counts and
 * description, len bytes) whether the callback wants it; false skips the row unread. */
typedef bool (*lr_irq_want)(int irq, const char *rest, size_t len, void *arg);
/* lr_interrupts_parse that reads the counts of the rows want accepts only (want NULL: all);
 * skipped rows are counted but not handed to cb. arg goes to both. */
int lr_interrupts_parse_some(const char *buf, size_t len, struct lr_irq_scratch *s,
			     lr_irq_want want, lr_irq_cb cb, void *arg, unsigned *bad);

/* /proc/interrupts read once for a round of maps (the sampler rebuilds every interface's, one
 * per tick): the text and, for each numbered row, where its counts and its description start.
 * A map then looks at the descriptions only and reads the counts of its own rows: a 1024-CPU
 * host with 64 interfaces of 64 vectors has a 45 MB file, read and scanned once per round
 * instead of once per interface. Zero-init is empty and unread. */
struct lr_irq_row {
	int irq;
	size_t counts;	 /* offset of the text after "label:" */
	size_t eol;	 /* offset of the line's end */
	size_t desc;	 /* offset of the description */
	size_t desc_len; /* without trailing blanks */
};

struct lr_irq_rows {
	char *buf;
	size_t len, cap;
	struct lr_irq_row *row; /* numbered rows, in file order */
	size_t n, cap_row;
	struct lr_irq_scratch scratch; /* the header's CPUs; one row's counts at a time */
	size_t ncpu;
	int state; /* 0 unread, 1 read, -errno: unreadable this round */
};

/* Next map reads the file again (the start of a round). */
void lr_irq_rows_reset(struct lr_irq_rows *r);
void lr_irq_rows_free(struct lr_irq_rows *r); /* NULL-safe; leaves it empty and unread */

/* Whether a /proc/interrupts description names an action of interface ifname: a token (split
 * at blanks and commas) equal to ifname, starting with "ifname-", or containing "-ifname-"
 * or ending in "-ifname" after a driver prefix ("i40e-eth0-TxRx-3"). virtio (may be NULL or
 * "") is the interface's virtio device ("virtio2"): its "virtio2-input.N", "virtio2-output.N"
 * and "virtio2-virtqueues" tokens match too. */
bool lr_irq_desc_mentions(const char *desc, size_t len, const char *ifname, const char *virtio);

/* Which direction of its queue an IRQ serves, from its name. */
enum lr_irq_dir { LR_IRQ_DIR_BOTH, LR_IRQ_DIR_RX, LR_IRQ_DIR_TX };

/* The queue number an action name of ifname (or of its virtio device, or an mlx5 completion
 * vector "mlx5_comp3@pci:...") carries: "eth2-TxRx-3" and "i40e-eth2-TxRx-3" are queue 3 both
 * ways, "eth2-rx-3" rx, "virtio2-output.3" tx. -1 when the name carries none ("eth2", the
 * link vector; "virtio2-virtqueues"). *dir (may be NULL) gets the direction. */
int lr_irq_desc_queue(const char *desc, size_t len, const char *ifname, const char *virtio,
		      enum lr_irq_dir *dir);

/* One IRQ of the map with the queue its name carries and the CPU serving it. */
struct lr_irq_queue {
	int irq;
	int queue;		/* -1: its name carries none */
	enum lr_irq_dir dir;
	int cpu;		/* its effective affinity when that is one CPU, else the CPU that
				 * took most of its interrupts; -1 unknown */
	uint64_t took;		/* interrupts taken on the CPU that took most (0: none yet) */
	int took_cpu;		/* that CPU, -1 none */
};

struct lr_irq_cpu_count {
	int cpu;
	uint64_t count; /* interrupts of this interface's IRQs taken since boot */
};

/* The map of one interface. Zero-init (or lr_irqmap_init); lr_irqmap_build reuses the memory;
 * lr_irqmap_free releases it. */
struct lr_irqmap {
	char ifname[LR_IFNAMSIZ];
	char virtio[16]; /* "virtio2" for virtio-net devices, else "" */
	int *irqs;	 /* sorted, unique */
	size_t n_irqs, cap_irqs;
	struct lr_cpuset affinity;     /* union of the IRQs' effective affinity */
	struct lr_cpuset rps;	       /* union of the rx queues' RPS masks */
	struct lr_irq_cpu_count *took; /* CPUs with a non-zero count in /proc/interrupts,
					* sorted by CPU */
	size_t n_took, cap_took;
	struct lr_cpuset serving; /* affinity + rps; when no IRQ's affinity could be read,
				   * the CPUs in `took` + rps instead */
	bool affinity_known;	  /* at least one IRQ's affinity file was read */
	unsigned n_msi;		  /* IRQs found through msi_irqs */
	unsigned n_named;	  /* IRQs found through /proc/interrupts names */
	struct lr_irq_queue *iq;  /* the IRQs with a /proc/interrupts row, in row order */
	size_t n_iq, cap_iq;

	/* Scratch owned by lr_irqmap_*: kept between builds so that rebuilding a map of the
	 * same size (the sampler does, every few seconds) allocates nothing. */
	struct lr_irq_rows own; /* lr_irqmap_build's /proc/interrupts */
	uint64_t *per_cpu;
	size_t per_cpu_cap;
	int *msi;
	size_t n_msi_scratch, cap_msi;
	struct lr_cpuset one; /* one IRQ's affinity */
};

void lr_irqmap_init(struct lr_irqmap *m);
void lr_irqmap_free(struct lr_irqmap *m); /* NULL-safe */

/* (Re)builds m for ifname, reusing m's memory: no allocation once m has seen a map this large.
 * Reads /proc/interrupts whole, so call it every few seconds, not every tick. Missing sources
 * are not errors (a veth has no IRQs: n_irqs = 0,
 * serving = RPS CPUs or empty). Returns 0, -EINVAL (bad name) or -ENOMEM. */
int lr_irqmap_build(const struct lr_sysio *io, const char *ifname,
		    struct lr_irqmap *m) LR_MUST_CHECK;
/* lr_irqmap_build on a shared read of /proc/interrupts: rows is read by the first map that
 * needs it after lr_irq_rows_reset (a virtual interface does not) and reused by the others. */
int lr_irqmap_build_rows(const struct lr_sysio *io, const char *ifname, struct lr_irq_rows *rows,
			 struct lr_irqmap *m) LR_MUST_CHECK;

/* The CPU serving queue q of the map: the IRQ named for both directions first, then the rx
 * one, then the tx one. -1 when no IRQ names that queue or its CPU is unknown. */
int lr_irqmap_queue_cpu(const struct lr_irqmap *m, unsigned q);
/* One past the highest queue number an IRQ name carries (0: none). */
unsigned lr_irqmap_n_queues(const struct lr_irqmap *m);

#endif
