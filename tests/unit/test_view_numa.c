// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NUMA locality on screen (issue 19), from snapshots the real sampler takes of captured trees
 * through --procfs/--sysfs: the hand-made two-node tree (eth0 on node 0 served by node 0; eth1
 * on node 1 served by node 0's CPUs) and this host's capture (one node). The two-node frames
 * name the NIC's node on the link line, tag each CPU with its node and flag eth1 in the
 * overview; the one-node frames are identical to frames of the same snapshot with every NUMA
 * field cleared (nothing new is shown).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/sampled_tree.h"
#include "fakes/golden.h"
#include "linerate/present/ui.h"
#include "linerate/present/frame.h"
#include "linerate/present/view.h"
#include "linerate/present/view_numa.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL

static size_t iface_index(const struct lr_snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->n_ifaces; i++)
		if (!strcmp(s->ifaces[i].name, name))
			return i;
	fail_msg("no interface %s", name);
	return 0;
}

/* Renders the overview, or the detail view of iface, at 80x24. */
static void render(struct lr_frame *f, const struct lr_snapshot *s, const char *iface)
{
	struct lr_ui app;
	struct lr_view_ctx ctx = {.snap = s, .app = &app, .host = "host-a",
				  .theme_name = "default"};

	lr_ui_init(&app, SEC / 2, 5, NULL);
	lr_ui_sync(&app, s);
	if (iface) {
		app.view = LR_VIEW_DETAIL;
		app.sel = iface_index(s, iface);
		app.sel_name[0] = '\0';
		lr_ui_sync(&app, s);
	}
	assert_int_equal(lr_frame_resize(f, 80, 24), 0);
	lr_view_render(f, &ctx);
}

static void test_two_nodes(void **state)
{
	struct lr_snapshot s;
	struct lr_numa_serving sv;
	struct lr_frame f;
	int col, y;

	(void)state;
	setenv("TZ", "UTC", 1);
	lr_snapshot_init(&s);
	lr_frame_init(&f);
	sampled_tree("handmade-numa/numa2", 3, &s);
	assert_true(lr_numa_shown(&s));
	assert_true(lr_numa_serving(&s, &s.ifaces[iface_index(&s, "eth1")], &sv));
	assert_int_equal(sv.nic_node, 1);
	assert_int_equal(sv.known, 4);
	assert_int_equal(sv.remote, 4);
	assert_int_equal(sv.remote_node, 0);
	assert_true(sv.mostly_remote);
	assert_true(lr_numa_serving(&s, &s.ifaces[iface_index(&s, "eth0")], &sv));
	assert_int_equal(sv.remote, 0);
	assert_false(sv.mostly_remote);

	render(&f, &s, NULL);	/* overview: eth1 flagged, eth0 and lo not */
	assert_true(golden_find(&f, "eth1!", &col) > 0);
	assert_int_equal(golden_find(&f, "eth0!", &col), -1);
	assert_int_equal(golden_find(&f, "lo!", &col), -1);

	render(&f, &s, "eth1");
	y = golden_find(&f, "eth1", &col);
	assert_true(y >= 0);
	assert_int_equal(golden_find(&f, "node 1, IRQs on node 0", &col), y);
	assert_true(golden_find(&f, "n1 local", &col) >= 0);	/* the CPU pane's legend */
	assert_true(golden_find(&f, " n0 ", &col) > y);
	assert_true(golden_find(&f, " n1 ", &col) > y);

	render(&f, &s, "eth0");
	y = golden_find(&f, "eth0", &col);
	assert_true(golden_find(&f, "node 0", &col) == y);
	assert_int_equal(golden_find(&f, "IRQs on node", &col), -1);
	lr_frame_free(&f);
	lr_snapshot_free(&s);
}

/* The Streams pane at 132 columns: each stream's CPU and node, warn when off eth1's node 1. */
static void streams_text(const struct lr_snapshot *s, char **out)
{
	struct lr_ui app;
	struct lr_view_ctx ctx = {.snap = s, .app = &app, .host = "host-a"};
	struct lr_view_traffic t = {.state = LR_VTS_RUNNING, .host = "10.0.0.2", .iface = "eth1",
				    .elapsed_s = 1, .duration_s = 10};
	struct lr_frame f;

	lr_ui_init(&app, SEC / 2, 5, NULL);
	lr_frame_init(&f);
	assert_int_equal(lr_frame_resize(&f, 132, 6), 0);
	lr_view_streams(&f, (struct lr_rect){0, 0, 132, 6}, &ctx, &t);
	*out = lr_frame_to_text(&f);
	lr_frame_free(&f);
}

static void test_stream_cpus(void **state)
{
	struct lr_snapshot s;
	struct lr_stream_snap st[2] = {{.id = 1, .sender = true, .cpu = 3, .node = 1},
				       {.id = 3, .sender = true, .cpu = 2, .node = 0}};
	char *text;

	(void)state;
	lr_snapshot_init(&s);
	sampled_tree("handmade-numa/numa2", 3, &s);
	free(s.streams);
	s.streams = NULL;
	s.cap_streams = 0;
	s.streams = st;
	s.n_streams = 2;
	streams_text(&s, &text);
	assert_non_null(strstr(text, "cpu\n"));
	assert_non_null(strstr(text, "c3 n1\n"));
	assert_non_null(strstr(text, "c2 n0\n"));
	free(text);
	s.numa_nodes = 1;	/* one node: no column */
	streams_text(&s, &text);
	assert_null(strstr(text, "c3"));
	assert_null(strstr(text, "cpu\n"));
	free(text);
	s.streams = NULL;
	s.n_streams = 0;
	lr_snapshot_free(&s);
}

/* One node (this host's capture): the frames equal those of the snapshot without NUMA. */
static void test_one_node_shows_nothing_new(void **state)
{
	struct lr_snapshot s;
	struct lr_frame f;
	char *with[2], *without[2];

	(void)state;
	setenv("TZ", "UTC", 1);
	lr_snapshot_init(&s);
	lr_frame_init(&f);
	sampled_tree("this-host", 3, &s);
	assert_int_equal(s.numa_nodes, 1);
	assert_true(s.n_cpus > 0 && (s.cpus[0].valid & LR_CPUV_NODE));
	assert_false(lr_numa_shown(&s));
	render(&f, &s, NULL);
	with[0] = lr_frame_to_text(&f);
	render(&f, &s, "eth0");
	with[1] = lr_frame_to_text(&f);
	s.numa_nodes = 0;
	for (size_t i = 0; i < s.n_cpus; i++)
		s.cpus[i].valid &= ~(uint32_t)LR_CPUV_NODE;
	for (size_t i = 0; i < s.n_ifaces; i++)
		s.ifaces[i].numa_known = false;
	render(&f, &s, NULL);
	without[0] = lr_frame_to_text(&f);
	render(&f, &s, "eth0");
	without[1] = lr_frame_to_text(&f);
	assert_string_equal(with[0], without[0]);
	assert_string_equal(with[1], without[1]);
	assert_null(strstr(with[1], "node "));
	for (int i = 0; i < 2; i++) {
		free(with[i]);
		free(without[i]);
	}
	lr_frame_free(&f);
	lr_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_nodes),
		cmocka_unit_test(test_stream_cpus),
		cmocka_unit_test(test_one_node_shows_nothing_new),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
