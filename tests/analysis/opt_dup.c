// SPDX-License-Identifier: GPL-2.0
/*
 * Linked before opt_target.c: a second local opt_leaf at a lower address,
 * so BOLT names opt_target's own "opt_leaf/2" (see userland/cli/opt_binary.h).
 */
static __attribute__((noinline, used)) int opt_leaf(int x)
{
	return x - 1;
}

int opt_dup(int x)
{
	return opt_leaf(x);
}
