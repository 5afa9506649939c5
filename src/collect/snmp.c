// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/net/snmp: "Proto: Name1 Name2 ..." header lines each followed by a "Proto: v1 v2 ..."
 * value line (net/ipv4/proc.c). Columns are matched by name, so 2.6.32's six-column Udp and
 * 5.x's nine-column Udp both parse. Pure parser plus a reader that owns one fd and one buffer
 * on the sampler thread.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/log.h"
#include "linerate/collect/snmp.h"
#include "linerate/core/strutil.h"

struct wanted {
	const char *proto; /* "Tcp" */
	const char *name;  /* "RetransSegs" */
	uint32_t bit;
	size_t off;
};

static const struct wanted wanted[] = {
	{"Tcp", "RetransSegs", LR_STACKV_TCP_RETRANS, offsetof(struct lr_snmp_raw, tcp_retrans)},
	{"Udp", "InErrors", LR_STACKV_UDP_IN_ERRORS, offsetof(struct lr_snmp_raw, udp_in_errors)},
	{"Udp", "RcvbufErrors", LR_STACKV_UDP_RCVBUF,
	 offsetof(struct lr_snmp_raw, udp_rcvbuf_errors)},
	{"Udp", "SndbufErrors", LR_STACKV_UDP_SNDBUF,
	 offsetof(struct lr_snmp_raw, udp_sndbuf_errors)},
};

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

/* Matches the header [h, hend) to the values [v, vend) of protocol proto into out. */
static void match_pair(const char *proto, size_t plen, const char *h, const char *hend,
		       const char *v, const char *vend, struct lr_snmp_raw *out)
{
	const char *ht, *vt;
	size_t hl, vl, i;

	while (next_token(&h, hend, &ht, &hl)) {
		if (!next_token(&v, vend, &vt, &vl))
			return; /* a short value line: the rest stays unknown */
		for (i = 0; i < LR_ARRAY_SIZE(wanted); i++) {
			const char *q = vt;
			uint64_t x;

			if (!tok_eq(proto, plen, wanted[i].proto) ||
			    !tok_eq(ht, hl, wanted[i].name))
				continue;
			/* Only a plain unsigned number counts; "-1" or junk stays unknown. */
			if (!lr_scan_u64(&q, vt + vl, &x) || q != vt + vl)
				continue;
			memcpy((char *)out + wanted[i].off, &x, sizeof(x));
			out->valid |= wanted[i].bit;
		}
	}
}

int lr_snmp_parse(const char *buf, size_t len, struct lr_snmp_raw *out)
{
	const char *p = buf, *end = buf + len;
	/* The header line waiting for its value line, per protocol we read (Tcp, Udp). */
	const char *hdr[2] = {NULL, NULL}, *hdr_end[2] = {NULL, NULL};
	bool paired = false;
	int known = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line = p, *eol = nl ? nl : end;
		const char *colon = memchr(line, ':', (size_t)(eol - line));
		size_t plen;
		int k;

		p = nl ? nl + 1 : end;
		if (!colon)
			continue;
		plen = (size_t)(colon - line);
		if (tok_eq(line, plen, "Tcp"))
			k = 0;
		else if (tok_eq(line, plen, "Udp"))
			k = 1;
		else
			continue;
		if (!hdr[k]) {
			hdr[k] = colon + 1;
			hdr_end[k] = eol;
			continue;
		}
		match_pair(line, plen, hdr[k], hdr_end[k], colon + 1, eol, out);
		hdr[k] = NULL;
		paired = true;
	}
	if (!paired)
		return -EINVAL;
	for (i = 0; i < LR_ARRAY_SIZE(wanted); i++)
		known += (out->valid & wanted[i].bit) != 0;
	return known;
}

struct lr_snmp_reader {
	const struct lr_sysio *io;
	int fd;
	char *buf;
	size_t cap;
};

#define BUF_START 4096u
#define BUF_LIMIT (1u << 20)

static ssize_t read_grow(struct lr_snmp_reader *r)
{
	return lr_sysio_pread_grow(r->io, r->fd, &r->buf, &r->cap, BUF_LIMIT);
}

int lr_snmp_reader_open(struct lr_snmp_reader **out, const struct lr_sysio *io)
{
	struct lr_snmp_reader *r = calloc(1, sizeof(*r));
	ssize_t n;
	int err;

	if (!r)
		return -ENOMEM;
	r->io = io;
	r->cap = BUF_START;
	r->buf = malloc(r->cap);
	if (!r->buf) {
		err = -ENOMEM;
		goto err_free;
	}
	r->fd = io->open_ro(io, "/proc/net/snmp");
	if (r->fd < 0) {
		err = r->fd;
		lr_log(LR_LOG_WARN, "snmp: cannot open /proc/net/snmp (%s): stack counters unknown",
		       strerror(-err));
		goto err_free;
	}
	n = read_grow(r); /* size the buffer now, not on the first tick */
	if (n == -ENOMEM) {
		err = -ENOMEM;
		goto err_close;
	}
	*out = r;
	return 0;
err_close:
	io->close(io, r->fd);
err_free:
	free(r->buf);
	free(r);
	return err;
}

int lr_snmp_reader_read(struct lr_snmp_reader *r, struct lr_snmp_raw *out)
{
	ssize_t n = read_grow(r);

	if (n < 0) {
		memset(out, 0, sizeof(*out));
		return (int)n;
	}
	return lr_snmp_parse(r->buf, (size_t)n, out);
}

void lr_snmp_reader_close(struct lr_snmp_reader *r)
{
	if (!r)
		return;
	r->io->close(r->io, r->fd);
	free(r->buf);
	free(r);
}
