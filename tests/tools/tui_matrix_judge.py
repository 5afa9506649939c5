#!/usr/bin/env python3
"""Judges what tests/tui/matrix.sh sampled while a matrix ran in the dashboard.

live rates|cpu FILE: FILE holds samples ("@ <epoch s>", /proc/stat's cpuN lines, "bytes <rx>
<tx>" of the test veth from sysfs, then the 80x24 pane). Only samples whose pane shows case 1
(-t 2) running for at most 1.6 s count: its data flowing throughout. rates: the mean of the
interface pane's rx and tx rates (samples 2..n: each shows the interval before it) against
the kernel's byte counters over the first to the last sample, 0.5x-2x. cpu: the CPU pane's
busy % of the CPUs it shows against /proc/stat's busy (user, nice, system, irq, softirq) of
the same CPUs between the sample and the one before, means within 30 points.

eta rise|falls|near FILE: lines "<epoch s> <done> <running case> <ETA s>" and a last
"<epoch s> end" (the first sample whose pane said the grid ended); the running case is "N-"
while its test has not begun (the pane names the next case while the link settles after the
one before). rise: while a case runs its ETA never shows more than the lowest shown earlier in
that case (whole seconds of a value that only falls; between cases a new measure of a case's
length may raise it). falls: the last sample's ETA is below the first's. near: each ETA within
50 % (at least 1.5 s) of the wall-clock time that remained until the end.

Prints the figures on one line; exit 0 held, 1 not, 3 too few samples (the caller fails: the
samples are chosen by what the pane itself shows, a figure of linerate's, never a witness to
skip on).
"""
import re
import sys

BAR = "\u2502"
UNIT = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def parse_live(path):
    samples = []
    for block in open(path, encoding="utf-8").read().split("@ ")[1:]:
        lines = block.splitlines()
        s = {"t": float(lines[0]), "stat": {}, "pane": [], "cpus": {}}
        for ln in lines[1:]:
            m = re.match(r"cpu(\d+) (.*)", ln)
            if m and not s["pane"]:
                v = [int(x) for x in m.group(2).split()[:8]]
                s["stat"][int(m.group(1))] = (sum(v), v[0] + v[1] + v[2] + v[5] + v[6])
            elif ln.startswith("bytes ") and not s["pane"]:
                s["rx"], s["tx"] = (int(x) for x in ln.split()[1:3])
            else:
                s["pane"].append(ln)
        # case 1's test sending: its data began (the pane counts seconds from then) and its
        # 2 s are not over (the pane is up to an interval old)
        run = [float(m.group(1)) for m in
               (re.match(r"^ *1 P=1 +running +([0-9.]+) s", ln) for ln in s["pane"]) if m]
        if not run or run[0] > 1.6:
            continue
        in_cpu = False
        for ln in s["pane"]:
            m = re.match(r"^ (rx|tx) ([0-9.]+) ([kMGT]?)b/s ", ln)
            if m:
                s["pane_" + m.group(1)] = float(m.group(2)) * UNIT[m.group(3)]
            if re.search(r"CPU \u2500", ln):
                in_cpu = True
            elif re.match(r"^ Matrix ", ln):
                in_cpu = False
            elif in_cpu and BAR in ln:
                m = re.match(r"^ *(\d+)\*? .*?(\d+)% +\S+ +\S+ +\S+ *$", ln.split(BAR)[-1])
                if m:
                    s["cpus"][int(m.group(1))] = float(m.group(2))
        samples.append(s)
    return samples


def judge_rates(samples):
    a, b = samples[0], samples[-1]
    dt = b["t"] - a["t"]
    ok, out = True, []
    for d in ("rx", "tx"):
        got = [s.get("pane_" + d, -1.0) for s in samples[1:]]
        pane = sum(got) / len(got)
        kern = (b[d] - a[d]) * 8 / dt
        ratio = pane / kern if kern > 0 else 0
        out.append("%s pane %.3g b/s, kernel %.3g b/s (x%.2f)" % (d, pane, kern, ratio))
        ok = ok and min(got) >= 0 and kern > 0 and 0.5 <= ratio <= 2
    print("%s over %.2f s" % ("; ".join(out), dt))
    return ok


def judge_cpu(samples):
    pane = kern = 0.0
    n = 0
    for p, s in zip(samples, samples[1:]):
        for cpu, busy in s["cpus"].items():
            if cpu not in p["stat"] or cpu not in s["stat"]:
                continue
            tot = s["stat"][cpu][0] - p["stat"][cpu][0]
            pane += busy
            kern += 100.0 * (s["stat"][cpu][1] - p["stat"][cpu][1]) / tot if tot > 0 else 0
            n += 1
    if n == 0 or any(not s["cpus"] for s in samples):
        print("a sample without CPU rows: %s" % [sorted(s["cpus"]) for s in samples])
        return False
    print("%d CPU readings: pane mean busy %.0f%%, /proc/stat %.0f%%" % (n, pane / n, kern / n))
    return abs(pane - kern) / n <= 30


def judge_eta(path, what):
    rows, end = [], None
    for ln in open(path, encoding="utf-8"):
        f = ln.split()
        if len(f) == 2 and f[1] == "end":
            end = float(f[0])
            break
        if len(f) == 4:
            rows.append((float(f[0]), int(f[1]), f[2], float(f[3])))
    if end is None or len(rows) < 3:
        print("%d samples, end %s" % (len(rows), "seen" if end else "never seen"))
        return None
    if what == "rise":
        worst, where, low = 0.0, "", {}
        for t, done, case, eta in rows:
            if case.endswith("-"):	# between cases: the first measured case may raise it
                continue
            if case in low and eta - low[case] > worst:
                worst, where = eta - low[case], "case %s at %.1f s" % (case, t - rows[0][0])
            low[case] = min(low.get(case, eta), eta)
        print("largest rise within a case %.0f s %s(%d samples, %d cases)"
              % (worst, where and "(" + where + ") ", len(rows), len(low)))
        return worst < 1
    if what == "falls":
        (t0, _, _, e0), (t1, _, _, e1) = rows[0], rows[-1]
        print("ETA %.0f s -> %.0f s over %.1f s of wall clock" % (e0, e1, t1 - t0))
        return e1 < e0
    bad = []
    for t, done, case, eta in rows:
        left = end - t
        if abs(eta - left) > max(0.5 * left, 1.5):
            bad.append("ETA %.0f s with %.1f s left" % (eta, left))
    t, _, _, eta = rows[0]
    print("first: ETA %.0f s with %.1f s left; %d samples, %d off%s"
          % (eta, end - t, len(rows), len(bad), ": " + ", ".join(bad[:4]) if bad else ""))
    return not bad


def main():
    mode, what, path = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "live":
        samples = parse_live(path)
        if len(samples) < 3:
            print("only %d samples inside case 1" % len(samples))
            return 3
        ok = judge_rates(samples) if what == "rates" else judge_cpu(samples)
    else:
        ok = judge_eta(path, what)
        if ok is None:
            return 3
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
