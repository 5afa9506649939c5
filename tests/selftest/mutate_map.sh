#!/usr/bin/env bash
# tests/mutations.map (docs/design.md §15) covers the whole tree and names only checks that
# exist: every src/*/*.c matches one of its globs (a file none matches makes each of its
# mutations `invalid`, so a break there could never be shown to be caught), and every check it
# names is a unit test with a source (tests/unit/NAME.c) or a script in the tree. Reads files only.
. "$(dirname "$0")/../lib.sh"
lr_plan "mutate map: every source file is covered" "mutate map: every check it names exists"
map=$LR_TOP/tests/mutations.map
globs=() checks=()
while IFS=$'\t' read -r glob names; do
	case $glob in '#'* | '') continue ;; esac
	globs+=("$glob")
	read -ra more <<<"$names"
	checks+=("${more[@]}")
done <"$map"

uncovered=()
for f in "$LR_TOP"/src/*/*.c; do
	rel=${f#"$LR_TOP"/}
	hit=
	for g in "${globs[@]}"; do
		# shellcheck disable=SC2053 # the glob is a pattern on purpose
		[[ $rel == $g ]] && { hit=1; break; }
	done
	[ -n "$hit" ] || uncovered+=("$rel")
done
if [ ${#uncovered[@]} -eq 0 ]; then
	pass "mutate map: every source file is covered"
else
	fail "mutate map: every source file is covered" "no glob matches ${uncovered[*]}"
fi

missing=()
for c in $(printf '%s\n' "${checks[@]}" | sort -u); do
	case $c in
	test_*) [ -f "$LR_TOP/tests/unit/$c.c" ] || missing+=("$c") ;;
	*) [ -f "$LR_TOP/$c" ] || missing+=("$c") ;;
	esac
done
if [ ${#missing[@]} -eq 0 ]; then
	pass "mutate map: every check it names exists"
else
	fail "mutate map: every check it names exists" "${missing[*]}"
fi
lr_summary
