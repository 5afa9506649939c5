// SPDX-License-Identifier: GPL-2.0-or-later
/* The ethtool collector against scripted SIOCETHTOOL replies (fake_sysio's ioctl_cb), the
 * way the kernel answers them: names from ixgbe's real list, counts that change at
 * runtime, refused calls, the GLINKSETTINGS handshake and the GSET fallback. */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cmocka.h>

#include "fakes/fake_sysio.h"
#include "linerate/collect/ethtool.h"
#include "linerate/core/clock.h"
#include "linerate/sample/drvstats.h"
#include "linerate/sample/snapshot.h"

#define MAX_NAMES 1024
#define IFNAME	  "eth7"

struct script {
	/* the device as the kernel sees it now */
	char names[MAX_NAMES][ETH_GSTRING_LEN];
	uint32_t n;
	uint64_t base;	    /* value of stat i is base + i */
	const uint64_t *vals; /* when set, the value of stat i is vals[i] instead */
	const char *driver; /* may be exactly 32 chars */
	bool no_stats;	    /* like lo: ETH_SS_STATS not in sset_mask */
	bool no_sset_info;  /* kernel without GSSET_INFO */
	bool gone;	    /* every call -ENODEV */
	int err_gstats, err_glink, err_gset, err_ring, err_feat;
	uint32_t speed;
	uint8_t duplex;
	int8_t nwords;	     /* link mode mask words the "kernel" has */
	uint32_t gset_speed; /* what GSET answers (speed | speed_hi << 16) */
	uint32_t ring_rx, ring_rx_max, ring_tx, ring_tx_max;
	char feat_names[80][ETH_GSTRING_LEN];
	uint32_t n_feat;
	uint32_t feat_active[3];
	/* a channel change racing us: right after answering GSSET_INFO call number
	 * `race_at_sset` (or GSTRINGS call number `race_at_gstrings`), `race_add` queues
	 * appear, numbered from `race_from` (0: never) */
	int race_at_sset, race_at_gstrings, race_add;
	unsigned race_from;
	/* observations */
	int n_sset, n_gstrings, n_gstats, n_glink, n_gset, n_drvinfo, n_faults;
	int8_t glink_nwords_seen[4];
};

static struct script S;
static struct fake_sysio F;
static char ixgbe[MAX_NAMES][ETH_GSTRING_LEN];
static uint32_t n_ixgbe;

static void load_ixgbe(void)
{
	FILE *f = fopen("tests/fixtures/ethtool/ixgbe.txt", "r");
	char line[256];

	assert_non_null(f);
	n_ixgbe = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		assert_true(n_ixgbe < MAX_NAMES);
		assert_true(strlen(line) <= ETH_GSTRING_LEN);
		memcpy(ixgbe[n_ixgbe++], line, strlen(line));
	}
	fclose(f);
	assert_int_equal(n_ixgbe, 104);
}

static void add_name(const char *name)
{
	assert_true(S.n < MAX_NAMES);
	memset(S.names[S.n], 0, ETH_GSTRING_LEN);
	memcpy(S.names[S.n], name, strnlen(name, ETH_GSTRING_LEN));
	S.n++;
}

static void add_queue(unsigned q)
{
	char buf[ETH_GSTRING_LEN];

	snprintf(buf, sizeof(buf), "tx_queue_%u_packets", q);
	add_name(buf);
	snprintf(buf, sizeof(buf), "tx_queue_%u_bytes", q);
	add_name(buf);
	snprintf(buf, sizeof(buf), "rx_queue_%u_packets", q);
	add_name(buf);
	snprintf(buf, sizeof(buf), "rx_queue_%u_bytes", q);
	add_name(buf);
}

static void race(struct script *s)
{
	for (int j = 0; j < s->race_add; j++)
		add_queue(s->race_from + (unsigned)j);
}

/* The kernel's copy_to_user: memory we may not write is EFAULT, not a crash. A write to
 * our own process through process_vm_writev fails the same way. */
static int copy_out(struct script *s, void *dst, const void *src, size_t len)
{
	struct iovec from = {.iov_base = (void *)src, .iov_len = len};
	struct iovec to = {.iov_base = dst, .iov_len = len};

	if (process_vm_writev(getpid(), &from, 1, &to, 1, 0) == (ssize_t)len)
		return 0;
	s->n_faults++;
	return -EFAULT;
}

static int fake_ethtool(void *arg, unsigned long req, void *data)
{
	struct script *s = arg;
	struct ifreq *ifr = data;
	uint32_t cmd, i;

	if (req != SIOCETHTOOL)
		return -ENOTTY;
	if (strcmp(ifr->ifr_name, IFNAME) || s->gone)
		return -ENODEV;
	memcpy(&cmd, ifr->ifr_data, sizeof(cmd));
	switch (cmd) {
	case ETHTOOL_GDRVINFO: {
		struct ethtool_drvinfo *di = (void *)ifr->ifr_data;

		s->n_drvinfo++;
		memset(di, 0, sizeof(*di));
		di->cmd = cmd;
		memcpy(di->driver, s->driver, strnlen(s->driver, sizeof(di->driver)));
		strcpy(di->version, "5.19.6-k");
		strcpy(di->fw_version, "0x800009e0, 1.3429.0");
		strcpy(di->bus_info, "0000:3b:00.0");
		di->n_stats = s->no_stats ? 0 : s->n;
		return 0;
	}
	case ETHTOOL_GSSET_INFO: {
		struct ethtool_sset_info *si = (void *)ifr->ifr_data;
		uint64_t asked = si->sset_mask;
		int k = 0;

		s->n_sset++;
		if (s->no_sset_info)
			return -EOPNOTSUPP;
		si->sset_mask = 0;
		if ((asked & (1ULL << ETH_SS_STATS)) && !s->no_stats) {
			si->sset_mask |= 1ULL << ETH_SS_STATS;
			si->data[k++] = s->n;
		}
		if ((asked & (1ULL << ETH_SS_FEATURES)) && s->n_feat) {
			si->sset_mask |= 1ULL << ETH_SS_FEATURES;
			si->data[k++] = s->n_feat;
		}
		if (s->n_sset == s->race_at_sset)
			race(s);
		return 0;
	}
	case ETHTOOL_GSTRINGS: {
		struct ethtool_gstrings *gs = (void *)ifr->ifr_data;

		s->n_gstrings++;
		/* the kernel writes the current count, whatever len says */
		if (gs->string_set == ETH_SS_STATS && !s->no_stats) {
			int err;

			gs->len = s->n;
			err = copy_out(s, gs->data, s->names, (size_t)s->n * ETH_GSTRING_LEN);
			if (s->n_gstrings == s->race_at_gstrings)
				race(s);
			return err;
		}
		if (gs->string_set == ETH_SS_FEATURES && s->n_feat) {
			gs->len = s->n_feat;
			memcpy(gs->data, s->feat_names, (size_t)s->n_feat * ETH_GSTRING_LEN);
			return 0;
		}
		return -EOPNOTSUPP;
	}
	case ETHTOOL_GSTATS: {
		struct ethtool_stats *st = (void *)ifr->ifr_data;

		s->n_gstats++;
		if (s->no_stats)
			return -EOPNOTSUPP;
		if (s->err_gstats)
			return s->err_gstats;
		{
			static uint64_t v[MAX_NAMES];

			st->n_stats = s->n;
			for (i = 0; i < s->n; i++)
				v[i] = s->vals ? s->vals[i] : s->base + i;
			return copy_out(s, st->data, v, (size_t)s->n * sizeof(v[0]));
		}
	}
	case ETHTOOL_GLINKSETTINGS: {
		struct ethtool_link_settings *ls = (void *)ifr->ifr_data;

		if (s->n_glink < 4)
			s->glink_nwords_seen[s->n_glink] = ls->link_mode_masks_nwords;
		s->n_glink++;
		if (s->err_glink)
			return s->err_glink;
		if (ls->link_mode_masks_nwords != s->nwords) {
			/* handshake: tell the caller how many words, touch nothing else */
			memset(ls, 0, sizeof(*ls));
			ls->cmd = ETHTOOL_GLINKSETTINGS;
			ls->link_mode_masks_nwords = (int8_t)-s->nwords;
			return 0;
		}
		ls->speed = s->speed;
		ls->duplex = s->duplex;
		for (i = 0; i < 3u * (uint32_t)s->nwords; i++) /* supported/advertising/lp */
			ls->link_mode_masks[i] = 0xffffffffu;
		return 0;
	}
	case ETHTOOL_GSET: {
		struct ethtool_cmd *ec = (void *)ifr->ifr_data;

		s->n_gset++;
		if (s->err_gset)
			return s->err_gset;
		ec->speed = (uint16_t)(s->gset_speed & 0xffff);
		ec->speed_hi = (uint16_t)(s->gset_speed >> 16);
		ec->duplex = s->duplex;
		return 0;
	}
	case ETHTOOL_GRINGPARAM: {
		struct ethtool_ringparam *rp = (void *)ifr->ifr_data;

		if (s->err_ring)
			return s->err_ring;
		rp->rx_pending = s->ring_rx;
		rp->rx_max_pending = s->ring_rx_max;
		rp->tx_pending = s->ring_tx;
		rp->tx_max_pending = s->ring_tx_max;
		return 0;
	}
	case ETHTOOL_GFEATURES: {
		struct ethtool_gfeatures *gf = (void *)ifr->ifr_data;
		uint32_t words = (s->n_feat + 31) / 32;

		if (s->err_feat)
			return s->err_feat;
		for (i = 0; i < words && i < gf->size; i++) {
			gf->features[i].available = 0xffffffffu;
			gf->features[i].active = s->feat_active[i];
		}
		gf->size = words;
		return 0;
	}
	default:
		return -EOPNOTSUPP;
	}
}

static int setup(void **state)
{
	uint32_t i;

	(void)state;
	memset(&S, 0, sizeof(S));
	memset(ixgbe, 0, sizeof(ixgbe));
	load_ixgbe();
	for (i = 0; i < n_ixgbe; i++)
		add_name(ixgbe[i]);
	S.driver = "ixgbe";
	S.base = 1000;
	S.nwords = 3;
	S.speed = 10000;
	S.duplex = DUPLEX_FULL;
	S.ring_rx = 512;
	S.ring_rx_max = 4096;
	S.ring_tx = 512;
	S.ring_tx_max = 4096;
	fake_sysio_init(&F, FIXTURES "/this-host");
	F.ioctl_cb = fake_ethtool;
	F.ioctl_arg = &S;
	return 0;
}

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
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	assert_int_equal(F.sockets_open, 1);
	assert_int_equal(lr_ethtool_n_stats(et), 104);
	for (i = 0; i < 104; i++)
		assert_string_equal(lr_ethtool_stat_name(et, i), ixgbe[i]);
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
	assert_int_equal(F.sockets_open, 0);
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
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	v0 = lr_ethtool_stat_values(et);
	name0 = lr_ethtool_stat_name(et, 0);
	for (k = 1; k <= 5; k++) {
		S.base = 1000 + 100u * (unsigned)k;
		calls = F.ioctl_calls;
		assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
		assert_false(changed);
		assert_int_equal(F.ioctl_calls - calls, 1);	  /* GSTATS alone */
		assert_ptr_equal(lr_ethtool_stat_values(et), v0); /* no reallocation */
		assert_ptr_equal(lr_ethtool_stat_name(et, 0), name0);
		assert_int_equal(lr_ethtool_stat_values(et)[5], S.base + 5);
	}
	assert_int_equal(S.n_gstrings, 1); /* names read once */
	assert_int_equal(S.n_sset, 1);	   /* counted once, at open */
	lr_ethtool_close(et);
}

static void test_count_grows_and_shrinks(void **state)
{
	struct lr_ethtool *et = NULL;
	bool changed;
	uint32_t i;

	(void)state;
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	/* ethtool -L eth7 combined 4: two more queues */
	add_queue(2);
	add_queue(3);
	S.base = 5000;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_true(changed);
	assert_int_equal(lr_ethtool_n_stats(et), 112);
	i = find(et, "rx_queue_3_bytes");
	assert_int_equal(i, 111);
	assert_int_equal(lr_ethtool_stat_values(et)[i], 5111);
	assert_true(lr_ethtool_stat_class(et, i).per_queue);
	assert_int_equal(S.n_gstrings, 2);
	/* nothing moved: no re-read */
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_false(changed);
	/* back to 2 queues */
	S.n = 104;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_true(changed);
	assert_int_equal(lr_ethtool_n_stats(et), 104);
	assert_null(lr_ethtool_stat_name(et, 104));
	/* far beyond the headroom of the first buffers: grows, no overrun (ASan) */
	for (i = 4; i < 37; i++)
		add_queue(i);
	assert_int_equal(S.n, 236);
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
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	add_queue(2);			       /* seen by the next tick's GSTATS */
	S.race_at_gstrings = S.n_gstrings + 1; /* and then two more, right after the names */
	S.race_add = 2;
	S.race_from = 100;
	S.base = 7000;
	gstats = S.n_gstats;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_int_equal(S.n_gstats - gstats, 3); /* the tick's, the stale one, the good one */
	assert_true(changed);
	assert_int_equal(lr_ethtool_n_stats(et), S.n);
	assert_int_equal(S.n, 116);
	for (i = 0; i < S.n; i++)
		assert_int_equal(lr_ethtool_stat_values(et)[i], 7000 + i);
	assert_string_equal(lr_ethtool_stat_name(et, 115), "rx_queue_101_bytes");
	assert_int_equal(S.n_faults, 0);
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
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	assert_int_equal(lr_ethtool_n_stats(et), 104);
	add_queue(2);
	S.race_at_gstrings = S.n_gstrings + 1;
	S.race_add = 108;
	S.race_from = 200;
	S.base = 9000;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_true(changed);
	assert_int_equal(S.n, 540);
	assert_true(S.n_faults >= 1); /* the kernel's write ran into the guard */
	assert_int_equal(lr_ethtool_n_stats(et), 540);
	for (i = 0; i < S.n; i++)
		assert_int_equal(lr_ethtool_stat_values(et)[i], 9000 + i);
	assert_string_equal(lr_ethtool_stat_name(et, 539), "rx_queue_307_bytes");
	/* and the steady tick after it is one GSTATS again */
	S.n_faults = 0;
	i = (uint32_t)F.ioctl_calls;
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_false(changed);
	assert_int_equal(F.ioctl_calls - (int)i, 1);
	assert_int_equal(S.n_faults, 0);
	lr_ethtool_close(et);
}

static void test_no_sset_info_uses_drvinfo_count(void **state)
{
	struct lr_ethtool *et = NULL;
	bool changed;

	(void)state;
	S.no_sset_info = true;
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	assert_int_equal(lr_ethtool_n_stats(et), 104);
	assert_int_equal(lr_ethtool_read_stats(et, &changed), 0);
	assert_false(changed);
	assert_true(S.n_drvinfo >= 2);
	lr_ethtool_close(et);
}

static void test_device_without_stats(void **state)
{
	struct lr_ethtool *et = NULL;
	struct lr_ethtool_info info;
	bool changed;

	(void)state;
	S.no_stats = true; /* lo */
	S.err_glink = -EOPNOTSUPP;
	S.err_gset = -EOPNOTSUPP;
	S.err_ring = -EOPNOTSUPP;
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
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
	S.err_gstats = -EPERM;
	S.err_ring = -EPERM;
	S.err_feat = -EPERM;
	S.n_feat = 1;
	strcpy(S.feat_names[0], "rx-gro");
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	assert_int_equal(lr_ethtool_read_stats(et, &changed), -EPERM);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.err_stats, -EPERM);
	assert_int_equal(info.err_rings, -EPERM);
	assert_int_equal(info.err_features, -EPERM);
	assert_int_equal(info.err_link, 0);
	assert_int_equal(info.speed_mbps, 10000);
	/* allowed again: values come back */
	S.err_gstats = 0;
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
	assert_int_equal(lr_ethtool_open(&et, "nosuch0", &F.io), -ENODEV);
	assert_null(et);
	assert_int_equal(F.sockets_open, 0);
	assert_int_equal(lr_ethtool_open(&et, "", &F.io), -EINVAL);
	assert_int_equal(lr_ethtool_open(&et, "abcdefghijklmnop", &F.io), -EINVAL);
	/* an interface that disappears after open */
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	S.gone = true;
	{
		struct lr_ethtool_info info;
		bool changed;

		assert_int_equal(lr_ethtool_read_stats(et, &changed), -ENODEV);
		assert_true(changed);
		assert_int_equal(lr_ethtool_n_stats(et), 0);
		assert_int_equal(lr_ethtool_read_info(et, &info), -ENODEV);
	}
	lr_ethtool_close(et);
	assert_int_equal(F.sockets_open, 0);
}

static void test_glinksettings_handshake(void **state)
{
	struct lr_ethtool *et = NULL;
	struct lr_ethtool_info info;

	(void)state;
	S.speed = 25000;
	S.nwords = 4;
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(S.n_glink, 2);
	assert_int_equal(S.glink_nwords_seen[0], 0);
	assert_int_equal(S.glink_nwords_seen[1], 4);
	assert_int_equal(S.n_gset, 0);
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
	S.duplex = DUPLEX_HALF;
	S.speed = 100;
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
	S.err_glink = -EOPNOTSUPP; /* kernel before 4.6 */
	S.gset_speed = 100000;	   /* needs speed_hi */
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(S.n_gset, 1);
	assert_int_equal(info.err_link, 0);
	assert_int_equal(info.speed_mbps, 100000);
	assert_int_equal(info.duplex, 1);
	/* GSET's unknown: both halves 0xffff */
	S.gset_speed = 0xffffffffu;
	S.duplex = DUPLEX_UNKNOWN;
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.speed_mbps, -1);
	assert_int_equal(info.duplex, -1);
	/* neither call allowed */
	S.err_gset = -EPERM;
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
	S.speed = (uint32_t)SPEED_UNKNOWN; /* link down */
	S.duplex = DUPLEX_UNKNOWN;
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.err_link, 0);
	assert_int_equal(info.speed_mbps, -1);
	assert_int_equal(info.duplex, -1);
	S.speed = 0;
	S.duplex = 7; /* nonsense */
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.speed_mbps, -1);
	assert_int_equal(info.duplex, -1);
	lr_ethtool_close(et);
}

static void set_feat(const char *name, uint32_t idx, bool active)
{
	memset(S.feat_names[idx], 0, ETH_GSTRING_LEN);
	memcpy(S.feat_names[idx], name, strnlen(name, ETH_GSTRING_LEN));
	if (idx + 1 > S.n_feat)
		S.n_feat = idx + 1;
	if (active)
		S.feat_active[idx / 32] |= 1u << (idx % 32);
	else
		S.feat_active[idx / 32] &= ~(1u << (idx % 32));
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
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(info.err_features, 0);
	assert_int_equal(info.features_known, LR_FEAT_SG | LR_FEAT_TX_CSUM | LR_FEAT_RX_CSUM |
						      LR_FEAT_TSO | LR_FEAT_GSO | LR_FEAT_GRO |
						      LR_FEAT_LRO);
	assert_int_equal(info.features, LR_FEAT_SG | LR_FEAT_TX_CSUM | LR_FEAT_RX_CSUM |
						LR_FEAT_TSO | LR_FEAT_GRO);
	/* turned off at runtime (ethtool -K eth7 gro off) */
	S.feat_active[45 / 32] &= ~(1u << (45 % 32));
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
	S.n = 0;
	add_name(name32);
	add_name("rx_missed_errors");
	S.driver = drv32;
	assert_int_equal(lr_ethtool_open(&et, IFNAME, &F.io), 0);
	assert_string_equal(lr_ethtool_stat_name(et, 0), name32);
	assert_string_equal(lr_ethtool_stat_name(et, 1), "rx_missed_errors");
	assert_int_equal(lr_ethtool_read_info(et, &info), 0);
	assert_int_equal(strlen(info.driver), sizeof(info.driver) - 1);
	assert_memory_equal(info.driver, drv32, sizeof(info.driver) - 1);
	lr_ethtool_close(et);
}

/* The queue table from the driver's names (drvstats): ixgbe's real names, two dumps a second
 * apart in which queue 0 took 90 % of the rx packets. Each queue's counts are the scripted
 * deltas of its own counters, device-level counters (rx_packets) feed no queue, and a counter
 * that moved only on another queue leaves this one's zero, not unknown. */
static void test_queues_from_names(void **state)
{
	static uint64_t v[MAX_NAMES];
	struct lr_drvstats *d;
	struct lr_iface_snap snap;
	const uint64_t sec = LR_NSEC_PER_SEC;
	int rxp0 = -1, rxb0 = -1, rxp1 = -1, txp1 = -1, dev_rxp = -1;

	(void)state;
	for (uint32_t i = 0; i < S.n; i++) {
		v[i] = 5000 + i;
		if (!strcmp(S.names[i], "rx_queue_0_packets"))
			rxp0 = (int)i;
		else if (!strcmp(S.names[i], "rx_queue_0_bytes"))
			rxb0 = (int)i;
		else if (!strcmp(S.names[i], "rx_queue_1_packets"))
			rxp1 = (int)i;
		else if (!strcmp(S.names[i], "tx_queue_1_packets"))
			txp1 = (int)i;
		else if (!strcmp(S.names[i], "rx_packets"))
			dev_rxp = (int)i;
	}
	assert_true(rxp0 >= 0 && rxb0 >= 0 && rxp1 >= 0 && txp1 >= 0 && dev_rxp >= 0);
	S.vals = v;
	memset(&snap, 0, sizeof(snap));
	d = lr_drvstats_open(IFNAME, &F.io);
	assert_non_null(d);
	lr_drvstats_read(d, false, sec, 0, &snap);	/* the first dump: a base only */
	assert_int_equal(snap.n_queues, 0);
	v[rxp0] += 9000;
	v[rxb0] += 9000 * 1500;
	v[rxp1] += 1000;
	v[txp1] += 7;
	v[dev_rxp] += 10000;
	lr_drvstats_read(d, true, 2 * sec, sec, &snap);
	assert_int_equal(snap.queue_source, LR_QSRC_ETHTOOL);
	assert_int_equal(snap.n_queues, 2);	/* the fixture names queues 0 and 1 */
	assert_int_equal(snap.queues[0].queue, 0);
	assert_int_equal(snap.queues[0].rx_packets, 9000);
	assert_int_equal(snap.queues[0].rx_bytes, 9000 * 1500);
	assert_true(snap.queues[0].rx_pps > 8999.9 && snap.queues[0].rx_pps < 9000.1);
	assert_int_equal(snap.queues[0].tx_packets, 0);
	assert_true(snap.queues[0].valid & LR_QV_TX_PACKETS);	/* known, and zero */
	assert_int_equal(snap.queues[1].rx_packets, 1000);
	assert_int_equal(snap.queues[1].tx_packets, 7);
	/* the queues together: what the device-level counter says, split 90/10 */
	assert_int_equal(snap.queues[0].rx_packets + snap.queues[1].rx_packets, 10000);
	lr_drvstats_close(d);
	S.vals = NULL;
}

/* virtio_net's real names (tests/fixtures/ethtool/virtio_net.txt): rx_drops is the device's
 * total and rx0_drops, rx1_drops its queues. A second in which queue 0 dropped 1000 and queue 1
 * 500 (and the total, as the driver sums them, 1500) is 1500 drops on the device in nic_drop,
 * the CSV column and the overview's DROP/s: the breakdown is not added to its own total. */
static void test_queue_breakdown_not_counted_twice(void **state)
{
	static uint64_t v[MAX_NAMES];
	uint64_t delta[LR_M__COUNT] = {0};
	struct lr_drvstats *d;
	struct lr_iface_snap snap;
	FILE *f = fopen("tests/fixtures/ethtool/virtio_net.txt", "r");
	char line[256];
	int total = -1, q0 = -1, q1 = -1;

	(void)state;
	assert_non_null(f);
	S.n = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#')
			add_name(line);
	}
	fclose(f);
	S.driver = "virtio_net";
	for (uint32_t i = 0; i < S.n; i++) {
		v[i] = 100 + i;
		if (!strcmp(S.names[i], "rx_drops"))
			total = (int)i;
		else if (!strcmp(S.names[i], "rx0_drops"))
			q0 = (int)i;
		else if (!strcmp(S.names[i], "rx1_drops"))
			q1 = (int)i;
	}
	assert_true(total >= 0 && q0 >= 0 && q1 >= 0);
	S.vals = v;
	memset(&snap, 0, sizeof(snap));
	d = lr_drvstats_open(IFNAME, &F.io);
	assert_non_null(d);
	lr_drvstats_read(d, false, LR_NSEC_PER_SEC, 0, &snap);	/* the base */
	v[q0] += 1000;
	v[q1] += 500;
	v[total] += 1500;
	lr_drvstats_read(d, true, 2 * LR_NSEC_PER_SEC, LR_NSEC_PER_SEC, &snap);
	assert_true(lr_drvstats_sums(d, delta) & LR_M_BIT(LR_M_NIC_DROP));
	assert_int_equal(delta[LR_M_NIC_DROP], 1500);
	lr_drvstats_close(d);
	S.vals = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_open_reads_names_and_values, setup),
		cmocka_unit_test_setup(test_steady_state_reads, setup),
		cmocka_unit_test_setup(test_count_grows_and_shrinks, setup),
		cmocka_unit_test_setup(test_count_changes_between_calls, setup),
		cmocka_unit_test_setup(test_count_outgrows_buffer, setup),
		cmocka_unit_test_setup(test_no_sset_info_uses_drvinfo_count, setup),
		cmocka_unit_test_setup(test_device_without_stats, setup),
		cmocka_unit_test_setup(test_eperm_is_reported_not_fatal, setup),
		cmocka_unit_test_setup(test_missing_interface, setup),
		cmocka_unit_test_setup(test_glinksettings_handshake, setup),
		cmocka_unit_test_setup(test_gset_fallback, setup),
		cmocka_unit_test_setup(test_unknown_speed, setup),
		cmocka_unit_test_setup(test_features, setup),
		cmocka_unit_test_setup(test_full_length_strings, setup),
		cmocka_unit_test_setup(test_queues_from_names, setup),
		cmocka_unit_test_setup(test_queue_breakdown_not_counted_twice, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
