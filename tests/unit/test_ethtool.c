// SPDX-License-Identifier: GPL-2.0-or-later
/* The ethtool collector against scripted SIOCETHTOOL replies (fakes/fake_ethtool.c), the
 * way the kernel answers them: names from ixgbe's real list, counts that change at
 * runtime, refused calls, the GLINKSETTINGS handshake and the GSET fallback. */
#include <errno.h>
#include <linux/ethtool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/fake_ethtool.h"
#include "linerate/collect/ethtool.h"
#include "linerate/core/clock.h"

static struct fake_eth *const S = &fake_eth;		/* the scripted device */
static struct fake_sysio *const F = &fake_eth_sys;	/* its io */

static uint32_t find(const struct lr_ethtool *et, const char *name)
{
	uint32_t i;

	for (i = 0; i < lr_ethtool_n_stats(et); i++)
		if (!strcmp(lr_ethtool_stat_name(et, i), name))
			return i;
	fail_msg("no stat '%s'", name);
	return 0;
}

static void test_open_reads_names_and_values(void **state)
{
	struct lr_ethtool *et = NULL;
	const uint64_t *v;
	uint32_t i, miss;

	(void)state;
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	assert_int_equal(F->sockets_open, 1);
	assert_int_equal(lr_ethtool_n_stats(et), 104);
	for (i = 0; i < 104; i++)
		assert_string_equal(lr_ethtool_stat_name(et, i), fake_eth_ixgbe[i]);
	v = lr_ethtool_stat_values(et);
	assert_non_null(v);
	assert_int_equal(v[0], 1000);
	assert_int_equal(v[103], 1103);
	miss = find(et, "rx_missed_errors");
	assert_int_equal(lr_ethtool_stat_class(et, miss).cat, LR_CAT_FIFO);
	assert_false(lr_ethtool_stat_class(et, miss).per_queue);
	i = find(et, "rx_queue_1_bytes");
	assert_int_equal(lr_ethtool_stat_class(et, i).cat, LR_CAT_TRAFFIC);
	assert_true(lr_ethtool_stat_class(et, i).per_queue);
	assert_null(lr_ethtool_stat_name(et, 104));
	assert_int_equal(lr_ethtool_stat_class(et, 104).cat, LR_CAT_OTHER);
	lr_ethtool_close(et);
	assert_int_equal(F->sockets_open, 0);
	lr_ethtool_close(NULL);
}

static void test_steady_state_reads(void **state)
{
	struct lr_ethtool *et = NULL;
	const uint64_t *v0;
	const char *name0;
	bool changed = true;
	int k, calls;

	(void)state;
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	v0 = lr_ethtool_stat_values(et);
	name0 = lr_ethtool_stat_name(et, 0);
	for (k = 1; k <= 5; k++) {
		S->base = 1000 + 100u * (unsigned)k;
		calls = F->ioctl_calls;
		assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
		assert_false(changed);
		assert_int_equal(F->ioctl_calls - calls, 1);	  /* GSTATS alone */
		assert_ptr_equal(lr_ethtool_stat_values(et), v0); /* no reallocation */
		assert_ptr_equal(lr_ethtool_stat_name(et, 0), name0);
		assert_int_equal(lr_ethtool_stat_values(et)[5], S->base + 5);
	}
	assert_int_equal(S->n_gstrings, 1); /* names read once */
	assert_int_equal(S->n_sset, 1);	   /* counted once, at open */
	lr_ethtool_close(et);
}

static void test_count_grows_and_shrinks(void **state)
{
	struct lr_ethtool *et = NULL;
	bool changed;
	uint32_t i;

	(void)state;
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	/* ethtool -L eth7 combined 4: two more queues */
	fake_eth_add_queue(2);
	fake_eth_add_queue(3);
	S->base = 5000;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_true(changed);
	assert_int_equal(lr_ethtool_n_stats(et), 112);
	i = find(et, "rx_queue_3_bytes");
	assert_int_equal(i, 111);
	assert_int_equal(lr_ethtool_stat_values(et)[i], 5111);
	assert_true(lr_ethtool_stat_class(et, i).per_queue);
	assert_int_equal(S->n_gstrings, 2);
	/* nothing moved: no re-read */
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_false(changed);
	/* back to 2 queues */
	S->n = 104;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_true(changed);
	assert_int_equal(lr_ethtool_n_stats(et), 104);
	assert_null(lr_ethtool_stat_name(et, 104));
	/* far beyond the headroom of the first buffers: grows, no overrun (ASan) */
	for (i = 4; i < 37; i++)
		fake_eth_add_queue(i);
	assert_int_equal(S->n, 236);
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_true(changed);
	assert_int_equal(lr_ethtool_n_stats(et), 236);
	assert_string_equal(lr_ethtool_stat_name(et, 235), "rx_queue_36_bytes");
	assert_int_equal(lr_ethtool_stat_values(et)[235], 5235);
	lr_ethtool_close(et);
}

/* The channel count changes again between our GSSET_INFO and GSTATS (after the names):
 * GSTATS answers with the newer count; the reader must re-read names and never pair old
 * names with new values. */
static void test_count_changes_between_calls(void **state)
{
	struct lr_ethtool *et = NULL;
	bool changed;
	uint32_t i;
	int gstats;

	(void)state;
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	fake_eth_add_queue(2);			       /* seen by the next tick's GSTATS */
	S->race_at_gstrings = S->n_gstrings + 1; /* and then two more, right after the names */
	S->race_add = 2;
	S->race_from = 100;
	S->base = 7000;
	gstats = S->n_gstats;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_int_equal(S->n_gstats - gstats, 3); /* the tick's, the stale one, the good one */
	assert_true(changed);
	assert_int_equal(lr_ethtool_n_stats(et), S->n);
	assert_int_equal(S->n, 116);
	for (i = 0; i < S->n; i++)
		assert_int_equal(lr_ethtool_stat_values(et)[i], 7000 + i);
	assert_string_equal(lr_ethtool_stat_name(et, 115), "rx_queue_101_bytes");
	assert_int_equal(S->n_faults, 0);
	lr_ethtool_close(et);
}

/* A jump far past the buffers' headroom at the worst moment (ethtool -L combined 110 as
 * we read): the kernel would write 544 values where 272 were sized. The guard page makes
 * that EFAULT, and the reader counts again, with nothing written outside its buffers. */
static void test_count_outgrows_buffer(void **state)
{
	struct lr_ethtool *et = NULL;
	bool changed;
	uint32_t i;

	(void)state;
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	assert_int_equal(lr_ethtool_n_stats(et), 104);
	fake_eth_add_queue(2);
	S->race_at_gstrings = S->n_gstrings + 1;
	S->race_add = 108;
	S->race_from = 200;
	S->base = 9000;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_true(changed);
	assert_int_equal(S->n, 540);
	assert_true(S->n_faults >= 1); /* the kernel's write ran into the guard */
	assert_int_equal(lr_ethtool_n_stats(et), 540);
	for (i = 0; i < S->n; i++)
		assert_int_equal(lr_ethtool_stat_values(et)[i], 9000 + i);
	assert_string_equal(lr_ethtool_stat_name(et, 539), "rx_queue_307_bytes");
	/* and the steady tick after it is one GSTATS again */
	S->n_faults = 0;
	i = (uint32_t)F->ioctl_calls;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_false(changed);
	assert_int_equal(F->ioctl_calls - (int)i, 1);
	assert_int_equal(S->n_faults, 0);
	lr_ethtool_close(et);
}

static void test_no_sset_info_uses_drvinfo_count(void **state)
{
	struct lr_ethtool *et = NULL;
	bool changed;

	(void)state;
	S->no_sset_info = true;
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	assert_int_equal(lr_ethtool_n_stats(et), 104);
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_false(changed);
	assert_true(S->n_drvinfo >= 2);
	lr_ethtool_close(et);
}

static void test_device_without_stats(void **state)
{
	struct lr_ethtool *et = NULL;
	struct lr_ethtool_info info;
	bool changed;

	(void)state;
	S->no_stats = true; /* lo */
	S->err_glink = -EOPNOTSUPP;
	S->err_gset = -EOPNOTSUPP;
	S->err_ring = -EOPNOTSUPP;
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	assert_int_equal(lr_ethtool_n_stats(et), 0);
	assert_null(lr_ethtool_stat_values(et));
	assert_int_equal(lr_ethtool_read_stats(et, &changed), -EOPNOTSUPP);
	assert_false(changed);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.err_stats, -EOPNOTSUPP);
	assert_int_equal(info.err_link, -EOPNOTSUPP);
	assert_int_equal(info.err_rings, -EOPNOTSUPP);
	assert_int_equal(info.err_features, -EOPNOTSUPP); /* no feature strings */
	assert_int_equal(info.err_drvinfo, 0);
	assert_int_equal(info.speed_mbps, -1);
	assert_int_equal(info.duplex, -1);
	assert_int_equal(info.ring_rx, -1);
	assert_int_equal(info.ring_tx_max, -1);
	assert_int_equal(info.features_known, 0);
	lr_ethtool_close(et);
}

static void test_eperm_is_reported_not_fatal(void **state)
{
	struct lr_ethtool *et = NULL;
	struct lr_ethtool_info info;
	bool changed;

	(void)state;
	S->err_gstats = -EPERM;
	S->err_ring = -EPERM;
	S->err_feat = -EPERM;
	S->n_feat = 1;
	strcpy(S->feat_names[0], "rx-gro");
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	assert_int_equal(lr_ethtool_read_stats(et, &changed), -EPERM);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.err_stats, -EPERM);
	assert_int_equal(info.err_rings, -EPERM);
	assert_int_equal(info.err_features, -EPERM);
	assert_int_equal(info.err_link, 0);
	assert_int_equal(info.speed_mbps, 10000);
	/* allowed again: values come back */
	S->err_gstats = 0;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_int_equal(lr_ethtool_stat_values(et)[1], 1001);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.err_stats, 0);
	lr_ethtool_close(et);
}

static void test_missing_interface(void **state)
{
	struct lr_ethtool *et = NULL;

	(void)state;
	assert_int_equal(lr_ethtool_open(&et, "nosuch0", &F->io), -ENODEV);
	assert_null(et);
	assert_int_equal(F->sockets_open, 0);
	assert_int_equal(lr_ethtool_open(&et, "", &F->io), -EINVAL);
	assert_int_equal(lr_ethtool_open(&et, "abcdefghijklmnop", &F->io), -EINVAL);
	/* an interface that disappears after open */
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	S->gone = true;
	{
		struct lr_ethtool_info info;
		bool changed;

		assert_int_equal(lr_ethtool_read_stats(et, &changed), -ENODEV);
		assert_true(changed);
		assert_int_equal(lr_ethtool_n_stats(et), 0);
		assert_int_equal(lr_ethtool_read_info(et, &info), -ENODEV);
	}
	lr_ethtool_close(et);
	assert_int_equal(F->sockets_open, 0);
}

static void test_glinksettings_handshake(void **state)
{
	struct lr_ethtool *et = NULL;
	struct lr_ethtool_info info;

	(void)state;
	S->speed = 25000;
	S->nwords = 4;
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(S->n_glink, 2);
	assert_int_equal(S->glink_nwords_seen[0], 0);
	assert_int_equal(S->glink_nwords_seen[1], 4);
	assert_int_equal(S->n_gset, 0);
	assert_int_equal(info.err_link, 0);
	assert_int_equal(info.speed_mbps, 25000);
	assert_int_equal(info.duplex, 1);
	assert_string_equal(info.driver, "ixgbe");
	assert_string_equal(info.version, "5.19.6-k");
	assert_string_equal(info.fw_version, "0x800009e0, 1.3429.0");
	assert_string_equal(info.bus_info, "0000:3b:00.0");
	assert_int_equal(info.ring_rx, 512);
	assert_int_equal(info.ring_rx_max, 4096);
	assert_int_equal(info.ring_tx, 512);
	assert_int_equal(info.ring_tx_max, 4096);
	S->duplex = DUPLEX_HALF;
	S->speed = 100;
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.speed_mbps, 100);
	assert_int_equal(info.duplex, 0);
	lr_ethtool_close(et);
}

static void test_gset_fallback(void **state)
{
	struct lr_ethtool *et = NULL;
	struct lr_ethtool_info info;

	(void)state;
	S->err_glink = -EOPNOTSUPP; /* kernel before 4.6 */
	S->gset_speed = 100000;	   /* needs speed_hi */
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(S->n_gset, 1);
	assert_int_equal(info.err_link, 0);
	assert_int_equal(info.speed_mbps, 100000);
	assert_int_equal(info.duplex, 1);
	/* GSET's unknown: both halves 0xffff */
	S->gset_speed = 0xffffffffu;
	S->duplex = DUPLEX_UNKNOWN;
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.speed_mbps, -1);
	assert_int_equal(info.duplex, -1);
	/* neither call allowed */
	S->err_gset = -EPERM;
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.err_link, -EPERM);
	assert_int_equal(info.speed_mbps, -1);
	lr_ethtool_close(et);
}

static void test_unknown_speed(void **state)
{
	struct lr_ethtool *et = NULL;
	struct lr_ethtool_info info;

	(void)state;
	S->speed = (uint32_t)SPEED_UNKNOWN; /* link down */
	S->duplex = DUPLEX_UNKNOWN;
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.err_link, 0);
	assert_int_equal(info.speed_mbps, -1);
	assert_int_equal(info.duplex, -1);
	S->speed = 0;
	S->duplex = 7; /* nonsense */
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.speed_mbps, -1);
	assert_int_equal(info.duplex, -1);
	lr_ethtool_close(et);
}

static void set_feat(const char *name, uint32_t idx, bool active)
{
	memset(S->feat_names[idx], 0, ETH_GSTRING_LEN);
	memcpy(S->feat_names[idx], name, strnlen(name, ETH_GSTRING_LEN));
	if (idx + 1 > S->n_feat)
		S->n_feat = idx + 1;
	if (active)
		S->feat_active[idx / 32] |= 1u << (idx % 32);
	else
		S->feat_active[idx / 32] &= ~(1u << (idx % 32));
}

static void test_features(void **state)
{
	struct lr_ethtool *et = NULL;
	struct lr_ethtool_info info;
	uint32_t i;

	(void)state;
	for (i = 0; i < 70; i++) {
		char buf[ETH_GSTRING_LEN];

		snprintf(buf, sizeof(buf), "feature-%u", i);
		set_feat(buf, i, true);
	}
	set_feat("tx-scatter-gather", 0, true);
	set_feat("tx-checksum-ipv4", 3, false);
	set_feat("tx-checksum-ip-generic", 4, true);
	set_feat("rx-checksum", 29, true);
	set_feat("tx-generic-segmentation", 31, false);
	set_feat("tx-tcp-segmentation", 32, true);
	set_feat("rx-gro", 45, true);
	set_feat("rx-lro", 69, false);
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.err_features, 0);
	assert_int_equal(info.features_known, LR_FEAT_SG | LR_FEAT_TX_CSUM | LR_FEAT_RX_CSUM |
						      LR_FEAT_TSO | LR_FEAT_GSO | LR_FEAT_GRO |
						      LR_FEAT_LRO);
	assert_int_equal(info.features, LR_FEAT_SG | LR_FEAT_TX_CSUM | LR_FEAT_RX_CSUM |
						LR_FEAT_TSO | LR_FEAT_GRO);
	/* turned off at runtime (ethtool -K eth7 gro off) */
	S->feat_active[45 / 32] &= ~(1u << (45 % 32));
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_false(info.features & LR_FEAT_GRO);
	assert_true(info.features_known & LR_FEAT_GRO);
	lr_ethtool_close(et);
}

static void test_full_length_strings(void **state)
{
	static const char name32[] = "rx_queue_10_xdp_redirect_packets"; /* 32 chars */
	static const char drv32[] = "a_driver_name_of_exactly_32_char";
	struct lr_ethtool *et = NULL;
	struct lr_ethtool_info info;

	(void)state;
	assert_int_equal(strlen(name32), ETH_GSTRING_LEN);
	assert_int_equal(strlen(drv32), 32);
	S->n = 0;
	fake_eth_add_name(name32);
	fake_eth_add_name("rx_missed_errors");
	S->driver = drv32;
	assert_int_equal(lr_ethtool_open(&et, FAKE_ETH_IFNAME, &F->io), 0);
	assert_string_equal(lr_ethtool_stat_name(et, 0), name32);
	assert_string_equal(lr_ethtool_stat_name(et, 1), "rx_missed_errors");
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(strlen(info.driver), sizeof(info.driver) - 1);
	assert_memory_equal(info.driver, drv32, sizeof(info.driver) - 1);
	lr_ethtool_close(et);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_open_reads_names_and_values, fake_eth_setup),
		cmocka_unit_test_setup(test_steady_state_reads, fake_eth_setup),
		cmocka_unit_test_setup(test_count_grows_and_shrinks, fake_eth_setup),
		cmocka_unit_test_setup(test_count_changes_between_calls, fake_eth_setup),
		cmocka_unit_test_setup(test_count_outgrows_buffer, fake_eth_setup),
		cmocka_unit_test_setup(test_no_sset_info_uses_drvinfo_count, fake_eth_setup),
		cmocka_unit_test_setup(test_device_without_stats, fake_eth_setup),
		cmocka_unit_test_setup(test_eperm_is_reported_not_fatal, fake_eth_setup),
		cmocka_unit_test_setup(test_missing_interface, fake_eth_setup),
		cmocka_unit_test_setup(test_glinksettings_handshake, fake_eth_setup),
		cmocka_unit_test_setup(test_gset_fallback, fake_eth_setup),
		cmocka_unit_test_setup(test_unknown_speed, fake_eth_setup),
		cmocka_unit_test_setup(test_features, fake_eth_setup),
		cmocka_unit_test_setup(test_full_length_strings, fake_eth_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
