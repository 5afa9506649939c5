// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-queue counter names by rules: each naming family is one anchored pattern with the
 * direction, the queue index and the metric as groups. A driver written tomorrow that follows
 * one of the kernel's usual spellings is read without a line of code here.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/queue_names.h"

/* Which group holds what (0: absent, the direction then comes from the metric's own rx/tx). */
struct family {
	const char *re;
	int dir, queue, metric;
};

static const struct family families[] = {
	{"^(rx|tx)_queue_([0-9]+)_(.+)$", 1, 2, 3},		/* igb ixgbe veth virtio(legacy) */
	{"^(rx|tx)-([0-9]+)\\.(.+)$", 1, 2, 3},			/* i40e ice */
	{"^(rx|tx)q_?([0-9]+)(: |_|\\.)(.+)$", 1, 2, 4},	/* be2net "rxq0: ", rxq3_ txq3_ */
	{"^queue_([0-9]+)_(rx|tx)_(.+)$", 2, 1, 3},		/* ena */
	{"^(rx|tx|ch|xdpsq|rq|sq)([0-9]+)_(.+)$", 1, 2, 3},	/* mlx5 virtio */
	{"^\\[([0-9]+)\\]: (.+)$", 0, 1, 2},			/* bnxt */
	{"^rvec_([0-9]+)_(.+)$", 0, 1, 2},			/* nfp */
	{"^([0-9]+): (.+)$", 0, 1, 2},
	{"^([a-z][a-z_]*)\\[([0-9]+)\\]$", 0, 2, 1},		/* rx_bytes[3] */
};

#define N_FAMILIES (sizeof(families) / sizeof(families[0]))

struct lr_queue_names {
	regex_t re[N_FAMILIES];
	size_t n;	/* compiled so far */
};

int lr_queue_names_open(struct lr_queue_names **out)
{
	struct lr_queue_names *q = calloc(1, sizeof(*q));

	if (!q)
		return -ENOMEM;
	for (; q->n < N_FAMILIES; q->n++) {
		if (regcomp(&q->re[q->n], families[q->n].re, REG_EXTENDED)) {
			lr_queue_names_close(q);
			return -EINVAL;
		}
	}
	*out = q;
	return 0;
}

void lr_queue_names_close(struct lr_queue_names *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->n; i++)
		regfree(&q->re[i]);
	free(q);
}

static enum lr_queue_dir dir_of(const char *s, size_t len)
{
	if ((len >= 2 && !strncmp(s, "rx", 2)) || (len >= 2 && !strncmp(s, "rq", 2)))
		return LR_QDIR_RX;
	if ((len >= 2 && !strncmp(s, "tx", 2)) || (len >= 2 && !strncmp(s, "sq", 2)) ||
	    (len >= 5 && !strncmp(s, "xdpsq", 5)))
		return LR_QDIR_TX;
	return LR_QDIR_NONE;
}

bool lr_queue_name_parse(const struct lr_queue_names *qn, const char *name,
			 struct lr_queue_name *out)
{
	regmatch_t m[6];

	if (!name)
		return false;
	for (size_t i = 0; i < N_FAMILIES; i++) {
		const struct family *fam = &families[i];
		const char *metric;
		size_t mlen;
		unsigned long q;
		char *end;

		if (regexec(&qn->re[i], name, 6, m, 0))
			continue;
		q = strtoul(name + m[fam->queue].rm_so, &end, 10);
		if (q > 65535 || end != name + m[fam->queue].rm_eo)
			return false;
		metric = name + m[fam->metric].rm_so;
		mlen = (size_t)(m[fam->metric].rm_eo - m[fam->metric].rm_so);
		out->queue = (unsigned)q;
		out->dir = fam->dir ? dir_of(name + m[fam->dir].rm_so,
					     (size_t)(m[fam->dir].rm_eo - m[fam->dir].rm_so))
				    : dir_of(metric, mlen);
		snprintf(out->metric, sizeof(out->metric), "%.*s", (int)mlen, metric);
		return true;
	}
	return false;
}

const char *lr_queue_dir_name(enum lr_queue_dir d)
{
	return d == LR_QDIR_RX ? "rx" : d == LR_QDIR_TX ? "tx" : "";
}

enum lr_queue_metric lr_queue_metric_of(const char *metric, bool *cast)
{
	static const struct {
		const char *name;
		enum lr_queue_metric m;
	} plain[] = {
		{"packets", LR_QM_PACKETS}, {"pkts", LR_QM_PACKETS}, {"cnt", LR_QM_PACKETS},
		{"bytes", LR_QM_BYTES}, {"octets", LR_QM_BYTES},
		{"drops", LR_QM_DROPS}, {"dropped", LR_QM_DROPS}, {"drop", LR_QM_DROPS},
		{"discards", LR_QM_DROPS},
	};
	static const char *const casts[] = {"ucast_", "mcast_", "bcast_"};

	*cast = false;
	if (!strncmp(metric, "rx_", 3) || !strncmp(metric, "tx_", 3))
		metric += 3;
	for (size_t i = 0; i < sizeof(casts) / sizeof(casts[0]); i++)
		if (!strncmp(metric, casts[i], 6)) {
			metric += 6;
			*cast = true;
			break;
		}
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (!strcmp(metric, plain[i].name) && !(*cast && plain[i].m == LR_QM_DROPS))
			return plain[i].m;
	*cast = false;
	return LR_QM_NONE;
}
