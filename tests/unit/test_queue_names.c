// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-queue ethtool -S names: every naming family, the numbers that are not queues, and the
 * real drivers' names of tests/fixtures/ethtool (captured from the kernel's sources, each
 * per-queue name expanded for queues 0 and 1): every queue-1 name has its queue-0 twin. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "linerate/collect/queue_names.h"

struct want {
	const char *name;
	unsigned queue;
	enum lr_queue_dir dir;
	const char *metric;
};

static void test_families(void **state)
{
	static const struct want w[] = {
		{"rx_queue_3_packets", 3, LR_QDIR_RX, "packets"},	/* igb ixgbe */
		{"tx_queue_0_xdp_xmit", 0, LR_QDIR_TX, "xdp_xmit"},	/* veth */
		{"rx-12.bytes", 12, LR_QDIR_RX, "bytes"},		/* i40e ice */
		{"rxq1: rx_bytes", 1, LR_QDIR_RX, "rx_bytes"},		/* be2net */
		{"txq7_packets", 7, LR_QDIR_TX, "packets"},
		{"queue_5_tx_cnt", 5, LR_QDIR_TX, "cnt"},		/* ena */
		{"rx31_cqe_compress_blks", 31, LR_QDIR_RX, "cqe_compress_blks"},	/* mlx5 */
		{"ch2_events", 2, LR_QDIR_NONE, "events"},
		{"tx0_xdp_tx_drops", 0, LR_QDIR_TX, "xdp_tx_drops"},	/* virtio */
		{"[4]: rx_ucast_packets", 4, LR_QDIR_RX, "rx_ucast_packets"},	/* bnxt */
		{"[4]: tpa_aborts", 4, LR_QDIR_NONE, "tpa_aborts"},
		{"rvec_2_rx_pkts", 2, LR_QDIR_RX, "rx_pkts"},		/* nfp */
		{"3: tx_bytes", 3, LR_QDIR_TX, "tx_bytes"},
		{"rx_posted_desc[6]", 6, LR_QDIR_RX, "rx_posted_desc"},	/* gve */
	};
	static const char *const not_queues[] = {
		"tx_pb_0_pxon", "rx_pb_7_pxoff",			/* ixgbe packet buffers */
		"rx_prio3_bytes", "tx_prio0_pause",			/* mlx5 priorities */
		"veb.tc_0_tx_packets", "port.rx_priority_2_xon_rx",	/* i40e */
		"rx_1024_to_1518_bytes_phy", "rx_err_lane_0_phy", "rx_64_bytes",
		"ptp_tx0_packets", "qos_tx3_bytes", "os2bmc_rx_by_bmc",
		"rx_packets", "tx_queue_x_bytes", "rx_queue_99999999999_packets", "",
	};
	struct lr_queue_names *qn;
	struct lr_queue_name got;

	(void)state;
	assert_int_equal(lr_queue_names_open(&qn), 0);
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		if (!lr_queue_name_parse(qn, w[i].name, &got))
			fail_msg("%s: not read as a queue", w[i].name);
		assert_int_equal(got.queue, w[i].queue);
		assert_int_equal(got.dir, w[i].dir);
		assert_string_equal(got.metric, w[i].metric);
	}
	for (size_t i = 0; i < sizeof(not_queues) / sizeof(not_queues[0]); i++)
		if (lr_queue_name_parse(qn, not_queues[i], &got))
			fail_msg("%s: read as queue %u", not_queues[i], got.queue);
	lr_queue_names_close(qn);
}

/* Each fixture expands its per-queue names for queues 0 and 1: the parser must find both, and
 * the two sets must be the same (direction and metric), and leave the rest alone. */
static void test_real_drivers(void **state)
{
	static const struct {
		const char *drv;
		unsigned min_per_queue;	/* per-queue names the fixture's header lists */
	} fx[] = {
		{"be2net", 23}, {"i40e", 4}, {"igb", 8}, {"ixgbe", 4},
		{"mlx5", 100}, {"veth", 9}, {"virtio_net", 37},
	};
	struct lr_queue_names *qn;

	(void)state;
	assert_int_equal(lr_queue_names_open(&qn), 0);
	for (size_t d = 0; d < sizeof(fx) / sizeof(fx[0]); d++) {
		char path[128], line[256], seen[2][400][80];
		unsigned n[2] = {0, 0};
		FILE *f;

		snprintf(path, sizeof(path), "tests/fixtures/ethtool/%s.txt", fx[d].drv);
		f = fopen(path, "r");
		if (!f)
			fail_msg("cannot open %s (tests run from the repository top)", path);
		while (fgets(line, sizeof(line), f)) {
			struct lr_queue_name q;

			line[strcspn(line, "\n")] = '\0';
			if (line[0] == '#' || !lr_queue_name_parse(qn, line, &q))
				continue;
			if (q.queue > 1)
				fail_msg("%s: %s read as queue %u (fixtures have 0 and 1)", fx[d].drv,
					 line, q.queue);
			if (n[q.queue] < 400)
				snprintf(seen[q.queue][n[q.queue]++], 80, "%s/%s",
					 lr_queue_dir_name(q.dir), q.metric);
		}
		fclose(f);
		if (n[0] != n[1] || n[0] < fx[d].min_per_queue)
			fail_msg("%s: %u names for queue 0, %u for queue 1 (want >= %u each)",
				 fx[d].drv, n[0], n[1], fx[d].min_per_queue);
		for (unsigned i = 0; i < n[1]; i++) {
			bool twin = false;

			for (unsigned j = 0; j < n[0] && !twin; j++)
				twin = !strcmp(seen[1][i], seen[0][j]);
			if (!twin)
				fail_msg("%s: queue 1's %s has no queue 0 twin", fx[d].drv, seen[1][i]);
		}
	}
	lr_queue_names_close(qn);
}

/* Which queue-table columns each real driver's queue-0 names feed (lr_queue_metric_of after
 * the parse), read off the drivers' sources in the fixtures' headers: a column no name feeds
 * stays unknown in --queues-csv. */
static void test_queue_columns(void **state)
{
	static const struct {
		const char *drv, *want;	/* "rx_packets rx_bytes ..." in the order found */
	} fx[] = {
		{"be2net", "rx_bytes rx_packets rx_packets(part) tx_bytes tx_packets"},
		{"i40e", "tx_packets tx_bytes rx_packets rx_bytes"},
		{"igb", "tx_packets tx_bytes rx_packets rx_bytes rx_drops"},
		{"ixgbe", "tx_packets tx_bytes rx_packets rx_bytes"},
		{"mlx5", "rx_packets rx_bytes tx_packets tx_bytes tx_drops"},
		{"veth", "rx_drops"},	/* the rest of veth's per-queue counters are XDP's */
		{"virtio_net", "rx_drops rx_packets rx_bytes rx_drops tx_packets tx_bytes"},
	};
	static const char *const kind[] = {"", "packets", "bytes", "drops"};
	struct lr_queue_names *qn;

	(void)state;
	assert_int_equal(lr_queue_names_open(&qn), 0);
	for (size_t d = 0; d < sizeof(fx) / sizeof(fx[0]); d++) {
		char path[128], line[256], got[512] = "";
		FILE *f;

		snprintf(path, sizeof(path), "tests/fixtures/ethtool/%s.txt", fx[d].drv);
		f = fopen(path, "r");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f)) {
			struct lr_queue_name q;
			enum lr_queue_metric m;
			bool cast;

			line[strcspn(line, "\n")] = '\0';
			if (line[0] == '#' || !lr_queue_name_parse(qn, line, &q) || q.queue != 0 ||
			    q.dir == LR_QDIR_NONE)
				continue;
			m = lr_queue_metric_of(q.metric, &cast);
			if (m != LR_QM_NONE)
				snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s_%s%s",
					 got[0] ? " " : "", lr_queue_dir_name(q.dir), kind[m],
					 cast ? "(part)" : "");
		}
		fclose(f);
		if (strcmp(got, fx[d].want))
			fail_msg("%s: got \"%s\", want \"%s\"", fx[d].drv, got, fx[d].want);
	}
	lr_queue_names_close(qn);
}

static void test_metric_spellings(void **state)
{
	static const struct {
		const char *metric;
		enum lr_queue_metric m;
		bool cast;
	} w[] = {
		{"packets", LR_QM_PACKETS, false}, {"rx_pkts", LR_QM_PACKETS, false},
		{"cnt", LR_QM_PACKETS, false}, {"tx_ucast_packets", LR_QM_PACKETS, true},
		{"rx_bcast_bytes", LR_QM_BYTES, true}, {"octets", LR_QM_BYTES, false},
		{"dropped", LR_QM_DROPS, false}, {"rx_discards", LR_QM_DROPS, false},
		{"xdp_packets", LR_QM_NONE, false}, {"lro_packets", LR_QM_NONE, false},
		{"hw_packets", LR_QM_NONE, false}, {"ucast_drops", LR_QM_NONE, false},
		{"drops_no_skbs", LR_QM_NONE, false}, {"", LR_QM_NONE, false},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		bool cast;

		if (lr_queue_metric_of(w[i].metric, &cast) != w[i].m || cast != w[i].cast)
			fail_msg("%s: wrong kind", w[i].metric);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_families),
		cmocka_unit_test(test_real_drivers),
		cmocka_unit_test(test_queue_columns),
		cmocka_unit_test(test_metric_spellings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
