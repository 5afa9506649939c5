// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/net/snmp and /proc/net/netstat: "Proto: Name1 Name2 ..." header lines each followed by
 * a "Proto: v1 v2 ..." value line (net/ipv4/proc.c). Columns are matched by name, so 2.6.32's
 * six-column Udp and 5.x's nine-column Udp both parse. A value line shorter than its header,
 * or a wanted counter that is not a number, is a line that does not parse: the reader warns
 * once and keeps that line's counters unknown for the rest of the run (a kernel whose format
 * we misread would otherwise give a stage numbers that mean nothing). Pure parser plus a
 * reader that owns two fds and two buffers on the sampler thread.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/log.h"
#include "linerate/collect/snmp.h"
#include "linerate/core/strutil.h"

/* The lines read, in the order of the parser's pending headers. */
static const char *const protos[] = {"Ip", "Tcp", "Udp", "TcpExt"};

struct wanted {
	unsigned proto; /* index into protos[] */
	const char *name;  /* "RetransSegs" */
	uint32_t bit;
	size_t off;
};

#define DROP(p, n, d) {p, n, LR_STACKV_DROP(d), offsetof(struct lr_snmp_raw, drop) + \
			(d) * sizeof(uint64_t)}

static const struct wanted wanted[] = {
	{1, "RetransSegs", LR_STACKV_TCP_RETRANS, offsetof(struct lr_snmp_raw, tcp_retrans)},
	{2, "InErrors", LR_STACKV_UDP_IN_ERRORS, offsetof(struct lr_snmp_raw, udp_in_errors)},
	{2, "RcvbufErrors", LR_STACKV_UDP_RCVBUF, offsetof(struct lr_snmp_raw, udp_rcvbuf_errors)},
	{2, "SndbufErrors", LR_STACKV_UDP_SNDBUF, offsetof(struct lr_snmp_raw, udp_sndbuf_errors)},
	DROP(0, "InDiscards", LR_SD_IP_IN_DISCARDS),
	DROP(0, "InHdrErrors", LR_SD_IP_IN_HDR_ERRORS),
	DROP(0, "InAddrErrors", LR_SD_IP_IN_ADDR_ERRORS),
	DROP(0, "ReasmFails", LR_SD_IP_REASM_FAILS),
	DROP(2, "NoPorts", LR_SD_UDP_NO_PORTS),
	DROP(2, "InCsumErrors", LR_SD_UDP_IN_CSUM_ERRORS),
	DROP(3, "TCPBacklogDrop", LR_SD_TCP_BACKLOG_DROP),
	DROP(3, "TCPRcvQDrop", LR_SD_TCP_RCVQ_DROP),
	DROP(3, "TCPZeroWindowDrop", LR_SD_TCP_ZERO_WINDOW_DROP),
	DROP(3, "TCPOFODrop", LR_SD_TCP_OFO_DROP),
	DROP(3, "TCPDSACKRecvSegs", LR_SD_TCP_DSACK_RECV_SEGS),
};

static const char *const drop_names[LR_SD__COUNT] = {
	"Ip InDiscards",	 "Ip InHdrErrors",     "Ip InAddrErrors",
	"Ip ReasmFails",	 "Udp NoPorts",	       "Udp InCsumErrors",
	"TcpExt TCPBacklogDrop", "TcpExt TCPRcvQDrop", "TcpExt TCPZeroWindowDrop",
	"TcpExt TCPOFODrop",	 "TcpExt TCPDSACKRecvSegs",
};

const char *lr_stack_drop_name(enum lr_stack_drop d)
{
	return (unsigned)d < LR_SD__COUNT ? drop_names[d] : "?";
}

/* Every counter read from protocol line k. */
static uint32_t proto_bits(unsigned k)
{
	uint32_t b = 0;

	for (size_t i = 0; i < LR_ARRAY_SIZE(wanted); i++)
		if (wanted[i].proto == k)
			b |= wanted[i].bit;
	return b;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Next blank-separated token of [*p, end): sets *tok and *tlen, advances *p. */
static bool next_token(const char **p, const char *end, const char **tok, size_t *tlen)
{
	const char *q = *p;

	while (q < end && is_blank(*q))
		q++;
	if (q == end)
		return false;
	*tok = q;
	while (q < end && !is_blank(*q))
		q++;
	*tlen = (size_t)(q - *tok);
	*p = q;
	return true;
}

static bool tok_eq(const char *tok, size_t tlen, const char *s)
{
	return strlen(s) == tlen && !memcmp(tok, s, tlen);
}

/* Matches the header [h, hend) to the values [v, vend) of protocol line k into out. false: the
 * line does not parse (fewer values than names, a wanted counter that is not a number). */
static bool match_pair(unsigned k, const char *h, const char *hend, const char *v,
		       const char *vend, struct lr_snmp_raw *out)
{
	const char *ht, *vt;
	size_t hl, vl, i;

	while (next_token(&h, hend, &ht, &hl)) {
		if (!next_token(&v, vend, &vt, &vl))
			return false;
		for (i = 0; i < LR_ARRAY_SIZE(wanted); i++) {
			const char *q = vt;
			uint64_t x;

			if (wanted[i].proto != k || !tok_eq(ht, hl, wanted[i].name))
				continue;
			/* Only a plain unsigned number counts: "-1" or junk is a misread line */
			if (!lr_scan_u64(&q, vt + vl, &x) || q != vt + vl)
				return false;
			memcpy((char *)out + wanted[i].off, &x, sizeof(x));
			out->valid |= wanted[i].bit;
		}
	}
	return true;
}

int lr_snmp_parse(const char *buf, size_t len, struct lr_snmp_raw *out)
{
	const char *p = buf, *end = buf + len;
	/* The header line waiting for its value line, per protocol line we read. */
	const char *hdr[LR_ARRAY_SIZE(protos)] = {NULL}, *hdr_end[LR_ARRAY_SIZE(protos)];
	bool paired = false;
	int known = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line = p, *eol = nl ? nl : end;
		const char *colon = memchr(line, ':', (size_t)(eol - line));
		unsigned k;

		p = nl ? nl + 1 : end;
		if (!colon)
			continue;
		for (k = 0; k < LR_ARRAY_SIZE(protos); k++)
			if (tok_eq(line, (size_t)(colon - line), protos[k]))
				break;
		if (k == LR_ARRAY_SIZE(protos))
			continue;
		if (!hdr[k]) {
			hdr[k] = colon + 1;
			hdr_end[k] = eol;
			continue;
		}
		if (!match_pair(k, hdr[k], hdr_end[k], colon + 1, eol, out))
			out->bad |= proto_bits(k);
		hdr[k] = NULL;
		paired = true;
	}
	for (i = 0; i < LR_ARRAY_SIZE(protos); i++)
		if (hdr[i])	/* a header without its value line */
			out->bad |= proto_bits((unsigned)i);
	out->valid &= ~out->bad;
	if (!paired)
		return -EINVAL;
	for (i = 0; i < LR_ARRAY_SIZE(wanted); i++)
		known += (out->valid & wanted[i].bit) != 0;
	return known;
}

struct lr_stack_file {
	const char *path;
	int fd;	/* -1: not there */
	char *buf;
	size_t cap;
};

struct lr_snmp_reader {
	const struct lr_sysio *io;
	struct lr_stack_file f[2];	/* /proc/net/snmp, /proc/net/netstat */
	uint32_t dead;	/* counters of a line that did not parse once: unknown from then on */
};

#define BUF_START 4096u
#define BUF_LIMIT (1u << 20)

static ssize_t read_grow(struct lr_snmp_reader *r, struct lr_stack_file *f)
{
	return lr_sysio_pread_grow(r->io, f->fd, &f->buf, &f->cap, BUF_LIMIT);
}

/* Opens one file and sizes its buffer now, not on the first tick. */
static int open_file(struct lr_snmp_reader *r, struct lr_stack_file *f, const char *path)
{
	f->path = path;
	f->cap = BUF_START;
	f->buf = malloc(f->cap);
	if (!f->buf)
		return -ENOMEM;
	f->fd = r->io->open_ro(r->io, path);
	if (f->fd < 0)
		return f->fd;
	return read_grow(r, f) == -ENOMEM ? -ENOMEM : 0;
}

static void close_file(struct lr_snmp_reader *r, struct lr_stack_file *f)
{
	if (f->fd >= 0)
		r->io->close(r->io, f->fd);
	free(f->buf);
}

int lr_snmp_reader_open(struct lr_snmp_reader **out, const struct lr_sysio *io)
{
	struct lr_snmp_reader *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	r->io = io;
	r->f[0].fd = r->f[1].fd = -1;
	err = open_file(r, &r->f[0], "/proc/net/snmp");
	if (err < 0) {
		if (err != -ENOMEM)
			lr_log(LR_LOG_WARN, "snmp: cannot open /proc/net/snmp (%s): stack counters "
			       "unknown", strerror(-err));
		goto err_free;
	}
	err = open_file(r, &r->f[1], "/proc/net/netstat");
	if (err == -ENOMEM)
		goto err_free;
	if (err < 0)
		lr_log(LR_LOG_INFO, "snmp: no /proc/net/netstat (%s): TCP's drop counters unknown",
		       strerror(-err));
	*out = r;
	return 0;
err_free:
	lr_snmp_reader_close(r);
	return err;
}

/* Names each line that did not parse for the first time, once. */
static void warn_dead(const struct lr_stack_file *f, uint32_t bad)
{
	for (unsigned k = 0; k < LR_ARRAY_SIZE(protos); k++)
		if (bad & proto_bits(k))
			lr_log(LR_LOG_WARN, "snmp: the %s line of %s does not parse: its counters are "
			       "unknown for the rest of the run", protos[k], f->path);
}

int lr_snmp_reader_read(struct lr_snmp_reader *r, struct lr_snmp_raw *out)
{
	struct lr_snmp_raw more = {0};	/* netstat's: lr_snmp_parse fills it (cppcheck) */
	int known = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < LR_ARRAY_SIZE(r->f); i++) {
		struct lr_stack_file *f = &r->f[i];
		struct lr_snmp_raw *to = i ? &more : out;
		ssize_t n;
		int got;

		if (f->fd < 0)
			continue;
		n = read_grow(r, f);
		if (n < 0) {
			if (!i)
				return (int)n;
			continue;
		}
		got = lr_snmp_parse(f->buf, (size_t)n, to);
		if (to->bad & ~r->dead)
			warn_dead(f, to->bad & ~r->dead);
		r->dead |= to->bad;
		if (got < 0 && !i)
			return got;
		if (got < 0)
			continue;
		if (i) {	/* netstat's lines are not snmp's: merge what it knew */
			for (size_t w = 0; w < LR_ARRAY_SIZE(wanted); w++)
				if (more.valid & wanted[w].bit)
					memcpy((char *)out + wanted[w].off,
					       (const char *)&more + wanted[w].off, sizeof(uint64_t));
			out->valid |= more.valid;
		}
	}
	out->valid &= ~r->dead;
	out->bad = r->dead;
	for (size_t w = 0; w < LR_ARRAY_SIZE(wanted); w++)
		known += (out->valid & wanted[w].bit) != 0;
	return known;
}

void lr_snmp_reader_close(struct lr_snmp_reader *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < LR_ARRAY_SIZE(r->f); i++)
		close_file(r, &r->f[i]);
	free(r);
}
