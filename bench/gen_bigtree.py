#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A /proc tree of a large host for the scrape bench (bench/scrape_cost.sh): NCPU online CPUs
# and NIF interfaces, in the kernel's formats (fs/proc/stat.c 10 columns, fs/proc/softirqs.c,
# net/core/net-procfs.c dev_seq_show and softnet_seq_show 13 columns, kernel/irq/proc.c with a
# 4-digit IRQ column and one MSI-X vector per queue, 8 queues per ethN). Deterministic synthetic
# values. Usage: gen_bigtree.py NCPU NIF DIR [QUEUES]
# QUEUES (default 8) MSI-X vectors per ethN; "auto": one per CPU up to 64 (bench/sampler_scale.sh),
# and then also the sysfs side of the IRQ map: DIR/sys/class/net/ethN/device/msi_irqs/IRQ and
# DIR/proc/irq/IRQ/effective_affinity_list (each vector on one CPU, spread over the CPUs).
import os
import sys

ncpu, nif, top = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
qarg = sys.argv[4] if len(sys.argv) > 4 else "8"
nq = min(ncpu, 64) if qarg == "auto" else int(qarg)


def w(rel, text):
    path = os.path.join(top, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def cpuvals(c):
    return [100000 + c, 10 * c, 50000 + c, 9000000 + c, 30, 7 * c, 1000 + 2 * c, 0, 0, 0]


agg = [sum(cpuvals(c)[k] for c in range(ncpu)) for k in range(10)]
st = "cpu  " + " ".join(map(str, agg)) + "\n"
st += "".join("cpu%d %s\n" % (c, " ".join(map(str, cpuvals(c)))) for c in range(ncpu))
st += "intr 0\nctxt 123456\nbtime 1700000000\nprocesses 1000\nprocs_running 1\nprocs_blocked 0\nsoftirq 0\n"
w("proc/stat", st)

names = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"]
s = " " * 20 + "".join("CPU%-8d" % c for c in range(ncpu)) + "\n"
for i, n in enumerate(names):
    s += "%12s:" % n + "".join(" %10u" % ((i + 1) * 1000 + 13 * c) for c in range(ncpu)) + "\n"
w("proc/softirqs", s)

w("proc/net/softnet_stat", "".join(
    "%08x %08x %08x 00000000 00000000 00000000 00000000 00000000 00000000 %08x %08x %08x %08x\n"
    % (100000 + c, c % 3, c % 7, 0, 0, c, 0) for c in range(ncpu)))

dev = "Inter-|   Receive                                                |  Transmit\n"
dev += " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
ifnames = ["lo"] + ["eth%d" % i for i in range(nif - 1)]
for k, n in enumerate(ifnames):
    rx = [10 ** 9 * (k + 1), 10 ** 6 * (k + 1), k, 2 * k, k % 3, 0, 0, 5 * k]
    tx = [2 * 10 ** 9 * (k + 1), 2 * 10 ** 6 * (k + 1), 0, k, 0, 0, 0, 0]
    dev += "%6s:%8d %7d %4d %4d %4d %5d %10d %9d %8d %7d %4d %4d %4d %5d %7d %10d\n" % tuple([n] + rx + tx)
w("proc/net/dev", dev)

rows = [" " * 9 + "".join("CPU%-8d" % c for c in range(ncpu)) + "\n"]
zero = " %10d" % 0
nirq = 100
for n in ifnames[1:]:
    for q in range(nq):
        on = nirq % ncpu
        rows.append("%4d:" % nirq + zero * on + " %10d" % 1000 + zero * (ncpu - on - 1))
        rows.append("  IR-PCI-MSIX-0000:3b:00.0 %4d-edge      %s-TxRx-%d\n" % (q, n, q))
        if qarg == "auto":
            w("sys/class/net/%s/device/msi_irqs/%d" % (n, nirq), "msix\n")
            w("proc/irq/%d/effective_affinity_list" % nirq, "%d\n" % on)
        nirq += 1
rows.append(" LOC:" + "".join(" %10d" % (1000 + c) for c in range(ncpu)) + "   Local timer interrupts\n")
w("proc/interrupts", "".join(rows))
