// SPDX-License-Identifier: GPL-2.0-or-later
/* A scripted NIC driver behind fake_sysio, and the interface table over it; see fake_driver.h. */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/fake_driver.h"
#include "linerate/collect/metrics.h"
#include "linerate/sample/iftable.h"

void fake_driver_load(struct fake_driver *d, const char *fixture, const char *driver,
		      const char *ifname)
{
	char path[256], line[512];
	FILE *f;

	memset(d, 0, sizeof(*d));
	d->driver = driver;
	d->ifname = ifname;
	snprintf(path, sizeof(path), FIXTURES "/ethtool/%s.tsv", fixture);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s (tests run from the repository top)", path);
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *cat, *end;

		if (!tab)
			continue;
		*tab = '\0';
		cat = tab + 1;
		end = strchr(cat, '\t');
		if (end)
			*end = '\0';
		assert_true(d->n < FAKE_DRV_MAX);
		assert_true(strlen(line) < FAKE_DRV_NAME && strlen(cat) < sizeof(d->cat[0]));
		strcpy(d->names[d->n], line);
		strcpy(d->cat[d->n], cat);
		d->n++;
	}
	fclose(f);
	assert_true(d->n > 0);
}

uint32_t fake_driver_find(const struct fake_driver *d, const char *name)
{
	for (uint32_t i = 0; i < d->n; i++)
		if (!strcmp(d->names[i], name))
			return i;
	fail_msg("the fixture has no counter '%s'", name);
	return 0;
}

int fake_driver_ioctl(void *arg, unsigned long req, void *data)
{
	struct fake_driver *d = arg;
	struct ifreq *ifr = data;
	uint32_t cmd;

	if (req != SIOCETHTOOL)
		return -ENOTTY;
	if (strcmp(ifr->ifr_name, d->ifname))
		return -ENODEV;
	memcpy(&cmd, ifr->ifr_data, sizeof(cmd));
	switch (cmd) {
	case ETHTOOL_GDRVINFO: {
		struct ethtool_drvinfo *di = (void *)ifr->ifr_data;

		memset(di, 0, sizeof(*di));
		di->cmd = cmd;
		snprintf(di->driver, sizeof(di->driver), "%s", d->driver);
		di->n_stats = d->n;
		return 0;
	}
	case ETHTOOL_GSSET_INFO: {
		struct ethtool_sset_info *si = (void *)ifr->ifr_data;
		uint64_t asked = si->sset_mask;

		si->sset_mask = 0;
		if (asked & (1ULL << ETH_SS_STATS)) {
			si->sset_mask = 1ULL << ETH_SS_STATS;
			si->data[0] = d->n;
		}
		return 0;
	}
	case ETHTOOL_GSTRINGS: {
		struct ethtool_gstrings *gs = (void *)ifr->ifr_data;

		if (gs->string_set != ETH_SS_STATS)
			return -EOPNOTSUPP;
		gs->len = d->n;
		memset(gs->data, 0, (size_t)d->n * ETH_GSTRING_LEN);
		for (uint32_t i = 0; i < d->n; i++)
			memcpy(gs->data + (size_t)i * ETH_GSTRING_LEN, d->names[i],
			       strlen(d->names[i]));
		return 0;
	}
	case ETHTOOL_GSTATS: {
		struct ethtool_stats *st = (void *)ifr->ifr_data;

		st->n_stats = d->n;
		memcpy(st->data, d->vals, (size_t)d->n * sizeof(d->vals[0]));
		return 0;
	}
	default:
		return -EOPNOTSUPP;
	}
}

struct drv_run *drv_run_open(const char *fixture, const char *driver, const char *ifname)
{
	struct drv_run *r = calloc(1, sizeof(*r));
	struct lr_iftable_opts o = {0};

	assert_non_null(r);
	fake_driver_load(&r->drv, fixture, driver, ifname);
	fake_sysio_init(&r->io, FIXTURES "/this-host");
	r->io.ioctl_cb = fake_driver_ioctl;
	r->io.ioctl_arg = &r->drv;
	o.io = &r->io.io;
	o.ethtool = true;
	o.only = ifname;
	assert_int_equal(lr_iftable_open(&r->t, &o), 0);
	lr_snapshot_init(&r->snap);
	r->now_ns = 1000 * LR_NSEC_PER_SEC;
	return r;
}

const struct lr_snapshot *drv_run_tick(struct drv_run *r, uint64_t dt_ns)
{
	uint64_t v[LR_M__COUNT] = {0};
	uint64_t valid = LR_M_BIT(LR_M_RX_BYTES) | LR_M_BIT(LR_M_RX_PACKETS);
	bool first = r->ticks++ == 0;

	r->now_ns += dt_ns;
	v[LR_M_RX_BYTES] = r->rx_bytes;
	v[LR_M_RX_PACKETS] = r->rx_packets;
	assert_int_equal(lr_iftable_counters_by_name(r->t, r->drv.ifname, v, valid), 0);
	assert_int_equal(lr_iftable_finish(r->t, r->now_ns, first ? 0 : dt_ns, first, &r->snap), 0);
	r->snap.mono_ns = r->now_ns;
	r->snap.interval_ns = first ? 0 : dt_ns;
	assert_int_equal(r->snap.n_ifaces, 1);
	return &r->snap;
}

void drv_run_close(struct drv_run *r)
{
	if (!r)
		return;
	r->snap.ifaces = NULL;	/* views into the table */
	r->snap.n_ifaces = 0;
	lr_snapshot_free(&r->snap);
	lr_iftable_close(r->t);
	free(r);
}
