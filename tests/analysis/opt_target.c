// SPDX-License-Identifier: GPL-2.0
/*
 * The program optimizers.sh "records": a loop whose body is one basic
 * block around a call, so every stretch between two taken branches lies
 * inside one block and the consumers see the branches alone (no
 * fall-through edges to infer). opt_leaf is local, as is another
 * opt_leaf in opt_dup.c: BOLT tells them apart by number.
 */
static __attribute__((noinline)) int opt_leaf(int x)
{
	return x * 7 + 3;
}

__attribute__((noinline)) int opt_hot(int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++)
		s += opt_leaf(i);
	return s;
}

int main(int argc, char *argv[])
{
	(void)argv;
	return opt_hot(argc * 1000) & 1;
}
