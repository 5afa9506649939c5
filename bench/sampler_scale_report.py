#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/sampler_scale_report.py RUNS.tsv SVG DATE NPROC LOAD REV REPS: the "scale" section of
bench/RESULTS.md (markdown on stdout) and a log-log plot (SVG) from bench/sampler_scale.sh's runs
(bin, cpus, ifaces, round, mean_us, median_us, max_us, ticks per line). A cell's figure is the
median over the rounds of each round's mean CPU per tick; the range beside it is the rounds'
lowest and highest mean."""
import math
import os
import sys

runs, svg, date, nproc, load, rev, reps = sys.argv[1:8]
cells = {}
for line in open(runs):
    b, c, i, r, mean, med, mx, ticks = line.split("\t")
    cells.setdefault((b, int(c), int(i)), []).append(float(mean))
bins = sorted({k[0] for k in cells}, reverse=True)  # "new" first, then "base"
cpus = sorted({k[1] for k in cells})
ifs = sorted({k[2] for k in cells})


def med(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def fit(b):
    """Least-squares slope of log(us) against log(cpus x interfaces)."""
    pts = [(math.log(c * i), math.log(med(cells[(b, c, i)]))) for c in cpus for i in ifs
           if (b, c, i) in cells]
    n = len(pts)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx else float("nan")


label = {"new": "this build", "base": "before (SCALE_BASE)"}
out = []
out.append("### Sampler CPU per tick as the host grows (issue 33; bench/sampler_scale.sh)")
out.append("")
out.append("%s, %s vCPUs, load average %s at the end (other work on the machine shows here); "
           "linerate %s. Each cell: `bench/gen_bigtree.py CPUS IFS+1 DIR auto` (IFS interfaces with one "
           "MSI-X vector per queue per CPU up to 64, their msi_irqs and effective_affinity_list, plus lo; "
           "/proc/interrupts is 45 MB at 1024 x 64), then bench/sampler_scale.c: the real sampler on the "
           "tree (`--procfs`/`--sysfs`, the /proc/net/dev source) ticked at 0.1 s on its own clock for two "
           "whole IRQ-map cycles (IFS+1 interfaces one per tick, then the 5 s pause), each tick timed as "
           "thread CPU time. Figure: median over %s rounds of each round's mean µs per tick (lowest..highest "
           "round)%s." % (date, nproc, load, rev, reps,
                          "; both builds timed in the same rounds, alternating which goes first"
                          if len(bins) > 1 else ""))
out.append("")
for b in bins:
    out.append("**%s**: CPU µs per tick (%% of one core at -i 0.1)" % label[b])
    out.append("")
    out.append("| CPUs | " + " | ".join("%d interface%s" % (i, "" if i == 1 else "s") for i in ifs) + " |")
    out.append("|---:|" + "---:|" * len(ifs))
    for c in cpus:
        row = []
        for i in ifs:
            v = cells.get((b, c, i))
            if not v:
                row.append("-")
                continue
            m = med(v)
            row.append("%.0f (%.0f..%.0f; %.2f %%)" % (m, min(v), max(v), m / 1e5 * 100))
        out.append("| %d | %s |" % (c, " | ".join(row)))
    out.append("")
    out.append("Growth: least-squares slope of log(µs per tick) on log(CPUs × interfaces) over the %d cells: "
               "**%.2f** (1.00 = linear).%s" % (
                   len(cpus) * len(ifs), fit(b),
                   " At %d CPUs x %d interfaces: %.2f %% of one core at -i 0.1 (aim <= 5 %%)." % (
                       cpus[-1], ifs[-1], med(cells[(b, cpus[-1], ifs[-1])]) / 1e3)
                   if (b, cpus[-1], ifs[-1]) in cells else ""))
    out.append("")
if len(bins) > 1:
    out.append("before / this build, per cell: " + "; ".join(
        "%dx%d %.2f" % (c, i, med(cells[("base", c, i)]) / med(cells[("new", c, i)]))
        for c in cpus for i in ifs if ("base", c, i) in cells and ("new", c, i) in cells) + ".")
    out.append("")
out.append("![sampler CPU per tick, log-log](%s)" % os.path.basename(svg))

# The plot: x = CPUs, y = µs per tick, both log; one line per interface count and build.
W, H, L, R, T, B = 640, 420, 70, 150, 30, 50
ys = [med(v) for v in cells.values()] + [5000.0]
ylo, yhi = 10 ** math.floor(math.log10(min(ys))), 10 ** math.ceil(math.log10(max(ys)))
xlo, xhi = cpus[0], cpus[-1]


def X(c):
    return L + (math.log(c) - math.log(xlo)) / (math.log(xhi) - math.log(xlo) or 1) * (W - L - R)


def Y(u):
    return H - B - (math.log(u) - math.log(ylo)) / (math.log(yhi) - math.log(ylo)) * (H - T - B)


col = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
     'font-size="12">' % (W, H), '<rect width="100%" height="100%" fill="white"/>']
d = ylo
while d <= yhi * 1.0001:
    s.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, Y(d), W - R, Y(d)))
    s.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (L - 5, Y(d) + 4, d))
    d *= 10
for c in cpus:
    s.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (X(c), T, X(c), H - B))
    s.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (X(c), H - B + 16, c))
s.append('<text x="%d" y="%d" text-anchor="middle">CPUs (log)</text>' % ((L + W - R) / 2, H - 12))
s.append('<text x="14" y="%d" transform="rotate(-90 14 %d)" text-anchor="middle">CPU µs per tick '
         '(log)</text>' % ((T + H - B) / 2, (T + H - B) / 2))
s.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#888" stroke-dasharray="2,3"/>'
         % (L, Y(5000), W - R, Y(5000)))
s.append('<text x="%d" y="%.1f" fill="#888">5 %% of a core at -i 0.1</text>' % (L + 5, Y(5000) - 4))
k = 0
for b in bins:
    for n, i in enumerate(ifs):
        pts = [(X(c), Y(med(cells[(b, c, i)]))) for c in cpus if (b, c, i) in cells]
        dash = ' stroke-dasharray="6,4"' if b == "base" else ""
        s.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>' % (
            col[n % len(col)], dash, " ".join("%.1f,%.1f" % p for p in pts)))
        for p in pts:
            s.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (p[0], p[1], col[n % len(col)]))
        s.append('<text x="%d" y="%d" fill="%s">%s%d if</text>' % (
            W - R + 5, T + 14 + 16 * k, col[n % len(col)], "before, " if b == "base" else "", i))
        k += 1
s.append("</svg>")
open(svg, "w").write("\n".join(s) + "\n")
print("\n".join(out))
