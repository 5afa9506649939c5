// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Queue -> CPU per interface, from the IRQ maps. Entries are sorted by name so that a tick's
 * lookups are a binary search each, whatever the number of interfaces.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/irqmap.h"
#include "linerate/core/array.h"
#include "linerate/core/strutil.h"
#include "linerate/sample/queuecpu.h"

struct entry {
	char name[LR_IFNAMSIZ];
	int *cpu;
	size_t n, cap;
	bool seen; /* set since the last prune */
};

struct lr_queuecpus {
	struct entry *e;
	size_t n, cap;
};

struct lr_queuecpus *lr_queuecpus_new(void)
{
	return calloc(1, sizeof(struct lr_queuecpus));
}

void lr_queuecpus_free(struct lr_queuecpus *qc)
{
	if (!qc)
		return;
	for (size_t i = 0; i < qc->n; i++)
		free(qc->e[i].cpu);
	free(qc->e);
	free(qc);
}

static int cmp_entry(const void *e, const void *name)
{
	return strcmp(((const struct entry *)e)->name, name);
}

static size_t find(const struct lr_queuecpus *qc, const char *name, bool *found)
{
	return lr_array_find(qc->e, qc->n, sizeof(*qc->e), name, cmp_entry, found);
}

static void remove_at(struct lr_queuecpus *qc, size_t i)
{
	free(qc->e[i].cpu);
	memmove(qc->e + i, qc->e + i + 1, (qc->n - i - 1) * sizeof(*qc->e));
	qc->n--;
}

int lr_queuecpus_set(struct lr_queuecpus *qc, const char *ifname, const struct lr_irqmap *m)
{
	unsigned nq = lr_irqmap_n_queues(m);
	struct entry *e;
	bool found, added;

	if (!nq) {
		size_t pos = find(qc, ifname, &found);

		if (found)
			remove_at(qc, pos);
		return 0;
	}
	e = lr_array_sorted_get(&qc->e, &qc->n, &qc->cap, sizeof(*e), ifname, cmp_entry, &added);
	if (!e)
		return -ENOMEM;
	if (added)
		lr_strlcpy(e->name, ifname, sizeof(e->name));
	if (lr_array_grow(&e->cpu, &e->cap, nq, sizeof(*e->cpu)))
		return -ENOMEM;
	for (unsigned q = 0; q < nq; q++)
		e->cpu[q] = lr_irqmap_queue_cpu(m, q);
	e->n = nq;
	e->seen = true;
	return 0;
}

void lr_queuecpus_prune(struct lr_queuecpus *qc)
{
	for (size_t i = qc->n; i-- > 0;) {
		if (!qc->e[i].seen)
			remove_at(qc, i);
		else
			qc->e[i].seen = false;
	}
}

const int *lr_queuecpus_get(const struct lr_queuecpus *qc, const char *ifname, size_t *n)
{
	bool found;
	size_t pos;

	*n = 0;
	if (!qc || !qc->n)
		return NULL;
	pos = find(qc, ifname, &found);
	if (!found)
		return NULL;
	*n = qc->e[pos].n;
	return qc->e[pos].cpu;
}
