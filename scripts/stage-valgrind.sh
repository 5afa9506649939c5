#!/usr/bin/env bash
# valgrind memcheck on real runs: a headless run is leak- and error-free, and its heap
# allocation count does not grow with the number of ticks (the hot path does not allocate).
# Prints PASS/FAIL lines and a closing "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
source tests/lib.sh
make -s build/linerate >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
LR_FAILED=0
work=$(mktemp -d); lr_cleanup_add "rm -rf $work"
vg() { valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect "$@"; }

allocs() { sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$1" | tr -d ,; }
vg "$LR_BIN" --headless -i 0.05 -t 1 --csv "$work/a.csv" --cpu-csv "$work/c.csv" 2>"$work/short.log"
check "valgrind: headless 1 s run clean" test $? -eq 0
vg "$LR_BIN" --headless -i 0.05 -t 12 --csv "$work/a.csv" --cpu-csv "$work/c.csv" 2>"$work/long.log"
check "valgrind: headless 12 s run clean" test $? -eq 0
check "no allocation per tick (20 vs 240 ticks, IRQ map refreshes included: same heap allocation count)" \
	test "$(allocs "$work/short.log")" = "$(allocs "$work/long.log")"
vg "$LR_BIN" --headless -i 0.05 -t 1 --source proc --csv /dev/null 2>"$work/proc.log"
check "valgrind: proc source run clean" test $? -eq 0
vg "$LR_BIN" --headless -t 1 --csv /dev/full 2>"$work/full.log"
check "valgrind: /dev/full exits 1 without leaks" test $? -eq 1
lr_summary
