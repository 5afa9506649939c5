#!/usr/bin/env bash
# The report as a person sees it: the HTML of a recorded run (tests/fixtures/report/loopback_*,
# written by the real binary) rendered by Debian's chromium, headless and offline, to a PNG that
# must match the stored reference tests/fixtures/report/reference.png: the same size, at most
# 1 % of the pixels differing by more than 48 in a channel (fonts' anti-aliasing moves, a chart
# or table that changed does not). The version string is set to "dev" in the HTML first (it
# changes with every commit) and the CSVs are read by relative names (the report lists them). The comparison is shown to discriminate: the report of another
# run (headless_*) rendered the same way must differ from the reference beyond the tolerance.
# LR_PNG_UPDATE=1 writes a new reference instead (after a deliberate change of the report's look).
source "$(dirname "$0")/../lib.sh"
lr_plan "report_png: report written" "report_png: chromium rendered a PNG" \
	"report_png: equals the reference within the tolerance" \
	"report_png: another run's report differs beyond it" \
	"report_png: a matrix run's table fits a 1280 px window, every column visible, a chart per case"
[ -x "$LR_BIN" ] || { lr_skip_plan report_png "$LR_BIN not built"; exit 0; }
command -v python3 >/dev/null || { lr_skip_plan report_png "python3 missing"; exit 0; }
command -v chromium >/dev/null || { lr_skip_plan report_png "chromium not installed (scripts/deps.sh)"; exit 0; }

fix=$LR_TOP/tests/fixtures/report
ref=$fix/reference.png
work=$(mktemp -d /tmp/lr-report-png.XXXXXX)
[ -n "${LR_KEEP:-}" ] && echo "work dir $work" || lr_cleanup_add "rm -rf $work"
ver=$("$LR_BIN" --version | awk '{ print $2 }')

render() {	# NAME CSV... -> $work/NAME.png
	local name=$1 prof
	shift
	# the report names its input files: the same relative names wherever the tree lives
	mkdir -p "$work/$name.in" && cp "$@" "$work/$name.in/" || return 1
	(cd "$work/$name.in" && "$LR_BIN" --report "$work/$name.html" "${@##*/}") 2>"$work/$name.err" ||
		return 1
	python3 - "$work/$name.html" "$ver" <<'EOF' || return 1
import sys
p, ver = sys.argv[1], sys.argv[2]
doc = open(p, encoding="utf-8").read()
open(p, "w", encoding="utf-8").write(doc.replace("linerate " + ver, "linerate dev"))
EOF
	prof=$(mktemp -d /tmp/lr-report-chromium.XXXXXX)
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--hide-scrollbars --force-device-scale-factor=1 --window-size=1100,2400 \
		--screenshot="$work/$name.png" "file://$work/$name.html" >"$work/$name.log" 2>&1
	rm -rf "$prof"
	[ -s "$work/$name.png" ]
}

cat >"$work/cmp.py" <<'EOF'
# A PNG decoder for what chromium writes (8-bit RGB/RGBA, not interlaced) and a pixel compare.
import struct, sys, zlib
def decode(path):
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n", path + ": not a PNG"
    pos, idat = 8, b""
    while pos < len(d):
        n, = struct.unpack(">II", d[pos:pos + 8])[:1]
        t = d[pos + 4:pos + 8]
        if t == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", d[pos + 8:pos + 21])
        elif t == b"IDAT":
            idat += d[pos + 8:pos + 8 + n]
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6) and not inter, "%s: PNG type %d/%d" % (path, depth, ctype)
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    out, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(line)); prev = line
    return w, h, bpp, out
wa, ha, ba, a = decode(sys.argv[1])
wb, hb, bb, b = decode(sys.argv[2])
if (wa, ha) != (wb, hb):
    print("size %dx%d, reference %dx%d" % (wa, ha, wb, hb)); sys.exit(1)
bad = 0
for y in range(ha):
    ra, rb = a[y], b[y]
    if ra == rb and ba == bb: continue
    for x in range(wa):
        if max(abs(ra[x * ba + k] - rb[x * bb + k]) for k in range(3)) > 48: bad += 1
pct = 100.0 * bad / (wa * ha)
print("%dx%d, %d pixels (%.3f%%) differ by more than 48" % (wa, ha, bad, pct))
sys.exit(0 if pct <= float(sys.argv[3]) else 1)
EOF

if render loopback "$fix/loopback_ifaces.csv" "$fix/loopback_cpus.csv" "$fix/loopback_streams.csv"; then
	pass "report_png: report written"
	pass "report_png: chromium rendered a PNG"
else
	fail "report_png: report written" "$(cat "$work/loopback.err" 2>/dev/null | head -1)"
	fail "report_png: chromium rendered a PNG" "$(tail -2 "$work/loopback.log" 2>/dev/null)"
	lr_summary
	exit
fi
# A matrix run's report (tests/fixtures/report/matrix_times_*, a real 2x2 grid) laid out by
# chromium in a 1280 px window: a script added to a copy of the page measures, after layout,
# every cell of the Matrix table against the window and its own container, and counts the
# per-case charts; chromium prints the page (--dump-dom) with the figures in its title.
matrix_layout() {
	local d=$work/mx prof
	mkdir -p "$d" && cp "$fix"/matrix_times_*.csv "$d/" || return 1
	(cd "$d" && "$LR_BIN" --report "$d/m.html" matrix_times_ifaces.csv matrix_times_streams.csv \
		matrix_times_matrix.csv) 2>"$d/err" || return 1
	python3 - "$d/m.html" <<'PYEOF' || return 1
import sys
p = sys.argv[1]
doc = open(p, encoding="utf-8").read()
probe = """<script>(function () {
  var w = document.documentElement.clientWidth, t = document.querySelector('#matrix table');
  var cells = t.querySelectorAll('th, td'), out = 0, thin = 0, right = 0;
  cells.forEach(function (c) { var r = c.getBoundingClientRect();
    right = Math.max(right, r.right); if (r.right > w) out++; if (r.width < 12) thin++; });
  document.title = 'LRLAYOUT window=' + w + ' table_right=' + Math.ceil(right) + ' outside=' + out +
    ' thin=' + thin + ' clipped=' + (t.scrollWidth > t.parentElement.clientWidth ? 1 : 0) +
    ' columns=' + t.rows[0].cells.length + ' rows=' + (t.rows.length - 1) +
    ' charts=' + document.querySelectorAll('.cases figure').length + ' LREND';
})();</script>"""
open(p, "w", encoding="utf-8").write(doc.replace("</body>", probe + "</body>"))
PYEOF
	prof=$(mktemp -d /tmp/lr-report-chromium.XXXXXX)
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--hide-scrollbars --force-device-scale-factor=1 --window-size=1280,2000 \
		--dump-dom "file://$d/m.html" 2>"$d/chromium.log" | grep -o 'LRLAYOUT[^<]*LREND'
	rm -rf "$prof"
}
lay=$(matrix_layout)
echo "    matrix report at 1280 px: ${lay:-not measured}"
check "report_png: a matrix run's table fits a 1280 px window, every column visible, a chart per case" \
	awk -v l="$lay" 'BEGIN { n = split(l, kv, " "); for (i = 2; i < n; i++) { split(kv[i], p, "="); v[p[1]] = p[2] }
		exit !(v["window"] == 1280 && v["table_right"] <= 1280 && v["outside"] == 0 && v["thin"] == 0 &&
			v["clipped"] == 0 && v["columns"] == 10 && v["rows"] == 4 && v["charts"] == 4) }'
if [ -n "${LR_PNG_UPDATE:-}" ]; then
	cp "$work/loopback.png" "$ref"
	echo "reference written: $ref"
fi
if [ ! -s "$ref" ]; then
	skip "report_png: equals the reference within the tolerance" "no $ref (LR_PNG_UPDATE=1 writes it)"
	skip "report_png: another run's report differs beyond it" "no reference"
	lr_summary
	exit
fi
out=$(python3 "$work/cmp.py" "$work/loopback.png" "$ref" 1.0 2>&1)
rc=$?	# the compare's own status, taken before anything else runs
check "report_png: equals the reference within the tolerance ($out)" test $rc -eq 0
if render other "$fix/headless_ifaces.csv" "$fix/headless_cpus.csv"; then
	out=$(python3 "$work/cmp.py" "$work/other.png" "$ref" 1.0 2>&1)
	rc=$?
	check "report_png: another run's report differs beyond it ($out)" test $rc -ne 0
else
	fail "report_png: another run's report differs beyond it" "not rendered"
fi
lr_summary
