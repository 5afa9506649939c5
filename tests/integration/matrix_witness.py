#!/usr/bin/env python3
# Witnesses for the matrix tests (matrix_veth.sh, matrix_peer.sh), independent of linerate:
#   sample IFACE OUT SECONDS   the interface's kernel byte counters (sysfs), every 50 ms with
#                              the wall clock, "time rx_bytes tx_bytes" a line (run it in the
#                              test's namespace; it stops by itself after SECONDS)
#   settle SAMPLES JSON INTERVAL
#                              for each case after the first (-J linerate_matrix, its
#                              time_start): the kernel saw the link quiet over the INTERVAL
#                              before it started (below the matrix's quiet threshold: 1 % of
#                              the previous case's received rate, at least 16 KiB/s, rx + tx):
#                              no 50 ms sample above it in the last INTERVAL (less one sample
#                              period) before the start, so it never started while the previous
#                              case's traffic was still arriving; and the sampler saw each case's
#                              own traffic (it watches the right link). Exit 1 when a case broke
#                              it.
#   verdicts CSV OTHER         the verdict of each row in --matrix-csv equals the one in OTHER
#                              (-J's linerate_matrix, or the Markdown table on stdout), and so
#                              does the receiver's bit/s (Mbit/s in the table), the same rows in
#                              the same order
#   kernel OUT SECONDS CSV ROWS PID_B IF_A IF_B
#                              run in the sender's namespace (A): every 20 ms the wall clock, the
#                              rows --matrix-csv holds so far, the receiver's veth IF_B (in the
#                              namespace of process PID_B) rx bytes and packets and both veths'
#                              drop + FIFO counts (/proc/net/dev), A's TCP RetransSegs and B's UDP
#                              InErrors (/proc/net/snmp), one line each; stops ROWS rows on, or
#                              after SECONDS. Case k is what the kernels counted from the first
#                              sample that saw row k-1 to the first that saw row k: a row is
#                              written after its case's last byte arrived and the matrix then
#                              waits for a quiet link before the next case (the sampler runs
#                              SCHED_FIFO when it may, so it reads inside that gap)
#   pace SAMPLES CSV SECONDS PCT
#                              each row's payload on the receiver's veth (its kernel's bytes less
#                              the Ethernet, IP and UDP or TCP+timestamps headers of each packet)
#                              and its receiver's own bit/s within PCT % of -b x streams x SECONDS
#   clean SAMPLES CSV SECONDS [CASE...]
#                              each row (the listed ones) that the kernels saw clean (no drop or
#                              FIFO on either veth, no UDP InErrors at the receiver, retransmits
#                              too few to matter) and that put 95 % of -b on the receiver's veth
#                              says the test reached its own -b, per stream x its streams, and
#                              names no loss but its retransmits; one under 85 % never says -b
#                              was reached. Cleanliness and rate are the kernels', never the
#                              row's own. Exit 3 when the kernels saw no listed row clean
import csv
import json
import os
import re
import sys
import time

QUIET_FLOOR = 16 * 1024  # bytes/s: matrix_run.c's QUIET_FLOOR_BPS
PERIOD = 0.05


def sample(iface, out, seconds):
    base = "/sys/class/net/%s/statistics/" % iface
    end = time.time() + float(seconds)
    nxt = time.time()
    with open(out, "w") as f:
        while time.time() < end:
            t = time.time()
            rx = int(open(base + "rx_bytes").read())
            tx = int(open(base + "tx_bytes").read())
            f.write("%.6f %d %d\n" % (t, rx, tx))
            f.flush()
            # late (a loaded host): the next one a period on, never a burst to catch up
            nxt = max(nxt + PERIOD, time.time())
            time.sleep(max(0.0, nxt - time.time()))


def bytes_at(samples, t):
    """The counter at the last sample at or before t (None before the first)."""
    last = None
    for s in samples:
        if s[0] > t:
            break
        last = s
    return last


def settle(samples_file, json_file, interval):
    interval = float(interval)
    samples = []
    for line in open(samples_file):
        p = line.split()
        if len(p) == 3:
            samples.append((float(p[0]), int(p[1]) + int(p[2])))
    rows = json.load(open(json_file))["linerate_matrix"]
    bad = []
    if len(rows) < 2:
        bad.append("fewer than 2 rows")
    for k, r in enumerate(rows):
        t0, t1 = r.get("time_start"), r.get("time_end")
        if t0 is None or t1 is None:
            bad.append("case %s: no time_start/time_end" % r["case"])
            continue
        # the sampler watched the link: it carried at least the case's payload
        a, b = bytes_at(samples, t0), bytes_at(samples, t1)
        payload = (r["receiver_bps"] or 0) * (r["seconds"] or 0) / 8
        seen = b[1] - a[1] if a and b else -1
        if seen < payload:
            bad.append("case %s: the link carried %d bytes over the case, its payload %.0f"
                       % (r["case"], seen, payload))
        if k == 0:
            continue
        prev = rows[k - 1]
        thr = max((prev["receiver_bps"] or 0) / 8 / 100, QUIET_FLOOR)
        # the samples over [start - interval, start]: from the last one at or before its
        # beginning (a sampler scheduled late still covers the whole interval)
        before = [s for s in samples if s[0] <= t0 - interval]
        inside = before[-1:] + [s for s in samples if t0 - interval < s[0] <= t0]
        # the last sample period that carried more than the threshold, before the start
        busy_end = None
        for s, n in zip(samples, samples[1:]):
            if n[0] > t0:
                break
            if (n[1] - s[1]) / (n[0] - s[0]) > thr:
                busy_end = n[0]
        gap = t0 - busy_end if busy_end else float("inf")
        if prev.get("time_end") is not None and t0 < prev["time_end"]:
            bad.append("case %s started %.3f s before case %s ended"
                       % (r["case"], prev["time_end"] - t0, prev["case"]))
        if len(inside) < 2 or inside[-1][0] - inside[0][0] < interval / 2:
            bad.append("case %s: too few samples before it (%d)" % (r["case"], len(inside)))
            continue
        span = inside[-1][0] - inside[0][0]
        rate = (inside[-1][1] - inside[0][1]) / span
        print("    case %s: %.0f B/s on the link over the %.2f s before it (quiet below %.0f),"
              " the last busier 50 ms ended %.3f s before it started"
              % (r["case"], rate, span, thr, gap))
        if rate >= thr:
            bad.append("case %s started with the link carrying %.0f B/s (quiet: below %.0f)"
                       % (r["case"], rate, thr))
        # settled: a whole interval quiet; a sample ends up to one period after the bytes in
        # it, so at least interval - period between the last busy sample and the start
        if gap < interval - PERIOD - 0.005:
            bad.append("case %s started %.3f s after the link last carried %.0f B/s or more"
                       " (settling is a quiet %.2f s)" % (r["case"], gap, thr, interval))
    for b in bad:
        print("    " + b)
    return 1 if bad else 0


def md_rows(path):
    """(case, receiver Mbit/s, verdict) of each row of the Markdown table."""
    out, head = [], None
    for line in open(path):
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.rstrip("\n"))[1:-1]]
        if cells and cells[0] == "Case":
            head = cells
        elif head and re.match(r"^\| [0-9]+ \|", line):
            rx = cells[head.index("Receiver Mbit/s")]
            out.append((cells[0], rx, cells[-1].replace("\\|", "|")))
    return out


def verdicts(csv_file, other):
    rows = list(csv.DictReader(open(csv_file, newline="")))
    if other.endswith(".json"):
        # and the receiver's bit/s, as the CSV writes it
        want = [(r["case"], r["receiver_bps"], r["verdict"]) for r in rows]
        got = [(str(r["case"]), "%.0f" % r["receiver_bps"] if r["receiver_bps"] is not None else "",
                r["verdict"]) for r in json.load(open(other))["linerate_matrix"]]
    else:  # and the receiver's Mbit/s, as the table rounds it
        want = [(r["case"], "%.2f" % (float(r["receiver_bps"]) / 1e6) if r["receiver_bps"] else "-",
                 r["verdict"]) for r in rows]
        got = md_rows(other)
    for w, g in zip(want, got):
        print("    case %s: %s" % (w[0], " | ".join(w[1:])))
        if w != g:
            print("    differs in %s: %r" % (os.path.basename(other), g))
    return 0 if want == got and want else 1


CAPPED = re.compile(r"the test reached its own limit \(-b ([0-9.]+) ([kMG]?)bit/s per stream x ([0-9]+)\)")


def net_dev(path, ifname):
    """(rx_bytes, rx_packets, drops + fifo rx and tx) of ifname in a /proc/net/dev."""
    for line in open(path):
        name, _, rest = line.partition(":")
        if name.strip() == ifname:
            f = [int(x) for x in rest.split()]
            return f[0], f[1], f[3] + f[4] + f[11] + f[12]
    raise KeyError("%s not in %s" % (ifname, path))


def snmp(path, proto, field):
    head = None
    for line in open(path):
        if line.startswith(proto + ":"):
            if head is None:
                head = line.split()
            else:
                return int(line.split()[head.index(field)])
    raise KeyError("%s %s not in %s" % (proto, field, path))


def csv_rows(path):
    try:
        with open(path, "rb") as f:
            return max(f.read().count(b"\n") - 1, 0)
    except OSError:
        return 0


def kernel(out, seconds, csv_file, rows_want, pid_b, if_a, if_b):
    try:  # the reads must fall inside the quiet gap after each row, even on a loaded host
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    except (OSError, AttributeError):
        pass
    end, period, last = time.time() + float(seconds), 0.02, None
    nb = "/proc/%s/net/" % pid_b
    with open(out, "w") as f:
        while time.time() < end:
            t = time.time()
            rows = csv_rows(csv_file)  # first: the counters read after it include that row's case
            rx, pk, db = net_dev(nb + "dev", if_b)
            da = net_dev("/proc/self/net/dev", if_a)[2]
            re_a = snmp("/proc/self/net/snmp", "Tcp", "RetransSegs")
            ie_b = snmp(nb + "snmp", "Udp", "InErrors")
            f.write("%.6f %d %d %d %d %d %d %d\n" % (t, rows, rx, pk, db, da, re_a, ie_b))
            f.flush()
            if last is not None and rows >= int(rows_want):
                break
            if rows >= int(rows_want):
                last = t
            time.sleep(period)


def cases(samples_file, csv_file):
    """Each row of the CSV with what the kernels counted over its case."""
    smp = [[float(x) for x in l.split()] for l in open(samples_file) if len(l.split()) == 8]
    rows = list(csv.DictReader(open(csv_file, newline="")))
    out = []
    for k, r in enumerate(rows, 1):
        a = next((s for s in smp if s[1] >= k - 1), None)
        b = next((s for s in smp if s[1] >= k), None)
        if a is None or b is None:
            out.append((r, None))
            continue
        d = [y - x for x, y in zip(a, b)]
        hdr = 14 + 20 + (8 if r["proto"] == "udp" else 32)
        out.append((r, {"t": d[0], "payload": d[2] - hdr * d[3], "packets": d[3],
                        "drops": d[4] + d[5], "retrans": d[6], "udp_errors": d[7]}))
    return out


def pace(samples_file, csv_file, seconds, pct):
    bad, n = [], 0
    for r, k in cases(samples_file, csv_file):
        n += 1
        target = float(r["bitrate_target"]) * int(r["streams"])
        want = target * float(seconds) / 8
        if k is None:
            bad.append("case %s: the sampler never saw its row" % r["case"])
            continue
        got = k["payload"] / want - 1
        rcv = float(r["receiver_bps"] or 0) / target - 1
        print("    case %s: %s x%s -b %s: the receiver's veth carried %.0f payload bytes (%+.2f %% of "
              "%.0f), its own count %+.2f %%" % (r["case"], r["proto"], r["streams"],
                                                 r["bitrate_target"], k["payload"], 100 * got,
                                                 want, 100 * rcv))
        if abs(got) > float(pct) / 100 or abs(rcv) > float(pct) / 100:
            bad.append("case %s off its target: veth %+.2f %%, receiver %+.2f %%"
                       % (r["case"], 100 * got, 100 * rcv))
    if not n:
        bad.append("no rows")
    for b in bad:
        print("    " + b)
    return 1 if bad else 0


def clean(samples_file, csv_file, seconds, *want):
    """Each listed row (all when none) that the kernels saw clean over its case (no drop or FIFO
    on either veth, no UDP InErrors at the receiver, retransmits under 0.1 % of the payload, as
    the verdict rules) and whose payload on the receiver's veth reached 95 % of -b x streams x
    SECONDS says what a clean paced case says: the test's own -b reached, and no loss but the
    row's retransmits, by number. One whose payload stayed under 85 % (a sender that did not
    get the CPU) must not say -b was reached; in between either may be said. Exit 3 when the
    kernels saw no listed row clean."""
    checked, bad = 0, []
    for r, k in cases(samples_file, csv_file):
        if want and r["case"] not in want:
            continue
        if k is None:
            bad.append("case %s: the sampler never saw its row" % r["case"])
            continue
        dirty = []
        if k["drops"]:
            dirty.append("%d drops/FIFO on the veths" % k["drops"])
        if k["udp_errors"]:
            dirty.append("%d UDP InErrors at the receiver" % k["udp_errors"])
        if k["retrans"] and k["retrans"] * 1448 >= 0.001 * max(k["payload"], 0):
            dirty.append("%d TCP segments retransmitted" % k["retrans"])
        if dirty:
            print("    case %s: the kernels saw %s: its verdict not judged here"
                  % (r["case"], ", ".join(dirty)))
            continue
        checked += 1
        target = float(r["bitrate_target"]) * int(r["streams"])
        ratio = k["payload"] * 8 / (target * float(seconds)) if target > 0 else 0
        v, m = r["verdict"], CAPPED.search(r["verdict"])
        print("    case %s: clean by the kernels (%d retransmitted), payload %.1f %% of -b x %s x %s s"
              % (r["case"], k["retrans"], 100 * ratio, r["streams"], seconds))
        if ratio < 0.85:
            if m:
                bad.append("case %s (-b %s x %s, %.1f %% of it on the wire): says -b was reached: %s"
                           % (r["case"], r["bitrate_target"], r["streams"], 100 * ratio, v))
            continue
        if ratio < 0.95:
            continue
        retr = int(r["retransmits"] or 0)
        scale = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m.group(2)] if m else 0
        loss = "loss: TCP %d segments retransmitted (the senders' count); " % retr if retr else ""
        ok = (m is not None and v.startswith(loss) and (retr or not v.startswith("loss:")) and
              v[len(loss):].startswith("the test reached") and m.group(3) == r["streams"] and
              abs(float(m.group(1)) * scale - float(r["bitrate_target"])) <= 0.005 * float(r["bitrate_target"]))
        if not ok:
            bad.append("case %s (-b %s x %s, clean, %.1f %% of it on the wire): %s"
                       % (r["case"], r["bitrate_target"], r["streams"], 100 * ratio, v))
    for b in bad:
        print("    " + b)
    if not checked and not bad:
        return 3
    return 1 if bad else 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "sample" and len(sys.argv) == 5:
        sample(*sys.argv[2:])
    elif cmd == "settle" and len(sys.argv) == 5:
        sys.exit(settle(*sys.argv[2:]))
    elif cmd == "verdicts" and len(sys.argv) == 4:
        sys.exit(verdicts(*sys.argv[2:]))
    elif cmd == "clean" and len(sys.argv) >= 5:
        sys.exit(clean(*sys.argv[2:]))
    elif cmd == "kernel" and len(sys.argv) == 9:
        kernel(*sys.argv[2:])
    elif cmd == "pace" and len(sys.argv) == 6:
        sys.exit(pace(*sys.argv[2:]))
    else:
        print("usage: matrix_witness.py sample|settle|verdicts|clean|kernel|pace ...",
              file=sys.stderr)
        sys.exit(2)
