// SPDX-License-Identifier: GPL-2.0
/* A loop that calls into libc through the PLT, for optimizers.sh. */
#include <stdlib.h>

__attribute__((noinline)) int opt_plt_hot(int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++)
		s += abs(i - 5);
	return s;
}

int main(int argc, char *argv[])
{
	(void)argv;
	return opt_plt_hot(argc) & 1;
}
