/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A NIC's SIOCETHTOOL answers as the kernel gives them, through fake_sysio's ioctl_cb, for the
 * ethtool collector's tests (test_ethtool.c) and the driver statistics built on it
 * (test_drvstats.c): names from real drivers' lists, counts that change at runtime, refused
 * calls, GLINKSETTINGS and GSET, and GSTATS/GSTRINGS written the way copy_to_user writes
 * (memory we may not write is EFAULT). */
#ifndef LINERATE_TEST_FAKE_ETHTOOL_H
#define LINERATE_TEST_FAKE_ETHTOOL_H

#include <linux/ethtool.h>
#include <stdbool.h>
#include <stdint.h>

#include "fakes/fake_sysio.h"

#define FAKE_ETH_MAX_NAMES 1024
#define FAKE_ETH_IFNAME	   "eth7"

struct fake_eth {
	/* the device as the kernel sees it now */
	char names[FAKE_ETH_MAX_NAMES][ETH_GSTRING_LEN];
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

extern struct fake_eth fake_eth;		/* the device the ioctls answer for */
extern struct fake_sysio fake_eth_sys;	/* its io: pass &fake_eth_sys.io */
/* ixgbe's 104 names (tests/fixtures/ethtool/ixgbe.txt), as fake_eth_setup loads them */
extern char fake_eth_ixgbe[FAKE_ETH_MAX_NAMES][ETH_GSTRING_LEN];
extern uint32_t fake_eth_n_ixgbe;

/* One more counter name at the end of the device's list. */
void fake_eth_add_name(const char *name);
/* Queue q's four counters (tx/rx packets and bytes). */
void fake_eth_add_queue(unsigned q);
/* cmocka setup: an ixgbe at 10G with ixgbe's names, values base + index, rings 512 of 4096. */
int fake_eth_setup(void **state);

#endif
