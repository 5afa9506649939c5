#!/usr/bin/env bash
# Headless without traffic, as a person meets it (issue 21): on a terminal sar's shape (a
# header and aligned rows per tick, an Average block at the end), CSV when piped, and -J the
# run's JSON. The text's Average and the JSON's totals, means and peaks are checked against the CSV the same run
# wrote (whose sums the integration tests hold to the kernel's counters), and each tick's stamp
# against the CSV row's own time: at -i 0.5 to the tenth of a second (issue 28: the same second
# stamped twice), rates in the header's Mbit/s (issue 28: raw bit/s). Loopback only.
. "$(dirname "$0")/../lib.sh"
lr_plan headless_text "text-blocks text-average-vs-csv text-stamps-vs-csv json-totals-vs-csv json-rates-vs-csv piped-is-csv"
command -v script >/dev/null || { lr_skip_plan "script (util-linux) not installed"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan "python3 not installed"; exit 0; }
[ -x "$LR_BIN" ] || { lr_skip_plan "no binary at $LR_BIN (run make)"; exit 0; }
tmp=$(mktemp -d) && lr_cleanup_add "rm -rf $tmp"
port=$((20000 + RANDOM % 20000))

# a loopback load under both runs, so the numbers are not all zero
lr_bg "$LR_BIN" -s -p "$port" >/dev/null 2>&1; spid=$LR_PID
lr_wait_listen "$port" "" 60
lr_bg "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 8 -b 200M >/dev/null 2>&1

TERM=xterm timeout 20 script -qec "$(printf '%q ' "$LR_BIN" --headless -t 2 -i 0.5 -I lo --csv "$tmp/a.csv")" \
	/dev/null </dev/null >"$tmp/text.txt" 2>&1
tr -d '\r' <"$tmp/text.txt" >"$tmp/text"
timeout 20 "$LR_BIN" --headless -t 2 -i 0.5 -I lo -J --csv "$tmp/b.csv" >"$tmp/run.json" 2>"$tmp/json.err"
timeout 20 "$LR_BIN" --headless -t 1 -i 0.5 -I lo 2>/dev/null | head -n 1 >"$tmp/piped"

res=$(python3 - "$tmp/text" "$tmp/a.csv" "$tmp/run.json" "$tmp/b.csv" <<'PY'
import csv, json, sys
text, a_csv, js, b_csv = sys.argv[1:5]
lines = [l for l in open(text).read().split("\n") if l.strip()]
heads = [l for l in lines if "IFACE" in l and "rxMbit/s" in l]
rows = [l.split() for l in lines if l.split()[1:2] == ["lo"]]
ticks = [r for r in rows if r[0] != "Average:"]
avg = [r for r in rows if r[0] == "Average:"]
a = [r for r in csv.DictReader(open(a_csv)) if r["iface"] == "lo"]
ok = len(heads) == len(ticks) + 1 and len(ticks) == len(a) and len(avg) == 1 and \
    all(len(r) == 9 for r in rows)
print(("PASS" if ok else "FAIL") + f" text-blocks: {len(heads)} headers, {len(ticks)} tick rows, {len(a)} CSV rows, {len(avg)} Average")
secs = sum(float(r["interval"]) for r in a)
rx = sum(int(r["rx_bytes"]) for r in a) * 8 / secs
txp = sum(int(r["tx_packets"]) for r in a) / secs
got_rx, got_txp = float(avg[0][2]) * 1e6 if avg else -1, float(avg[0][5]) if avg else -1
# the text gives Mbit/s to 2 decimals (5 kbit/s); the CSV rounds each interval to a microsecond
ok = avg and abs(got_rx - rx) <= 1e-6 * rx + 5000 and abs(got_txp - txp) <= 1e-6 * txp + 0.1 and rx > 0
print(("PASS" if ok else "FAIL") + f" text-average-vs-csv: Average rx {got_rx:.0f} bit/s txpck {got_txp} vs CSV {rx:.0f} {txp:.1f}")
import time
want = [time.strftime("%H:%M:%S", time.localtime(int(float(r["time"])))) + "." +
        str(int(round(float(r["time"]) % 1, 6) * 10)) for r in a]
got = [r[0] for r in ticks]
ok = got == want and len(set(got)) == len(got) and len(got) >= 3
print(("PASS" if ok else "FAIL") + f" text-stamps-vs-csv: text {got} CSV {want}")
try:
    j = json.load(open(js))["linerate_run"]
    lo = [i for i in j["interfaces"] if i["iface"] == "lo"][0]
except Exception as e:
    print(f"FAIL json-totals-vs-csv: {e}"); sys.exit(0)
b = [r for r in csv.DictReader(open(b_csv)) if r["iface"] == "lo"]
sums = {k: sum(int(r[k]) for r in b) for k in ("rx_bytes", "tx_bytes", "rx_packets", "tx_packets")}
ok = all(lo[k] == v for k, v in sums.items()) and sums["rx_bytes"] > 0 and \
    abs(lo["seconds"] - sum(float(r["interval"]) for r in b)) <= 1e-6 * len(b) and len(j["cpus"]) > 0
# (each CSV interval is rounded to a microsecond: their sum is within a microsecond per row)
print(("PASS" if ok else "FAIL") + f" json-totals-vs-csv: JSON {[lo[k] for k in sums]} {lo['seconds']} s, CSV {list(sums.values())} {sum(float(r['interval']) for r in b)} s, {len(j['cpus'])} CPUs")
# the means over the CSV's own seconds, and the peaks are its busiest row (rates to 0.1 there)
bsecs = sum(float(r["interval"]) for r in b)
mean = {d: sums[d + "_bytes"] * 8 / bsecs for d in ("rx", "tx")}
peak = {k: max(float(r[k]) for r in b) for k in ("rx_bps", "tx_bps", "rx_pps", "tx_pps")}
ok = all(abs(lo[d + "_bps_mean"] - mean[d]) <= 2e-6 * len(b) * mean[d] for d in mean) and \
    all(abs(lo[k + "_peak"] - v) <= 0.05 + 1e-9 * v for k, v in peak.items()) and mean["rx"] > 0
print(("PASS" if ok else "FAIL") + f" json-rates-vs-csv: JSON mean {lo['rx_bps_mean']} {lo['tx_bps_mean']}"
      f" peaks {[lo[k + '_peak'] for k in peak]}, CSV mean {mean['rx']:.1f} {mean['tx']:.1f} peaks {list(peak.values())}")
PY
)
while read -r verdict name rest; do
	if [ "$verdict" = PASS ]; then pass "${name%:}"; else fail "${name%:}" "$rest"; fi
	echo "# $name $rest"
done <<<"$res"
check piped-is-csv grep -q '^time,elapsed,iface,interval,' "$tmp/piped"
kill "$spid" 2>/dev/null
lr_summary
