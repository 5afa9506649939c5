#!/usr/bin/env bash
# linerate --report on a run recorded here: a `linerate -s` and a headless `linerate -c` on
# loopback (2 s, -b 200M) write the interface, CPU and streams CSVs; the report built from them
# must be well-formed (html.parser and every <svg> as XML), hold no script and no http(s)
# reference, print as peak rx bitrate of lo exactly the largest rx_bps this script reads from
# the CSV itself (and the chart's axis must reach it), and a CSV's bytes as the stream's total;
# the streams CSV's target_bps is the -b given, and the report's target cell too, its achieved
# rate the stream's bytes over the time its rows cover (as the CSV gives them).
# A foreign file, a truncated CSV and two runs in one file exit 2 with one line naming the file
# and line, and leave no report (an older OUT.html stays as it was, no .tmp left).
# report_witness.py recomputes every cell of the interface and CPU summary tables from the CSVs
# by its own reading of the definitions, and checks every time chart's legend names its series
# and rx/tx (drops/FIFO) differ in dash pattern, not in colour only. As root, a second run in
# two namespaces (veth: a link speed, so line-rate % cells) with frames of an unknown EtherType
# injected into this side's veth (the kernel drops each: rx_dropped) gives the drop cells
# something to be wrong about; the kernel's /proc/net/dev count is the witness of the CSV's. That
# run also records its streams (-l 32000, -C a congestion control other than the namespace's
# default): every interface row carries its veth's driver as `ethtool -i` names it (the peer's
# rows the peer's), every stream row the -l and -C given, and the report's facts show them.
# Rendered by Debian's chromium headless when it is installed (one start): the screenshot exists
# and is not blank, and the page printed to PDF is a PDF of a sane page count whose text holds
# every summary cell (the print CSS hides none). No root needed but for the drops run.
source "$(dirname "$0")/../lib.sh"
lr_plan "record: client exit 0" "report: exit 0" "report: well-formed HTML and SVG" \
	"report: no script, no external reference" "report: peak rx bitrate equals the CSV's max" \
	"report: bitrate axis reaches the peak" "report: stream bytes equal the CSV's sum" \
	"report: stream target is the -b, achieved the CSV's bytes over its time" \
	"report: one chart each for bitrate, packets, drops of lo" \
	"foreign file: exit 2, one line naming it" "foreign file: no report, old one kept" \
	"truncated CSV: exit 2 naming the line" "truncated CSV: no report" \
	"two runs in one file: exit 2 naming the second header" \
	"report: every summary cell equals the CSV's" \
	"report: legends name each series, rx/tx differ in dash, the peer's say (peer)" \
	"drops run: recorded in two namespaces" "drops run: the CSV's rx drops are the kernel's" \
	"drops run: every summary cell equals the CSV's, drops and line rate too" \
	"drops run: legends name each series, rx/tx differ in dash, the peer's say (peer)" \
	"drops run: interface rows carry the veth's driver (ethtool -i), the peer's rows the peer's" \
	"drops run: stream rows carry the -l and -C given" \
	"drops run: the report's facts show the driver, -l and congestion control" \
	"chromium: screenshot rendered and not blank" "chromium: printed to a PDF of sane page count" \
	"chromium: the PDF's text holds every summary cell"
if [ ! -x "$LR_BIN" ]; then lr_skip_plan report "$LR_BIN not built"; exit 0; fi
if ! command -v python3 >/dev/null; then lr_skip_plan report "python3 missing"; exit 0; fi

work=$(mktemp -d /tmp/lr-report.XXXXXX)
[ -n "${LR_KEEP:-}" ] && echo "work dir $work" || lr_cleanup_add "rm -rf $work"
port=$((20000 + RANDOM % 20000))

# Drops to report: a run between two namespaces (veth, 10 Gbit/s: line-rate cells), 300 frames
# of an EtherType no protocol takes sent into this side's veth mid-run (each an rx_dropped), 1 s.
drops_run() {
	local u A B IA IB mac d0 d1 ns
	u=$(lr_uniq); A=${u}A B=${u}B IA=${u}a IB=${u}b
	lr_netns_pair "$A" "$B" "$IA" "$IB" 10.206.0.1 10.206.0.2 1500 || return 1
	for ns in "$A" "$B"; do ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1; done
	lr_bg ip netns exec "$B" timeout 30 "$LR_BIN" -s -p "$port" -1 >"$work/drops_server.out" 2>&1
	lr_wait_listen "$port" "$B" || return 1
	mac=$(ip -n "$A" -o link show "$IA" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
	# the burst once the recording has its header and two rows: inside the run, whatever the load
	lr_bg ip netns exec "$B" timeout 10 python3 -c '
import os, socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
frame = bytes.fromhex(sys.argv[2].replace(":", "")) + bytes(6) + b"\x88\xb5" + bytes(46)
while not os.path.exists(sys.argv[3]) or open(sys.argv[3]).read().count("\n") < 3:
    time.sleep(0.01)
for _ in range(300):	# well inside the backlog (netdev_max_backlog, 1000)
    s.send(frame)
' "$IB" "$mac" "$work/drops_if.csv"
	# the witnesses of the facts: ethtool's driver of each end, a -C that is not the default
	cc_default=$(ip netns exec "$A" sysctl -n net.ipv4.tcp_congestion_control)
	cc=$(tr ' ' '\n' </proc/sys/net/ipv4/tcp_available_congestion_control |
		grep -vx "$cc_default" | head -1)
	echo "$IA $(ip netns exec "$A" ethtool -i "$IA" | sed -n 's/^driver: //p')" \
		"$IB $(ip netns exec "$B" ethtool -i "$IB" | sed -n 's/^driver: //p')" \
		"${cc:-$cc_default} $cc_default" >"$work/drops_facts"
	d0=$(ip netns exec "$A" awk -v i="$IA:" '$1 == i { print $5 }' /proc/net/dev)
	ip netns exec "$A" timeout 30 "$LR_BIN" -c 10.206.0.2 -p "$port" --headless -t 1 -i 0.2 \
		-I "$IA" -b 100M -l 32000 ${cc:+-C "$cc"} --csv "$work/drops_if.csv" \
		--cpu-csv "$work/drops_cpu.csv" --streams-csv "$work/drops_st.csv" \
		>"$work/drops_client.out" 2>&1 || return 1
	d1=$(ip netns exec "$A" awk -v i="$IA:" '$1 == i { print $5 }' /proc/net/dev)
	drops_kernel=$((d1 - d0)) drops_if=$IA
	"$LR_BIN" --report "$work/drops.html" "$work/drops_if.csv" "$work/drops_cpu.csv" \
		"$work/drops_st.csv" 2>"$work/drops_report.err"
}
# It runs beside the loopback recording below (in namespaces: lo never sees it) to save the
# seconds, in a subshell with its own cleanup (namespaces, server, injector), its result a file.
if [ "$(id -u)" -eq 0 ]; then
	(
		_lr_cleanups=(); trap _lr_cleanup_run EXIT; trap 'exit 130' INT TERM
		drops_run
		echo "$? ${drops_kernel:-0} ${drops_if:-none}" >"$work/drops.result"
	) &
	drops_pid=$!
	lr_cleanup_add "kill $drops_pid 2>/dev/null; wait $drops_pid 2>/dev/null"
fi

lr_bg bash -c 'exec "$0" -s -p "$1" -1 >"$2" 2>&1' "$LR_BIN" "$port" "$work/server.out"
sleep 0.5
timeout 30 "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 2 -i 0.2 -I lo -b 200M \
	--csv "$work/if.csv" --cpu-csv "$work/cpu.csv" --streams-csv "$work/st.csv" \
	>"$work/client.out" 2>&1
rc=$?
check "record: client exit 0 (rc $rc)" test "$rc" -eq 0

"$LR_BIN" --report "$work/out.html" "$work/if.csv" "$work/cpu.csv" "$work/st.csv" \
	2>"$work/report.err"
rc=$?
check "report: exit 0 (rc $rc, $(stat -c %s "$work/out.html" 2>/dev/null) bytes)" \
	sh -c "[ $rc -eq 0 ] && [ -s '$work/out.html' ] && [ ! -e '$work/out.html.tmp' ]"

# The witness: python reads the CSVs itself and the HTML with its own parsers.
cat >"$work/check.py" <<'EOF'
import csv, html.parser, os, re, sys, xml.etree.ElementTree as ET
sys.path.insert(0, os.environ["LR_TOP"] + "/tests/integration")
import report_witness as W	# its reading of the CSV: rows grouped, slivers folded
work, what = sys.argv[1], sys.argv[2]
doc = open(work + "/out.html", encoding="utf-8").read()
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr"}
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.stack = []; s.err = None
    def handle_starttag(s, t, a):
        if t not in VOID and not s.err: s.stack.append(t)
    def handle_startendtag(s, t, a): pass
    def handle_endtag(s, t):
        if s.err: return
        if not s.stack or s.stack[-1] != t: s.err = "</%s> closes <%s>" % (t, s.stack[-1] if s.stack else "nothing")
        else: s.stack.pop()
def rows(name):	# this side's rows (the server's peer rows ride along: side=peer)
    return [r for r in csv.DictReader(open(work + "/" + name)) if r.get("side", "local") in ("", "local")]
def value(row_attr, key):
    row = doc[doc.index(row_attr):]
    row = row[:row.index("</tr>")]
    return float(re.search(r'data-k="%s" data-v="([^"]+)"' % key, row).group(1))
if what == "wellformed":
    p = P(); p.feed(doc); p.close()
    if p.err or p.stack: sys.exit("html: %s %s" % (p.err, p.stack))
    svgs = re.findall(r"<svg.*?</svg>", doc, re.S)
    for s in svgs: ET.fromstring(s)
    print("%d svg" % len(svgs))
elif what == "clean":
    bad = [w for w in ("<script", "http://", "https://", "src=", "@import", "url(http") if w in doc.lower()]
    if bad: sys.exit("found " + " ".join(bad))
elif what == "peak":
    # the highest row; a stop tick's sliver (under a quarter of the longest interval: its rate
    # is noise, other tests' traffic on lo included) counts folded into its neighbour
    g = W.groups([r for r in rows("if.csv") if r["iface"] == "lo"])
    mx = max(W.group_rate(x, "rx_bytes", "rx_bps", 8) for x in g)
    raw = max(float(r["rx_bps"]) for r in rows("if.csv") if r["iface"] == "lo" and r["rx_bps"])
    got = value('data-iface="lo" data-side="local"', "rx_peak_bps")
    print("csv max %.1f (every row's, slivers too: %.1f), report %.1f" % (mx, raw, got))
    if mx <= 0 or got != mx: sys.exit(1)
elif what == "axis":	# the highest point drawn: rx or tx, slivers folded
    g = W.groups([r for r in rows("if.csv") if r["iface"] == "lo"])
    mx = max(max(W.group_rate(x, "rx_bytes", "rx_bps", 8), W.group_rate(x, "tx_bytes", "tx_bps", 8))
             for x in g)
    top = float(re.search(r'aria-label="Bitrate, lo(?: on [^"(]*)?" data-ymax="([^"]+)"', doc).group(1))
    print("axis %.4g >= %.4g" % (top, mx))
    if top < mx: sys.exit(1)
elif what == "stream":
    b = sum(float(r["bytes"]) for r in rows("st.csv") if r["stream"] == "1" and r["direction"] == "send")
    got = value('data-stream="1" data-direction="send"', "bytes")
    print("csv %d, report %d" % (b, got))
    if b <= 0 or got != b: sys.exit(1)
elif what == "target":
    st = [r for r in rows("st.csv") if r["stream"] == "1" and r["direction"] == "send"]
    # the witness of the target: the -b 200M this script gave, in every row's target_bps
    if not st or any(r["target_bps"] != "200000000" for r in st): sys.exit("target_bps column")
    secs = float(st[0]["bytes"]) * 8 / float(st[0]["bps"])	# the first row: from the start
    secs += float(st[-1]["elapsed"]) - float(st[0]["elapsed"])
    ach = sum(float(r["bytes"]) for r in st) * 8 / secs
    row = 'data-stream="1" data-direction="send"'
    got_t, got_a, got_p = (value(row, k) for k in ("target_bps", "achieved_bps", "achieved_pct_of_target"))
    print("target %.0f, achieved csv %.1f report %.1f, %.2f %%" % (got_t, ach, got_a, got_p))
    if got_t != 200e6 or abs(got_a - ach) > ach * 1e-9 or abs(got_p - ach / 2e6) > 1e-6: sys.exit(1)
elif what == "charts":
    n = [len(re.findall(r'aria-label="%s, lo[ "]' % t, doc)) for t in ("Bitrate", "Packets", "Drops and FIFO")]
    p = [len(re.findall(r'aria-label="%s, lo(?: on [^"(]*)? \(peer\)' % t, doc)) for t in ("Bitrate", "Packets", "Drops and FIFO")]
    peer = any(r.get("side") == "peer" for r in csv.DictReader(open(work + "/if.csv")))
    n = [a - b for a, b in zip(n, p)]	# this side's: the ones not marked (peer)
    print("local %s, peer %s" % (n, p))
    if n != [1, 1, 1] or p != ([1, 1, 1] if peer else [0, 0, 0]): sys.exit(1)
EOF
# The drops run's facts: each check's verdict and figures on one line.
cat >"$work/facts.py" <<'EOF'
import csv, html, re, sys
work, if_a, drv_a, if_b, drv_b, cc = sys.argv[1:]
def say(ok, text): print(("ok: " if ok else "bad: ") + text)
seen = {}
for r in csv.DictReader(open(work + "/drops_if.csv")):
    seen.setdefault((r["side"], r["iface"]), set()).add(r["driver"])
want = {("local", if_a): drv_a, ("peer", if_b): drv_b}
say(drv_a and drv_b and all(seen.get(k) == {v} for k, v in want.items()),
    "ethtool %s=%s %s=%s, CSV %s" % (if_a, drv_a, if_b, drv_b,
    ", ".join("%s %s=%s" % (k[0], k[1], "/".join(sorted(v))) for k, v in sorted(seen.items()))))
# the streams' rows; a "latency" row per interval carries the probes, not a stream
st = [r for r in csv.DictReader(open(work + "/drops_st.csv")) if r["stream"] != "latency"]
lc = sorted({(r["length"], r["congestion"]) for r in st})
say(st and lc == [("32000", cc)], "%d rows, length/congestion %s, given -l 32000 -C %s" %
    (len(st), " ".join("/".join(x) for x in lc), cc))
doc = open(work + "/drops.html", encoding="utf-8").read()
facts = doc[doc.index('<section id="facts">'):]
facts = facts[:facts.index("</section>")]
span = lambda k: [html.unescape(x) for x in re.findall(r'data-k="%s">([^<]*)<' % k, facts)]
got = span("driver") + span("length") + span("congestion")
say(sorted(span("driver")) == sorted(["driver " + drv_a, "driver " + drv_b]) and
    span("length") == ["-l 32000 bytes"] and span("congestion") == ["congestion control " + cc]
    and "not recorded here" not in "".join(span("not_recorded")), "; ".join(got))
EOF
py() { LR_TOP=$LR_TOP PYTHONDONTWRITEBYTECODE=1 python3 "$work/check.py" "$work" "$@"; }
for c in "wellformed:report: well-formed HTML and SVG" "clean:report: no script, no external reference" \
	"peak:report: peak rx bitrate equals the CSV's max" "axis:report: bitrate axis reaches the peak" \
	"stream:report: stream bytes equal the CSV's sum" \
	"target:report: stream target is the -b, achieved the CSV's bytes over its time" \
	"charts:report: one chart each for bitrate, packets, drops of lo"; do
	out=$(py "${c%%:*}" 2>&1)
	rc=$?	# the checker's own verdict (a $? read inside check's arguments is the echo's)
	check "${c#*:} ($(echo "$out" | tail -1))" test "$rc" -eq 0
done
witness() { python3 "$LR_TOP/tests/integration/report_witness.py" "$@" 2>&1; }
tail1() { echo "$out" | tail -1; }	# a label's figures (only after rc=$? took the status)
out=$(witness summary "$work/out.html" "$work/if.csv" "$work/cpu.csv")
rc=$?
check "report: every summary cell equals the CSV's ($(echo "$out" | tail -1))" test "$rc" -eq 0
out=$(witness legend "$work/out.html" "$work/if.csv")
rc=$?
check "report: legends name each series, rx/tx differ in dash, the peer's say (peer) ($(tail1))" \
	test "$rc" -eq 0

drops_plan=("drops run: the CSV's rx drops are the kernel's"
	"drops run: every summary cell equals the CSV's, drops and line rate too"
	"drops run: legends name each series, rx/tx differ in dash, the peer's say (peer)"
	"drops run: interface rows carry the veth's driver (ethtool -i), the peer's rows the peer's"
	"drops run: stream rows carry the -l and -C given"
	"drops run: the report's facts show the driver, -l and congestion control")
if [ "$(id -u)" -ne 0 ]; then
	skip "drops run: recorded in two namespaces" "needs root (network namespaces)"
	for c in "${drops_plan[@]}"; do skip "$c" "needs root (network namespaces)"; done
elif ! wait "$drops_pid" || ! read -r drops_rc drops_kernel drops_if <"$work/drops.result" ||
	[ "$drops_rc" -ne 0 ]; then
	fail "drops run: recorded in two namespaces" \
		"$(tail -qn1 "$work/drops_client.out" "$work/drops_report.err" 2>/dev/null | tr '\n' ' ')"
	for c in "${drops_plan[@]}"; do skip "$c" "no recording"; done
else
	pass "drops run: recorded in two namespaces"
	csv_drops=$(python3 -c '
import csv, sys
print(int(sum(float(r["rx_dropped"] or 0) for r in csv.DictReader(open(sys.argv[1]))
              if r["iface"] == sys.argv[2] and r.get("side", "local") in ("", "local"))))
' "$work/drops_if.csv" "$drops_if" 2>&1)
	check "drops run: the CSV's rx drops are the kernel's (CSV $csv_drops, kernel $drops_kernel)" \
		test "$drops_kernel" -ge 300 -a "$csv_drops" = "$drops_kernel"
	out=$(witness summary "$work/drops.html" "$work/drops_if.csv" "$work/drops_cpu.csv")
	rc=$?
	# and the cells that matter here were non-zero: drops were compared (a veth's speed is
	# nominal: its line-rate cells are unknown, checked against the CSV's empty wire_util_pct)
	check "drops run: every summary cell equals the CSV's, drops too ($(tail1))" \
		sh -c '[ "$1" -eq 0 ] && echo "$2" | grep -q "non-zero: .*rx_dropped"' \
		- "$rc" "$out"
	check "drops run: the veths' line-rate cells say nominal speed, no %" \
		sh -c '[ "$(grep -c "<td class=\"n muted\">nominal speed</td>" "$1")" -eq 2 ]' - "$work/drops.html"
	out=$(witness legend "$work/drops.html" "$work/drops_if.csv")
	rc=$?
	check "drops run: legends name each series, rx/tx differ in dash, the peer's say (peer) ($(tail1))" \
		test "$rc" -eq 0
	# The facts: ethtool's names and the options given, against the CSVs and the report.
	read -r if_a drv_a if_b drv_b cc cc_default <"$work/drops_facts"
	out=$(python3 "$work/facts.py" "$work" "$if_a" "$drv_a" "$if_b" "$drv_b" "$cc" 2>&1)
	line() { echo "$out" | sed -n "$1p"; }	# "ok|bad: figures", one line per check
	check "drops run: interface rows carry the veth's driver (ethtool -i), the peer's rows the peer's ($(line 1))" \
		test "$(line 1 | cut -c1-3)" = "ok:"
	check "drops run: stream rows carry the -l and -C given (default $cc_default; $(line 2))" \
		test "$(line 2 | cut -c1-3)" = "ok:"
	check "drops run: the report's facts show the driver, -l and congestion control ($(line 3))" \
		test "$(line 3 | cut -c1-3)" = "ok:"
fi

# Bad input: a foreign CSV, then a CSV cut mid-line; an older report must survive both.
printf 'Date,Time,Throughput\n2026-12-01,10:00,9.41 Gbits/sec\n' >"$work/foreign.csv"
echo old >"$work/keep.html"
"$LR_BIN" --report "$work/keep.html" "$work/if.csv" "$work/foreign.csv" 2>"$work/foreign.err"
rc=$?
check "foreign file: exit 2, one line naming it (rc $rc: $(head -1 "$work/foreign.err"))" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/foreign.err') -eq 1 ] && grep -q 'foreign.csv:1:' '$work/foreign.err'"
check "foreign file: no report, old one kept" \
	sh -c "[ \"\$(cat '$work/keep.html')\" = old ] && [ ! -e '$work/keep.html.tmp' ]"
size=$(stat -c %s "$work/if.csv")
head -c $((size - 7)) "$work/if.csv" >"$work/cut.csv"
lines=$(wc -l <"$work/cut.csv")
"$LR_BIN" --report "$work/cut.html" "$work/cut.csv" 2>"$work/cut.err"
rc=$?
check "truncated CSV: exit 2 naming the line (rc $rc: $(head -1 "$work/cut.err"))" \
	sh -c "[ $rc -eq 2 ] && grep -q 'cut.csv:$((lines + 1)): truncated' '$work/cut.err'"
check "truncated CSV: no report" sh -c "[ ! -e '$work/cut.html' ] && [ ! -e '$work/cut.html.tmp' ]"
# Two recordings appended into one file (a shell's >> twice): the second header is refused.
cat "$work/if.csv" "$work/if.csv" >"$work/twice.csv"
second=$(($(wc -l <"$work/if.csv") + 1))
"$LR_BIN" --report "$work/twice.html" "$work/twice.csv" 2>"$work/twice.err"
rc=$?
check "two runs in one file: exit 2 naming the second header (rc $rc: $(head -1 "$work/twice.err"))" \
	sh -c "[ $rc -eq 2 ] && grep -q 'twice.csv:$second: a second header' '$work/twice.err' && [ ! -e '$work/twice.html' ]"

# A real browser: Debian's chromium, headless, offline (no network, no sync, no updates). One
# start draws the screenshot and prints the PDF (a browser start costs seconds on a loaded host).
# LR_REPORT_HTML renders another file instead (to show these checks fail on a broken page).
page=${LR_REPORT_HTML:-$work/out.html}
if ! command -v chromium >/dev/null; then
	for c in "chromium: screenshot rendered and not blank" \
		"chromium: printed to a PDF of sane page count" \
		"chromium: the PDF's text holds every summary cell"; do
		skip "$c" "chromium not installed (scripts/deps.sh)"
	done
else
	prof=$(mktemp -d /tmp/lr-report-chromium.XXXXXX); lr_cleanup_add "rm -rf $prof"
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--window-size=1100,2400 --screenshot="$work/out.png" --print-to-pdf="$work/out.pdf" \
		--no-pdf-header-footer "file://$page" >"$work/chromium.log" 2>&1
	chrome_rc=$?
	cat >"$work/png.py" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", d[16:24]); pos = 8; idat = b""
while pos < len(d):
    n, = struct.unpack(">I", d[pos:pos + 4]); t = d[pos + 4:pos + 8]
    if t == b"IDAT": idat += d[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
# A blank page compresses to rows of one repeated byte; a drawn one has many distinct values.
distinct = len(set(raw)); busy = sum(1 for b in raw[::97] if b not in (0, 255)) / len(raw[::97])
print("%dx%d, %d distinct bytes, %.1f%% busy" % (w, h, distinct, 100 * busy))
sys.exit(0 if w >= 800 and h >= 800 and distinct > 64 and busy > 0.005 else 1)
EOF
	out=$(python3 "$work/png.py" "$work/out.png" 2>&1)
	rc=$?	# png.py's verdict, taken before the check's label runs commands of its own
	check "chromium: screenshot rendered and not blank (chromium rc $chrome_rc; $(tail1))" \
		test "$rc" -eq 0
	# Printed: a whole PDF of 1..40 pages (/Type /Page objects, and the page tree's /Count).
	out=$(python3 -c '
import re, sys
d = open(sys.argv[1], "rb").read()
pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", d))
count = re.findall(rb"/Type\s*/Pages\b.*?/Count (\d+)", d, re.S)
print("%d bytes, %d pages, /Count %s" % (len(d), pages, b",".join(count).decode()))
sys.exit(0 if d[:5] == b"%PDF-" and b"%%EOF" in d[-64:] and 1 <= pages <= 40 and
         count[:1] == [b"%d" % pages] else 1)
' "$work/out.pdf" 2>&1)
	rc=$?
	check "chromium: printed to a PDF of sane page count ($(echo "$out" | tail -1))" test "$rc" -eq 0
	# The summary tables' headers and every cell's text in the PDF's own text: an @media print
	# rule hiding a table or a column would drop them.
	out=$(witness pdf "$work/out.pdf" "$page")
	rc=$?
	check "chromium: the PDF's text holds every summary cell ($(echo "$out" | tail -1))" \
		test "$rc" -eq 0
fi
lr_summary
