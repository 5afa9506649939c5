#!/usr/bin/env python3
"""scripts/soak_section.py WORK SECONDS RESULTS: the figures of a finished scripts/soak.sh run,
read back from the files it kept in WORK (the /proc samples, the CSVs, the matrix's -J), as the
"soak" section of RESULTS (bench/results_section.py). soak.sh calls it with LR_SOAK_RESULTS set."""
import json
import os
import subprocess
import sys
import time

work, secs, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
warm = max(secs // 5, 20)
top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def samples(name):
    rows = [l.split() for l in open(os.path.join(work, name)).read().splitlines()[1:]]
    return [(int(t), int(r), int(f)) for t, r, f in rows if int(t) >= warm]


def mem_row(label, name):
    s = samples(name)
    if not s:
        return "| %s | no samples |||||" % label
    h = len(s) // 2
    a, b = s[:h] or s, s[h:]
    rng = lambda v: "%d..%d" % (min(v), max(v))
    return "| %s | %d / %d | %s | %s -> %s | %s -> %s | %d |" % (
        label, s[0][1], s[-1][1], rng([x[1] for x in s]), rng([x[1] for x in a]),
        rng([x[1] for x in b]), rng([x[2] for x in a]), rng([x[2] for x in b]), len(s))


def tcp_bytes(name, direction):
    total = 0
    with open(os.path.join(work, name)) as f:
        next(f)
        for line in f:
            c = line.split(",")
            if c[4] == "tcp" and c[3] == direction:
                total += int(float(c[5]))
    return total


rows = open(os.path.join(work, "ends_mx.csv")).read().splitlines()[1:]
failed = sum(1 for r in rows if r.rsplit(",", 1)[-1].startswith("failed"))
kinds = {}
for r in rows:
    c = r.split(",")
    k = "%s %s" % (c[1], {"0": "plain", "1": "-R"}.get(c[4], "--bidir"))
    kinds[k] = kinds.get(k, 0) + 1
mx = json.load(open(os.path.join(work, "ends_mx.json")))["linerate_matrix"]
dur = [x["time_end"] - x["time_start"] for x in mx]
if_rows = sum(1 for _ in open(os.path.join(work, "if.csv"))) - 1
rev = subprocess.run(["git", "-C", top, "describe", "--always", "--dirty"], capture_output=True,
                     text=True).stdout.strip()
load = open("/proc/loadavg").read().split()[:3]
text = """### Soak of both ends (issue 32): scripts/soak.sh %d (make soak)

%s, %d vCPUs, load average %s at the end; linerate %s. Two soaks side by side, each in its own
network namespaces: (1) one headless `linerate -c 127.0.0.1 -b 200M -i 0.01 -t %d` against
`linerate -s -1`, veth churn, two CPU burners for a third of the run; (2) `linerate -s` as the
dashboard (tmux) serving a headless `--matrix 'b=...;u=tcp,udp;R=0,1,bidir' -t 1` client (one
process, the peer view on), a dummy link added and removed every 2 s in the server's namespace.
VmRSS and open fds from /proc: (1) every 5 s, (2) every second; after %d s of warm-up. The ends'
figures move with each test's phase (streams and the peer channel open or not), so their check
compares the later half's peak with the earlier half's (within 5 %%; fds no higher).

| process | RSS kB first / last | RSS kB min..max | RSS kB halves | fds halves | samples |
|---|---:|---:|---|---|---:|
%s
%s
%s

Both ends: %d tests run (%s), %d matrix CSV rows, %d failed, every row with the peer's columns;
start to end of each test (-J) at most %.2f s (bound -t + 8 s). TCP bytes by each side's
--streams-csv: client sent %d, server received %d; server sent %d, client received %d. The long
test's interface CSV: %d rows, every row whole.""" % (
    secs, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.cpu_count(), " ".join(load), rev,
    secs, warm,
    mem_row("(1) sampling client", "mem.txt"), mem_row("(2) server (dashboard)", "mem_srv.txt"),
    mem_row("(2) matrix client", "mem_mx.txt"), len(mx),
    ", ".join("%d %s" % (v, k) for k, v in sorted(kinds.items())), len(rows), failed,
    max(dur or [0]), tcp_bytes("ends_cli_st.csv", "send"), tcp_bytes("ends_srv_st.csv", "recv"),
    tcp_bytes("ends_srv_st.csv", "send"), tcp_bytes("ends_cli_st.csv", "recv"), if_rows)
subprocess.run([sys.executable, os.path.join(top, "bench", "results_section.py"), out, "soak", text],
               check=True)
print(text)
