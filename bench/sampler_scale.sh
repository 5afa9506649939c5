#!/bin/bash
# SPDX-License-Identifier: MIT
# The sampler's CPU per tick as the host grows (issue 33, docs/design.md §8): generated trees of
# {2,64,256,1024} CPUs x {1,8,64} interfaces (bench/gen_bigtree.py ... auto: one MSI-X vector per
# queue per CPU up to 64, plus lo), each timed by bench/sampler_scale.c over two whole IRQ-map
# cycles. Writes the "scale" section of bench/RESULTS.md (a table, the fitted growth exponent)
# and bench/sampler_scale.svg (a log-log plot). Never run by tests, never asserts.
# Knobs: SCALE_REPS=3 SCALE_CPUS="2 64 256 1024" SCALE_IFS="1 8 64" BENCH_RESULTS=FILE
#        SCALE_BIN=path (default: make B=build-bench builds it)
#        SCALE_BASE=path (an older build of sampler_scale: timed in the same run, interleaved)
set -u

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_RESULTS:-$TOP/bench/RESULTS.md}
SVG=${SCALE_SVG:-$TOP/bench/sampler_scale.svg}
REPS=${SCALE_REPS:-3}
CPUS=${SCALE_CPUS:-"2 64 256 1024"}
IFS_=${SCALE_IFS:-"1 8 64"}
say() { echo "sampler_scale: $*" >&2; }

WORK=$(mktemp -d /tmp/lrscale.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM HUP

BIN=${SCALE_BIN:-}
if [ -z "$BIN" ]; then
	make -s -C "$TOP" B=build-bench CFLAGS='-O2 -g' LDFLAGS= build-bench/bench/sampler_scale \
		>"$WORK/build.log" 2>&1 || { tail -5 "$WORK/build.log" >&2; exit 1; }
	BIN=$TOP/build-bench/bench/sampler_scale
fi
cp "$BIN" "$WORK/new" || exit 1
BINS="new"
if [ -n "${SCALE_BASE:-}" ]; then
	cp "$SCALE_BASE" "$WORK/base" || exit 1
	BINS="base new"
fi

for c in $CPUS; do
	for i in $IFS_; do
		t=$WORK/t${c}x$i
		python3 "$TOP/bench/gen_bigtree.py" "$c" $((i + 1)) "$t" auto || exit 1
		cp "$TOP/tests/fixtures/pcp-snmp-3.19.0/proc/net/snmp" "$t/proc/net/snmp"
	done
done

# Rounds of every cell, each binary in turn (alternating which goes first), so that the
# machine's other load falls on all of them alike.
: >"$WORK/runs.tsv"
for ((r = 1; r <= REPS; r++)); do
	say "round $r of $REPS"
	order=$BINS
	[ $((r % 2)) = 0 ] && [ "$BINS" != new ] && order="new base"
	for c in $CPUS; do
		for i in $IFS_; do
			# two whole cycles: i + 1 interfaces one per tick, then 50 ticks of 5 s pause
			ticks=$((2 * (i + 1 + 1 + 50)))
			for b in $order; do
				res=$("$WORK/$b" "$WORK/t${c}x$i" "$ticks") || exit 1
				printf '%s\t%s\t%s\t%s\t%s\n' "$b" "$c" "$i" "$r" "$res" >>"$WORK/runs.tsv"
			done
		done
	done
done

LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
REV=$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?')
section=$(python3 "$TOP/bench/sampler_scale_report.py" "$WORK/runs.tsv" "$SVG" \
	"$(date -u '+%Y-%m-%d %H:%M UTC')" "$(nproc)" "$LOAD" "$REV" "$REPS") || exit 1
python3 "$TOP/bench/results_section.py" "$OUT" scale "$section"
say "wrote the scale section of $OUT and $SVG"
