#!/usr/bin/env bash
# The mutation harness (scripts/mutate.sh, docs/design.md §15) says what became of each mutant,
# over a list on src/sample/rate.c whose only check is test_rate (a map of one line): a 64-bit
# counter going backwards read as a wrap is killed, naming test_rate; a changed comment, which no
# check can see, survives; a text the file does not have and a mutant that does not compile are
# invalid, never killed. The closing line counts them, the exit status is not 0, and the
# scratch copy is gone afterwards. About 15 s.
. "$(dirname "$0")/../lib.sh"
lr_plan "mutate: a reset read as a wrap is killed by test_rate" \
	"mutate: a comment changed survives" "mutate: a text not in the file is invalid" \
	"mutate: a mutant that does not build is invalid" "mutate: the closing line counts them" \
	"mutate: exit status not 0" "mutate: the scratch copy removed"
work=$(mktemp -d)
lr_cleanup_add "rm -rf $work"
printf 'src/sample/rate.c\ttest_rate\n' >"$work/map"
{
	printf 'src/sample/rate.c\tif (width == 32 && prev <= UINT32_MAX) {\tif (prev <= UINT32_MAX || width == 64) {\treset as wrap\n'
	printf '# a comment line, then a blank one\n\n'
	printf 'src/sample/rate.c\t/* 64-bit: reset, not wrap */\t/* 64-bit: a reset */\tcomment\n'
	printf 'src/sample/rate.c\tno such text in rate.c\tx\tabsent\n'
	printf 'src/sample/rate.c\treturn true;\\n\\t}\\n\\tif (width == 32\treturn true;\\n\\t}\\n\\tif (width === 32\tsyntax\n'
} >"$work/list"
out=$(TMPDIR=$work LR_MUTATE_MAP=$work/map bash "$LR_TOP/scripts/mutate.sh" "$work/list" 2>&1)
rc=$?
has() { grep -qE "$1" <<<"$out"; }
check "mutate: a reset read as a wrap is killed by test_rate" has '^killed +#1 src/sample/rate.c:15 by test_rate .*reset as wrap$'
check "mutate: a comment changed survives" has '^survived #2 src/sample/rate.c:19; passed: test_rate .*comment$'
check "mutate: a text not in the file is invalid" has '^invalid +#3 src/sample/rate.c .*occurs 0 times'
check "mutate: a mutant that does not build is invalid" has '^invalid +#4 src/sample/rate.c:.*does not build'
check "mutate: the closing line counts them" test "$(tail -n1 <<<"$out")" = "1 killed, 1 survived, 2 invalid"
check "mutate: exit status not 0" test "$rc" -ne 0
check "mutate: the scratch copy removed" test -z "$(find "$work" -maxdepth 1 -name 'linerate-mutate.*')"
[ "$LR_FAILS" -eq 0 ] || sed 's/^/    | /' <<<"$out"
lr_summary
