#!/usr/bin/env bash
# linerate --report on a run recorded here: a `linerate -s` and a headless `linerate -c` on
# loopback (2 s, -b 200M) write the interface, CPU and streams CSVs; the report built from them
# must be well-formed (html.parser and every <svg> as XML), hold no script and no http(s)
# reference, print as peak rx bitrate of lo exactly the largest rx_bps this script reads from
# the CSV itself (and the chart's axis must reach it), and a CSV's bytes as the stream's total;
# the streams CSV's target_bps is the -b given, and the report's target cell too, its achieved
# rate the stream's bytes over the time its rows cover (as the CSV gives them).
# A foreign file, a truncated CSV and two runs in one file exit 2 with one line naming the file
# and line, and leave no report (an older OUT.html stays as it was, no .tmp left). Rendered by Debian's chromium
# headless when it is installed: the screenshot exists and is not blank. No root needed.
source "$(dirname "$0")/../lib.sh"
lr_plan "record: client exit 0" "report: exit 0" "report: well-formed HTML and SVG" \
	"report: no script, no external reference" "report: peak rx bitrate equals the CSV's max" \
	"report: bitrate axis reaches the peak" "report: stream bytes equal the CSV's sum" \
	"report: stream target is the -b, achieved the CSV's bytes over its time" \
	"report: one chart each for bitrate, packets, drops of lo" \
	"foreign file: exit 2, one line naming it" "foreign file: no report, old one kept" \
	"truncated CSV: exit 2 naming the line" "truncated CSV: no report" \
	"two runs in one file: exit 2 naming the second header" \
	"chromium: screenshot rendered and not blank"
if [ ! -x "$LR_BIN" ]; then lr_skip_plan report "$LR_BIN not built"; exit 0; fi
if ! command -v python3 >/dev/null; then lr_skip_plan report "python3 missing"; exit 0; fi

work=$(mktemp -d /tmp/lr-report.XXXXXX)
[ -n "${LR_KEEP:-}" ] && echo "work dir $work" || lr_cleanup_add "rm -rf $work"
port=$((20000 + RANDOM % 20000))

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
import csv, html.parser, re, sys, xml.etree.ElementTree as ET
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
    mx = max(float(r["rx_bps"]) for r in rows("if.csv") if r["iface"] == "lo" and r["rx_bps"])
    got = value('data-iface="lo" data-side="local"', "rx_peak_bps")
    print("csv max %.1f, report %.1f" % (mx, got))
    if mx <= 0 or got != mx: sys.exit(1)
elif what == "axis":
    mx = max(float(r["rx_bps"]) for r in rows("if.csv") if r["iface"] == "lo" and r["rx_bps"])
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
py() { python3 "$work/check.py" "$work" "$@"; }
for c in "wellformed:report: well-formed HTML and SVG" "clean:report: no script, no external reference" \
	"peak:report: peak rx bitrate equals the CSV's max" "axis:report: bitrate axis reaches the peak" \
	"stream:report: stream bytes equal the CSV's sum" \
	"target:report: stream target is the -b, achieved the CSV's bytes over its time" \
	"charts:report: one chart each for bitrate, packets, drops of lo"; do
	out=$(py "${c%%:*}" 2>&1)
	rc=$?	# the checker's own verdict (a $? read inside check's arguments is the echo's)
	check "${c#*:} ($(echo "$out" | tail -1))" test "$rc" -eq 0
done

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

# A real browser: Debian's chromium, headless, offline (no network, no sync, no updates).
if ! command -v chromium >/dev/null; then
	skip "chromium: screenshot rendered and not blank" "chromium not installed (scripts/deps.sh)"
else
	prof=$(mktemp -d /tmp/lr-report-chromium.XXXXXX); lr_cleanup_add "rm -rf $prof"
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--window-size=1100,2400 --screenshot="$work/out.png" "file://$work/out.html" \
		>"$work/chromium.log" 2>&1
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
	check "chromium: screenshot rendered and not blank ($(echo "$out" | tail -1))" test $? -eq 0
fi
lr_summary
