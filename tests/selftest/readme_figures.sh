#!/usr/bin/env bash
# Every figure README.md quotes from a measurement is in bench/RESULTS.md (issue 28: the report's
# "14 s in 4.4 MB" and the replay's "12 s into 400 MB" were in no bench output). A README sentence
# that cites bench/RESULTS.md is a measured claim: each of its figures (a number with a unit: GB,
# MB, MiB, KiB, KB, s, ms, µs, ×, %) must appear in RESULTS.md, as written ("6.66 GB") or as a
# table cell ("| 1.8 |", under a header that gives the unit). There must be such sentences (the
# report's and the replay's), so the check cannot pass on a README that cites nothing.
. "$(dirname "$0")/../lib.sh"
cd "$LR_TOP" || exit 1
python3 - README.md bench/RESULTS.md <<'PY'
import re, sys
readme, results = (open(f, encoding="utf-8").read() for f in sys.argv[1:3])
flat = re.sub(r"\s+", " ", readme)
sentences = [s for s in re.split(r"(?<=[.;])\s+(?=[A-Z(`])", flat) if "bench/RESULTS.md" in s]
res = re.sub(r"[ \t]+", " ", results)
fig = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?) ?(GB|MB|MiB|KiB|KB|s|ms|µs|×|%)(?!\w)")
n = bad = 0
for s in sentences:
    for num, unit in fig.findall(s):
        n += 1
        if (f"{num} {unit}" in res or f"{num}{unit}" in res or
                re.search(r"\| ?" + re.escape(num) + r"( ?" + re.escape(unit) + r")? ?\|", res)):
            continue
        bad += 1
        print(f"FAIL readme-figure {num} {unit}: quoted by README.md, in no bench/RESULTS.md output: "
              f"{s[:160]}")
print(f"# {len(sentences)} README sentences cite bench/RESULTS.md, {n} figures in them")
if len(sentences) < 2:
    print("FAIL readme-figures-cited: fewer than 2 README sentences cite bench/RESULTS.md (the report's and the replay's)")
elif bad == 0:
    print("PASS readme-figures-in-results")
PY
