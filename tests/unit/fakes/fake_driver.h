/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A NIC driver as SIOCETHTOOL shows it, behind fake_sysio: the counter names of a real driver's
 * list (tests/fixtures/ethtool/DRIVER.tsv, in `ethtool -S` order) with the category a person
 * gave each there, and values the test sets. drv_run puts it under the real interface table
 * (iftable + drvstats + the classifier), so a test reads the snapshots the sampler publishes
 * while the test moves chosen counters: the fixture's category column and the amounts moved
 * are the witness, none of linerate's own arithmetic. */
#ifndef LINERATE_FAKE_DRIVER_H
#define LINERATE_FAKE_DRIVER_H

#include <stdint.h>

#include "fakes/fake_sysio.h"
#include "linerate/sample/snapshot.h"

struct lr_iftable;

#define FAKE_DRV_MAX 768
#define FAKE_DRV_NAME 32	/* ETH_GSTRING_LEN */

struct fake_driver {
	char names[FAKE_DRV_MAX][FAKE_DRV_NAME];
	char cat[FAKE_DRV_MAX][8];	/* the fixture's category: fifo, drop, error, pause, ... */
	uint64_t vals[FAKE_DRV_MAX];
	uint32_t n;
	const char *driver;	/* what GDRVINFO answers */
	const char *ifname;	/* the only interface it answers for */
};

/* Loads tests/fixtures/ethtool/<fixture>.tsv; every value 0. */
void fake_driver_load(struct fake_driver *d, const char *fixture, const char *driver,
		      const char *ifname);
/* The index of a counter by name; fails the cmocka test when the fixture has none. */
uint32_t fake_driver_find(const struct fake_driver *d, const char *name);
/* fake_sysio's ioctl_cb: GDRVINFO, GSSET_INFO, GSTRINGS and GSTATS; everything else
 * -EOPNOTSUPP (no link settings, rings or features: unknown). arg: the struct fake_driver. */
int fake_driver_ioctl(void *arg, unsigned long req, void *data);

/* One interface, the driver's, in the sampler's interface table, ticked by hand. */
struct drv_run {
	struct fake_sysio io;
	struct fake_driver drv;
	struct lr_iftable *t;
	struct lr_snapshot snap;	/* the last tick's (views into the table) */
	uint64_t now_ns;
	uint64_t rx_bytes, rx_packets;	/* stats64 the interface reports; the test may move them */
	int ticks;
};

/* Heap-allocated (the driver's names are large). */
struct drv_run *drv_run_open(const char *fixture, const char *driver, const char *ifname);
/* One tick dt_ns after the last: reads the driver and publishes the interface into r->snap
 * (mono_ns, interval_ns set). The first tick is a base only. */
const struct lr_snapshot *drv_run_tick(struct drv_run *r, uint64_t dt_ns);
void drv_run_close(struct drv_run *r);

#endif
