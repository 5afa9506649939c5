#!/usr/bin/env python3
"""Generates a long recording for `linerate --report` (issue 14's bench): IFACES interfaces at
INTERVAL seconds and CPUS CPUs at CPU_INTERVAL seconds for SECONDS, in linerate's CSV formats,
with a diurnal load, noise and one spike per interface. Usage:
  bench/report_day.py DIR [SECONDS=86400] [INTERVAL=0.1] [IFACES=8] [CPUS=64] [CPU_INTERVAL=0.1]
Writes DIR/if.csv and DIR/cpu.csv and prints each interface's peak rx_bps (the report's table
must show exactly these)."""
import math, random, sys

d = sys.argv[1]
secs = float(sys.argv[2]) if len(sys.argv) > 2 else 86400
iv = float(sys.argv[3]) if len(sys.argv) > 3 else 0.1
nif = int(sys.argv[4]) if len(sys.argv) > 4 else 8
ncpu = int(sys.argv[5]) if len(sys.argv) > 5 else 64
civ = float(sys.argv[6]) if len(sys.argv) > 6 else iv
t0 = 1800000000.0
rnd = random.Random(14)
n = int(secs / iv)
spike = {i: rnd.randrange(n) for i in range(nif)}
peak = [0.0] * nif
with open(d + "/if.csv", "w") as f:
    f.write("time,elapsed,iface,interval,rx_bytes,tx_bytes,rx_packets,tx_packets,rx_bps,tx_bps,"
            "rx_pps,tx_pps,rx_dropped,tx_dropped,rx_errors,tx_errors,rx_fifo,rx_missed,rx_over,"
            "nic_fifo,nic_drop,softirq_max_pct,softirq_cpu,link_mbps,mtu,wire_util_pct\n")
    out = []
    for k in range(1, n + 1):
        e = k * iv
        load = 0.5 + 0.4 * math.sin(2 * math.pi * e / 86400)
        for i in range(nif):
            rx = int(1.25e9 * iv * load * (0.9 + 0.2 * rnd.random()))
            if k == spike[i]:
                rx = int(1.24e9 * iv)
            tx = rx // 20
            rp, tp = rx // 1500, tx // 100
            miss = 1 if rnd.random() < 0.001 else 0
            rbps = rx * 8 / iv
            peak[i] = max(peak[i], round(rbps, 1))
            out.append("%.6f,%.6f,eth%d,%.6f,%d,%d,%d,%d,%.1f,%.1f,%.1f,%.1f,0,0,0,0,0,%d,0,0,0,"
                       "%.1f,%d,10000,9000,%.2f\n" % (t0 + e, e, i, iv, rx, tx, rp, tp, rbps,
                       tx * 8 / iv, rp / iv, tp / iv, miss, 30 * load, i,
                       (rx + 24 * rp) * 8 / iv / 1e10 * 100))
        if len(out) > 100000:
            f.write("".join(out)); out = []
    f.write("".join(out))
with open(d + "/cpu.csv", "w") as f:
    f.write("time,elapsed,cpu,interval,user_pct,system_pct,irq_pct,softirq_pct,idle_pct,"
            "net_rx_per_s,net_tx_per_s,softnet_processed_per_s,softnet_dropped_per_s,"
            "softnet_squeezed_per_s,steal_pct\n")
    out = []
    for k in range(1, int(secs / civ) + 1):
        e = k * civ
        load = 0.5 + 0.4 * math.sin(2 * math.pi * e / 86400)
        for c in range(ncpu):
            si = min(100.0, (60 if c < 8 else 5) * load * (0.8 + 0.4 * rnd.random()))
            out.append("%.6f,%.6f,%d,%.6f,5.00,5.00,0.00,%.2f,%.2f,1000.0,10.0,1000.0,0.0,0.0,"
                       "0.00\n" % (t0 + e, e, c, civ, si, 90 - si if si < 90 else 0))
        if len(out) > 100000:
            f.write("".join(out)); out = []
    f.write("".join(out))
for i in range(nif):
    print("eth%d %.1f" % (i, peak[i]))
