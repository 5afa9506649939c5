#!/usr/bin/env bash
# Mutation testing in make test-all (docs/design.md §15): scripts/mutate.sh over the whole
# tests/mutations.tsv when run by hand (a maintainer's `make test-all`: about 35 minutes of both
# CPUs), and over CI's sample tests/mutations-ci.tsv under CI=true (.ci/run: unit-test-only
# mutations of breaks that once went unseen, about 10 s, what the 30-minute budget holds).
# LR_MUTATE_CI_LIST names another list either way. On a scratch copy of the tree with the build/
# the gcc stage left, so each mutant recompiles one file. Every mutation is one check, "PASS
# mutant ..." when a check killed it, "FAIL mutant ..." when it survived or was invalid; a check
# that fails on the unmutated tree fails the stage.
set -u
cd "$(dirname "$0")/.." || exit 2
source scripts/count.sh	# lr_in_ci
list=tests/mutations.tsv
lr_in_ci && list=tests/mutations-ci.tsv
list=${LR_MUTATE_CI_LIST:-$list}
echo "mutate: $list"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
t0=$SECONDS
bash scripts/mutate.sh "$list" >"$log" 2>&1
rc=$?
p=0 f=0
while IFS= read -r line; do
	case $line in
	killed*) echo "PASS mutant ${line#killed   }"; p=$((p + 1)) ;;
	survived* | invalid*) echo "FAIL mutant $line"; f=$((f + 1)) ;;
	"mutate: baseline: "*" does not pass "* | "mutate: the unmutated"* | "mutate: cannot"* | \
		"mutate: no mutation"*)
		echo "FAIL ${line#mutate: }"; f=$((f + 1)) ;;
	esac
done <"$log"
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
	tail -n 20 "$log"
	echo "FAIL mutate: exited $rc"
	f=1
fi
echo "mutate: $(grep -c . "$log") lines of output in $((SECONDS - t0)) s"
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
