#!/usr/bin/env bash
# valgrind memcheck on real runs: a headless run is leak- and error-free, and its heap
# allocation count does not grow with the number of ticks (the hot path does not allocate);
# a client/server test on loopback (TCP and UDP), both sides under valgrind, is error-free,
# leaves no definite or indirect leak, and both exit 0 (about 15 s for those two).
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

# Client/server: `linerate -s -1` and `linerate -c 127.0.0.1 --headless -t 2`, both under
# valgrind. The server is waited for until it listens (valgrind starts slowly).
listening() { ss -Htln "sport = :$1" 2>/dev/null | grep -q .; }
vg_pair() {	# vg_pair NAME CLIENT_ARGS...
	local name=$1 port=$((20000 + RANDOM % 20000)) i spid crc src; shift
	vg "$LR_BIN" -s -1 -p "$port" >"$work/$name-server.log" 2>&1 &
	spid=$!
	lr_cleanup_add "kill $spid 2>/dev/null"
	for ((i = 0; i < 100; i++)); do listening "$port" && break; sleep 0.1; done
	vg "$LR_BIN" -c 127.0.0.1 -p "$port" --headless -t 2 "$@" >"$work/$name-client.log" 2>&1
	crc=$?
	timeout 20 tail --pid="$spid" -f /dev/null
	wait "$spid"; src=$?
	check "valgrind: $name client clean, exit 0 (rc $crc)" test "$crc" -eq 0
	check "valgrind: $name server (-s -1) clean, exit 0 (rc $src)" test "$src" -eq 0
	[ "$crc" -eq 0 ] || grep -E 'Invalid|definitely|indirectly|uninitialised|linerate:' \
		"$work/$name-client.log" | head -5
	[ "$src" -eq 0 ] || grep -E 'Invalid|definitely|indirectly|uninitialised|linerate:' \
		"$work/$name-server.log" | head -5
}
vg_pair tcp
vg_pair udp -u -b 20M
lr_summary
