// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NUMA topology through the sysio seam: the node directories of /sys/devices/system/node
 * (each nodeN/cpulist a "%*pbl" list, empty for a memory-only node) and a network device's
 * numa_node. Runs on the sampler thread at start and every few seconds (CPU hotplug changes
 * the lists); the caller owns the lr_numa and its buffers, which are reused between reads.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/numa.h"
#include "linerate/core/array.h"

#define NODE_DIR "/sys/devices/system/node"
#define LIST_LIMIT (1u << 20) /* a cpulist of 16384 CPUs listed one by one is ~90 KB */

void lr_numa_init(struct lr_numa *t)
{
	memset(t, 0, sizeof(*t));
	t->max_node = -1;
}

void lr_numa_free(struct lr_numa *t)
{
	if (!t)
		return;
	free(t->cpu_node);
	free(t->buf);
	lr_cpuset_free(&t->scratch);
	lr_numa_init(t);
}

void lr_numa_clear(struct lr_numa *t)
{
	for (size_t i = 0; i < t->n_cpu; i++)
		t->cpu_node[i] = -1;
	t->n_cpu = 0;
	t->n_nodes = 0;
	t->max_node = -1;
}

int lr_numa_node_dirname(const char *name)
{
	int v = 0;

	if (strncmp(name, "node", 4) != 0)
		return -1;
	name += 4;
	if (!*name || (name[0] == '0' && name[1])) /* no digits, or a leading zero */
		return -1;
	for (; *name; name++) {
		if (*name < '0' || *name > '9')
			return -1;
		v = v * 10 + (*name - '0');
		if (v >= LR_NUMA_MAX_NODES)
			return -1;
	}
	return v;
}

int lr_numa_parse_node_id(const char *buf, size_t len, int *node)
{
	size_t i = 0;
	bool neg = false;
	int v = 0;

	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == '\0'))
		len--;
	if (len && buf[0] == '-') {
		neg = true;
		i = 1;
	}
	if (i == len)
		return -EINVAL;
	for (; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		v = v * 10 + (buf[i] - '0');
		if (v >= LR_NUMA_MAX_NODES)
			return -EINVAL;
	}
	if (neg && v != 1)
		return -EINVAL;
	*node = neg ? -1 : v;
	return 0;
}

static int grow_cpus(struct lr_numa *t, size_t n)
{
	if (lr_array_grow(&t->cpu_node, &t->cap_cpu, n, sizeof(*t->cpu_node)))
		return -ENOMEM;
	for (size_t i = t->n_cpu; i < n; i++)
		t->cpu_node[i] = -1;
	if (n > t->n_cpu)
		t->n_cpu = n;
	return 0;
}

int lr_numa_add_node(struct lr_numa *t, int node, const char *buf, size_t len)
{
	int n, err;

	if (node < 0 || node >= LR_NUMA_MAX_NODES)
		return -EINVAL;
	lr_cpuset_clear(&t->scratch);
	n = lr_cpulist_parse(buf, len, &t->scratch);
	if (n < 0)
		return n;
	if (node > t->max_node)
		t->max_node = node;
	if (!t->scratch.n)
		return 0;
	/* sorted: the last member is the highest CPU */
	err = grow_cpus(t, (size_t)t->scratch.cpu[t->scratch.n - 1] + 1);
	if (err)
		return err;
	for (size_t i = 0; i < t->scratch.n; i++) {
		int *slot = &t->cpu_node[t->scratch.cpu[i]];

		if (*slot < 0)
			*slot = node;
	}
	t->n_nodes++;
	return (int)t->scratch.n;
}

/* Reads path whole into t->buf, growing it. Length or -errno. */
static ssize_t read_grow(const struct lr_sysio *io, struct lr_numa *t, const char *path)
{
	for (;;) {
		ssize_t n;

		if (!t->buf) {
			t->buf_cap = 4096;
			t->buf = malloc(t->buf_cap);
			if (!t->buf)
				return -ENOMEM;
		}
		n = io->read_file(io, path, t->buf, t->buf_cap);
		if (n != -EOVERFLOW)
			return n;
		if (t->buf_cap >= LIST_LIMIT)
			return -EFBIG;
		free(t->buf);
		t->buf = NULL;
		t->buf_cap *= 2;
		t->buf = malloc(t->buf_cap);
		if (!t->buf)
			return -ENOMEM;
	}
}

struct walk {
	const struct lr_sysio *io;
	struct lr_numa *t;
	int nodes, err;
};

static int on_node_dir(const char *name, void *arg)
{
	struct walk *w = arg;
	int node = lr_numa_node_dirname(name);
	char path[96];
	ssize_t n;
	int rc;

	if (node < 0)
		return 0;
	snprintf(path, sizeof(path), NODE_DIR "/node%d/cpulist", node);
	n = read_grow(w->io, w->t, path);
	if (n == -ENOMEM) {
		w->err = -ENOMEM;
		return 1;
	}
	if (n < 0)
		return 0; /* a node without a readable list: its CPUs stay unknown */
	rc = lr_numa_add_node(w->t, node, w->t->buf, (size_t)n);
	if (rc == -ENOMEM) {
		w->err = rc;
		return 1;
	}
	if (rc >= 0)
		w->nodes++;
	return 0;
}

int lr_numa_read(const struct lr_sysio *io, struct lr_numa *t)
{
	struct walk w = {.io = io, .t = t};

	lr_numa_clear(t);
	if (io->list_dir(io, NODE_DIR, on_node_dir, &w) < 0 && !w.err)
		return 0;
	if (w.err) {
		lr_numa_clear(t);
		return w.err;
	}
	return w.nodes;
}

int lr_numa_cpu_node(const struct lr_numa *t, int cpu)
{
	return cpu >= 0 && (size_t)cpu < t->n_cpu ? t->cpu_node[cpu] : -1;
}

int lr_numa_node_cpus(const struct lr_numa *t, int node, struct lr_cpuset *out)
{
	int n = 0;

	for (size_t i = 0; i < t->n_cpu; i++) {
		if (t->cpu_node[i] != node)
			continue;
		if (lr_cpuset_add(out, (int)i))
			return -ENOMEM;
		n++;
	}
	return n;
}

static int node_file(const struct lr_sysio *io, const char *path)
{
	char buf[32];
	ssize_t n = io->read_file(io, path, buf, sizeof(buf));
	int node;

	if (n < 0 || lr_numa_parse_node_id(buf, (size_t)n, &node))
		return -2; /* no answer here */
	return node;
}

int lr_numa_iface_node(const struct lr_sysio *io, const char *ifname)
{
	char path[128];
	int node;

	if (!*ifname || strchr(ifname, '/') || strlen(ifname) >= LR_IFNAMSIZ)
		return -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/numa_node", ifname);
	node = node_file(io, path);
	if (node == -2) { /* virtio: the virtioN device sits under its PCI function */
		snprintf(path, sizeof(path), "/sys/class/net/%s/device/../numa_node", ifname);
		node = node_file(io, path);
	}
	return node < 0 ? -1 : node;
}

int lr_numa_read_node_cpus(const struct lr_sysio *io, int node, struct lr_cpuset *out)
{
	char path[96], buf[65536];
	ssize_t n;

	if (node < 0 || node >= LR_NUMA_MAX_NODES)
		return -ENOENT;
	snprintf(path, sizeof(path), NODE_DIR "/node%d/cpulist", node);
	n = io->read_file(io, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return lr_cpulist_parse(buf, (size_t)n, out);
}

/* -A node:N */
static int stop_walk(const char *name, void *arg)
{
	return 1;
}

int lr_numa_node_cpuset(const struct lr_sysio *io, int node, cpu_set_t *out)
{
	struct lr_cpuset set = {0};
	int n, ret = 0;

	n = lr_numa_read_node_cpus(io, node, &set);
	if (n == -ENOENT && node == 0 &&
	    io->list_dir(io, "/sys/devices/system/node", stop_walk, NULL) == -ENOENT) {
		char buf[4096];	/* no NUMA in this kernel: one node, every online CPU */
		ssize_t len = io->read_file(io, "/sys/devices/system/cpu/online", buf, sizeof(buf));

		n = len < 0 ? (int)len : lr_cpulist_parse(buf, (size_t)len, &set);
	}
	if (n < 0) {
		lr_cpuset_free(&set);
		return n;
	}
	CPU_ZERO(out);
	for (size_t i = 0; i < set.n; i++) {
		if (set.cpu[i] < CPU_SETSIZE) {
			CPU_SET(set.cpu[i], out);
			ret++;
		}
	}
	lr_cpuset_free(&set);
	return ret ? ret : -ENODEV;
}
