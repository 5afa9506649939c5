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
#   clean CSV [CASE...]        each clean row's verdict (no loss, drop or FIFO, retransmits too
#                              few to matter) says the test reached its own -b, per stream x its
#                              streams, and names no loss but those retransmits; exit 3 when no
#                              row was clean
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


def clean(csv_file, *cases):
    """Each listed row (all when none) that is clean by its witnesses (no datagram lost, no
    drop or FIFO on either end: columns the tests check against the kernels; retransmits
    too few to cost rate, under 0.1 % of the bytes as the verdict rules) says what a clean
    paced case says: the test's own -b reached, and no loss but those retransmits, by number.
    Exit 3 when no row was clean enough to judge."""
    checked, bad = 0, []
    for r in csv.DictReader(open(csv_file, newline="")):
        if cases and r["case"] not in cases:
            continue
        dirty = [c for c in ("lost", "local_drops", "local_fifo", "peer_drops", "peer_fifo")
                 if r[c] not in ("", "0")]
        retr = int(r["retransmits"] or 0)
        moved = float(r["receiver_bps"] or 0) * float(r["seconds"] or 0) / 8
        if retr * 1448 >= 0.001 * moved and retr:
            dirty.append("%d retransmits" % retr)
        if dirty:
            print("    case %s: not clean (%s), its verdict not judged here" % (r["case"], ", ".join(dirty)))
            continue
        checked += 1
        v, m = r["verdict"], CAPPED.search(r["verdict"])
        scale = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m.group(2)] if m else 0
        loss = "loss: TCP %d segments retransmitted (the senders' count); " % retr if retr else ""
        ok = (m is not None and v.startswith(loss) and (retr or not v.startswith("loss:")) and
              v[len(loss):].startswith("the test reached") and m.group(3) == r["streams"] and
              abs(float(m.group(1)) * scale - float(r["bitrate_target"])) <= 0.005 * float(r["bitrate_target"]))
        if not ok:
            bad.append("case %s (-b %s x %s, clean): %s" % (r["case"], r["bitrate_target"], r["streams"], v))
    for b in bad:
        print("    " + b)
    if not checked:
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
    elif cmd == "clean" and len(sys.argv) >= 3:
        sys.exit(clean(*sys.argv[2:]))
    else:
        print("usage: matrix_witness.py sample|settle|verdicts ...", file=sys.stderr)
        sys.exit(2)
