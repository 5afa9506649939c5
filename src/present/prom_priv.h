/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The exporter's parts beside prom.c: the peer series (prom_peer.c: the peer view's snapshots,
 * docs/wire.md (part 2), kept as counters that never go backwards, labelled side="peer" and the
 * peer's host), the per-queue counters (prom_queues.c), the qdiscs (prom_qdisc.c), and prom.c's
 * text writers they share.
 * Private to src/present/prom*.c. [present] */
#ifndef LINERATE_PROM_PRIV_H
#define LINERATE_PROM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/present/prom.h"
#include "linerate/sample/snapshot.h"

/* A series table's entries (any struct with `bool present` and `uint64_t seen_ns`): all marked
 * absent before a snapshot is folded in; afterwards the ones neither in it nor seen within
 * LR_PROM_FORGET_NS of its now_ns are forgotten, the rest kept in order (a host creating
 * veths by the thousand stays bounded). */
#define LR_PROM_ALL_ABSENT(arr, n)                                                              \
	do {                                                                                   \
		for (size_t i_ = 0; i_ < (n); i_++)                                            \
			(arr)[i_].present = false;                                             \
	} while (0)
#define LR_PROM_FORGET(arr, n, now_ns)                                                          \
	do {                                                                                   \
		size_t kept_ = 0;                                                              \
		for (size_t i_ = 0; i_ < (n); i_++)                                            \
			if ((arr)[i_].present || (now_ns) - (arr)[i_].seen_ns < LR_PROM_FORGET_NS) \
				(arr)[kept_++] = (arr)[i_];                                    \
		(n) = kept_;                                                                   \
	} while (0)

/* A metric family: its name (counters' samples add _total), kind and # HELP text. */
struct prom_fam {
	const char *name;
	bool counter;
	const char *help;
};

/* prom.c's writers: printf into b; a label value escaped; # HELP and # TYPE (OpenMetrics
 * names a counter family without _total); a sample's metric name. */
void lr_prom_put(struct lr_prom_buf *b, const char *fmt, ...) LR_PRINTF(2, 3);
void lr_prom_put_label(struct lr_prom_buf *b, const char *v);
void lr_prom_header(struct lr_prom_buf *b, enum lr_prom_format f, const struct prom_fam *fm);
void lr_prom_sample_name(struct lr_prom_buf *b, const struct prom_fam *fm);

struct prom_queues;
/* Folds the snapshot's queues in (*q allocated when the first queue shows). 0 or -ENOMEM. */
int lr_prom_queues_update(struct prom_queues **q, const struct lr_snapshot *s);
/* The queue families of the last snapshot fed (q NULL: none). */
void lr_prom_queues_render(const struct prom_queues *q, enum lr_prom_format f,
			   struct lr_prom_buf *b);
void lr_prom_queues_free(struct prom_queues *q);	/* NULL-safe */

struct prom_qdiscs;
/* The same for every interface's qdiscs (prom_qdisc.c). */
int lr_prom_qdiscs_update(struct prom_qdiscs **q, const struct lr_snapshot *s);
void lr_prom_qdiscs_render(const struct prom_qdiscs *q, enum lr_prom_format f,
			   struct lr_prom_buf *b);
void lr_prom_qdiscs_free(struct prom_qdiscs *q);	/* NULL-safe */


struct peer_if {
	char name[LR_IFNAMSIZ];
	uint32_t generation;
	uint64_t base_ns;	/* the peer's first reading its sums start from (a new test: new) */
	bool present;		/* in the peer's newest snapshot */
	uint64_t have;		/* LR_M_BIT: last[] holds a sum of this base */
	uint64_t known;		/* LR_M_BIT: acc[] is rendered */
	uint64_t last[LR_M__COUNT], acc[LR_M__COUNT];
};

/* What a peer frame carries per CPU (user includes nice, idle iowait: docs/wire.md (part 2)). */
enum { PC_USER, PC_SYSTEM, PC_IRQ, PC_SOFTIRQ, PC_IDLE, PC_NET_RX, PC_NET_TX, PC_SN_PROCESSED,
       PC_SN_DROPPED, PC_SN_SQUEEZED, PC__COUNT };

struct peer_cpu {
	int cpu;
	bool present;
	uint32_t have;		/* bit PC_*: acc[] is rendered */
	double acc[PC__COUNT];	/* seconds or events: the snapshot's rates over its interval */
};

struct peer_series {
	char host[64];
	uint64_t seen_ns;	/* local mono when the newest peer snapshot came */
	uint64_t interval_ns;	/* its sampling interval: how soon silence makes it stale */
	uint64_t last_seq, last_mono_ns;	/* that snapshot's: the same one fed again is skipped */
	struct peer_if *ifs;
	size_t n_ifs, cap_ifs;
	struct peer_cpu *cpus;	/* sorted by cpu */
	size_t n_cpus, cap_cpus;
};

/* Folds the peer's snapshot in (*q allocated on first use); the one folded last, fed again,
 * changes nothing. 0 or -ENOMEM. */
int lr_prom_peer_update(struct peer_series **q, const struct lr_snapshot *peer, const char *host,
			uint64_t local_mono_ns);
void lr_prom_peer_free(struct peer_series *q);	/* NULL-safe */

#endif
