#!/usr/bin/env python3
"""bench/results_section.py RESULTS NAME TEXT: puts TEXT between RESULTS's
<!-- section:NAME:begin --> and <!-- section:NAME:end --> markers, replacing what was there, or
appends the section when the file has none. The single-purpose benches write their own
sections of bench/RESULTS.md with it; bench/run.sh keeps them when it regenerates the rest.

Every table comes from a clean tree (docs/design.md §8): a figure of code no commit holds cannot
be reproduced, so a tree with uncommitted changes (bench/'s outputs aside) is refused, unless
BENCH_DIRTY=1, which says so in the section. The section ends with the commit it measured."""
import os
import subprocess
import sys

path, name, text = sys.argv[1], sys.argv[2], sys.argv[3]
top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUTS = ("bench/RESULTS.md", "bench/sampler_scale.svg")


def git(*args):
    return subprocess.run(["git", "-C", top] + list(args), capture_output=True, text=True).stdout


rev = git("rev-parse", "--short", "HEAD").strip() or "?"
dirty = [l for l in git("status", "--porcelain", "--untracked-files=no").splitlines()
         if l[3:] not in OUTPUTS]
if dirty and os.environ.get("BENCH_DIRTY") != "1":
    sys.exit("bench: the tree has uncommitted changes (%s): commit them first, or BENCH_DIRTY=1"
             % ", ".join(l[3:] for l in dirty[:3]))
stamp = ("_Measured at git %s, %s._" %
         (rev, "with uncommitted changes (BENCH_DIRTY=1: not reproducible)" if dirty
          else "a clean tree"))
b, e = "<!-- section:%s:begin -->" % name, "<!-- section:%s:end -->" % name
doc = open(path).read()
block = b + "\n" + text.rstrip("\n") + "\n\n" + stamp + "\n" + e
if b in doc and e in doc:
    doc = doc[:doc.index(b)] + block + doc[doc.index(e) + len(e):]
else:
    doc = doc.rstrip("\n") + "\n\n" + block + "\n"
open(path, "w").write(doc)
