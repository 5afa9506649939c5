// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --expect's conditions: the grammar of include/linerate/diagnose/expect.h parsed by hand
 * (strtod would take hex, exponents, "inf" and a sign, none of which a CI threshold needs),
 * and each condition judged on the test's own figures. A figure the test could not know is
 * never a pass: the condition is not judgeable and says why. Pure; any thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linerate/core/common.h"
#include "linerate/diagnose/expect.h"
#include "linerate/diagnose/verdict.h"

static const struct {
	const char *name;
	enum lr_expect_metric m;
} metrics[] = {
	{"loss", LR_EXPECT_LOSS},
	{"rate", LR_EXPECT_RATE},
	{"retr", LR_EXPECT_RETR},
	{"cpu", LR_EXPECT_CPU},
};

/* NUMBER at *p: digits, optionally "." and digits. false when there is none. */
static bool number(const char **p, double *v, unsigned *decimals)
{
	const char *s = *p;
	double x = 0, scale = 1;

	*decimals = 0;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++)
		x = x * 10 + (*s - '0');
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return false;
		for (; *s >= '0' && *s <= '9'; s++) {
			scale /= 10;
			x += (*s - '0') * scale;
			(*decimals)++;
		}
	}
	*p = s;
	*v = x;
	return isfinite(x);
}

/* The error names the COND as written, a control character as '?': one line, always. */
static int bad(char *err, size_t len, const char *cond, const char *why)
{
	char shown[LR_EXPECT_TEXT + 1];
	size_t i;

	for (i = 0; cond[i] && i + 1 < sizeof(shown); i++)
		shown[i] = (unsigned char)cond[i] < 0x20 || cond[i] == 0x7f ? '?' : cond[i];
	shown[i] = '\0';
	snprintf(err, len, "--expect: '%s': %s", shown, why);
	return -EINVAL;
}

static int parse_cond(const char *cond, struct lr_expect_cond *c, char *err, size_t len)
{
	const char *p = cond;
	size_t i;

	memset(c, 0, sizeof(*c));
	if (!*cond)
		return bad(err, len, cond, "an empty condition (COND[,COND], no spaces)");
	if (strlen(cond) >= sizeof(c->text))
		return bad(err, len, cond, "too long");
	memcpy(c->text, cond, strlen(cond) + 1);	/* fits: checked above */
	for (i = 0; i < LR_ARRAY_SIZE(metrics); i++)
		if (!strncmp(p, metrics[i].name, strlen(metrics[i].name)))
			break;
	if (i == LR_ARRAY_SIZE(metrics))
		return bad(err, len, cond, "unknown measure (loss, rate, retr or cpu)");
	c->metric = metrics[i].m;
	p += strlen(metrics[i].name);
	if (p[0] == '<' || p[0] == '>') {
		bool eq = p[1] == '=';

		c->op = p[0] == '<' ? (eq ? LR_EXPECT_LE : LR_EXPECT_LT)
				    : (eq ? LR_EXPECT_GE : LR_EXPECT_GT);
		p += eq ? 2 : 1;
	} else {
		return bad(err, len, cond, "no comparison (<=, <, >= or >)");
	}
	if (!number(&p, &c->value, &c->decimals))
		return bad(err, len, cond, "no number after the comparison (digits, optionally .digits)");
	switch (c->metric) {
	case LR_EXPECT_LOSS:
	case LR_EXPECT_CPU:
		if (strcmp(p, "%"))
			return bad(err, len, cond, "a percentage needs % after the number (loss<=0.1%, "
				   "cpu<90%)");
		if (c->value > 100)
			return bad(err, len, cond, "a percentage above 100");
		break;
	case LR_EXPECT_RATE: {
		static const char units[] = "kKMGT";
		static const double mult[] = {1e3, 1e3, 1e6, 1e9, 1e12};
		const char *u = *p ? strchr(units, *p) : NULL;

		if (*p && (!u || p[1]))
			return bad(err, len, cond, "a rate is bit/s with k, M, G or T after the number "
				   "(rate>=9.4G)");
		if (u)
			c->value *= mult[u - units];
		break;
	}
	case LR_EXPECT_RETR:
		if (*p || c->decimals)
			return bad(err, len, cond, "retransmits are a whole number of segments (retr<=100)");
		break;
	}
	return 0;
}

int lr_expect_parse(const char *spec, struct lr_expect *out, char *err, size_t len)
{
	const char *p = spec;

	memset(out, 0, sizeof(*out));
	err[0] = '\0';
	for (;;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char one[LR_EXPECT_TEXT + 1];
		int rc;

		if (out->n == LR_EXPECT_MAX) {
			snprintf(err, len, "--expect: more than %d conditions", LR_EXPECT_MAX);
			return -EINVAL;
		}
		if (n >= sizeof(one)) {
			memcpy(one, p, LR_EXPECT_TEXT - 1);
			one[LR_EXPECT_TEXT - 1] = '\0';
			return bad(err, len, one, "too long");
		}
		memcpy(one, p, n);
		one[n] = '\0';
		rc = parse_cond(one, &out->c[out->n], err, len);
		if (rc)
			return rc;
		out->n++;
		if (!end)
			return 0;
		p = end + 1;
	}
}

static bool holds(const struct lr_expect_cond *c, double v)
{
	switch (c->op) {
	case LR_EXPECT_LE:
		return v <= c->value;
	case LR_EXPECT_LT:
		return v < c->value;
	case LR_EXPECT_GE:
		return v >= c->value;
	case LR_EXPECT_GT:
		return v > c->value;
	}
	return false;
}

/* 178643 -> "178,643" */
static void grouped(char *buf, size_t len, int64_t v)
{
	char d[32];
	size_t n, o = 0;

	snprintf(d, sizeof(d), "%" PRId64, v);
	n = strlen(d);
	for (size_t i = 0; i < n && o + 1 < len; i++) {
		if (i && d[i - 1] != '-' && (n - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = '\0';
}

static enum lr_expect_result unknown(const struct lr_expect_cond *c, char *line, size_t len,
				     const char *why)
{
	snprintf(line, len, "expect %s: cannot be judged: %s", c->text, why);
	return LR_EXPECT_UNKNOWN;
}

static enum lr_expect_result verdict(const struct lr_expect_cond *c, double v, char *line,
				     size_t len, const char *figure)
{
	bool ok = holds(c, v);

	snprintf(line, len, "expect %s: %s%s", c->text, ok ? "met: " : "", figure);
	return ok ? LR_EXPECT_MET : LR_EXPECT_NOT_MET;
}

void lr_expect_traffic_facts(const struct lr_verdict_traffic *t, struct lr_expect_facts *f)
{
	f->ran = t->ran;
	f->udp = t->udp;
	f->lost = t->udp_lost;
	f->packets = t->udp_packets;
	f->loss_dir = NULL;
	f->retransmits = t->retransmits;
	f->rate_bps = t->bidir ? (t->up_bps < t->down_bps ? t->up_bps : t->down_bps)
		      : t->reverse ? t->down_bps : t->up_bps;
	if (!t->bidir)
		return;
	/* each direction judged on its own: the sum would dilute one direction's loss in the
	 * other's datagrams. The worse one decides; one unknown leaves it unknown. */
	f->lost = f->packets = -1;
	for (unsigned d = 0; d < LR_LDIR__COUNT; d++) {
		int64_t l = t->dir_udp_lost[d], p = t->dir_udp_packets[d];

		if (l < 0 || p < 0) {
			f->lost = f->packets = -1;
			f->loss_dir = NULL;
			return;
		}
		if (!f->loss_dir || (p > 0 && (f->packets <= 0 ||
					      (double)l / (double)p >
						      (double)f->lost / (double)f->packets))) {
			f->lost = l;
			f->packets = p;
			f->loss_dir = lr_ledger_dir_name((enum lr_ledger_dir)d);
		}
	}
}

static enum lr_expect_result judge_loss(const struct lr_expect_cond *c,
					const struct lr_expect_facts *f, char *line, size_t len)
{
	char fig[128], lost[32], sent[32];
	unsigned dec = c->decimals + 1 > 2 ? c->decimals + 1 : 2;
	double pct;

	if (!f->udp)
		return unknown(c, line, len, "a TCP test loses no data (TCP retransmits it): "
			       "judge retr<=N instead");
	if (f->lost < 0 || f->packets < 0)
		return unknown(c, line, len, "the receiver's count of lost datagrams did not arrive");
	if (f->packets == 0)
		return unknown(c, line, len, "no datagram was sent");
	pct = 100.0 * (double)f->lost / (double)f->packets;
	grouped(lost, sizeof(lost), f->lost);
	grouped(sent, sizeof(sent), f->packets);
	snprintf(fig, sizeof(fig), "lost %.*f%% (%s of %s datagrams%s%s)", dec > 6 ? 6 : (int)dec,
		 pct, lost, sent, f->loss_dir ? ", the worse direction: " : "",
		 f->loss_dir ? f->loss_dir : "");
	return verdict(c, pct, line, len, fig);
}

static enum lr_expect_result judge_cpu(const struct lr_expect_cond *c,
				       const struct lr_expect_facts *f, char *line, size_t len)
{
	const struct lr_expect_cpu *hot;
	char fig[160];

	if (!f->cpu_local.known)
		return unknown(c, line, len, "this host's CPU times are unknown");
	if (!f->cpu_peer.known)
		return unknown(c, line, len, f->peer_shares
			       ? "the peer's CPU times are unknown"
			       : "the peer's CPU times are unknown (a plain iperf3 shares none)");
	hot = f->cpu_peer.busy_pct > f->cpu_local.busy_pct ? &f->cpu_peer : &f->cpu_local;
	snprintf(fig, sizeof(fig), "busiest CPU %.1f%% busy (cpu%d on %s)", hot->busy_pct, hot->cpu,
		 hot->host[0] ? hot->host : hot == &f->cpu_peer ? "the peer" : "this host");
	return verdict(c, hot->busy_pct, line, len, fig);
}

enum lr_expect_result lr_expect_judge(const struct lr_expect_cond *c,
				      const struct lr_expect_facts *f, char *line, size_t len)
{
	char fig[96], num[32];

	if (!f->ran)
		return unknown(c, line, len, "the test did not run to its results");
	switch (c->metric) {
	case LR_EXPECT_LOSS:
		return judge_loss(c, f, line, len);
	case LR_EXPECT_RATE:
		if (!(f->rate_bps >= 0))
			return unknown(c, line, len, "the receiver's goodput is unknown");
		lr_verdict_fmt_bps(num, sizeof(num), f->rate_bps);
		snprintf(fig, sizeof(fig), "received %s", num);
		return verdict(c, f->rate_bps, line, len, fig);
	case LR_EXPECT_RETR:
		if (f->udp)
			return unknown(c, line, len, "a UDP test retransmits nothing: judge loss<=N% "
				       "instead");
		if (f->retransmits < 0)
			return unknown(c, line, len, "the senders' retransmit count did not arrive");
		grouped(num, sizeof(num), f->retransmits);
		snprintf(fig, sizeof(fig), "%s segments retransmitted", num);
		return verdict(c, (double)f->retransmits, line, len, fig);
	case LR_EXPECT_CPU:
		return judge_cpu(c, f, line, len);
	}
	return unknown(c, line, len, "unknown measure");
}
