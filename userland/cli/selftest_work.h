/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The known workloads of `skidless selftest`, whose every sample has one
 * right answer: a loop in which one instruction does all the loads, and a
 * call chain root -> a -> b -> c that spends its time in c.
 */
#ifndef _SKD_SELFTEST_WORK_H
#define _SKD_SELFTEST_WORK_H

#include <stdbool.h>
#include <stdint.h>

#include "skidless.h"

/* Run the load loop for @seconds. */
void selftest_loads(double seconds);
/* The address of the loop's only load instruction. */
uint64_t selftest_load_insn(void);

/* Run root -> a -> b -> c for @seconds. */
void selftest_chain(double seconds);
bool selftest_in_c(uint64_t ip);
/*
 * Do the branch stack's newest entries, in call-stack order, say that b
 * called c, a called b and root called a?
 */
bool selftest_chain_matches(const struct skd_branch_entry *e, unsigned int nr);

#endif /* _SKD_SELFTEST_WORK_H */
