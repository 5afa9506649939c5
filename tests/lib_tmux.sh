# The tmux helpers of the tui tests (sourced after tests/lib.sh): one private tmux server per
# script, its socket in the script's work dir and killed on exit (so a test kills only what it
# started), and one session at a time read and driven by these.

# lr_tmux_init WORK SESSION [TENTHS]: the server's socket is WORK/tmux.sock ($sock); SESSION is
# the session the helpers read and drive; TENTHS wait_screen's default wait (default 50).
lr_tmux_init() {
	sock="$1/tmux.sock" LR_TMUX_SESSION=$2 LR_TMUX_TENTHS=${3:-50}
	lr_cleanup_add "tmux -S $sock kill-server"
}
T() { tmux -S "$sock" "$@"; }
screen() { T capture-pane -t "$LR_TMUX_SESSION" -p; }
key() { T send-keys -t "$LR_TMUX_SESSION" "$@"; }
# wait_screen REGEX [TENTHS]: polls the pane every 0.1 s until it shows REGEX (grep -E)
wait_screen() {
	local i
	for ((i = 0; i < ${2:-$LR_TMUX_TENTHS}; i++)); do screen | grep -qE -- "$1" && return 0; sleep 0.1; done
	return 1
}
# wait_file PATH TENTHS: polls every 0.1 s until PATH is there and not empty
wait_file() {
	local i
	for ((i = 0; i < $2; i++)); do [ -s "$1" ] && return 0; sleep 0.1; done
	return 1
}
