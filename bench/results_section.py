#!/usr/bin/env python3
"""bench/results_section.py RESULTS NAME TEXT: puts TEXT between RESULTS's
<!-- section:NAME:begin --> and <!-- section:NAME:end --> markers, replacing what was there, or
appends the section when the file has none. The single-purpose benches write their own
sections of bench/RESULTS.md with it; bench/run.sh keeps them when it regenerates the rest."""
import sys

path, name, text = sys.argv[1], sys.argv[2], sys.argv[3]
b, e = "<!-- section:%s:begin -->" % name, "<!-- section:%s:end -->" % name
doc = open(path).read()
block = b + "\n" + text + "\n" + e
if b in doc and e in doc:
    doc = doc[:doc.index(b)] + block + doc[doc.index(e) + len(e):]
else:
    doc = doc.rstrip("\n") + "\n\n" + block + "\n"
open(path, "w").write(doc)
