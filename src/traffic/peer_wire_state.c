// SPDX-License-Identifier: GPL-2.0-or-later
/* The state fields of a peer-stats frame (docs/wire.md §P4.1): link, rings, driver,
 * offloads, NUMA node, serving CPUs and per-queue counters of each interface, and the tuning
 * sysctls. All optional within version 1: encoded only when known, decoded as unknown when
 * absent; what is present is type- and range-checked, and the queue and serving tables are
 * bounded before anything is stored. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "linerate/traffic/peer_wire.h"

#include "peer_wire_priv.h"

void lr_peer_iface_unknown(struct lr_peer_iface *i)
{
	memset(i, 0, sizeof(*i));
	i->mtu = i->speed_mbps = -1;
	i->duplex = -1;
	i->ring_rx = i->ring_rx_max = i->ring_tx = i->ring_tx_max = -1;
	i->numa_node = -1;
	i->operstate = -1;
	i->softirq_max_pct = -1;
	i->softirq_cpu = -1;
	i->qdisc_drops = -1;
}

void lr_peer_tuning_unknown(struct lr_peer_tuning *t)
{
	memset(t, 0, sizeof(*t));
	t->rmem_max = t->wmem_max = t->netdev_max_backlog = -1;
	for (int k = 0; k < 3; k++)
		t->tcp_rmem[k] = t->tcp_wmem[k] = -1;
	t->tcp_window_scaling = t->tcp_timestamps = t->tcp_sack = -1;
}

/* key: v when known (>= 0); unknown stays absent */
int lr_pw_set_known(json_t *o, const char *key, int64_t v)
{
	return v >= 0 ? json_object_set_new(o, key, json_integer((json_int_t)v)) : 0;
}

static json_t *enc_queue(const struct lr_peer_queue *q)
{
	json_t *o = json_object(), *c = json_array();
	int rc = 0;

	if (!o || !c) {
		json_decref(o);
		json_decref(c);
		return NULL;
	}
	for (int f = 0; f < 6; f++)
		rc |= json_array_append_new(
			c, json_integer((q->known & (1u << f)) ? (json_int_t)(q->c[f] & INT64_MAX)
							      : 0));
	rc |= json_object_set_new(o, "q", json_integer(q->queue));
	rc |= json_object_set_new(o, "k", json_integer(q->known & 0x3f));
	rc |= json_object_set_new(o, "b", json_integer((json_int_t)(q->base_ns & INT64_MAX)));
	rc |= json_object_set_new(o, "c", c);
	rc |= lr_pw_set_known(o, "cpu", q->cpu);
	if (isfinite(q->cpu_softirq_pct) && q->cpu_softirq_pct >= 0)
		rc |= json_object_set_new(o, "sq", json_real(q->cpu_softirq_pct));
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The link state fields added within version 1 (docs/wire.md §P4.1). */
static int enc_link(json_t *o, const struct lr_peer_iface *i, const struct lr_peer_queue *qs)
{
	int rc = 0;

	rc |= lr_pw_set_known(o, "duplex", i->duplex);
	rc |= lr_pw_set_known(o, "ring_rx", i->ring_rx);
	rc |= lr_pw_set_known(o, "ring_rx_max", i->ring_rx_max);
	rc |= lr_pw_set_known(o, "ring_tx", i->ring_tx);
	rc |= lr_pw_set_known(o, "ring_tx_max", i->ring_tx_max);
	if (i->driver[0])
		rc |= json_object_set_new(o, "driver", json_string(i->driver));
	if (i->features_known) {
		rc |= json_object_set_new(o, "features", json_integer(i->features));
		rc |= json_object_set_new(o, "features_known", json_integer(i->features_known));
	}
	rc |= lr_pw_set_known(o, "numa_node", i->numa_node);
	rc |= lr_pw_set_known(o, "operstate", i->operstate);
	rc |= lr_pw_set_known(o, "qdisc_drops", i->qdisc_drops);
	if (i->qdisc[0])
		rc |= json_object_set_new(o, "qdisc", json_string(i->qdisc));
	if (i->n_q) {
		json_t *a = json_array();

		rc |= json_object_set_new(o, "qsrc", json_integer(i->queue_source));
		for (size_t k = 0; a && k < i->n_q; k++)
			rc |= json_array_append_new(a, enc_queue(&qs[i->q_first + k]));
		rc |= a ? json_object_set_new(o, "queues", a) : -1;
	}
	return rc;
}

static json_t *i64_array(const int64_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, json_integer(v[i] >= 0 ? (json_int_t)v[i] : -1))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *lr_pw_enc_tuning(const struct lr_peer_tuning *t)
{
	json_t *o = json_object();
	int rc = 0;

	if (!o)
		return NULL;
	rc |= lr_pw_set_known(o, "rmem_max", t->rmem_max);
	rc |= lr_pw_set_known(o, "wmem_max", t->wmem_max);
	rc |= lr_pw_set_known(o, "netdev_max_backlog", t->netdev_max_backlog);
	rc |= json_object_set_new(o, "tcp_rmem", i64_array(t->tcp_rmem, 3));
	rc |= json_object_set_new(o, "tcp_wmem", i64_array(t->tcp_wmem, 3));
	rc |= lr_pw_set_known(o, "tcp_window_scaling", t->tcp_window_scaling);
	rc |= lr_pw_set_known(o, "tcp_timestamps", t->tcp_timestamps);
	rc |= lr_pw_set_known(o, "tcp_sack", t->tcp_sack);
	if (t->tcp_congestion[0])
		rc |= json_object_set_new(o, "tcp_congestion", json_string(t->tcp_congestion));
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Every interface's queues and serving CPUs lie inside the frame's tables, within bounds. */
bool lr_pw_state_fits(const struct lr_peer_frame *f)
{
	const struct lr_peer_iface *i;

	if (f->n_queues > LR_PEER_MAX_QUEUES_FRAME || f->n_serving > LR_PEER_MAX_SERVING_FRAME)
		return false;
	for (i = f->ifaces; i < f->ifaces + f->n_ifaces; i++)
		if (i->n_q > LR_PEER_MAX_QUEUES || i->q_first > f->n_queues ||
		    i->n_q > f->n_queues - i->q_first || i->n_s > LR_PEER_MAX_SERVING ||
		    i->s_first > f->n_serving || i->n_s > f->n_serving - i->s_first)
			return false;
	return true;
}

/* A short string into out (size includes the NUL): 1 found, 0 absent, -EINVAL too long, not
 * a string or with a NUL inside. Control characters become '?': it reaches CSV and terminals. */
static int get_str(json_t *o, const char *key, char *out, size_t size,
		   char err[LR_PROTO_ERR_MAX])
{
	json_t *x = json_object_get(o, key);

	if (!x)
		return 0;
	if (!json_is_string(x) || json_string_length(x) >= size ||
	    strlen(json_string_value(x)) != json_string_length(x))
		return lr_pw_fail(err, -EINVAL, "bad \"%s\"", key);
	memcpy(out, json_string_value(x), json_string_length(x) + 1);
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return 1;
}

int lr_pw_get_int(json_t *o, const char *key, int64_t lo, int64_t hi, int *v,
		   char err[LR_PROTO_ERR_MAX])
{
	int64_t x = *v;
	int rc = lr_pw_get_i64(o, key, lo, hi, &x, err);

	*v = (int)x;
	return rc;
}

static int dec_queue(json_t *j, struct lr_peer_queue *q, char err[LR_PROTO_ERR_MAX])
{
	json_t *c, *x;
	int64_t v = 0;
	size_t k;
	int rc;

	if (!json_is_object(j))
		return lr_pw_fail(err, -EINVAL, "queue entry is not an object");
	memset(q, 0, sizeof(*q));
	q->cpu = -1;
	q->cpu_softirq_pct = -1;
	if ((rc = lr_pw_get_i64(j, "q", 0, 65535, &v, err)) <= 0)
		return rc < 0 ? rc : lr_pw_fail(err, -EINVAL, "missing queue \"q\"");
	q->queue = (unsigned)v;
	v = 0;
	if ((rc = lr_pw_get_i64(j, "k", 0, 0x3f, &v, err)) < 0)
		return rc;
	q->known = (uint32_t)v;
	v = 0;
	if ((rc = lr_pw_get_i64(j, "b", 0, INT64_MAX, &v, err)) <= 0)
		return rc < 0 ? rc : lr_pw_fail(err, -EINVAL, "missing queue \"b\"");
	q->base_ns = (uint64_t)v;
	c = json_object_get(j, "c");
	if (!json_is_array(c) || json_array_size(c) != 6)
		return lr_pw_fail(err, -EINVAL, "queue \"c\" is not an array of 6");
	json_array_foreach(c, k, x)
	{
		if (!json_is_integer(x) || json_integer_value(x) < 0)
			return lr_pw_fail(err, -EINVAL, "queue counter is not a count");
		q->c[k] = (uint64_t)json_integer_value(x);
	}
	if ((rc = lr_pw_get_int(j, "cpu", 0, 1 << 20, &q->cpu, err)) < 0)
		return rc;
	x = json_object_get(j, "sq");
	if (x && (rc = lr_pw_get_dbl(x, "sq", 0, 100.5, &q->cpu_softirq_pct, err)) < 0)
		return rc;
	return 0;
}

/* The interface's queues into f->queues from f->n_queues on (room checked by the caller's
 * count), indices strictly rising. */
static int dec_queues(json_t *j, struct lr_peer_iface *i, struct lr_peer_frame *f,
		      char err[LR_PROTO_ERR_MAX])
{
	json_t *a = json_object_get(j, "queues"), *x;
	size_t k;
	int rc;

	if ((rc = lr_pw_get_int(j, "qsrc", 0, 2, &i->queue_source, err)) < 0)
		return rc;
	if (!a)
		return 0;
	i->q_first = f->n_queues;
	json_array_foreach(a, k, x)
	{
		struct lr_peer_queue *q = &f->queues[f->n_queues];

		if ((rc = dec_queue(x, q, err)) < 0)
			return rc;
		if (k > 0 && q->queue <= q[-1].queue)
			return lr_pw_fail(err, -EINVAL, "queue numbers not rising");
		f->n_queues++;
		i->n_q++;
	}
	return 0;
}

static int dec_link(json_t *j, struct lr_peer_iface *i, char err[LR_PROTO_ERR_MAX])
{
	int64_t v = 0;
	int rc;

	if ((rc = lr_pw_get_int(j, "duplex", 0, 1, &i->duplex, err)) < 0 ||
	    (rc = lr_pw_get_i64(j, "ring_rx", -1, 1 << 24, &i->ring_rx, err)) < 0 ||
	    (rc = lr_pw_get_i64(j, "ring_rx_max", -1, 1 << 24, &i->ring_rx_max, err)) < 0 ||
	    (rc = lr_pw_get_i64(j, "ring_tx", -1, 1 << 24, &i->ring_tx, err)) < 0 ||
	    (rc = lr_pw_get_i64(j, "ring_tx_max", -1, 1 << 24, &i->ring_tx_max, err)) < 0 ||
	    (rc = get_str(j, "driver", i->driver, sizeof(i->driver), err)) < 0 ||
	    (rc = lr_pw_get_int(j, "numa_node", 0, 1 << 16, &i->numa_node, err)) < 0 ||
	    (rc = lr_pw_get_int(j, "operstate", 0, 6, &i->operstate, err)) < 0 ||
	    (rc = lr_pw_get_i64(j, "qdisc_drops", 0, INT64_MAX, &i->qdisc_drops, err)) < 0 ||
	    (rc = get_str(j, "qdisc", i->qdisc, sizeof(i->qdisc), err)) < 0)
		return rc;
	if ((rc = lr_pw_get_i64(j, "features", 0, UINT32_MAX, &v, err)) < 0)
		return rc;
	i->features = (uint32_t)v;
	v = 0;
	if ((rc = lr_pw_get_i64(j, "features_known", 0, UINT32_MAX, &v, err)) < 0)
		return rc;
	i->features_known = (uint32_t)v;
	i->features &= i->features_known;
	return 0;
}

/* The entries of array `key` over every interface, bounded per interface (each) and per frame
 * (all) before any is stored. */
int lr_pw_count_array(json_t *ifs, const char *key, size_t each, size_t all, size_t *total,
		       char err[LR_PROTO_ERR_MAX])
{
	json_t *x;
	size_t i;

	*total = 0;
	json_array_foreach(ifs, i, x)
	{
		json_t *a = json_is_object(x) ? json_object_get(x, key) : NULL;

		if (!a)
			continue;
		if (!json_is_array(a))
			return lr_pw_fail(err, -EINVAL, "\"%s\" is not an array", key);
		if (json_array_size(a) > each)
			return lr_pw_fail(err, -E2BIG, "%zu %s on one interface", json_array_size(a),
				    key);
		*total += json_array_size(a);
		if (*total > all)
			return lr_pw_fail(err, -E2BIG, "more than %zu %s in a frame", all, key);
	}
	return 0;
}

int lr_pw_dec_tuning(json_t *o, struct lr_peer_tuning *t, char err[LR_PROTO_ERR_MAX])
{
	static const char *const arrays[2] = {"tcp_rmem", "tcp_wmem"};
	const int64_t big = INT64_C(1) << 48; /* bytes, packets: far above a real setting */
	int rc;

	lr_peer_tuning_unknown(t);
	if (!json_is_object(o))
		return lr_pw_fail(err, -EINVAL, "\"tuning\" is not an object");
	if ((rc = lr_pw_get_i64(o, "rmem_max", -1, big, &t->rmem_max, err)) < 0 ||
	    (rc = lr_pw_get_i64(o, "wmem_max", -1, big, &t->wmem_max, err)) < 0 ||
	    (rc = lr_pw_get_i64(o, "netdev_max_backlog", -1, big, &t->netdev_max_backlog, err)) < 0 ||
	    (rc = lr_pw_get_i64(o, "tcp_window_scaling", -1, 16, &t->tcp_window_scaling, err)) < 0 ||
	    (rc = lr_pw_get_i64(o, "tcp_timestamps", -1, 16, &t->tcp_timestamps, err)) < 0 ||
	    (rc = lr_pw_get_i64(o, "tcp_sack", -1, 16, &t->tcp_sack, err)) < 0 ||
	    (rc = get_str(o, "tcp_congestion", t->tcp_congestion, sizeof(t->tcp_congestion),
			  err)) < 0)
		return rc;
	for (int a = 0; a < 2; a++) {
		json_t *x = json_object_get(o, arrays[a]), *e;
		int64_t *dst = a ? t->tcp_wmem : t->tcp_rmem;
		size_t k;

		if (!x)
			continue;
		if (!json_is_array(x) || json_array_size(x) != 3)
			return lr_pw_fail(err, -EINVAL, "\"%s\" is not an array of 3", arrays[a]);
		json_array_foreach(x, k, e)
		{
			if (!json_is_integer(e) || json_integer_value(e) < -1 ||
			    json_integer_value(e) > big)
				return lr_pw_fail(err, -EINVAL, "\"%s\" out of range", arrays[a]);
			dst[k] = json_integer_value(e);
		}
	}
	return 0;
}

/* The interface's state fields (§4.1) and its serving CPUs into o. */
int lr_pw_enc_state(json_t *o, const struct lr_peer_iface *i, const struct lr_peer_frame *f)
{
	int rc = enc_link(o, i, f->queues);

	if (i->n_s) {
		json_t *a = json_array();

		for (size_t k = 0; a && k < i->n_s; k++)
			rc |= json_array_append_new(a, json_integer(f->serving[i->s_first + k]));
		rc |= a ? json_object_set_new(o, "serving", a) : -1;
	}
	return rc;
}

int lr_pw_dec_state(json_t *j, struct lr_peer_iface *i, struct lr_peer_frame *f,
		    char err[LR_PROTO_ERR_MAX])
{
	json_t *x;
	int rc;

	if ((rc = dec_link(j, i, err)) < 0)
		return rc;
	x = json_object_get(j, "serving"); /* counted and bounded by lr_pw_count_array */
	i->s_first = f->n_serving;
	for (size_t k = 0; x && k < json_array_size(x); k++) {
		json_t *e = json_array_get(x, k);

		if (!json_is_integer(e) || json_integer_value(e) < 0 ||
		    json_integer_value(e) > (1 << 20))
			return lr_pw_fail(err, -EINVAL, "a serving CPU is not a CPU number");
		f->serving[f->n_serving++] = (int)json_integer_value(e);
		i->n_s++;
	}
	return dec_queues(j, i, f, err);
}
