// SPDX-License-Identifier: GPL-2.0-or-later
/* NUMA topology: the node directory name and numa_node parsers, and whole topologies read
 * through the fixture seam from the hand-made two- and four-node trees
 * (tests/fixtures/handmade-numa, the kernel's documented sysfs layout), this host's capture
 * (one node) and a tree with no node directory at all (a kernel without NUMA). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/fake_sysio.h"
#include "linerate/collect/numa.h"

static void test_dirname(void **state)
{
	static const char *const bad[] = {"node",  "node1a", "online", "node01", "node1024",
					  "Node1", "node-1", "cpu0",   "",	 "node 1"};

	(void)state;
	assert_int_equal(lr_numa_node_dirname("node0"), 0);
	assert_int_equal(lr_numa_node_dirname("node12"), 12);
	assert_int_equal(lr_numa_node_dirname("node1023"), 1023);
	for (size_t i = 0; i < LR_ARRAY_SIZE(bad); i++)
		assert_int_equal(lr_numa_node_dirname(bad[i]), -1);
}

static void test_node_id(void **state)
{
	static const char *const bad[] = {"", "\n", "-", "-2\n", "-0", "x", "1x", "1024", "0x1",
					  "--1", "1 2"};
	int node = 99;

	(void)state;
	assert_int_equal(lr_numa_parse_node_id("1\n", 2, &node), 0);
	assert_int_equal(node, 1);
	assert_int_equal(lr_numa_parse_node_id("-1\n", 3, &node), 0);
	assert_int_equal(node, -1);
	assert_int_equal(lr_numa_parse_node_id("0", 1, &node), 0);
	assert_int_equal(node, 0);
	assert_int_equal(lr_numa_parse_node_id("1023\n", 5, &node), 0);
	assert_int_equal(node, 1023);
	node = 7;
	for (size_t i = 0; i < LR_ARRAY_SIZE(bad); i++) {
		assert_int_equal(lr_numa_parse_node_id(bad[i], strlen(bad[i]), &node), -EINVAL);
		assert_int_equal(node, 7);
	}
}

static void test_add_node(void **state)
{
	struct lr_numa t;

	(void)state;
	lr_numa_init(&t);
	assert_int_equal(lr_numa_cpu_node(&t, 0), -1);
	assert_int_equal(lr_numa_add_node(&t, 1, "1,3\n", 4), 2);
	assert_int_equal(lr_numa_add_node(&t, 0, "0-3\n", 4), 4);	/* 1 and 3 keep node 1 */
	assert_int_equal(lr_numa_add_node(&t, 2, "\n", 1), 0);	/* memory only */
	assert_int_equal(lr_numa_add_node(&t, 3, "0-", 2), -EINVAL);
	assert_int_equal(lr_numa_add_node(&t, -1, "5", 1), -EINVAL);
	assert_int_equal(lr_numa_cpu_node(&t, 0), 0);
	assert_int_equal(lr_numa_cpu_node(&t, 1), 1);
	assert_int_equal(lr_numa_cpu_node(&t, 3), 1);
	assert_int_equal(lr_numa_cpu_node(&t, 4), -1);
	assert_int_equal(lr_numa_cpu_node(&t, -1), -1);
	assert_int_equal(t.n_nodes, 2);
	assert_int_equal(t.max_node, 2);
	lr_numa_free(&t);
	assert_int_equal(t.n_cpu, 0);
	lr_numa_free(NULL);
}

/* The CPUs of a node as a "%*pbl" string, to compare with the fixture's own file. */
static void node_list(const struct lr_numa *t, int node, char *out, size_t len)
{
	struct lr_cpuset s = {0};
	size_t o = 0;

	assert_true(lr_numa_node_cpus(t, node, &s) >= 0);
	out[0] = '\0';
	for (size_t i = 0; i < s.n; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%d", i ? "," : "", s.cpu[i]);
	lr_cpuset_free(&s);
}

static void test_two_nodes(void **state)
{
	struct fake_sysio f;
	struct lr_numa t;
	struct lr_cpuset s = {0};
	char list[128];

	(void)state;
	fake_sysio_init(&f, FIXTURES "/handmade-numa/numa2");
	lr_numa_init(&t);
	assert_int_equal(lr_numa_read(&f.io, &t), 2);
	assert_int_equal(t.n_nodes, 2);
	node_list(&t, 0, list, sizeof(list));
	assert_string_equal(list, "0,2,4,6");
	node_list(&t, 1, list, sizeof(list));
	assert_string_equal(list, "1,3,5,7");
	assert_int_equal(lr_numa_cpu_node(&t, 7), 1);
	assert_int_equal(lr_numa_cpu_node(&t, 8), -1);
	assert_int_equal(lr_numa_iface_node(&f.io, "eth0"), 0);
	assert_int_equal(lr_numa_iface_node(&f.io, "eth1"), 1);
	assert_int_equal(lr_numa_iface_node(&f.io, "lo"), -1);	/* no device */
	assert_int_equal(lr_numa_iface_node(&f.io, "../x"), -1);
	assert_int_equal(lr_numa_read_node_cpus(&f.io, 1, &s), 4);
	assert_int_equal(s.cpu[0], 1);
	assert_int_equal(s.cpu[3], 7);
	assert_true(lr_numa_read_node_cpus(&f.io, 2, &s) < 0);
	/* a second read gives the same topology and reuses the memory */
	assert_int_equal(lr_numa_read(&f.io, &t), 2);
	assert_int_equal(lr_numa_cpu_node(&t, 6), 0);
	lr_cpuset_free(&s);
	lr_numa_free(&t);
}

static void test_four_nodes(void **state)
{
	struct fake_sysio f;
	struct lr_numa t;
	char list[128];

	(void)state;
	fake_sysio_init(&f, FIXTURES "/handmade-numa/numa4");
	lr_numa_init(&t);
	assert_int_equal(lr_numa_read(&f.io, &t), 5);	/* node4: memory only */
	assert_int_equal(t.n_nodes, 4);
	assert_int_equal(t.max_node, 4);
	node_list(&t, 2, list, sizeof(list));
	assert_string_equal(list, "8,9,10,11");
	node_list(&t, 4, list, sizeof(list));
	assert_string_equal(list, "");
	for (int c = 0; c < 16; c++)
		assert_int_equal(lr_numa_cpu_node(&t, c), c / 4);
	assert_int_equal(lr_numa_iface_node(&f.io, "eth0"), 2);
	assert_int_equal(lr_numa_iface_node(&f.io, "eth1"), -1);	/* "-1": not known */
	lr_numa_free(&t);
}

/* This host (one node, as captured) and a tree without /sys/devices/system/node. */
static void test_no_numa(void **state)
{
	struct fake_sysio f;
	struct lr_numa t;

	(void)state;
	lr_numa_init(&t);
	fake_sysio_init(&f, FIXTURES "/this-host");
	assert_int_equal(lr_numa_read(&f.io, &t), 1);
	assert_int_equal(t.n_nodes, 1);
	assert_int_equal(lr_numa_cpu_node(&t, 1), 0);
	/* virtio2 has no numa_node; its PCI parent says -1 */
	assert_int_equal(lr_numa_iface_node(&f.io, "eth0"), -1);
	fake_sysio_init(&f, FIXTURES "/sysstat-root1");
	assert_int_equal(lr_numa_read(&f.io, &t), 0);
	assert_int_equal(t.n_nodes, 0);
	assert_int_equal(lr_numa_cpu_node(&t, 0), -1);
	assert_int_equal(lr_numa_iface_node(&f.io, "enp6s0"), -1);
	lr_numa_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirname),	  cmocka_unit_test(test_node_id),
		cmocka_unit_test(test_add_node),  cmocka_unit_test(test_two_nodes),
		cmocka_unit_test(test_four_nodes), cmocka_unit_test(test_no_numa),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
