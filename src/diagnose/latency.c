// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Latency under load from the probes' cumulative counts: intervals by difference, the idle
 * and load quantiles, and the held-or-rose rule with the queue the books say held the wait.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/array.h"
#include "linerate/diagnose/latency.h"

void lr_latency_init(struct lr_latency *l, bool keep_all)
{
	memset(l, 0, sizeof(*l));
	l->keep_all = keep_all;
	lr_latency_reset(l);
}

void lr_latency_reset(struct lr_latency *l)
{
	struct lr_latency_iv *iv = l->iv;
	size_t cap = l->cap_iv;
	bool keep_all = l->keep_all;

	memset(l, 0, sizeof(*l));
	l->iv = iv;
	l->cap_iv = cap;
	l->keep_all = keep_all;
	l->state = LR_PROBE_OFF;
	lr_latency_quantiles(NULL, &l->idle);
	lr_latency_quantiles(NULL, &l->load);
}

void lr_latency_free(struct lr_latency *l)
{
	free(l->iv);
	l->iv = NULL;
	l->cap_iv = 0;
	l->n_iv = 0;
}

unsigned lr_latency_first_iv(const struct lr_latency *l)
{
	return l->n_iv > l->cap_iv ? l->n_iv - (unsigned)l->cap_iv : 0;
}

const struct lr_latency_iv *lr_latency_iv_at(const struct lr_latency *l, unsigned k)
{
	if (k >= l->n_iv || k < lr_latency_first_iv(l))
		return NULL;
	return &l->iv[k % l->cap_iv];
}

void lr_latency_quantiles(const struct lr_lathist *h, struct lr_latency_q *out)
{
	out->p50_ns = out->p90_ns = out->p99_ns = out->max_ns = -1;
	out->count = h ? h->count : 0;
	if (!out->count)
		return;
	out->p50_ns = (int64_t)lr_lathist_quantile(h, 0.50);
	out->p90_ns = (int64_t)lr_lathist_quantile(h, 0.90);
	out->p99_ns = (int64_t)lr_lathist_quantile(h, 0.99);
	out->max_ns = (int64_t)h->max_ns;
}

int lr_latency_interval(const struct lr_probe_stats *later, const struct lr_probe_stats *earlier,
			double start_s, double end_s, struct lr_latency_iv *out)
{
	struct lr_lathist h;

	memset(out, 0, sizeof(*out));
	out->start_s = start_s;
	out->end_s = end_s;
	lr_latency_quantiles(NULL, &out->q);
	if (!earlier) {
		out->sent = later->load_sent;
		out->answered = later->load_answered;
		out->lost = later->load_lost;
		lr_latency_quantiles(&later->load, &out->q);
		return 0;
	}
	if (later->load_sent < earlier->load_sent ||
	    later->load_answered < earlier->load_answered ||
	    later->load_lost < earlier->load_lost ||
	    lr_lathist_sub(&h, &later->load, &earlier->load))
		return -EINVAL;
	out->sent = later->load_sent - earlier->load_sent;
	out->answered = later->load_answered - earlier->load_answered;
	out->lost = later->load_lost - earlier->load_lost;
	lr_latency_quantiles(&h, &out->q);
	return 0;
}

void lr_latency_update(struct lr_latency *l, const struct lr_probe_stats *now)
{
	l->known = true;
	l->state = now->state;
	l->sent = now->sent;
	l->answered = now->answered;
	l->lost = now->lost;
	l->refused = now->refused;
	l->load_sent = now->load_sent;
	l->load_lost = now->load_lost;
	lr_latency_quantiles(&now->idle, &l->idle);
	lr_latency_quantiles(&now->load, &l->load);
}

void lr_latency_add_iv(struct lr_latency *l, const struct lr_latency_iv *iv)
{
	size_t want = l->keep_all ? (size_t)l->n_iv + 1 : LR_LATENCY_RING;

	/* a ring from then on when the array cannot grow: growing a wrapped ring would move it */
	if (l->cap_iv < want && (l->n_iv > l->cap_iv ||
				 lr_array_grow(&l->iv, &l->cap_iv, want, sizeof(*l->iv))))
		l->keep_all = false;
	if (!l->cap_iv || l->n_iv == UINT_MAX)
		return;
	l->iv[l->n_iv % l->cap_iv] = *iv;
	l->n_iv++;
}

const char *lr_latency_state_word(const struct lr_latency *l)
{
	static const char *const word[] = {
		[LR_PROBE_OFF] = "off",
		[LR_PROBE_ASKED] = "asked",
		[LR_PROBE_UNOFFERED] = "unoffered",
		[LR_PROBE_IDLE] = "idle",
		[LR_PROBE_LOAD] = "load",
		[LR_PROBE_DONE] = "done",
	};

	if (!l->known || (unsigned)l->state >= sizeof(word) / sizeof(word[0]))
		return "unknown";
	return word[l->state];
}

bool lr_latency_none(const struct lr_latency *l)
{
	return !l->known || l->state == LR_PROBE_OFF || l->state == LR_PROBE_UNOFFERED;
}

void lr_latency_fmt(char *buf, size_t len, int64_t ns)
{
	double ms = (double)ns / 1e6;

	if (ns < 0)
		snprintf(buf, len, "?");
	else if (ms < 1)
		snprintf(buf, len, "%.2f ms", ms);
	else if (ms < 10)
		snprintf(buf, len, "%.1f ms", ms);
	else if (ms < 1000)
		snprintf(buf, len, "%.0f ms", ms);
	else
		snprintf(buf, len, "%.1f s", ms / 1000);
}

static void fmt_bytes(char *buf, size_t len, uint64_t b)
{
	if (b >= 1000000)
		snprintf(buf, len, "%.1f MB", (double)b / 1e6);
	else if (b >= 1000)
		snprintf(buf, len, "%.0f kB", (double)b / 1e3);
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)b);
}

/* Below this peak a qdisc's backlog is not called the queue: a few packets in flight on their
 * way to the driver wait microseconds, not milliseconds. */
#define BACKLOG_FLOOR_BYTES 16384

/* Which queue the books show held the wait, "" when none of this host's counters show one. */
static void where_text(const struct lr_latency_where *w, char *buf, size_t len)
{
	char b[32];

	buf[0] = '\0';
	if (!w)
		return;
	if (w->sender_local && w->backlog_known && w->backlog_max_bytes >= BACKLOG_FLOOR_BYTES) {
		fmt_bytes(b, sizeof(b), w->backlog_max_bytes);
		snprintf(buf, len, ": the sender's qdisc backlog (%s%s%s) held %s",
			 w->qdisc && w->qdisc[0] ? w->qdisc : "root qdisc", w->iface ? " on " : "",
			 w->iface ? w->iface : "", b);
	} else if (w->receiver_local && w->udp_rcvbuf > 0) {
		snprintf(buf, len, ": the receiver's socket queue filled (%lld RcvbufErrors)",
			 (long long)w->udp_rcvbuf);
	} else if (w->receiver_local && w->softnet_drop > 0) {
		snprintf(buf, len, ": the softnet backlog filled (%lld dropped)",
			 (long long)w->softnet_drop);
	} else {
		snprintf(buf, len,
			 ": no queue on this host's counters held it (the peer's, or a "
			 "queue further on the path)");
	}
}

enum lr_latency_judgement lr_latency_judge(const struct lr_latency *l,
					   const struct lr_latency_where *w, char *line, size_t len)
{
	enum lr_latency_judgement j = LR_LATJ_UNKNOWN;
	char idle[24], load[24], where[200], lost[64] = "";
	int64_t bound;

	line[0] = '\0';
	if (l->known && l->state == LR_PROBE_UNOFFERED)
		snprintf(line, len,
			 "latency not measured: the peer offers no probes (a plain iperf3)");
	if (lr_latency_none(l))
		return LR_LATJ_UNKNOWN;
	if (l->lost)
		snprintf(lost, sizeof(lost), "; %llu of %llu probes lost",
			 (unsigned long long)l->lost, (unsigned long long)l->sent);
	if (l->idle.count < LR_LATENCY_MIN_PROBES || l->load.count < LR_LATENCY_MIN_PROBES) {
		snprintf(line, len,
			 "latency not judged: %llu idle and %llu loaded probes answered%s",
			 (unsigned long long)l->idle.count, (unsigned long long)l->load.count,
			 lost);
		return LR_LATJ_UNKNOWN;
	}
	lr_latency_fmt(idle, sizeof(idle), l->idle.p99_ns);
	lr_latency_fmt(load, sizeof(load), l->load.p99_ns);
	bound = l->idle.p99_ns * LR_LATENCY_ROSE_FACTOR;
	if (l->idle.p99_ns + (int64_t)LR_LATENCY_ROSE_ADD_NS > bound)
		bound = l->idle.p99_ns + (int64_t)LR_LATENCY_ROSE_ADD_NS;
	if (l->load.p99_ns > bound) {
		j = LR_LATJ_ROSE;
		where_text(w, where, sizeof(where));
		snprintf(line, len, "latency under load rose from %s to %s at p99%s%s", idle, load,
			 where, lost);
	} else {
		j = LR_LATJ_HELD;
		snprintf(line, len, "latency held: p99 under load %s, idle %s%s", load, idle, lost);
	}
	return j;
}
