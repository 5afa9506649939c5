// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sar-style text for headless runs on a terminal: rates as plain numbers in fixed columns so
 * that a person can read them and awk can cut them, their unit in the header as sar's (bit
 * rates in Mbit/s with two decimals, as sar gives kB/s: the CSV keeps raw bit/s); each tick
 * stamped to the interval's precision (-i 0.5: 12:00:00.5, never the same second twice); "-"
 * where a counter is unknown.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "linerate/present/runsum.h"
#include "linerate/present/sar_text.h"
#include "linerate/present/view.h"
#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"

#define HEADER "%-11s %-15s %12s %12s %10s %10s %9s %9s %7s\n"
#define ROW    "%-11s %-15s %12s %12s %10s %10s %9s %9s %7s\n"

/* v with decimals places, "-" when unknown. */
static void num(char *buf, size_t len, double v, int decimals)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", decimals, v);
}

/* HH:MM:SS of a wall-clock time, with the decimals an interval below a second needs. */
static void stamp(char *buf, size_t len, uint64_t real_ns, uint64_t interval_ns)
{
	time_t t = (time_t)(real_ns / 1000000000ULL);
	uint64_t frac = real_ns % 1000000000ULL;
	int decimals = interval_ns >= 1000000000ULL ? 0 : interval_ns >= 100000000ULL ? 1 : 2;
	struct tm tm;
	size_t n;

	localtime_r(&t, &tm);
	n = strftime(buf, len, "%H:%M:%S", &tm);
	if (decimals == 1)
		snprintf(buf + n, len - n, ".%01u", (unsigned)(frac / 100000000ULL));
	else if (decimals == 2)
		snprintf(buf + n, len - n, ".%02u", (unsigned)(frac / 10000000ULL));
}

/* % of the line rate over the busier direction, with the 24 bytes per frame a counter never
 * sees (preamble, FCS, gap), as the CSV's wire_util_pct; -1 unknown or no line rate (mbps
 * from lr_ifrate_line_mbps: a veth's nominal speed is none). */
static double util(double rx_Bps, double tx_Bps, double rx_pps, double tx_pps, int64_t mbps)
{
	double rx, tx;

	if (mbps <= 0 || rx_Bps < 0 || tx_Bps < 0 || rx_pps < 0 || tx_pps < 0)
		return -1;
	rx = (rx_Bps + 24 * rx_pps) * 8;
	tx = (tx_Bps + 24 * tx_pps) * 8;
	return 100.0 * (rx > tx ? rx : tx) / ((double)mbps * 1e6);
}

static void row(FILE *f, const char *when, const char *name, double rx_bps, double tx_bps,
		double rx_pps, double tx_pps, double drops, double fifo, double pct)
{
	char c[7][24];

	num(c[0], sizeof(c[0]), rx_bps < 0 ? -1 : rx_bps / 1e6, 2);
	num(c[1], sizeof(c[1]), tx_bps < 0 ? -1 : tx_bps / 1e6, 2);
	num(c[2], sizeof(c[2]), rx_pps, 1);
	num(c[3], sizeof(c[3]), tx_pps, 1);
	num(c[4], sizeof(c[4]), drops, 1);
	num(c[5], sizeof(c[5]), fifo, 1);
	num(c[6], sizeof(c[6]), pct, 2);
	fprintf(f, ROW, when, name, c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
}

static void header(FILE *f, const char *when)
{
	fprintf(f, HEADER, when, "IFACE", "rxMbit/s", "txMbit/s", "rxpck/s", "txpck/s", "drop/s",
		"fifo/s", "%util");
}

void lr_sar_print_tick(FILE *f, const struct lr_snapshot *s)
{
	char when[24];

	stamp(when, sizeof(when), s->real_ns,
	      s->target_interval_ns ? s->target_interval_ns : s->interval_ns);
	fputc('\n', f);
	header(f, when);
	for (size_t i = 0; i < s->n_ifaces; i++) {
		const struct lr_iface_snap *ifs = &s->ifaces[i];
		double rxB = lr_ifrate_per_s(ifs, LR_M_RX_BYTES), txB = lr_ifrate_per_s(ifs, LR_M_TX_BYTES);
		double rxp = lr_ifrate_per_s(ifs, LR_M_RX_PACKETS);
		double txp = lr_ifrate_per_s(ifs, LR_M_TX_PACKETS);

		row(f, when, ifs->name, rxB < 0 ? -1 : rxB * 8, txB < 0 ? -1 : txB * 8, rxp, txp,
		    lr_ifrate_drops_per_s(ifs), lr_ifrate_fifo_per_s(ifs),
		    util(rxB, txB, rxp, txp, lr_ifrate_line_mbps(ifs)));
	}
	fflush(f);
}

void lr_sar_print_average(FILE *f, const struct lr_runsum *rs)
{
	fputc('\n', f);
	header(f, "Average:");
	for (size_t i = 0; i < rs->n_ifs; i++) {
		const struct lr_runsum_iface *ri = &rs->ifs[i];
		double rxB = lr_runsum_rate(ri, LR_RS_RX_BYTES), txB = lr_runsum_rate(ri, LR_RS_TX_BYTES);
		double rxp = lr_runsum_rate(ri, LR_RS_RX_PACKETS);
		double txp = lr_runsum_rate(ri, LR_RS_TX_PACKETS);

		row(f, "Average:", ri->name, rxB < 0 ? -1 : rxB * 8, txB < 0 ? -1 : txB * 8, rxp, txp,
		    lr_runsum_rate(ri, LR_RS_DROPS), lr_runsum_rate(ri, LR_RS_FIFO),
		    util(rxB, txB, rxp, txp, ri->line_mbps));
	}
	fflush(f);
}
