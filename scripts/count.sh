# shellcheck shell=bash
# How a check is counted (sourced by tests/run.sh and scripts/test-all.sh; tests/README.md says the
# same in words). Every check that ran is a pass or a failure; every check that did not run is a
# skip, by name; a build, binary or stage that fails is a failure. Nothing is ever a pass because it
# merely did not fail.
#
#   lr_count WHERE LOG RC [cmocka]   add what LOG (the output of one binary, script or stage that
#                                    exited RC) says ran
#   lr_count_report                  the skipped names in one block, the failed checks by name
#                                    ("FAILED where: name: why", the first 10 of each place), the
#                                    places, and the closing line "N passed, N failed[, N skipped]";
#                                    returns 1 on a failure
#
# The failed checks are repeated at the end because CI shows only the tail of a long run: a
# nested runner's "FAILED" lines are read back as they are, so the outermost report names them.
#
# In CI (CI=true, or 1, in the environment: root, every tool installed) a check that did not run
# is a failure: lr_count_report lists each skip as "FAIL (skipped in CI) where: name: why", counts
# it in the closing line's failures (there is no ", N skipped" part) and returns 1. lr_count
# reads such lines from a nested runner back as that runner's skips, so they are counted once.
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
LR_CNT_FAILLINES=() # "where: name: why" of each failed check (the first 10 of each place)
LR_CNT_SKIPWHERE=() # "where" of each binary, script or stage that skipped something
LR_CI_SKIP_TAG="FAIL (skipped in CI) "

lr_in_ci() { case ${CI:-} in true | 1) return 0 ;; esac; return 1; }

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
		if grep -q "^SKIPPED \|^$LR_CI_SKIP_TAG" "$log"; then
			# a nested runner's block: under CI its skips are listed as failures and
			# counted in its closing line's failed: they are skips again here
			names=$(sed -n "s/^SKIPPED //p; s/^$LR_CI_SKIP_TAG//p" "$log")
		else
			names=$(sed -n 's/^SKIP \(.*\)$/\1/p' "$log")
		fi
		if [ -n "$line" ]; then
			p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
			f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
			s=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
			s=${s:-0}
			n=$(grep -c "^$LR_CI_SKIP_TAG" "$log")
			if [ "$n" -gt 0 ]; then
				f=$((f - n)) s=$((s + n))
				[ "$f" -ge 0 ] || f=0
			fi
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
	[ "$s" -gt 0 ] && LR_CNT_SKIPWHERE+=("$where")
	# a nested runner that failed only by its skips in CI exited 1: those are counted above
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && ! { [ "$s" -gt 0 ] && lr_in_ci && grep -q "^$LR_CI_SKIP_TAG" "$log"; }; then
		f=1
	fi
	[ "$f" -ne 0 ] && LR_CNT_FAILED+=("$where")
	_lr_fail_lines "$where" "$log" "$kind"
	LR_CNT_PASS=$((LR_CNT_PASS + p)) LR_CNT_FAIL=$((LR_CNT_FAIL + f)) LR_CNT_SKIP=$((LR_CNT_SKIP + s))
	_LR_LAST="$p passed, $f failed, $s skipped"
}

# _lr_fail_lines WHERE LOG KIND: the failed checks' lines of LOG, named, into LR_CNT_FAILLINES
_lr_fail_lines() {
	local x
	while IFS= read -r x; do
		[ -n "$x" ] && LR_CNT_FAILLINES+=("$x")
	done < <(awk -v w="$1" -v kind="$3" -v tag="$LR_CI_SKIP_TAG" '
		index($0, tag) == 1 { next }	# a skip, listed as such
		kind == "cmocka" && /^\[  FAILED  \] [A-Za-z0-9_]+$/ { if (!seen[$4]++) print w ": " $4; next }
		/^FAIL / { print w ": " substr($0, 6); next }
		/^FAILED / { print substr($0, 8) }' "$2" | head -n 10)
}

lr_count_report() {
	local x fails=$LR_CNT_FAIL places=("${LR_CNT_FAILED[@]}")
	if [ "${#LR_CNT_SKIPPED[@]}" -gt 0 ] && lr_in_ci; then
		# CI has root and every tool: a check that did not run failed the run
		echo "skipped in CI, each a failure (${#LR_CNT_SKIPPED[@]}):"
		for x in "${LR_CNT_SKIPPED[@]}"; do echo "$LR_CI_SKIP_TAG$x"; done
		for x in "${LR_CNT_SKIPWHERE[@]}"; do
			printf '%s\n' "${places[@]}" | grep -qxF -- "$x" || places+=("$x")
		done
		fails=$((LR_CNT_FAIL + LR_CNT_SKIP))
	elif [ "${#LR_CNT_SKIPPED[@]}" -gt 0 ]; then
		echo "skipped (${#LR_CNT_SKIPPED[@]}):"
		for x in "${LR_CNT_SKIPPED[@]}"; do echo "SKIPPED $x"; done
	fi
	if [ "${#LR_CNT_FAILLINES[@]}" -gt 0 ]; then
		echo "failed checks (${#LR_CNT_FAILLINES[@]}):"
		for x in "${LR_CNT_FAILLINES[@]}"; do echo "FAILED $x"; done
	fi
	if [ "${#places[@]}" -gt 0 ]; then
		x=$(printf '%s; ' "${places[@]}")
		echo "failures in: ${x%; }"
	fi
	if [ "$LR_CNT_SKIP" -gt 0 ] && ! lr_in_ci; then
		echo "$LR_CNT_PASS passed, $fails failed, $LR_CNT_SKIP skipped"
	else
		echo "$LR_CNT_PASS passed, $fails failed"
	fi
	[ "$fails" -eq 0 ]
}
