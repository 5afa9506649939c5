#!/bin/bash
# SPDX-License-Identifier: MIT
# The classifier's score on driver counter names its rules were not written from (issues 11, 29):
# bench/classify_unseen (lr_classify against a driver<TAB>name<TAB>category<TAB>why set) on each
# set given, by default the clean second set (tests/fixtures/ethtool-unseen2, frozen in its own
# commit before any rule change) and the first set (tests/fixtures/ethtool-unseen, frozen two
# minutes before a rule change that moved three of its names: shown, labelled contaminated).
# A benchmark, never a test: prints every disagreement, exits 0 whatever the score. Writes its
# section of bench/RESULTS.md (between <!-- section:classify:begin/end -->) unless BENCH_RESULTS=-
# (stdout only). Usage: classify_unseen.sh [SET.tsv ...]   (make bench-classify)
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_RESULTS:-$TOP/bench/RESULTS.md}
BIN=${LR_CLASSIFY_BIN:-$TOP/build/bench/classify_unseen}
say() { echo "classify_unseen: $*" >&2; }
[ -x "$BIN" ] || make -s -C "$TOP" build/bench/classify_unseen >&2 || exit 1
cd "$TOP" || exit 1

CLEAN=tests/fixtures/ethtool-unseen2/unseen.tsv
OLD=tests/fixtures/ethtool-unseen/unseen.tsv
[ $# -gt 0 ] || set -- "$CLEAN" "$OLD"

# label SET -> how the set stands against the rules, for the section's headings
label() {
	case $1 in
	"$CLEAN") echo "second set, frozen in its own commit before any rule change (tests/fixtures/ethtool-unseen2/README.md)" ;;
	"$OLD") echo "contaminated: frozen two minutes before a rule change of issue 11 that moved three of its names (tests/fixtures/ethtool-unseen/README.md); kept for comparison, not a score on unseen names" ;;
	*) echo "$1" ;;
	esac
}

# The rules under test: src/ and include/ of this commit (a dirty tree is said so, never hidden).
tree="src/ and include/ of commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
git diff --quiet HEAD -- src include "$@" 2>/dev/null || tree="$tree + uncommitted changes to them or to the sets"
# Names tests/unit/test_classify.c pins (any quoted string there) are not unseen whatever a set's
# README says: a set holding some is also scored without them. (ethtool-unseen2 holds 50: the
# grep that was to leave them out when it was frozen missed every one; the file stays as frozen.)
WORK=$(mktemp -d /tmp/lrclassify.XXXXXX) || exit 1
trap 'rm -rf "$WORK"' EXIT
grep -o '"[^"]*"' tests/unit/test_classify.c | tr -d '"' | sort -u >"$WORK/pinned"
body=""
# score SET.tsv HEADING-NOTE: prints the bench's full output, adds its agreement table to $body
score() {
	local res drivers
	res=$("$BIN" "$1") || { say "$1: bad file"; exit 2; }
	printf '== %s (%s)\n%s\n\n' "$1" "$2" "$res"
	drivers=$(cut -f1 "$1" | sort -u | paste -sd, - | sed 's/,/, /g')
	body+="#### $(wc -l <"$1") names of $drivers"$'\n\n'"$2"$'\n\n```\n'
	body+=$(printf '%s\n' "$res" | sed -n '/^agreement per/,$p')
	body+=$'\n```\n\n'
}
for set in "$@"; do
	score "$set" "$set: $(label "$set")"
	awk -F'\t' 'NR == FNR { p[$0] = 1; next } !($2 in p)' "$WORK/pinned" "$set" >"$WORK/unpinned.tsv"
	pinned=$(($(wc -l <"$set") - $(wc -l <"$WORK/unpinned.tsv")))
	[ "$pinned" -eq 0 ] ||
		score "$WORK/unpinned.tsv" "$set without the $pinned names tests/unit/test_classify.c pins: the score on names the rules were never tested on"
done
section="### Classifier on unseen driver counter names (make bench-classify)"$'\n\n'
section+="bench/classify_unseen.sh, $(date -u '+%Y-%m-%d'), $tree. Agreement of \`lr_classify\` with labels written"
section+=" from the drivers' sources and docs; a benchmark, never tuned to (the sets' READMEs say why)."$'\n\n'
section+=${body%$'\n\n'}
if [ "$OUT" != - ]; then
	python3 "$TOP/bench/results_section.py" "$OUT" "classify" "$section"
	say "wrote its section of $OUT"
fi
