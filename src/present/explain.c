// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate --explain` formatting: turns one or two parsed `ethtool -S` dumps into a report
 * grouped by counter category, FIFO first and traffic last, with a meaning per category and
 * hints drawn only from counters that are actually non-zero (or moved), or into CSV rows.
 * Runs on the main thread; owns nothing beyond one call.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/classify.h"
#include "linerate/collect/queue_names.h"
#include "linerate/collect/ethdump.h"
#include "linerate/sample/csv.h"
#include "linerate/present/explain.h"

enum item_state { ST_VALUE, ST_MOVED, ST_NEW, ST_RESET };

struct item {
	const struct lr_ethdump_entry *e; /* in the latest dump */
	struct lr_counter_class cls;
	bool is_q;		/* a per-queue counter: q says which */
	struct lr_queue_name q;
	enum item_state st;
	uint64_t before, value, delta;
	size_t order; /* file order */
};

/* Display order of the categories and what each one means to someone reading a ticket. */
static const struct {
	enum lr_counter_cat cat;
	const char *title;
	const char *meaning;
	size_t max_rows; /* then summarised; 0 = all */
} sections[] = {
	{LR_CAT_FIFO, "FIFO",
	 "the NIC had no free rx buffer or descriptor: frames lost before the kernel saw them", 0},
	{LR_CAT_DROP, "DROP",
	 "frames discarded by the NIC, driver or XDP for reasons other than ring space", 0},
	{LR_CAT_ERROR, "ERROR",
	 "damaged or malformed frames: CRC/FCS, length, alignment, symbol errors, collisions", 0},
	{LR_CAT_PAUSE, "PAUSE",
	 "Ethernet flow control: one side asked the other to stop sending for a while", 0},
	{LR_CAT_OTHER, "OTHER",
	 "bookkeeping: resets, timeouts, queue stops, offload and allocation events", 12},
	{LR_CAT_TRAFFIC, "TRAFFIC", "packets and bytes moved", 8},
};

/* Hints: given when a listed counter of the category has one of the name fragments. */
static const struct {
	enum lr_counter_cat cat;
	const char *frags; /* '|'-separated substrings; "" = any counter of the category */
	const char *text;
} hints[] = {
	{LR_CAT_FIFO, "",
	 "NIC ran out of rx descriptors/FIFO: check `ethtool -g IF` and raise the rx ring\n"
	 "        (`ethtool -G IF rx N`), spread IRQs over more CPUs (`ethtool -l IF`, "
	 "/proc/interrupts)"},
	{LR_CAT_DROP, "xdp",
	 "an XDP program or XDP ring is dropping frames (`ip link show IF` shows the program)"},
	{LR_CAT_DROP, "unknown",
	 "frames of a protocol this host does not handle (often harmless: LLDP, STP, other "
	 "VLANs)"},
	{LR_CAT_DROP, "link_down", "frames handed to the NIC while its link was down"},
	{LR_CAT_DROP, "allowance",
	 "the instance exceeded its cloud bandwidth/pps/conntrack allowance: a provider limit"},
	{LR_CAT_DROP, "filter|steer|spoof|vlan",
	 "frames rejected by MAC/VLAN filters, steering rules or spoof checks"},
	{LR_CAT_ERROR, "crc|fcs|symbol|align|jabber|fragment|pcs|fec",
	 "CRC/symbol errors point at the physical layer: cable, optics/transceiver, the "
	 "switch port"},
	{LR_CAT_ERROR, "length|oversize|undersize|mtu|too_long|runt|range",
	 "frame size errors: compare the MTU on both ends (`ip link show IF`)"},
	{LR_CAT_ERROR, "collision|carrier|late|defer",
	 "collisions/carrier errors: half duplex or autonegotiation trouble (`ethtool IF`)"},
	{LR_CAT_PAUSE, "rx_|_rx|rcv",
	 "pause frames received: the link partner (or switch) could not keep up and throttled "
	 "this NIC"},
	{LR_CAT_PAUSE, "tx_|_tx|xmit|sent",
	 "pause frames sent: this NIC's receive side could not keep up (see FIFO, CPU)"},
	{LR_CAT_OTHER, "timeout|reset|recover",
	 "timeouts/resets: the driver restarted a stuck queue or the device; see `dmesg`"},
};

static int cat_rank(enum lr_counter_cat cat)
{
	size_t i;

	for (i = 0; i < LR_ARRAY_SIZE(sections); i++)
		if (sections[i].cat == cat)
			return (int)i;
	return (int)LR_ARRAY_SIZE(sections);
}

static int cmp_item(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	int ra = cat_rank(a->cls.cat), rb = cat_rank(b->cls.cat);
	uint64_t ka, kb;

	if (ra != rb)
		return ra - rb;
	if (a->st != b->st)
		return (int)a->st - (int)b->st;
	ka = a->st == ST_MOVED ? a->delta : a->value;
	kb = b->st == ST_MOVED ? b->delta : b->value;
	if (ka != kb)
		return ka > kb ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The counters worth listing: non-zero (one dump) or moved/reset/new (two dumps). */
static int collect(const struct lr_ethdump *d1, const struct lr_ethdump *d2, const char *driver,
		   const struct lr_queue_names *qn, struct item **out, size_t *n_out, size_t *gone)
{
	const struct lr_ethdump *last = d2 ? d2 : d1;
	struct item *items;
	size_t i, n = 0;

	*gone = 0;
	items = calloc(last->n ? last->n : 1, sizeof(*items));
	if (!items)
		return -ENOMEM;
	for (i = 0; i < last->n; i++) {
		const struct lr_ethdump_entry *e = &last->entries[i];
		struct item it = {.e = e, .value = e->value, .order = i};

		if (!d2) {
			if (!e->value)
				continue;
			it.st = ST_VALUE;
		} else {
			const struct lr_ethdump_entry *p = lr_ethdump_find(d1, e->name, e->dup);

			if (!p) {
				if (!e->value)
					continue;
				it.st = ST_NEW;
			} else if (e->value > p->value) {
				it.st = ST_MOVED;
				it.before = p->value;
				it.delta = e->value - p->value;
			} else if (e->value < p->value) {
				it.st = ST_RESET;
				it.before = p->value;
			} else {
				continue;
			}
		}
		it.cls = lr_classify(driver, e->name);
		it.is_q = qn && lr_queue_name_parse(qn, e->name, &it.q);
		items[n++] = it;
	}
	if (d2)
		for (i = 0; i < d1->n; i++)
			if (!lr_ethdump_find(d2, d1->entries[i].name, d1->entries[i].dup))
				(*gone)++;
	qsort(items, n, sizeof(*items), cmp_item);
	*out = items;
	*n_out = n;
	return 0;
}

static void write_csv(FILE *out, const struct item *items, size_t n)
{
	size_t i;

	fputs("counter,category,value,delta,queue,dir\n", out);
	for (i = 0; i < n; i++) {
		const struct item *it = &items[i];

		lr_csv_field(out, it->e->name);
		fprintf(out, ",%s,%" PRIu64 ",", lr_counter_cat_name(it->cls.cat), it->value);
		if (it->st == ST_MOVED)
			fprintf(out, "%" PRIu64, it->delta);
		if (it->is_q)
			fprintf(out, ",%u,%s\n", it->q.queue, lr_queue_dir_name(it->q.dir));
		else
			fputs(",,\n", out);
	}
}

static bool name_has(const char *name, const char *frags)
{
	char lower[LR_ETHDUMP_NAME_MAX + 1];
	const char *f = frags;
	size_t i;

	if (!*frags)
		return true;
	for (i = 0; i < sizeof(lower) - 1 && name[i]; i++)
		lower[i] =
			(name[i] >= 'A' && name[i] <= 'Z') ? (char)(name[i] - 'A' + 'a') : name[i];
	lower[i] = '\0';
	while (*f) {
		const char *bar = strchr(f, '|');
		size_t len = bar ? (size_t)(bar - f) : strlen(f);
		char frag[32];

		if (len && len < sizeof(frag)) {
			memcpy(frag, f, len);
			frag[len] = '\0';
			if (strstr(lower, frag))
				return true;
		}
		if (!bar)
			break;
		f = bar + 1;
	}
	return false;
}

static void write_row(FILE *out, const struct item *it, bool two)
{
	int w = (int)strlen(it->e->name) > 40 ? 0 : 40;

	if (!two) {
		fprintf(out, "  %-*s %20" PRIu64 "\n", w, it->e->name, it->value);
		return;
	}
	if (it->st == ST_NEW)
		fprintf(out, "  %-*s %20s %20" PRIu64 " %14s\n", w, it->e->name, "-", it->value,
			"new");
	else if (it->st == ST_RESET)
		fprintf(out, "  %-*s %20" PRIu64 " %20" PRIu64 " %14s\n", w, it->e->name,
			it->before, it->value, "reset");
	else {
		char delta[24];

		snprintf(delta, sizeof(delta), "+%" PRIu64, it->delta);
		fprintf(out, "  %-*s %20" PRIu64 " %20" PRIu64 " %14s\n", w, it->e->name,
			it->before, it->value, delta);
	}
}

static void write_section(FILE *out, size_t s, const struct item *items, size_t n, bool two)
{
	size_t i, shown = 0, rest = 0, rest_q = 0, h;
	bool hinted[LR_ARRAY_SIZE(hints)] = {false};

	for (i = 0; i < n; i++) {
		const struct item *it = &items[i];

		if (it->cls.cat != sections[s].cat)
			continue;
		if (!shown && !rest)
			fprintf(out, "\n%s  %s\n", sections[s].title, sections[s].meaning);
		/* a counter that went backwards is no evidence of anything */
		for (h = 0; it->st != ST_RESET && h < LR_ARRAY_SIZE(hints); h++)
			if (hints[h].cat == it->cls.cat && name_has(it->e->name, hints[h].frags))
				hinted[h] = true;
		/* a long category shows its totals first and summarises the breakdowns */
		if (sections[s].max_rows && (it->cls.per_queue || shown >= sections[s].max_rows)) {
			rest++;
			rest_q += it->cls.per_queue;
			continue;
		}
		write_row(out, it, two);
		shown++;
	}
	if (rest)
		fprintf(out, "  ... and %zu more (%zu per-queue)\n", rest, rest_q);
	for (h = 0; h < LR_ARRAY_SIZE(hints); h++)
		if (hinted[h])
			fprintf(out, "  hint: %s\n", hints[h].text);
}

/* A queue's packet count: the metric that is the packet count itself ("packets", "pkts",
 * "rx_packets"), else the sum of its unicast, multicast and broadcast packets. */
static int packets_rank(const char *metric)
{
	const char *m = metric;

	if (!strncmp(m, "rx_", 3) || !strncmp(m, "tx_", 3))
		m += 3;
	if (!strcmp(m, "packets") || !strcmp(m, "pkts"))
		return 2;
	if (strstr(m, "cast_packets") || strstr(m, "cast_pkts"))
		return 1;
	return 0;
}

#define MAX_QUEUES 1024

struct qrow {
	uint64_t pk[2][3];	/* [rx, tx][rank] */
	uint64_t drops;
	bool seen;
};

static uint64_t qpackets(const struct qrow *r, int dir)
{
	return r->pk[dir][2] ? r->pk[dir][2] : r->pk[dir][1];
}

/* Two dumps: where the packets went, queue by queue, and how uneven it was (max/mean). */
static void write_queues(FILE *out, const struct item *items, size_t n)
{
	struct qrow *q = calloc(MAX_QUEUES, sizeof(*q));
	unsigned nq = 0, busy = 0;
	uint64_t total = 0, max = 0;

	if (!q)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct item *it = &items[i];
		struct qrow *r;
		int rank;

		if (!it->is_q || it->st != ST_MOVED || it->q.queue >= MAX_QUEUES)
			continue;
		r = &q[it->q.queue];
		r->seen = true;
		nq = it->q.queue + 1 > nq ? it->q.queue + 1 : nq;
		rank = it->cls.cat == LR_CAT_TRAFFIC ? packets_rank(it->q.metric) : 0;
		if (rank && it->q.dir != LR_QDIR_NONE)
			r->pk[it->q.dir == LR_QDIR_TX][rank] += it->delta;
		if (it->cls.cat == LR_CAT_DROP || it->cls.cat == LR_CAT_FIFO)
			r->drops += it->delta;
	}
	for (unsigned i = 0; i < nq; i++) {
		uint64_t p = qpackets(&q[i], 0) + qpackets(&q[i], 1);

		total += p;
		max = p > max ? p : max;
		busy += p > 0;
	}
	if (total) {
		fprintf(out, "\nPER QUEUE  where the packets went (per-queue counters that moved)\n");
		fprintf(out, "  %5s %20s %20s %7s %14s\n", "queue", "rx packets", "tx packets",
			"share", "drops+fifo");
		for (unsigned i = 0; i < nq; i++) {
			uint64_t rx = qpackets(&q[i], 0), tx = qpackets(&q[i], 1);

			if (!q[i].seen)
				continue;
			fprintf(out, "  %5u %20" PRIu64 " %20" PRIu64 " %6.1f%% %14" PRIu64 "\n", i,
				rx, tx, 100.0 * (double)(rx + tx) / (double)total, q[i].drops);
		}
		fprintf(out, "  imbalance: the busiest queue moved %.1fx the mean of %u queues "
			"(%u of them moved packets)\n", (double)max * nq / (double)total, nq, busy);
		if (nq > 1 && (double)max * nq / (double)total > 2)
			fputs("  hint: few flows or an RSS hash that ignores ports put the load on "
			      "few queues:\n        more streams (-P), `ethtool -n IF rx-flow-hash "
			      "udp4` (sdfn), or RPS\n", out);
	}
	free(q);
}

static void write_text(FILE *out, const struct lr_ethdump *d1, const struct lr_ethdump *d2,
		       const struct lr_explain_opts *o, const struct item *items, size_t n,
		       size_t gone)
{
	const struct lr_ethdump *last = d2 ? d2 : d1;
	const char *l1 = o && o->label1 ? o->label1 : "dump 1";
	const char *l2 = o && o->label2 ? o->label2 : "dump 2";
	size_t garbage = d1->garbage + (d2 ? d2->garbage : 0);
	size_t i, moved = 0, resets = 0, fresh = 0, s;

	for (i = 0; i < n; i++) {
		moved += items[i].st == ST_MOVED;
		resets += items[i].st == ST_RESET;
		fresh += items[i].st == ST_NEW;
	}
	if (!d2) {
		fprintf(out, "ethtool -S dump %s: %zu counters, %zu non-zero\n", l1, last->n, n);
	} else {
		fprintf(out, "ethtool -S dumps %s -> %s: %zu counters, %zu moved", l1, l2, last->n,
			moved);
		if (resets)
			fprintf(out, ", %zu went backwards", resets);
		if (fresh)
			fprintf(out, ", %zu new", fresh);
		if (gone)
			fprintf(out, ", %zu gone", gone);
		fputc('\n', out);
	}
	if (garbage)
		fprintf(out, "(%zu line%s not understood, skipped)\n", garbage,
			garbage == 1 ? "" : "s");
	if (!(o && o->driver))
		fputs("(categories from counter names: a dump does not name its driver)\n", out);
	if (d2 && n)
		fprintf(out, "\n  %-40s %20s %20s %14s\n", "counter", "before", "after", "delta");
	for (s = 0; s < LR_ARRAY_SIZE(sections); s++)
		write_section(out, s, items, n, d2 != NULL);
	if (d2)
		write_queues(out, items, n);
	if (!n)
		fputs(d2 ? "\nNothing moved between the two dumps.\n"
			 : "\nEvery counter is zero.\n",
		      out);
	if (resets)
		fputs("\nCounters that went backwards were reset (driver reload, interface reset)"
		      " or the dumps\ncome from different interfaces: their deltas are not "
		      "counted.\n",
		      out);
	if (d2 && (fresh || gone))
		fputs("\nThe two dumps list different counters (channel count changed?).\n", out);
}

int lr_explain_write(FILE *out, const struct lr_ethdump *d1, const struct lr_ethdump *d2,
		     const struct lr_explain_opts *opts)
{
	struct lr_queue_names *qn = NULL;
	struct item *items;
	size_t n, gone;
	int err;

	if (lr_queue_names_open(&qn))
		qn = NULL;	/* no queue view; the counters are still explained */
	err = collect(d1, d2, opts ? opts->driver : NULL, qn, &items, &n, &gone);
	lr_queue_names_close(qn);
	if (err)
		return err;
	if (opts && opts->csv)
		write_csv(out, items, n);
	else
		write_text(out, d1, d2, opts, items, n, gone);
	free(items);
	if (fflush(out))
		return errno ? -errno : -EIO;
	return ferror(out) ? -EIO : 0;
}
