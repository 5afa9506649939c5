// SPDX-License-Identifier: GPL-2.0-or-later
/* lr_classify against the curated driver name lists (tests/fixtures/ethtool/DRIVER.tsv:
 * name, category, reason) and against names of drivers the rules were not written from. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "linerate/collect/classify.h"

#define FIX "tests/fixtures/ethtool/"

struct drv_fixture {
	const char *file;   /* tests/fixtures/ethtool/<file>.tsv */
	const char *driver; /* what GDRVINFO reports */
};

static const struct drv_fixture fixtures[] = {
	{"be2net", "be2net"},	      {"i40e", "i40e"},	     {"igb", "igb"},
	{"ixgbe", "ixgbe"},	      {"mlx5", "mlx5_core"}, {"veth", "veth"},
	{"virtio_net", "virtio_net"},
};

static int cat_from_name(const char *s)
{
	int c;

	for (c = 0; c < LR_CAT__COUNT; c++)
		if (!strcmp(lr_counter_cat_name((enum lr_counter_cat)c), s))
			return c;
	return -1;
}

/* Checks every row of one fixture whose expected category is `only` (-1: every row).
 * Prints each mismatch with its name; returns the number of mismatches, *rows the rows
 * checked. */
static int check_fixture(const struct drv_fixture *fx, int only, int *rows)
{
	char path[256], line[512];
	int bad = 0;
	FILE *f;

	snprintf(path, sizeof(path), FIX "%s.tsv", fx->file);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s (tests run from the repository top)", path);
	while (fgets(line, sizeof(line), f)) {
		char *name = line, *tab = strchr(line, '\t'), *cat, *end;
		struct lr_counter_class got;
		int want;

		if (!tab)
			continue;
		*tab = '\0';
		cat = tab + 1;
		end = strchr(cat, '\t');
		if (end)
			*end = '\0';
		want = cat_from_name(cat);
		assert_true(want >= 0);
		if (only >= 0 && want != only)
			continue;
		(*rows)++;
		got = lr_classify(fx->driver, name);
		if ((int)got.cat != want) {
			print_message("%s: '%s' classified %s, want %s\n", fx->driver, name,
				      lr_counter_cat_name(got.cat), cat);
			bad++;
		}
	}
	fclose(f);
	return bad;
}

static void check_driver(const char *file)
{
	size_t i;
	int rows = 0;

	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		if (strcmp(fixtures[i].file, file))
			continue;
		assert_int_equal(check_fixture(&fixtures[i], -1, &rows), 0);
		assert_true(rows > 20);
		return;
	}
	fail_msg("no fixture %s", file);
}

static void test_be2net(void **state)
{
	(void)state;
	check_driver("be2net");
}
static void test_i40e(void **state)
{
	(void)state;
	check_driver("i40e");
}
static void test_igb(void **state)
{
	(void)state;
	check_driver("igb");
}
static void test_ixgbe(void **state)
{
	(void)state;
	check_driver("ixgbe");
}
static void test_mlx5(void **state)
{
	(void)state;
	check_driver("mlx5");
}
static void test_veth(void **state)
{
	(void)state;
	check_driver("veth");
}
static void test_virtio_net(void **state)
{
	(void)state;
	check_driver("virtio_net");
}

/* Category by category across every driver: a failure names the category at fault. */
static void check_category(enum lr_counter_cat cat, int min_rows)
{
	size_t i;
	int bad = 0, rows = 0;

	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
		bad += check_fixture(&fixtures[i], (int)cat, &rows);
	if (bad)
		fail_msg("%d of %d '%s' names misclassified", bad, rows, lr_counter_cat_name(cat));
	assert_true(rows >= min_rows);
}

static void test_cat_fifo(void **state)
{
	(void)state;
	check_category(LR_CAT_FIFO, 20);
}
static void test_cat_drop(void **state)
{
	(void)state;
	check_category(LR_CAT_DROP, 40);
}
static void test_cat_error(void **state)
{
	(void)state;
	check_category(LR_CAT_ERROR, 60);
}
static void test_cat_pause(void **state)
{
	(void)state;
	check_category(LR_CAT_PAUSE, 60);
}
static void test_cat_traffic(void **state)
{
	(void)state;
	check_category(LR_CAT_TRAFFIC, 200);
}
static void test_cat_other(void **state)
{
	(void)state;
	check_category(LR_CAT_OTHER, 200);
}

struct expect {
	const char *driver;
	const char *name;
	enum lr_counter_cat cat;
	bool per_queue;
};

#define E(d, n, c, q)                                                                              \
	{                                                                                          \
		d, n, LR_CAT_##c, q                                                                \
	}

/* Drivers the rules were not written from (names from their kernel sources), plus the
 * driver-unknown case of --explain. */
static const struct expect general[] = {
	/* bnxt_en: ring stats are "[N]: name", port stats plain, CoS/priority suffixes */
	E("bnxt_en", "[0]: rx_ucast_packets", TRAFFIC, true),
	E("bnxt_en", "[3]: rx_discards", FIFO, true),
	E("bnxt_en", "[0]: rx_errors", ERROR, true),
	E("bnxt_en", "[0]: tx_discards", DROP, true),
	E("bnxt_en", "[2]: rx_l4_csum_errors", ERROR, true),
	E("bnxt_en", "[0]: missed_irqs", OTHER, true),
	E("bnxt_en", "[1]: tpa_packets", TRAFFIC, true),
	E("bnxt_en", "[1]: tpa_aborts", OTHER, true),
	E("bnxt_en", "rx_total_discard_pkts", FIFO, false),
	E("bnxt_en", "tx_total_discard_pkts", DROP, false),
	E("bnxt_en", "rx_fcs_err_frames", ERROR, false),
	E("bnxt_en", "rx_ctrl_frames", OTHER, false),
	E("bnxt_en", "rx_pause_frames", PAUSE, false),
	E("bnxt_en", "rx_pfc_ena_frames_pri3", PAUSE, true),
	E("bnxt_en", "rx_align_err_frames", ERROR, false),
	E("bnxt_en", "rx_ovrsz_frames", ERROR, false),
	E("bnxt_en", "rx_jbr_frames", ERROR, false),
	E("bnxt_en", "rx_undrsz_frames", ERROR, false),
	E("bnxt_en", "rx_runt_frames", ERROR, false),
	E("bnxt_en", "rx_mtu_err_frames", ERROR, false),
	E("bnxt_en", "rx_eee_lpi_events", OTHER, false),
	E("bnxt_en", "tx_fifo_underruns", ERROR, false),
	E("bnxt_en", "tx_total_collisions", ERROR, false),
	E("bnxt_en", "link_down_events", OTHER, false),
	E("bnxt_en", "continuous_pause_events", PAUSE, false),
	E("bnxt_en", "rx_buffer_passed_threshold", FIFO, false),
	E("bnxt_en", "rx_corrected_bits", OTHER, false),
	E("bnxt_en", "rx_discard_packets_cos2", FIFO, true),
	E("bnxt_en", "rx_bytes_cos0", TRAFFIC, true),
	E("bnxt_en", "pfc_pri0_rx_duration_us", PAUSE, true),
	E("bnxt_en", "rx_bytes_pri7", TRAFFIC, true),
	E("bnxt_en", "rx_64b_frames", TRAFFIC, false),
	E("bnxt_en", "rx_1519b_2047b_frames", TRAFFIC, false),
	E("bnxt_en", "rx_fec_uncorrectable_blocks", ERROR, false),
	E("bnxt_en", "rx_fec_corrected_blocks", OTHER, false),
	/* ice: port counters carry ".nic"; rx_dropped.nic is the port's packet-buffer drop */
	E("ice", "rx_dropped.nic", FIFO, false),
	E("ice", "tx_dropped_link_down.nic", DROP, false),
	E("ice", "rx_crc_errors.nic", ERROR, false),
	E("ice", "link_xoff_rx.nic", PAUSE, false),
	E("ice", "tx_priority_3_xon.nic", PAUSE, true),
	E("ice", "rx_size_1522.nic", TRAFFIC, false),
	E("ice", "illegal_bytes.nic", ERROR, false),
	E("ice", "rx_eipe_error.nic", ERROR, false),
	E("ice", "tx_queue_5_packets", TRAFFIC, true),
	E("ice", "rx_queue_12_bytes", TRAFFIC, true),
	E("ice", "rx_alloc_fail", OTHER, false),
	E("ice", "tx_timeout.nic", OTHER, false),
	E("ice", "fdir_sb_match.nic", OTHER, false),
	E("ice", "rx_csum_bad.nic", ERROR, false),
	E("ice", "tx_tcp_segments.nic", TRAFFIC, false),
	/* ena: "queue_N_{tx,rx}_name", ENI allowance counters */
	E("ena", "queue_0_tx_cnt", TRAFFIC, true),
	E("ena", "queue_0_rx_bytes", TRAFFIC, true),
	E("ena", "queue_3_rx_bad_csum", ERROR, true),
	E("ena", "queue_1_rx_empty_rx_ring", FIFO, true),
	E("ena", "queue_0_tx_queue_stop", OTHER, true),
	E("ena", "queue_0_tx_dma_mapping_err", DROP, true),
	E("ena", "queue_0_tx_missed_tx", OTHER, true),
	E("ena", "queue_2_rx_page_alloc_fail", OTHER, true),
	E("ena", "bw_in_allowance_exceeded", DROP, false),
	E("ena", "pps_allowance_exceeded", DROP, false),
	E("ena", "tx_timeout", OTHER, false),
	E("ena", "wd_expired", OTHER, false),
	E("ena", "admin_q_pause", OTHER, false),
	E("ena", "ena_admin_q_aborted_cmd", OTHER, false),
	E("ena", "interface_down", OTHER, false),
	/* sfc: "rx-N.name", port_* MAC counters */
	E("sfc", "rx-0.rx_packets", TRAFFIC, true),
	E("sfc", "tx-1.tx_packets", TRAFFIC, true),
	E("sfc", "rx_nodesc_drop_cnt", FIFO, false),
	E("sfc", "port_rx_nodesc_drops", FIFO, false),
	E("sfc", "port_rx_pm_discard_bb_overflow", FIFO, false),
	E("sfc", "rx_noskb_drops", DROP, false),
	E("sfc", "port_rx_bad_bytes", ERROR, false),
	E("sfc", "port_rx_pause", PAUSE, false),
	E("sfc", "port_rx_align_error", ERROR, false),
	/* tg3 */
	E("tg3", "rx_octets", TRAFFIC, false),
	E("tg3", "rx_fcs_errors", ERROR, false),
	E("tg3", "rx_xon_pause_rcvd", PAUSE, false),
	E("tg3", "rx_mac_ctrl_rcvd", OTHER, false),
	E("tg3", "rx_frame_too_long_errors", ERROR, false),
	E("tg3", "rx_undersize_packets", ERROR, false),
	E("tg3", "rx_64_or_less_octet_packets", TRAFFIC, false),
	E("tg3", "rxbds_empty", FIFO, false),
	E("tg3", "rx_discards", FIFO, false),
	E("tg3", "tx_discards", DROP, false),
	E("tg3", "tx_carrier_sense_errors", ERROR, false),
	E("tg3", "nic_irqs", OTHER, false),
	/* e1000e */
	E("e1000e", "rx_missed_errors", FIFO, false),
	E("e1000e", "rx_no_buffer_count", FIFO, false),
	E("e1000e", "tx_deferred_ok", OTHER, false),
	E("e1000e", "rx_csum_offload_good", OTHER, false),
	E("e1000e", "rx_csum_offload_errors", ERROR, false),
	E("e1000e", "alloc_rx_buff_failed", OTHER, false),
	E("e1000e", "uncorr_ecc_errors", ERROR, false),
	E("e1000e", "tx_hwtstamp_timeouts", OTHER, false),
	/* igc shares igb's RQDPC queue drops */
	E("igc", "rx_queue_3_drops", FIFO, true),
	/* driver unknown (an `ethtool -S` dump has no driver line) */
	E(NULL, "rx_queue_0_drops", DROP, true),
	E(NULL, "port.rx_dropped", FIFO, false),
	E(NULL, "rx_missed_errors", FIFO, false),
	E(NULL, "tx-7.bytes", TRAFFIC, true),
	E(NULL, "RX_CRC_ERRORS", ERROR, false),
};

static void test_generalises(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(general) / sizeof(general[0]); i++) {
		const struct expect *e = &general[i];
		struct lr_counter_class c = lr_classify(e->driver, e->name);

		if (c.cat != e->cat || c.per_queue != e->per_queue) {
			print_message("%s: '%s' -> %s%s, want %s%s\n", e->driver ? e->driver : "-",
				      e->name, lr_counter_cat_name(c.cat), c.per_queue ? " pq" : "",
				      lr_counter_cat_name(e->cat), e->per_queue ? " pq" : "");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* Does the name itself say FIFO, full, no buffer or an empty ring? Read here from the raw text,
 * not through the classifier's word splitter. Page-pool recycling ("pp") is the documented
 * exception: its ring or cache being full means pages were plentiful. */
static bool name_says_no_room(const char *name)
{
	char low[256];
	size_t i;

	for (i = 0; name[i] && i < sizeof(low) - 1; i++)
		low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
	low[i] = '\0';
	if (strstr(low, "_pp_") || !strncmp(low, "pp_", 3))
		return false;
	return strstr(low, "fifo") || strstr(low, "full") || strstr(low, "nobuf") ||
	       strstr(low, "no_buf") || (strstr(low, "empty") && strstr(low, "ring"));
}

/* Every fixture name that says fifo, full, no buffer or ring empty is classified something
 * other than `other` (issue 11), on its own driver and with the driver unknown. */
static void test_no_room_never_other(void **state)
{
	char path[256], line[512];
	size_t i;
	int rows = 0, bad = 0;

	(void)state;
	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		FILE *f;

		snprintf(path, sizeof(path), FIX "%s.tsv", fixtures[i].file);
		f = fopen(path, "r");
		if (!f)
			fail_msg("cannot open %s", path);
		while (fgets(line, sizeof(line), f)) {
			char *tab = strchr(line, '\t');

			if (!tab)
				continue;
			*tab = '\0';
			if (!name_says_no_room(line))
				continue;
			rows++;
			if (lr_classify(fixtures[i].driver, line).cat == LR_CAT_OTHER ||
			    lr_classify(NULL, line).cat == LR_CAT_OTHER) {
				print_message("%s: '%s' classified other\n", fixtures[i].driver, line);
				bad++;
			}
		}
		fclose(f);
	}
	assert_int_equal(bad, 0);
	assert_true(rows >= 18); /* the fixtures hold 18 such names (2026-12-01) */
}

/* The words win over bookkeeping words that would otherwise make a name `other`. */
static void test_no_room_beats_bookkeeping(void **state)
{
	static const char *const names[] = {
		"rx_fifo_timeout",   "rx_ring_full_restart", "rx_nobuf_alloc",
		"rx_ring_empty_irq", "q3_rx_no_buffer_stop",  "rx_empty_ring_wakeup",
		"tx_queue_full_poll",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (lr_classify(NULL, names[i]).cat == LR_CAT_OTHER)
			fail_msg("'%s' classified other", names[i]);
	assert_int_equal(lr_classify(NULL, "rx_fifo_timeout").cat, LR_CAT_FIFO);
	assert_int_equal(lr_classify(NULL, "tx_fifo_reset").cat, LR_CAT_ERROR);
	/* page-pool recycling is not a loss */
	assert_int_equal(lr_classify("mlx5_core", "rx_pp_recycle_ring_full").cat, LR_CAT_OTHER);
}

/* The same name means different things on different drivers. */
static void test_driver_override(void **state)
{
	(void)state;
	assert_int_equal(lr_classify("igb", "rx_queue_1_drops").cat, LR_CAT_FIFO);
	assert_int_equal(lr_classify("veth", "rx_queue_1_drops").cat, LR_CAT_DROP);
	assert_int_equal(lr_classify("virtio_net", "rx_queue_1_drops").cat, LR_CAT_DROP);
	assert_int_equal(lr_classify(NULL, "rx_queue_1_drops").cat, LR_CAT_DROP);
	/* a driver whose name merely starts like igb gets no override */
	assert_int_equal(lr_classify("igbvf", "rx_queue_1_drops").cat, LR_CAT_DROP);
}

static void test_per_queue(void **state)
{
	static const char *const breakdown[] = {
		"rx3_missed",	      "rx_queue_0_packets",
		"tx-1.bytes",	      "rx_prio2_discards",
		"ch5_events",	      "rxq0: rx_drops_no_frags",
		"txq1: tx_drv_drops", "veb.tc_4_rx_bytes",
		"tx_pb_7_pxoff",      "port.rx_priority_3_xoff_rx",
		"rx_err_lane_2_phy",  "ptp_rq0_packets",
		"qos_tx1_dropped",    "[12]: rx_ucast_packets",
	};
	static const char *const totals[] = {
		"rx_missed_errors",
		"rx_packets",
		"port.rx_size_64",
		"rx_65_to_127_bytes_phy",
		"os2bmc_rx_by_bmc",
		"rx_64b_frames",
		"port.rx_priority_xon_2_xoff",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(breakdown) / sizeof(breakdown[0]); i++)
		if (!lr_classify(NULL, breakdown[i]).per_queue)
			fail_msg("'%s' should be per-queue", breakdown[i]);
	for (i = 0; i < sizeof(totals) / sizeof(totals[0]); i++)
		if (lr_classify(NULL, totals[i]).per_queue)
			fail_msg("'%s' is not per-queue", totals[i]);
}

static void test_odd_input(void **state)
{
	char longname[300];
	struct lr_counter_class c;

	(void)state;
	c = lr_classify(NULL, NULL);
	assert_int_equal(c.cat, LR_CAT_OTHER);
	assert_false(c.per_queue);
	assert_int_equal(lr_classify("x", "").cat, LR_CAT_OTHER);
	assert_int_equal(lr_classify(NULL, "___..--").cat, LR_CAT_OTHER);
	assert_int_equal(lr_classify(NULL, "12345").cat, LR_CAT_OTHER);
	/* more words than the splitter keeps, and an over-long word: no overflow */
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(lr_classify(NULL, longname).cat, LR_CAT_OTHER);
	assert_int_equal(lr_classify(NULL, "a_b_c_d_e_f_g_h_i_j_k_l_m_n_o_p_q_r_s_t_rx_crc").cat,
			 LR_CAT_OTHER);
	assert_int_equal(lr_classify(NULL, "rx_crc_a_b_c_d_e_f_g_h_i_j_k_l_m_n_o_p_q").cat,
			 LR_CAT_ERROR);
}

static void test_cat_names(void **state)
{
	(void)state;
	assert_string_equal(lr_counter_cat_name(LR_CAT_FIFO), "fifo");
	assert_string_equal(lr_counter_cat_name(LR_CAT_DROP), "drop");
	assert_string_equal(lr_counter_cat_name(LR_CAT_ERROR), "error");
	assert_string_equal(lr_counter_cat_name(LR_CAT_PAUSE), "pause");
	assert_string_equal(lr_counter_cat_name(LR_CAT_TRAFFIC), "traffic");
	assert_string_equal(lr_counter_cat_name(LR_CAT_OTHER), "other");
	assert_string_equal(lr_counter_cat_name(LR_CAT__COUNT), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_be2net),
		cmocka_unit_test(test_i40e),
		cmocka_unit_test(test_igb),
		cmocka_unit_test(test_ixgbe),
		cmocka_unit_test(test_mlx5),
		cmocka_unit_test(test_veth),
		cmocka_unit_test(test_virtio_net),
		cmocka_unit_test(test_cat_fifo),
		cmocka_unit_test(test_cat_drop),
		cmocka_unit_test(test_cat_error),
		cmocka_unit_test(test_cat_pause),
		cmocka_unit_test(test_cat_traffic),
		cmocka_unit_test(test_cat_other),
		cmocka_unit_test(test_generalises),
		cmocka_unit_test(test_no_room_never_other),
		cmocka_unit_test(test_no_room_beats_bookkeeping),
		cmocka_unit_test(test_driver_override),
		cmocka_unit_test(test_per_queue),
		cmocka_unit_test(test_odd_input),
		cmocka_unit_test(test_cat_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
