// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Interface -> IRQs -> CPUs. Reads msi_irqs, /proc/interrupts (show_interrupts() in
 * kernel/irq/proc.c: a "CPUn" header of online CPUs, then "label: counts... description"),
 * /proc/irq/N/effective_affinity_list ("%*pbl") and rx-N/rps_cpus ("%*pb"), all through the
 * sysio seam. Runs on the sampler thread at start and when the interface set changes; the
 * caller owns the lr_irqmap and every buffer in it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/irqmap.h"
#include "linerate/core/array.h"
#include "linerate/core/log.h"
#include "linerate/core/strutil.h"
#include "linerate/core/sysio.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* ---- /proc/interrupts ---- */

void lr_irq_scratch_free(struct lr_irq_scratch *s)
{
	if (!s)
		return;
	free(s->count);
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

/* count[] and cpu[] share s->cap: each grows from it by the same rule to the same size */
static int scratch_reserve(struct lr_irq_scratch *s, size_t n)
{
	size_t cap_count = s->cap, cap_cpu = s->cap;

	if (lr_array_grow(&s->count, &cap_count, n, sizeof(*s->count)) ||
	    lr_array_grow(&s->cpu, &cap_cpu, n, sizeof(*s->cpu)))
		return -ENOMEM;
	s->cap = cap_cpu;
	return 0;
}

/* The header: "           CPU0       CPU1 ...". Number of columns or -errno. */
static int parse_header(const char *p, const char *end, struct lr_irq_scratch *s, size_t *ncpu)
{
	size_t n = 0;
	int err;

	for (;;) {
		uint64_t cpu;

		while (p < end && is_blank(*p))
			p++;
		if (p == end)
			break;
		if (end - p < 4 || memcmp(p, "CPU", 3))
			return -EINVAL;
		p += 3;
		if (!lr_cpu_scan(&p, end, &cpu) || (p < end && !is_blank(*p)))
			return -EINVAL;
		if (n >= LR_CPU_MAX)
			return -EINVAL;
		err = scratch_reserve(s, n + 1);
		if (err)
			return err;
		s->cpu[n++] = (int)cpu;
	}
	if (!n)
		return -EINVAL;
	*ncpu = n;
	return 0;
}

/* The counts of a row, from just after its "label:" up to ncpu of them, into count[] (NULL:
 * skipped unread); *n gets how many. Returns where the description starts. */
static const char *row_counts(const char *q, const char *eol, size_t ncpu, uint64_t *count,
			      size_t *n)
{
	*n = 0;
	while (*n < ncpu) {
		const char *t = q;

		if (t < eol && !is_blank(*t))
			break;
		while (t < eol && is_blank(*t))
			t++;
		if (t == eol || *t < '0' || *t > '9')
			break;
		if (count) {
			if (!lr_scan_u64(&t, eol, &count[*n]))
				break;
		} else {	/* the index: where the description starts, not the values */
			while (t < eol && *t >= '0' && *t <= '9')
				t++;
		}
		if (t < eol && !is_blank(*t))
			break; /* not a count: the description starts here */
		q = t;
		(*n)++;
	}
	while (q < eol && is_blank(*q))
		q++;
	return q;
}

/* The description's length without trailing blanks. */
static size_t desc_len(const char *desc, const char *eol)
{
	size_t n = (size_t)(eol - desc);

	while (n && is_blank(desc[n - 1]))
		n--;
	return n;
}

int lr_interrupts_parse(const char *buf, size_t len, struct lr_irq_scratch *s, lr_irq_cb cb,
			void *arg, unsigned *bad)
{
	return lr_interrupts_parse_some(buf, len, s, NULL, cb, arg, bad);
}

int lr_interrupts_parse_some(const char *buf, size_t len, struct lr_irq_scratch *s,
			     lr_irq_want want, lr_irq_cb cb, void *arg, unsigned *bad)
{
	const char *p = buf, *end = buf + len;
	bool have_header = false;
	size_t ncpu = 0;
	int rows = 0, err;

	if (bad)
		*bad = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line = p, *eol = nl ? nl : end, *colon, *q;
		struct lr_irq_line l;
		uint64_t irq;

		p = nl ? nl + 1 : end;
		q = line;
		while (q < eol && is_blank(*q))
			q++;
		if (q == eol)
			continue;
		if (!have_header) {
			err = parse_header(line, eol, s, &ncpu);
			if (err)
				return err;
			have_header = true;
			continue;
		}
		colon = memchr(q, ':', (size_t)(eol - q));
		if (!colon || colon == q || memchr(q, ' ', (size_t)(colon - q))) {
			if (bad)
				(*bad)++;
			continue;
		}
		memset(&l, 0, sizeof(l));
		l.label = q;
		l.label_len = (size_t)(colon - q);
		l.irq = -1;
		if (lr_scan_u64(&q, colon, &irq) && q == colon && irq <= INT32_MAX)
			l.irq = (int)irq;
		q = colon + 1;
		if (want && !want(l.irq, q, (size_t)(eol - q), arg)) {
			rows++; /* counted, its counts left unread */
			continue;
		}
		q = row_counts(q, eol, ncpu, s->count, &l.n);
		l.desc = q;
		l.desc_len = desc_len(q, eol);
		l.count = s->count;
		l.cpu = s->cpu;
		if (cb) {
			int rc = cb(&l, arg);

			if (rc)
				return rc;
		}
		rows++;
	}
	return have_header ? rows : -EINVAL;
}

/* Does token [t, t+tl) name an action of ifname (see the header)? */
static bool token_is_iface(const char *t, size_t tl, const char *ifname, size_t il)
{
	size_t i;

	if (!il || tl < il)
		return false;
	for (i = 0; i + il <= tl; i++) {
		if (memcmp(t + i, ifname, il))
			continue;
		if ((i == 0 || t[i - 1] == '-') && (i + il == tl || t[i + il] == '-'))
			return true;
	}
	return false;
}

static bool token_is_virtio_queue(const char *t, size_t tl, const char *vio, size_t vl)
{
	static const char *const kinds[] = {"-input.", "-output.", "-virtqueues"};
	size_t i;

	if (!vl || tl <= vl || memcmp(t, vio, vl))
		return false;
	for (i = 0; i < LR_ARRAY_SIZE(kinds); i++) {
		size_t kl = strlen(kinds[i]);

		if (tl - vl >= kl && !memcmp(t + vl, kinds[i], kl))
			return true;
	}
	return false;
}

bool lr_irq_desc_mentions(const char *desc, size_t len, const char *ifname, const char *virtio)
{
	const char *p = desc, *end = desc + len;
	size_t il = strlen(ifname), vl = virtio ? strlen(virtio) : 0;

	while (p < end) {
		const char *t;

		while (p < end && (is_blank(*p) || *p == ','))
			p++;
		t = p;
		while (p < end && !is_blank(*p) && *p != ',')
			p++;
		if (p == t)
			break;
		if (token_is_iface(t, (size_t)(p - t), ifname, il) ||
		    token_is_virtio_queue(t, (size_t)(p - t), virtio, vl))
			return true;
	}
	return false;
}

/* ---- building the map ---- */

void lr_irqmap_init(struct lr_irqmap *m)
{
	memset(m, 0, sizeof(*m));
}

void lr_irqmap_free(struct lr_irqmap *m)
{
	if (!m)
		return;
	free(m->irqs);
	free(m->took);
	free(m->per_cpu);
	free(m->msi);
	free(m->iq);
	lr_cpuset_free(&m->one);
	lr_irq_rows_free(&m->own);
	lr_cpuset_free(&m->affinity);
	lr_cpuset_free(&m->rps);
	lr_cpuset_free(&m->serving);
	memset(m, 0, sizeof(*m));
}

struct build_ctx {
	const struct lr_sysio *io;
	struct lr_irqmap *m;
	int err; /* -ENOMEM from a callback */
};

static int add_msi(const char *name, void *arg)
{
	struct build_ctx *c = arg;
	const char *p = name;
	uint64_t irq;

	if (!lr_scan_u64(&p, name + strlen(name), &irq) || *p || irq > INT32_MAX)
		return 0;
	c->err = lr_sorted_int_add(&c->m->msi, &c->m->n_msi_scratch, &c->m->cap_msi, (int)irq);
	return c->err;
}

static int stop_walk(const char *name, void *arg)
{
	return 1;
}

/* Does the directory exist (readable)? */
static bool dir_exists(const struct lr_sysio *io, const char *path)
{
	return io->list_dir(io, path, stop_walk, NULL) == 0;
}

static int find_virtio(const char *name, void *arg)
{
	struct build_ctx *c = arg;
	char path[320];

	if (strncmp(name, "virtio", 6) || strlen(name) >= sizeof(c->m->virtio))
		return 0;
	snprintf(path, sizeof(path), "/sys/bus/virtio/devices/%s/net/%s", name, c->m->ifname);
	if (!dir_exists(c->io, path))
		return 0;
	lr_strlcpy(c->m->virtio, name, sizeof(c->m->virtio));
	return 1;
}

/* The row's queue number and the CPU that took most of its interrupts. */
static int add_irq_queue(struct lr_irqmap *m, const struct lr_irq_line *l)
{
	struct lr_irq_queue *q;

	if (lr_array_grow(&m->iq, &m->cap_iq, m->n_iq + 1, sizeof(*m->iq)))
		return -ENOMEM;
	q = &m->iq[m->n_iq++];
	q->irq = l->irq;
	q->queue = lr_irq_desc_queue(l->desc, l->desc_len, m->ifname, m->virtio, &q->dir);
	q->cpu = q->took_cpu = -1;
	q->took = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (l->count[i] > q->took) {
			q->took = l->count[i];
			q->took_cpu = l->cpu[i];
		}
	}
	return 0;
}

/* Can this row be the interface's? Its IRQ is one of the device's vectors, or its description
 * holds the interface's (or its virtio device's) name somewhere: a superset of on_irq_line's
 * match, decided before the row's per-CPU counts are read (a thousand numbers per row on a
 * big host). */
static bool maybe_ours(const struct lr_irqmap *m, int irq, const char *desc, size_t len)
{
	if (irq < 0)
		return false;
	if (lr_cpuset_has(&(struct lr_cpuset){m->msi, m->n_msi_scratch, m->cap_msi}, irq))
		return true;
	return memmem(desc, len, m->ifname, strlen(m->ifname)) ||
	       (m->virtio[0] && memmem(desc, len, m->virtio, strlen(m->virtio)));
}

static int on_irq_line(const struct lr_irq_line *l, void *arg)
{
	struct build_ctx *c = arg;
	struct lr_irqmap *m = c->m;
	bool by_msi, by_name;
	size_t i;

	if (l->irq < 0)
		return 0;
	by_msi = lr_cpuset_has(&(struct lr_cpuset){m->msi, m->n_msi_scratch, m->cap_msi}, l->irq);
	by_name = lr_irq_desc_mentions(l->desc, l->desc_len, m->ifname, m->virtio);
	if (!by_msi && !by_name)
		return 0;
	if (by_name && !by_msi)
		m->n_named++;
	c->err = lr_sorted_int_add(&m->irqs, &m->n_irqs, &m->cap_irqs, l->irq);
	if (c->err)
		return c->err;
	c->err = add_irq_queue(m, l);
	if (c->err)
		return c->err;
	for (i = 0; i < l->n; i++) {
		size_t cpu = (size_t)l->cpu[i];

		if (!l->count[i])
			continue;
		if (lr_array_grow_zero(&m->per_cpu, &m->per_cpu_cap, cpu + 1, sizeof(*m->per_cpu)))
			return c->err = -ENOMEM;
		m->per_cpu[cpu] += l->count[i];
	}
	return 0;
}

/* Reads a whole proc/sys file into a growing heap buffer (64 KiB at first, 256 MiB at the
 * most). Length or -errno. */
static ssize_t read_whole(const struct lr_sysio *io, const char *path, char **buf, size_t *cap)
{
	int fd = io->open_ro(io, path);
	ssize_t n = -ENOMEM;

	if (fd < 0)
		return fd;
	if (!lr_array_grow(buf, cap, 64u << 10, 1))
		n = lr_sysio_pread_grow(io, fd, buf, cap, 256u << 20);
	io->close(io, fd);
	return n;
}

void lr_irq_rows_reset(struct lr_irq_rows *r)
{
	r->state = 0;
}

void lr_irq_rows_free(struct lr_irq_rows *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r->row);
	lr_irq_scratch_free(&r->scratch);
	memset(r, 0, sizeof(*r));
}

struct index_ctx {
	struct lr_irq_rows *r;
	const char *base;
};

/* Every numbered row goes into the index; its counts are skipped, not read. */
static bool index_row(int irq, const char *rest, size_t len, void *arg)
{
	struct index_ctx *x = arg;
	struct lr_irq_rows *r = x->r;
	const char *eol = rest + len, *d;
	struct lr_irq_row *row;
	size_t n;

	if (irq < 0)
		return false;
	if (lr_array_grow(&r->row, &r->cap_row, r->n + 1, sizeof(*r->row))) {
		r->state = -ENOMEM;
		return false;
	}
	d = row_counts(rest, eol, r->ncpu, NULL, &n);
	row = &r->row[r->n++];
	row->irq = irq;
	row->counts = (size_t)(rest - x->base);
	row->eol = (size_t)(eol - x->base);
	row->desc = (size_t)(d - x->base);
	row->desc_len = desc_len(d, eol);
	return false;
}

/* Reads and indexes /proc/interrupts unless this round has: r->state 1, or -errno. */
static int rows_read(const struct lr_sysio *io, struct lr_irq_rows *r)
{
	struct index_ctx x = {.r = r};
	ssize_t n;
	int err;

	if (r->state)
		return r->state;
	r->n = 0;
	r->len = 0;
	n = read_whole(io, "/proc/interrupts", &r->buf, &r->cap);
	if (n < 0)
		return r->state = (int)n;
	r->len = (size_t)n;
	x.base = r->buf;
	r->state = 1;
	/* the header first (the first line not blank), for the CPU count the index skips by */
	for (const char *p = r->buf, *end = r->buf + r->len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end;
		const char *q = p;

		while (q < eol && is_blank(*q))
			q++;
		if (q < eol) {
			err = parse_header(p, eol, &r->scratch, &r->ncpu);
			if (err)
				return r->state = err;
			break;
		}
		p = nl ? nl + 1 : end;
	}
	err = lr_interrupts_parse_some(r->buf, r->len, &r->scratch, index_row, NULL, &x, NULL);
	if (err == -ENOMEM || r->state == -ENOMEM)
		return r->state = -ENOMEM;
	return r->state;
}

static struct lr_irq_queue *find_iq(struct lr_irqmap *m, int irq)
{
	for (size_t i = 0; i < m->n_iq; i++)
		if (m->iq[i].irq == irq)
			return &m->iq[i];
	return NULL;
}

static int read_affinity(struct build_ctx *c, int irq)
{
	struct lr_irq_queue *q = find_iq(c->m, irq);
	static const char *const files[] = {"effective_affinity_list", "smp_affinity_list"};
	char path[96], buf[4096];
	size_t i;

	for (i = 0; i < LR_ARRAY_SIZE(files); i++) {
		ssize_t n;
		int got;

		snprintf(path, sizeof(path), "/proc/irq/%d/%s", irq, files[i]);
		n = c->io->read_file(c->io, path, buf, sizeof(buf));
		if (n < 0)
			continue;
		lr_cpuset_clear(&c->m->one);
		got = lr_cpulist_parse(buf, (size_t)n, &c->m->one);
		if (got == -ENOMEM)
			return got;
		if (got > 0) { /* empty: a shut-down IRQ has no effective CPU; try the next */
			c->m->affinity_known = true;
			if (q && c->m->one.n == 1)
				q->cpu = c->m->one.cpu[0];
			return lr_cpuset_union(&c->m->affinity, &c->m->one);
		}
	}
	return 0;
}

static int read_rps(const char *name, void *arg)
{
	struct build_ctx *c = arg;
	char path[320], buf[4096];
	ssize_t n;
	int got;

	if (strncmp(name, "rx-", 3))
		return 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues/%s/rps_cpus", c->m->ifname, name);
	n = c->io->read_file(c->io, path, buf, sizeof(buf));
	if (n < 0)
		return 0; /* kernels without CONFIG_RPS have no rps_cpus */
	got = lr_cpumask_parse(buf, (size_t)n, &c->m->rps);
	if (got == -ENOMEM)
		return c->err = got;
	return 0;
}

int lr_irqmap_build(const struct lr_sysio *io, const char *ifname, struct lr_irqmap *m)
{
	lr_irq_rows_reset(&m->own);
	return lr_irqmap_build_rows(io, ifname, &m->own, m);
}

int lr_irqmap_build_rows(const struct lr_sysio *io, const char *ifname, struct lr_irq_rows *rows,
			 struct lr_irqmap *m)
{
	struct build_ctx c = {.io = io, .m = m};
	char path[320];
	size_t i;
	int n;

	if (!*ifname || strlen(ifname) >= sizeof(m->ifname) || strchr(ifname, '/'))
		return -EINVAL;
	lr_strlcpy(m->ifname, ifname, sizeof(m->ifname));
	m->virtio[0] = '\0';
	m->n_irqs = m->n_took = 0;
	m->n_msi = m->n_named = 0;
	m->affinity_known = false;
	m->n_msi_scratch = 0;
	m->n_iq = 0;
	if (m->per_cpu_cap)
		memset(m->per_cpu, 0, m->per_cpu_cap * sizeof(*m->per_cpu));
	lr_cpuset_clear(&m->affinity);
	lr_cpuset_clear(&m->rps);
	lr_cpuset_clear(&m->serving);

	/* 1. MSI vectors of the PCI function; virtio-net's PCI function is device/.. */
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/msi_irqs", ifname);
	if (io->list_dir(io, path, add_msi, &c) < 0 || !m->n_msi_scratch) {
		if (c.err)
			goto out;
		io->list_dir(io, "/sys/bus/virtio/devices", find_virtio, &c);
		if (m->virtio[0]) {
			snprintf(path, sizeof(path), "/sys/class/net/%s/device/../msi_irqs",
				 ifname);
			io->list_dir(io, path, add_msi, &c);
			if (c.err)
				goto out;
		}
	}
	m->n_msi = (unsigned)m->n_msi_scratch;

	/* 2. /proc/interrupts: names, and which CPUs took them. A virtual interface (veth,
	 * bridge, ifb, ...: in sysfs without a parent device) has no IRQ of its own: it skips
	 * the file, megabytes on a host with a thousand CPUs. */
	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
	if (!m->n_msi_scratch && !m->virtio[0] && !dir_exists(io, path)) {
		snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
		if (dir_exists(io, path))
			goto rps;
	}
	n = rows_read(io, rows);
	if (n == -ENOMEM) {
		c.err = -ENOMEM;
		goto out;
	}
	for (i = 0; n > 0 && i < rows->n; i++) {
		const struct lr_irq_row *r = &rows->row[i];
		struct lr_irq_line l = {.irq = r->irq, .desc = rows->buf + r->desc,
					.desc_len = r->desc_len};

		if (!maybe_ours(m, l.irq, l.desc, l.desc_len))
			continue;
		/* row i was indexed with this ncpu: the scratch holds that many counts */
		l.desc = row_counts(rows->buf + r->counts, rows->buf + r->eol, rows->ncpu,
				    rows->scratch.count, &l.n);
		l.desc_len = desc_len(l.desc, rows->buf + r->eol);
		l.count = rows->scratch.count;
		l.cpu = rows->scratch.cpu;
		if (on_irq_line(&l, &c))
			goto out;
	}
	/* msi_irqs entries without a /proc/interrupts row still serve the interface. */
	for (i = 0; i < m->n_msi_scratch; i++) {
		c.err = lr_sorted_int_add(&m->irqs, &m->n_irqs, &m->cap_irqs, m->msi[i]);
		if (c.err)
			goto out;
	}
	for (i = 0; i < m->per_cpu_cap; i++) {
		if (!m->per_cpu[i])
			continue;
		if (lr_array_grow(&m->took, &m->cap_took, m->n_took + 1, sizeof(*m->took))) {
			c.err = -ENOMEM;
			goto out;
		}
		m->took[m->n_took].cpu = (int)i;
		m->took[m->n_took++].count = m->per_cpu[i];
	}

	/* 3. Affinity of each IRQ. */
	for (i = 0; i < m->n_irqs; i++) {
		c.err = read_affinity(&c, m->irqs[i]);
		if (c.err)
			goto out;
	}

	/* An IRQ allowed on several CPUs (no effective affinity file): where it ran most. */
	for (i = 0; i < m->n_iq; i++)
		if (m->iq[i].cpu < 0)
			m->iq[i].cpu = m->iq[i].took_cpu;

rps:
	/* 4. RPS. */
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	io->list_dir(io, path, read_rps, &c);
	if (c.err)
		goto out;

	/* 5. Serving = affinity (or the CPUs that took the interrupts) + RPS. */
	if (m->affinity_known) {
		c.err = lr_cpuset_union(&m->serving, &m->affinity);
	} else {
		for (i = 0; i < m->n_took && !c.err; i++)
			c.err = lr_cpuset_add(&m->serving, m->took[i].cpu);
	}
	if (!c.err)
		c.err = lr_cpuset_union(&m->serving, &m->rps);
out:
	if (c.err)
		lr_log(LR_LOG_WARN, "irqmap %s: %s", ifname, strerror(-c.err));
	return c.err;
}

int lr_irqmap_queue_cpu(const struct lr_irqmap *m, unsigned q)
{
	static const enum lr_irq_dir pref[] = {LR_IRQ_DIR_BOTH, LR_IRQ_DIR_RX, LR_IRQ_DIR_TX};

	for (size_t k = 0; k < LR_ARRAY_SIZE(pref); k++) {
		for (size_t i = 0; i < m->n_iq; i++) {
			const struct lr_irq_queue *e = &m->iq[i];

			if (e->queue == (int)q && e->dir == pref[k] && e->cpu >= 0)
				return e->cpu;
		}
	}
	return -1;
}

unsigned lr_irqmap_n_queues(const struct lr_irqmap *m)
{
	unsigned n = 0;

	for (size_t i = 0; i < m->n_iq; i++)
		if (m->iq[i].queue >= 0 && (unsigned)m->iq[i].queue + 1 > n)
			n = (unsigned)m->iq[i].queue + 1;
	return n;
}
