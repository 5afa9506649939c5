# shellcheck shell=bash
# How a check is counted (sourced by tests/run.sh and scripts/test-all.sh; tests/README.md says the
# same in words). Every check that ran is a pass or a failure; every check that did not run is a
# skip, by name; a build, binary or stage that fails is a failure. Nothing is ever a pass because it
# merely did not fail.
#
#   lr_count WHERE LOG RC [cmocka]   add what LOG (the output of one binary, script or stage that
#                                    exited RC) says ran
#   lr_count_report                  the skipped names in one block, the failures, and the closing
#                                    line "N passed, N failed[, N skipped]"; returns 1 on a failure
#
# A script's or stage's output is read line by line: "PASS name", "FAIL name: why", "SKIP name: why"
# (tests/lib.sh). When it ends with its own closing line (a runner or a stage script), that line's
# numbers count, and the names come from its "SKIPPED where: name: why" block (nested runners) or
# its SKIP lines. Without any of these lines, an exit 0 is one pass (a build, a tool that says "ok")
# and any other exit one failure. A non-zero exit with no failure counted is one more failure.
# A cmocka binary counts its "[  PASSED  ] N", "[  FAILED  ] N" and "[  SKIPPED ] N" summary lines,
# with the skipped tests' names; a binary with no summary at all failed.

LR_CNT_PASS=0 LR_CNT_FAIL=0 LR_CNT_SKIP=0
LR_CNT_SKIPPED=() # "where: name: why"
LR_CNT_FAILED=()  # "where"

_lr_num() { sed -n "$1" | tail -n1; }

lr_count() {
	local where=$1 log=$2 rc=$3 kind=${4:-checks}
	local p f s line names n

	if [ "$kind" = cmocka ]; then
		p=$(_lr_num 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' <"$log")
		f=$(_lr_num 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' <"$log")
		s=$(_lr_num 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' <"$log")
		p=${p:-0} f=${f:-0} s=${s:-0}
		names=$(sed -n 's/^\[  SKIPPED \] \([^ ]*\)$/\1/p' "$log" | sort -u)
		if [ -z "$(grep -E '^\[  (PASSED  |FAILED  |SKIPPED )\] [0-9]+ test' "$log")" ] && [ "$f" -eq 0 ]; then
			f=1 # no summary: it did not run its tests to the end
		fi
		while IFS= read -r n; do
			[ -n "$n" ] && LR_CNT_SKIPPED+=("$where: $n: cmocka skip()")
		done <<<"$names"
		# a skip cmocka counted whose name was not listed still counts
		n=$(printf '%s\n' "$names" | grep -c .)
		for ((; n < s; n++)); do LR_CNT_SKIPPED+=("$where: (unnamed cmocka skip)"); done
	else
		line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
		if grep -q '^SKIPPED ' "$log"; then
			names=$(sed -n 's/^SKIPPED //p' "$log")
		else
			names=$(sed -n 's/^SKIP \(.*\)$/\1/p' "$log")
		fi
		if [ -n "$line" ]; then
			p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
			f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
			s=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
			s=${s:-0}
		else
			p=$(grep -c '^PASS ' "$log")
			f=$(grep -c '^FAIL ' "$log")
			s=$(grep -c '^SKIP ' "$log")
			if [ $((p + f + s)) -eq 0 ]; then
				if [ "$rc" -eq 0 ]; then p=1; else f=1; fi
			fi
		fi
		n=0
		while IFS= read -r line; do
			[ -n "$line" ] || continue
			LR_CNT_SKIPPED+=("$where: $line")
			n=$((n + 1))
		done <<<"$names"
		[ "$n" -gt "$s" ] && s=$n # a skip the closing line forgot is still a skip
		for ((; n < s; n++)); do LR_CNT_SKIPPED+=("$where: (unnamed skip)"); done
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	[ "$f" -ne 0 ] && LR_CNT_FAILED+=("$where")
	LR_CNT_PASS=$((LR_CNT_PASS + p)) LR_CNT_FAIL=$((LR_CNT_FAIL + f)) LR_CNT_SKIP=$((LR_CNT_SKIP + s))
	_LR_LAST="$p passed, $f failed, $s skipped"
}

lr_count_report() {
	local x
	if [ "${#LR_CNT_SKIPPED[@]}" -gt 0 ]; then
		echo "skipped (${#LR_CNT_SKIPPED[@]}):"
		for x in "${LR_CNT_SKIPPED[@]}"; do echo "SKIPPED $x"; done
	fi
	if [ "${#LR_CNT_FAILED[@]}" -gt 0 ]; then
		x=$(printf '%s; ' "${LR_CNT_FAILED[@]}")
		echo "failures in: ${x%; }"
	fi
	if [ "$LR_CNT_SKIP" -gt 0 ]; then
		echo "$LR_CNT_PASS passed, $LR_CNT_FAIL failed, $LR_CNT_SKIP skipped"
	else
		echo "$LR_CNT_PASS passed, $LR_CNT_FAIL failed"
	fi
	[ "$LR_CNT_FAIL" -eq 0 ]
}
