// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-CPU counters from /proc/stat, /proc/softirqs and /proc/net/softnet_stat. The parsers are
 * pure and work on (buf, len) without needing a NUL; the reader (sampler thread) owns three
 * open fds and their buffers and re-reads them with one pread each per tick. Formats follow
 * fs/proc/stat.c, fs/proc/softirqs.c and softnet_seq_show() in net/core/net-procfs.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/cpu.h"
#include "linerate/core/array.h"
#include "linerate/core/log.h"
#include "linerate/core/strutil.h"

/* Scratch bits inside lr_cpu_raw.valid while parsing /proc/softirqs; never visible outside. */
#define SEEN_RX (1u << 30)
#define SEEN_TX (1u << 31)

void lr_cpu_table_init(struct lr_cpu_table *t)
{
	memset(t, 0, sizeof(*t));
}

void lr_cpu_table_free(struct lr_cpu_table *t)
{
	if (!t)
		return;
	free(t->cpu);
	memset(t, 0, sizeof(*t));
}

int lr_cpu_table_reserve(struct lr_cpu_table *t, size_t ncpu)
{
	if (ncpu > LR_CPU_MAX)
		return -ERANGE;
	/* doubling from 8 stops at LR_CPU_MAX (8 << 11) at the most */
	if (lr_array_grow_zero(&t->cpu, &t->cap, ncpu, sizeof(*t->cpu)))
		return -ENOMEM;
	if (ncpu > t->n)
		t->n = ncpu;
	return 0;
}

/* The slot of CPU `cpu`, growing the table; NULL when out of range or out of memory. */
static struct lr_cpu_raw *slot(struct lr_cpu_table *t, uint64_t cpu, int *err)
{
	int e;

	if (cpu >= LR_CPU_MAX)
		return NULL;
	e = lr_cpu_table_reserve(t, (size_t)cpu + 1);
	if (e) {
		*err = e;
		return NULL;
	}
	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): reserve succeeded: allocated */
	return &t->cpu[cpu];
}

/* present = online: listed by /proc/stat or softnet_stat (both list online CPUs only). Only
 * when neither was read does a /proc/softirqs column (every possible CPU) count. */
static void update_present(struct lr_cpu_table *t)
{
	const uint32_t online = LR_CPUV_TIMES | LR_CPUV_SOFTNET;
	uint32_t mask = 0;
	size_t i;

	for (i = 0; i < t->n; i++)
		mask |= t->cpu[i].valid;
	mask = (mask & online) ? online : ~0u;
	for (i = 0; i < t->n; i++)
		t->cpu[i].present = (t->cpu[i].valid & mask) != 0;
	t->all.present = t->all.valid != 0;
}

static void clear_bit(struct lr_cpu_table *t, uint32_t bit)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		t->cpu[i].valid &= ~bit;
	t->all.valid &= ~bit;
	update_present(t);
}

static void set_bit(struct lr_cpu_raw *c, uint32_t bit)
{
	c->valid |= bit;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Next line [*p, eol); advances *p past the newline. false at the end of the buffer. */
static bool next_line(const char **p, const char *end, const char **line, const char **eol)
{
	const char *nl;

	if (*p >= end)
		return false;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*eol = nl ? nl : end;
	*p = nl ? nl + 1 : end;
	return true;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/* ---- /proc/stat ---- */

/* "cpu  1 2 3 ..." or "cpu7 1 2 3 ...": *cpu = -1 for the aggregate. */
static bool parse_stat_line(const char *p, const char *end, int64_t *cpu, uint64_t *v,
			    unsigned *ncols)
{
	uint64_t n;
	unsigned k = 0;

	if (end - p < 4 || memcmp(p, "cpu", 3))
		return false;
	p += 3;
	if (is_blank(*p)) {
		*cpu = -1;
	} else {
		if (!lr_scan_u64(&p, end, &n) || n >= LR_CPU_MAX)
			return false;
		*cpu = (int64_t)n;
		if (p >= end || !is_blank(*p))
			return false;
	}
	while (k < LR_CT__COUNT) {
		if (p < end && !is_blank(*p))
			return false;
		if (!lr_scan_u64(&p, end, &v[k]))
			break;
		k++;
	}
	/* A future kernel's 11th column is ignored; junk is not. */
	if (k == LR_CT__COUNT)
		while (lr_scan_u64(&p, end, &n))
			if (p < end && !is_blank(*p))
				return false;
	if (skip_blanks(p, end) != end || k < 4)
		return false;
	*ncols = k;
	return true;
}

static int parse_stat(const char *buf, size_t len, struct lr_cpu_table *t)
{
	const char *p = buf, *end = buf + len, *line, *eol;
	bool any_cpu_line = false;
	int count = 0, err = 0;

	clear_bit(t, LR_CPUV_TIMES);
	while (next_line(&p, end, &line, &eol)) {
		uint64_t v[LR_CT__COUNT];
		struct lr_cpu_raw *c;
		unsigned k;
		int64_t cpu;

		if (!parse_stat_line(line, eol, &cpu, v, &k))
			continue;
		any_cpu_line = true;
		if (cpu < 0) {
			c = &t->all;
		} else if (!(c = slot(t, (uint64_t)cpu, &err))) {
			if (err)
				return err;
			continue;
		}
		memset(c->time, 0, sizeof(c->time));
		memcpy(c->time, v, k * sizeof(v[0]));
		c->time_valid = (1u << k) - 1;
		set_bit(c, LR_CPUV_TIMES);
		if (cpu >= 0)
			count++;
	}
	return any_cpu_line ? count : -EINVAL;
}

int lr_cpu_parse_stat(const char *buf, size_t len, struct lr_cpu_table *t)
{
	int rc = parse_stat(buf, len, t);

	update_present(t);
	return rc;
}

/* ---- /proc/softirqs ---- */

/* Next "CPU<n>" token of the header at *h; false when the header has no more columns. */
static bool next_header_cpu(const char **h, const char *hend, uint64_t *cpu)
{
	const char *p = skip_blanks(*h, hend);

	if (hend - p < 4 || memcmp(p, "CPU", 3))
		return false;
	p += 3;
	if (!lr_scan_u64(&p, hend, cpu) || (p < hend && !is_blank(*p)))
		return false;
	*h = p;
	return true;
}

static int parse_softirqs(const char *buf, size_t len, struct lr_cpu_table *t)
{
	const char *p = buf, *end = buf + len, *line, *eol, *hdr = NULL, *hdr_end = NULL;
	int count = 0, err = 0;
	size_t i;

	clear_bit(t, LR_CPUV_SOFTIRQS);
	while (next_line(&p, end, &line, &eol)) {
		const char *colon, *name, *name_end, *h, *q;
		uint32_t seen;
		uint64_t cpu, v;

		if (!hdr) {
			h = line;
			if (skip_blanks(line, eol) == eol)
				continue;
			if (!next_header_cpu(&h, eol, &cpu))
				return -EINVAL;
			hdr = line;
			hdr_end = eol;
			continue;
		}
		colon = memchr(line, ':', (size_t)(eol - line));
		if (!colon)
			continue;
		name = skip_blanks(line, colon);
		name_end = colon;
		if (name_end - name == 6 && !memcmp(name, "NET_RX", 6))
			seen = SEEN_RX;
		else if (name_end - name == 6 && !memcmp(name, "NET_TX", 6))
			seen = SEEN_TX;
		else
			continue;
		/* Walk the row's values and the header's CPU names side by side. */
		h = hdr;
		q = colon + 1;
		while (next_header_cpu(&h, hdr_end, &cpu)) {
			struct lr_cpu_raw *c;

			if (q < eol && !is_blank(*q))
				break;
			if (!lr_scan_u64(&q, eol, &v))
				break;
			c = slot(t, cpu, &err);
			if (!c) {
				if (err)
					goto out;
				continue;
			}
			if (seen == SEEN_RX)
				c->net_rx = v;
			else
				c->net_tx = v;
			c->valid |= seen;
		}
	}
	if (!hdr)
		return -EINVAL;
out:
	for (i = 0; i < t->n; i++) {
		struct lr_cpu_raw *c = &t->cpu[i];

		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): i < t->n: allocated */
		if ((c->valid & (SEEN_RX | SEEN_TX)) == (SEEN_RX | SEEN_TX)) {
			set_bit(c, LR_CPUV_SOFTIRQS);
			count++;
		}
		c->valid &= ~(SEEN_RX | SEEN_TX);
	}
	return err ? err : count;
}

int lr_cpu_parse_softirqs(const char *buf, size_t len, struct lr_cpu_table *t)
{
	int rc = parse_softirqs(buf, len, t);

	update_present(t);
	return rc;
}

/* ---- /proc/net/softnet_stat ---- */

#define SOFTNET_MAX_COLS 16

/* One row of blank-separated hex numbers (the kernel prints %08x). Returns the column count,
 * 0 when malformed. */
static unsigned parse_hex_row(const char *p, const char *end, uint64_t *v)
{
	unsigned k = 0;

	for (;;) {
		uint64_t x = 0;
		unsigned digits = 0;

		p = skip_blanks(p, end);
		if (p == end)
			break;
		if (k == SOFTNET_MAX_COLS)
			return 0;
		for (; p < end && !is_blank(*p); p++) {
			unsigned d;

			if (*p >= '0' && *p <= '9')
				d = (unsigned)(*p - '0');
			else if (*p >= 'a' && *p <= 'f')
				d = (unsigned)(*p - 'a' + 10);
			else if (*p >= 'A' && *p <= 'F')
				d = (unsigned)(*p - 'A' + 10);
			else
				return 0;
			if (++digits > 16)
				return 0;
			x = x << 4 | d;
		}
		v[k++] = x;
	}
	return k;
}

static int parse_softnet(const char *buf, size_t len, struct lr_cpu_table *t)
{
	const char *p = buf, *end = buf + len, *line, *eol;
	size_t online = 0, cursor = 0, i;
	int count = 0, err = 0;

	clear_bit(t, LR_CPUV_SOFTNET);
	for (i = 0; i < t->n; i++)
		online += (t->cpu[i].valid & LR_CPUV_TIMES) != 0;
	for (uint64_t row = 0; next_line(&p, end, &line, &eol);) {
		uint64_t v[SOFTNET_MAX_COLS], cpu;
		struct lr_cpu_raw *c;
		unsigned k = parse_hex_row(line, eol, v);

		if (k < 3)
			continue;
		if (k >= 13) {
			cpu = v[12];
		} else if (online) {
			/* Old kernels: row i is the i-th online CPU (softnet_get_online()). */
			/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): cursor < n */
			while (cursor < t->n && !(t->cpu[cursor].valid & LR_CPUV_TIMES))
				cursor++;
			if (cursor >= t->n)
				continue;
			cpu = cursor++;
		} else {
			cpu = row;
		}
		row++;
		c = slot(t, cpu, &err);
		if (!c) {
			if (err)
				return err;
			continue;
		}
		c->softnet_processed = v[0];
		c->softnet_dropped = v[1];
		c->softnet_squeezed = v[2];
		if (!(c->valid & LR_CPUV_SOFTNET))
			count++;
		set_bit(c, LR_CPUV_SOFTNET);
	}
	return count ? count : -EINVAL;
}

int lr_cpu_parse_softnet(const char *buf, size_t len, struct lr_cpu_table *t)
{
	int rc = parse_softnet(buf, len, t);

	update_present(t);
	return rc;
}

/* ---- reader ---- */

enum { F_STAT, F_SOFTIRQS, F_SOFTNET, F__COUNT };

struct cpu_file {
	const char *path;
	int (*parse)(const char *buf, size_t len, struct lr_cpu_table *t);
	uint32_t bit;
	int fd;
	char *buf;
	size_t cap;
};

struct lr_cpu_reader {
	const struct lr_sysio *io;
	struct cpu_file f[F__COUNT];
};

#define BUF_START (16u << 10)
#define BUF_LIMIT (64u << 20) /* a /proc/stat of 8192 CPUs is ~1.5 MB */

/* pread_all into f->buf, doubling it on -EOVERFLOW. Length or -errno. */
static ssize_t read_grow(const struct lr_sysio *io, struct cpu_file *f)
{
	return lr_sysio_pread_grow(io, f->fd, &f->buf, &f->cap, BUF_LIMIT);
}

int lr_cpu_reader_open(struct lr_cpu_reader **out, const struct lr_sysio *io)
{
	static const struct {
		const char *path;
		int (*parse)(const char *, size_t, struct lr_cpu_table *);
		uint32_t bit;
	} files[F__COUNT] = {
		[F_STAT] = {"/proc/stat", lr_cpu_parse_stat, LR_CPUV_TIMES},
		[F_SOFTIRQS] = {"/proc/softirqs", lr_cpu_parse_softirqs, LR_CPUV_SOFTIRQS},
		[F_SOFTNET] = {"/proc/net/softnet_stat", lr_cpu_parse_softnet, LR_CPUV_SOFTNET},
	};
	struct lr_cpu_reader *r = calloc(1, sizeof(*r));
	int err = 0, opened = 0;
	unsigned i;

	if (!r)
		return -ENOMEM;
	r->io = io;
	for (i = 0; i < F__COUNT; i++)
		r->f[i].fd = -1;
	for (i = 0; i < F__COUNT; i++) {
		struct cpu_file *f = &r->f[i];
		ssize_t n;

		f->path = files[i].path;
		f->parse = files[i].parse;
		f->bit = files[i].bit;
		f->fd = io->open_ro(io, f->path);
		if (f->fd < 0) {
			lr_log(LR_LOG_WARN, "cpu: cannot open %s (%s): its columns stay unknown",
			       f->path, strerror(-f->fd));
			if (!err)
				err = f->fd;
			continue;
		}
		f->cap = BUF_START;
		f->buf = malloc(f->cap);
		if (!f->buf) {
			err = -ENOMEM;
			goto err_close;
		}
		n = read_grow(io, f); /* size the buffer now, not on the first tick */
		if (n == -ENOMEM) {
			err = -ENOMEM;
			goto err_close;
		}
		opened++;
	}
	if (!opened)
		goto err_close;
	*out = r;
	return 0;
err_close:
	lr_cpu_reader_close(r);
	return err ? err : -ENOENT;
}

int lr_cpu_reader_read(struct lr_cpu_reader *r, struct lr_cpu_table *t)
{
	int first_err = 0, ok = 0;
	unsigned i;

	for (i = 0; i < F__COUNT; i++) {
		struct cpu_file *f = &r->f[i];
		ssize_t n;
		int rc;

		if (f->fd < 0) {
			clear_bit(t, f->bit);
			continue;
		}
		n = read_grow(r->io, f);
		rc = n < 0 ? (int)n : f->parse(f->buf, (size_t)n, t);
		if (rc < 0) {
			clear_bit(t, f->bit);
			if (!first_err)
				first_err = rc;
			continue;
		}
		ok++;
	}
	return ok ? 0 : (first_err ? first_err : -ENOENT);
}

void lr_cpu_reader_close(struct lr_cpu_reader *r)
{
	unsigned i;

	if (!r)
		return;
	for (i = 0; i < F__COUNT; i++) {
		if (r->f[i].fd >= 0)
			r->io->close(r->io, r->f[i].fd);
		free(r->f[i].buf);
	}
	free(r);
}

/* ---- percentages ---- */

bool lr_cpu_pct(const struct lr_cpu_raw *prev, const struct lr_cpu_raw *cur, double *user,
		double *system, double *irq, double *softirq, double *idle)
{
	return lr_cpu_pct_steal(prev, cur, user, system, irq, softirq, idle, NULL);
}

bool lr_cpu_pct_steal(const struct lr_cpu_raw *prev, const struct lr_cpu_raw *cur, double *user,
		      double *system, double *irq, double *softirq, double *idle, double *steal)
{
	uint32_t mask = prev->time_valid & cur->time_valid;
	uint64_t d[LR_CT__COUNT] = {0};
	uint64_t total = 0, idle_sum;
	unsigned i;

	if (!(prev->valid & LR_CPUV_TIMES) || !(cur->valid & LR_CPUV_TIMES))
		return false;
	if ((mask & 0xf) != 0xf) /* user nice system idle: every layout has them */
		return false;
	for (i = 0; i < LR_CT__COUNT; i++) {
		if (!(mask & (1u << i)))
			continue;
		if (i == LR_CT_IOWAIT)
			continue;
		if (cur->time[i] < prev->time[i])
			return false;
		d[i] = cur->time[i] - prev->time[i];
	}
	idle_sum = d[LR_CT_IDLE];
	if (mask & (1u << LR_CT_IOWAIT)) {
		if (cur->time[LR_CT_IOWAIT] >= prev->time[LR_CT_IOWAIT]) {
			idle_sum += cur->time[LR_CT_IOWAIT] - prev->time[LR_CT_IOWAIT];
		} else {
			uint64_t back = prev->time[LR_CT_IOWAIT] - cur->time[LR_CT_IOWAIT];

			if (back > idle_sum)
				return false;
			idle_sum -= back;
		}
	}
	total = d[LR_CT_USER] + d[LR_CT_NICE] + d[LR_CT_SYSTEM] + idle_sum + d[LR_CT_IRQ] +
		d[LR_CT_SOFTIRQ] + d[LR_CT_STEAL];
	if (total == 0)
		return false;
	if (user)
		*user = 100.0 * (double)(d[LR_CT_USER] + d[LR_CT_NICE]) / (double)total;
	if (system)
		*system = 100.0 * (double)d[LR_CT_SYSTEM] / (double)total;
	if (irq)
		*irq = 100.0 * (double)d[LR_CT_IRQ] / (double)total;
	if (softirq)
		*softirq = 100.0 * (double)d[LR_CT_SOFTIRQ] / (double)total;
	if (idle)
		*idle = 100.0 * (double)idle_sum / (double)total;
	if (steal)	/* a kernel before 2.6.11 has no steal column: unknown */
		*steal = mask & (1u << LR_CT_STEAL) ? 100.0 * (double)d[LR_CT_STEAL] / (double)total
						     : -1;
	return true;
}
