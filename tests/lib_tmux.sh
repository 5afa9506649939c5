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
# lr_tmux_new W H CMD: the session, W x H, running CMD, without tmux's status line
lr_tmux_new() {
	T new-session -d -s "$LR_TMUX_SESSION" -x "$1" -y "$2" "$3"
	T set-option -t "$LR_TMUX_SESSION" status off >/dev/null
}
# lr_tmux_new_sized W H CMD: the same, its window then held at W x H (tmux may size a detached
# session's window by its default-size)
lr_tmux_new_sized() {
	lr_tmux_new "$@"
	T resize-window -t "$LR_TMUX_SESSION" -x "$1" -y "$2" 2>/dev/null
}
