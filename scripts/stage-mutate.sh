#!/usr/bin/env bash
# CI's sample of mutation testing (docs/design.md §15): scripts/mutate.sh over
# tests/mutations-ci.tsv (LR_MUTATE_CI_LIST overrides it), unit-test-only mutations of breaks that
# once went unseen, on a scratch copy of the tree with the build/ the gcc stage left, so each
# mutant recompiles one file. Every mutation is one check, "PASS mutant ..." when a check killed
# it, "FAIL mutant ..." when it survived or was invalid; a check that fails on the unmutated tree
# fails the stage. About 20 s on 2 CPUs; `make mutate` runs the whole list.
set -u
cd "$(dirname "$0")/.." || exit 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
t0=$SECONDS
bash scripts/mutate.sh "${LR_MUTATE_CI_LIST:-tests/mutations-ci.tsv}" >"$log" 2>&1
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
