// SPDX-License-Identifier: MIT
/*
 * bench helper: runs a command and reports the CPU time and peak RSS of it and of every process
 * it started, even ones it orphaned (sar leaves sadc behind): it is a child subreaper, forwards
 * SIGTERM/SIGINT/SIGHUP to the command, and after the command ends it stops and reaps what is
 * left. Writes one line "utime_us stime_us maxrss_kb status" to OUTFILE. Built by bench/run.sh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t child_pid;

static void forward(int sig)
{
	if (child_pid > 0)
		kill(child_pid, sig);
}

/* Sends sig to every remaining child of this process (orphans reparented to us included). */
static void signal_children(int sig)
{
	char path[64], buf[4096];
	FILE *f;
	size_t n;
	char *p, *end;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", getpid(), getpid());
	f = fopen(path, "r");
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (p = buf;; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0)
			kill((pid_t)pid, sig);
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct rusage ru;
	struct timespec nap = {0, 50 * 1000 * 1000};
	int status = 0, st, tries;
	pid_t pid;
	FILE *out;

	if (argc < 3) {
		fprintf(stderr, "usage: rusage OUTFILE CMD [ARG...]\n");
		return 2;
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	child_pid = pid;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	/* Orphans: ask politely, then insist; reap until none is left. */
	signal_children(SIGTERM);
	for (tries = 0; tries < 40; tries++) {
		pid_t r = waitpid(-1, &st, WNOHANG);

		if (r < 0 && errno == ECHILD)
			break;
		if (r == 0)
			nanosleep(&nap, NULL);
		if (tries == 20)
			signal_children(SIGKILL);
	}
	while (waitpid(-1, &st, 0) > 0)
		;
	getrusage(RUSAGE_CHILDREN, &ru);
	out = fopen(argv[1], "w");
	if (!out)
		return 1;
	fprintf(out, "%lld %lld %ld %d\n",
		(long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
		(long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec, ru.ru_maxrss,
		status);
	fclose(out);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
