// SPDX-License-Identifier: GPL-2.0
/*
 * costrun CMD [ARGS...]: run CMD between two marks of the instruction
 * counting plugin (bench/cost/insn_plugin.c), a begin just before the fork
 * and an end just after the wait, so the plugin counts everything the
 * whole guest executes meanwhile. Exits with CMD's status.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* nopl 0x534b00NN(%rax,%rax,1): a NOP anywhere, a mark to the plugin. */
#define MARK(code) __asm__ volatile(".byte 0x0f, 0x1f, 0x84, 0x00, " #code \
				", 0x00, 0x4b, 0x53" ::: "memory")

int main(int argc, char *argv[])
{
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: costrun CMD [ARGS...]\n");
		return 2;
	}
	MARK(1);
	pid = fork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = 127 << 8;
	MARK(2);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
