#!/usr/bin/env python3
# Witnesses for `linerate --report` (tests/integration/report.sh), the standard library only.
# Each reads what a reader would: the CSVs with csv, the HTML with regexes (report.sh has shown
# it well-formed first), the
# PDF chromium printed with zlib, and recomputes from the CSV rows by its own definitions:
#
#   summary HTML IFACE_CSV [CPU_CSV]  every cell of every interface and CPU row of the summary
#       tables (data-k/data-v) against the CSV, and its readable text against data-v
#   legend HTML [IFACE_CSV]  every time chart: each series has a legend entry naming it (rx/tx, or
#       drops/FIFO), its lines drawn in that entry's stroke and dash, the two series' dash
#       patterns differ; each series of the CSV with traffic has its three charts, the
#       peer's saying "(peer)" in their caption, this side's not
#   pdf PDF HTML       the PDF chromium printed: a PDF, a sane page count, and the summary
#       tables' headers and every cell's readable text (interfaces, CPUs, streams) in its text
#       (the print CSS hides nothing a reader needs)
#
# Exit 0 and a last line of figures when the report agrees; otherwise the first disagreement.
import csv, html, re, sys, zlib

REL = 1e-9	# sums added in another order differ in the last bits, never more


def die(msg):
    print(msg)
    sys.exit(1)


def close(a, b):
    return abs(a - b) <= REL * max(abs(a), abs(b), 1e-300)


def num(s):
    return float(s) if s not in (None, "") else None


# --- the CSV side ---------------------------------------------------------------------------
def groups(rows, ref_key="interval"):
    """The rows of one series in order, a short row (shorter than a quarter of the longest
    interval seen so far: a stop tick) merged with its neighbour: the report's 'peak = the
    highest row' must not be a rate over a sliver of time (docs/design.md §11, report_read.h SLIVER)."""
    out, longest = [], 0.0
    for r in rows:
        iv = float(r[ref_key])
        longest = max(longest, iv)
        if out and (out[-1]["secs"] < 0.25 * longest or iv < 0.25 * longest):
            out[-1]["rows"].append(r)
            out[-1]["secs"] += iv
        else:
            out.append({"rows": [r], "secs": iv})
    return out


def group_rate(g, count, rate, mult):
    """A row's recorded rate; a merged group's: its counts over its summed interval."""
    if len(g["rows"]) == 1 and num(g["rows"][0][rate]) is not None:
        return num(g["rows"][0][rate])
    counts = [num(r[count]) for r in g["rows"]]
    if any(c is None for c in counts):
        return None
    return sum(counts) * mult / g["secs"]


def group_mean(g, col):
    """A merged group's percentage: the time-weighted mean of its known rows."""
    known = [(num(r[col]), float(r["interval"])) for r in g["rows"] if num(r[col]) is not None]
    if not known:
        return None
    if len(known) == 1:	# a row alone: its own value (v * t / t may round away from it)
        return known[0][0]
    return sum(v * t for v, t in known) / sum(t for _, t in known)


def peak_of(values):
    vals = [v for v in values if v is not None]
    return max(vals) if vals else None


def iface_expect(rows):
    """Each cell of an interface row, by the definitions the report prints under its table:
    avg = the column's bytes (x8) or packets over the time the rows cover (the rows that have
    the counts), peak = the highest row, counters summed (empty: none counted), line-rate %
    avg = wire_util_pct weighted by each row's interval, peak = the highest row."""
    e = {}
    for d in ("rx", "tx"):
        byte_rows = [r for r in rows if r["rx_bytes"] != "" and r["tx_bytes"] != ""]
        pkt_rows = [r for r in rows if r["rx_packets"] != "" and r["tx_packets"] != ""]
        bs = sum(float(r["interval"]) for r in byte_rows)
        ps = sum(float(r["interval"]) for r in pkt_rows)
        e[d + "_avg_bps"] = sum(float(r[d + "_bytes"]) for r in byte_rows) * 8 / bs if bs else None
        e[d + "_avg_pps"] = sum(float(r[d + "_packets"]) for r in pkt_rows) / ps if ps else None
        g = groups(rows)
        e[d + "_peak_bps"] = peak_of(group_rate(x, d + "_bytes", d + "_bps", 8) for x in g)
        e[d + "_peak_pps"] = peak_of(group_rate(x, d + "_packets", d + "_pps", 1) for x in g)
    tot = lambda *cols: sum(num(r.get(c)) or 0 for r in rows for c in cols)
    e["rx_dropped"] = tot("rx_dropped")
    e["tx_dropped"] = tot("tx_dropped")
    e["fifo_missed_over"] = tot("rx_fifo", "rx_missed", "rx_over")
    e["nic_fifo"] = tot("nic_fifo")
    e["nic_drop"] = tot("nic_drop")
    e["errors"] = tot("rx_errors", "tx_errors")
    # the root qdisc's drops (appended columns): summed where known; no value when the CSV
    # has no such column or never knew it
    known = [float(r["qdisc_drops"]) for r in rows if r.get("qdisc_drops", "") != ""]
    e["qdisc_drops"] = sum(known) if known else None
    urows = [r for r in rows if r.get("wire_util_pct", "") != ""]
    if urows:
        us = sum(float(r["interval"]) for r in urows)
        e["util_avg_pct"] = sum(float(r["wire_util_pct"]) * float(r["interval"])
                                for r in urows) / us
        e["util_peak_pct"] = peak_of(group_mean(x, "wire_util_pct") for x in groups(rows))
    return e


def cpu_expect(rows):
    """softirq peak = the highest row (and its elapsed), mean = weighted by each interval."""
    rows = [r for r in rows if r["softirq_pct"] != ""]
    e = {"softirq_peak_pct": None, "softirq_mean_pct": None, "at": None}
    if rows:
        best = None
        for g in groups(rows):
            v = group_mean(g, "softirq_pct")
            if best is None or v > best[0]:
                best = (v, float(g["rows"][-1]["elapsed"]))
        e["softirq_peak_pct"], e["at"] = best
        secs = sum(float(r["interval"]) for r in rows)
        e["softirq_mean_pct"] = sum(float(r["softirq_pct"]) * float(r["interval"])
                                    for r in rows) / secs
    return e


def by_series(path, key):
    out = {}
    for r in csv.DictReader(open(path, newline="", encoding="utf-8")):
        k = (r[key], r.get("side") or "local", r.get("host") or "")
        out.setdefault(k, []).append(r)
    return out


# --- the HTML side --------------------------------------------------------------------------
SI = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}


def shown_agrees(text, v):
    """The readable text rounds data-v: '204.9 Mbit/s', '12.50 %', '300'."""
    m = re.fullmatch(r"(\d+(?:\.(\d+))?) ?([kMGTP]?)(?:bit/s|pkt/s|%)?", text.strip())
    if not m:
        return False
    shown, dec, mult = float(m.group(1)), len(m.group(2) or ""), SI[m.group(3)]
    return abs(shown * mult - v) <= (0.5 * 10 ** -dec) * mult * (1 + 1e-9) + 1e-9


def table_rows(doc, table_id, attr):
    """{(name, side, host): [(key, value or None, text)]} of one summary table, and the raw
    cells of each row (for the cells without a key)."""
    m = re.search(r'<table[^>]*id="%s".*?</table>' % table_id, doc, re.S)
    if not m:
        return None
    out = {}
    for tr in re.finditer(r'<tr %s="([^"]*)" data-side="([^"]*)" data-host="([^"]*)">(.*?)</tr>'
                          % attr, m.group(0), re.S):
        k = tuple(html.unescape(x) for x in tr.groups()[:3])
        cells = [(c.group(2), c.group(4), html.unescape(re.sub(r"<[^>]*>", "", c.group(5))))
                 for c in re.finditer(r'<(td|span)[^>]*?data-k="([^"]+)"( data-v="([^"]*)")?[^>]*>'
                                      r'(.*?)</\1>', tr.group(4), re.S)]
        tds = [html.unescape(re.sub(r"<[^>]*>", "", t)) for t in
               re.findall(r"<td[^>]*>(.*?)</td>", tr.group(4), re.S)]
        if k in out:
            die("%s: two rows for %s" % (table_id, k))
        out[k] = (cells, tds)
    return out


def compare(table, key, cells, want, checked):
    got = {}
    for k, v, text in cells:
        if k in got:
            die("%s %s: two cells %s" % (table, key, k))
        got[k] = (v, text)
    wanted = {k for k in want if k != "at"}
    if set(got) != wanted:
        die("%s %s: cells %s, the witness knows %s" % (table, key, sorted(got), sorted(wanted)))
    for k in sorted(wanted):
        v, text = got[k]
        w = want[k]
        if w is None:
            if v is not None:
                die("%s %s %s: report %s, the CSV has no data" % (table, key, k, v))
            continue
        if v is None:
            die("%s %s %s: report '%s' without a value, CSV gives %.17g" % (table, key, k, text, w))
        if not close(float(v), w):
            die("%s %s %s: report %s, CSV gives %.17g" % (table, key, k, v, w))
        if not shown_agrees(text, float(v)):
            die("%s %s %s: shown '%s' is not %s rounded" % (table, key, k, text, v))
        checked.add(k)


def summary(doc_path, if_csv, cpu_csv=None):
    doc = open(doc_path, encoding="utf-8").read()
    checked, n_if, n_cpu, nz = set(), 0, 0, set()
    series = by_series(if_csv, "iface")
    table = table_rows(doc, "iface-table", "data-iface")
    if table is None or set(table) != set(series):
        die("interface rows %s, CSV series %s" % (sorted(table or {}), sorted(series)))
    for key, rows in series.items():
        want = iface_expect(rows)
        compare("iface", key, table[key][0], want, checked)
        nz |= {k for k, v in want.items() if v}
        n_if += 1
    if cpu_csv:
        series = by_series(cpu_csv, "cpu")
        table = table_rows(doc, "cpu-table", "data-cpu")
        if table is None or set(table) != set(series):
            die("CPU rows %s, CSV series %s" % (sorted(table or {}), sorted(series)))
        for key, rows in series.items():
            want = cpu_expect(rows)
            cells, tds = table[key]
            compare("cpu", key, cells, want, checked)
            at = "%.1f s" % want["at"] if want["at"] is not None else ""
            if len(tds) != 3 or tds[1] != at:	# peak, at, mean
                die("cpu %s: 'at' cell %s, CSV gives '%s'" % (key, tds[1:2], at))
            n_cpu += 1
        checked.add("at")
    print("%d interface rows, %d CPU rows; cells checked: %s; non-zero: %s" % (
        n_if, n_cpu, " ".join(sorted(checked)), " ".join(sorted(nz & checked))))


# --- legends: told apart by more than colour ------------------------------------------------
def legend(doc_path, if_csv=None):
    doc = open(doc_path, encoding="utf-8").read()
    caps = []
    figs = re.findall(r"<figure><figcaption>(.*?)</figcaption>(<svg[^>]*>.*?</svg>)", doc, re.S)
    n = peer = 0
    for cap, svg in figs:
        cap = html.unescape(cap)
        kind = cap.split(",")[0]
        if kind not in ("Bitrate", "Packets", "Drops and FIFO"):
            continue
        names = ("drops", "FIFO") if kind == "Drops and FIFO" else ("rx", "tx")
        keys = re.findall(r'<line x1="[^"]*" y1="14" x2="[^"]*" y2="14" stroke="([^"]+)" '
                          r'stroke-width="[^"]*" stroke-dasharray="([^"]*)"/>'
                          r'<text class="lg"[^>]*>([^<]*)</text>', svg)
        labels = [html.unescape(k[2]) for k in keys]
        if labels != list(names):
            die("%s: legend %s, not %s" % (cap, labels, list(names)))
        if keys[0][1].strip() == keys[1][1].strip():
            die("%s: %s and %s share the dash pattern '%s': colour alone tells them apart"
                % (cap, names[0], names[1], keys[0][1]))
        lines = re.findall(r'<path class="ln" stroke="([^"]+)" stroke-dasharray="([^"]*)"', svg)
        if not lines:
            die("%s: no series drawn" % cap)
        for stroke, dash in lines:	# each line drawn as its legend entry shows it
            if (stroke, dash) not in [(k[0], k[1]) for k in keys]:
                die("%s: a line stroke %s dash '%s' matches no legend entry" % (cap, stroke, dash))
        if {(k[0], k[1]) for k in keys} - set(lines):
            die("%s: a legend entry with no line" % cap)
        if ("(peer)" in cap) != (cap.count("(peer)") == 1):
            die("%s: (peer) twice" % cap)
        peer += "(peer)" in cap
        caps.append(cap)
        n += 1
    if not n:
        die("no time chart")
    # each series of the CSV that carried traffic: its three charts, "(peer)" in the peer's
    # captions only (on loopback both ends are one host: the words are all that tell them apart)
    for (name, side, host), rows in (by_series(if_csv, "iface") if if_csv else {}).items():
        if not any(float(r[c] or 0) for r in rows for c in ("rx_bytes", "tx_bytes")):
            continue
        for kind in ("Bitrate", "Packets", "Drops and FIFO"):
            mine = [c for c in caps if c.startswith("%s, %s" % (kind, name)) and
                    (" on " + host in c if host else True)]
            mine = [c for c in mine if ("(peer)" in c) == (side == "peer")]
            if len(mine) != 1:
                die("%s chart of %s (%s): %d captions say so (%s)" % (kind, name, side, len(mine),
                                                                   " | ".join(caps)))
    print("%d time charts (%d of the peer): legends named, dash patterns differ" % (n, peer))


# --- the printed PDF ------------------------------------------------------------------------
def pdf_text(d):
    """The text of a PDF as Skia (chromium) writes it: Tj/TJ of hex glyph ids per font, mapped
    through each font's ToUnicode CMap. Page order does not matter here."""
    objs = {int(m.group(1)): m.group(2) for m in
            re.finditer(rb"(\d+) 0 obj(.*?)endobj", d, re.S)}

    def stream(o):	# sliced by its /Length: compressed bytes may end in \r or hold "endstream"
        body = objs.get(o, b"")
        m = re.search(rb"stream\r?\n", body)
        n = m and re.search(rb"/Length (\d+)( 0 R)?", body[:m.start()])
        if not n:
            return b""
        size = int(n.group(1))
        if n.group(2):
            size = int(re.search(rb"\d+", objs.get(size, b"0")).group(0))
        data = body[m.end():m.end() + size]
        return zlib.decompress(data) if b"FlateDecode" in body[:m.start()] else data

    cmaps = {}	# font object -> {glyph hex: text}
    for o, body in objs.items():
        m = re.search(rb"/ToUnicode (\d+) 0 R", body)
        if not m:
            continue
        cm, t = {}, stream(int(m.group(1)))
        for blk in re.findall(rb"beginbfchar(.*?)endbfchar", t, re.S):
            for g, u in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", blk):
                cm[g.upper()] = bytes.fromhex(u.decode()).decode("utf-16-be", "replace")
        for blk in re.findall(rb"beginbfrange(.*?)endbfrange", t, re.S):
            hexes = rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>"
            for a, b, u in re.findall(hexes, blk):
                w, base = len(a), int(u, 16)
                for i in range(int(a, 16), int(b, 16) + 1):
                    cm[b"%0*X" % (w, i)] = chr(base + i - int(a, 16))
        cmaps[o] = cm
    out = []
    for o, body in objs.items():
        if not re.search(rb"/Type\s*/Page\b(?!s)", body):
            continue
        fonts = {}
        res = re.search(rb"/Font\s*<<(.*?)>>", body, re.S)
        if not res:
            m = re.search(rb"/Resources (\d+) 0 R", body)
            res = m and re.search(rb"/Font\s*<<(.*?)>>", objs.get(int(m.group(1)), b""), re.S)
        if res:
            fonts = {n: int(f) for n, f in re.findall(rb"/(\w+) (\d+) 0 R", res.group(1))}
        contents = re.search(rb"/Contents (\d+) 0 R", body)
        if not contents:
            continue
        cm = {}
        for op in re.finditer(rb"/(\w+) [\d.]+ Tf|(<[0-9A-Fa-f]*>|\[.*?\])\s*(TJ|Tj)|(ET)",
                              stream(int(contents.group(1))), re.S):
            if op.group(1):
                cm = cmaps.get(fonts.get(op.group(1)), {})
            elif op.group(4):
                out.append("\n")
            else:
                for h in re.findall(rb"<([0-9A-Fa-f]*)>", op.group(2)):
                    h = h.upper()
                    out.append("".join(cm.get(h[i:i + 4], "?") for i in range(0, len(h), 4)))
    return "".join(out)


def pdf(pdf_path, doc_path):
    d = open(pdf_path, "rb").read()
    if d[:5] != b"%PDF-" or b"%%EOF" not in d[-64:]:
        die("not a whole PDF (%d bytes, starts %r)" % (len(d), d[:8]))
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", d))
    count = [int(c) for c in re.findall(rb"/Type\s*/Pages\b.*?/Count (\d+)", d, re.S)]
    if not 1 <= pages <= 40 or count[:1] != [pages]:
        die("%d page objects, /Count %s" % (pages, count))
    flat = re.sub(r"\s+", "", pdf_text(d))
    doc = open(doc_path, encoding="utf-8").read()
    want = ["Interfaces", "rxavg", "rxpeak", "txavg", "%lineavg/peak", "CPUs", "softirqpeak"]
    for t in re.findall(r"<tr data-(?:iface|cpu|stream)=.*?</tr>", doc, re.S):	# every summary cell
        want += [re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]*>", "", c)))
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", t, re.S)]
    missing = [w for w in want if w and w not in flat]
    if missing:
        die("%d pages; not in the PDF's text: %s" % (pages, " | ".join(missing[:6])))
    print("%d pages, %d chars of text, all %d summary headers and cells in it" % (
        pages, len(flat), len([w for w in want if w])))


if __name__ == "__main__":
    what, args = sys.argv[1], sys.argv[2:]
    {"summary": summary, "legend": legend, "pdf": pdf}[what](*args)
