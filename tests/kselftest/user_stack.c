// SPDX-License-Identifier: GPL-2.0
/*
 * User registers and stack per sample (skd_config.user_stack_bytes):
 * maps_prog writes a known pattern into a local array and spins in a
 * leaf function; its samples must carry regs[IP] == the sample's ip,
 * regs[SP] below the array, and the pattern in the copied stack at the
 * array's offset from regs[SP]. The idle task's samples carry none.
 *
 *   user_stack          the timer backend
 *   user_stack MODEL    the intel backend on a sim model (pmulib), or hw
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "pmulib.h"
#include "testlib.h"

#define STACK_BYTES	4096
#define PATTERN_WORDS	16
#define PATTERN(i)	(0x5eed5eed00000000ULL | ((uint64_t)(i) * 0x01010101U))
#define R_SP		7
#define R_IP		8

struct tally {
	pid_t pid;
	uint64_t leaf_start, leaf_end, words;
	uint64_t user, with_stack, ip_ok, in_leaf, sp_ok, pattern_ok;
	uint64_t kernel_thread, kernel_thread_ok, missing, bad_abi;
	uint64_t max_size;
	int empty_shown;
};

static void each(const struct skd_event *ev, void *arg)
{
	const struct skd_user_stack *us = ev->sample.ustack;
	struct tally *t = arg;
	uint64_t ip, sp, off;
	int i;

	if (ev->type != SKD_REC_SAMPLE)
		return;
	if (!us) {
		t->missing++;
		return;
	}
	if (us->size > t->max_size)
		t->max_size = us->size;
	if (ev->id->pid == 0) {
		/* The idle task: no user half. */
		t->kernel_thread++;
		if (us->abi == SKD_USER_ABI_NONE && !us->size)
			t->kernel_thread_ok++;
		return;
	}
	if (ev->id->pid != (uint32_t)t->pid ||
	    (ev->misc & SKD_MISC_CPUMODE_MASK) != SKD_MISC_USER)
		return;
	t->user++;
	if (us->abi != SKD_USER_ABI_64) {
		t->bad_abi++;
		return;
	}
	t->with_stack += us->size > 0;
	if (!us->size && t->empty_shown++ < 3)
		ktap_diag("empty: ip %#llx sp %#llx misc %#x",
			  (unsigned long long)ev->sample.rec->ip,
			  (unsigned long long)us->regs[R_SP], ev->misc);
	ip = ev->sample.rec->ip;
	t->ip_ok += us->regs[R_IP] == ip;
	if (ip < t->leaf_start || ip >= t->leaf_end)
		return;
	t->in_leaf++;
	sp = us->regs[R_SP];
	if (sp > t->words || t->words + 8 * PATTERN_WORDS > sp + STACK_BYTES)
		return;
	t->sp_ok++;
	off = t->words - sp;
	if (off + 8 * PATTERN_WORDS > us->size)
		return;
	for (i = 0; i < PATTERN_WORDS; i++) {
		uint64_t w;

		memcpy(&w, ev->sample.stack + off + 8 * i, 8);
		if (w != PATTERN(i))
			return;
	}
	t->pattern_ok++;
}

int main(int argc, char **argv)
{
	static const char *const ev_spec[] = { "cycles:pp" };
	struct skd_event_attr ev[1];
	struct tally t = { 0 };
	struct drained d = { .each = each, .arg = &t };
	struct skd_cpu_stats st[64], sum;
	char self[PATH_MAX], prog[PATH_MAX + 16], line[128], wfd[16];
	struct test_session ts;
	struct skd_config cfg;
	struct pmu_test pt;
	struct skd_info info;
	void *a, *b, *c;
	int pfd[2], i;
	bool pmu = argc > 1, ran;
	ssize_t n;

	ktap_plan(7);
	test_device_info(&info);
	if (!(info.features & SKD_FEAT_USER_STACK))
		ktap_fail_all("GET_INFO: no SKD_FEAT_USER_STACK");
	if (!realpath("/proc/self/exe", self))
		ktap_fail_all("no /proc/self/exe");
	snprintf(prog, sizeof(prog), "%s/maps_prog", dirname(self));

	if (pmu) {
		pmu_test_init(&pt, argc, argv);
		if (pmu_config(&pt, &cfg, ev, ev_spec, 1, 200003, 256))
			ktap_fail_all("no PMU session config");
	} else {
		cfg = test_config(1000, 256, 0);
		cfg.flags |= SKD_CFG_IDLE;
	}
	/* No pid filter: the idle task's samples come too (timer: asked). */
	cfg.user_stack_bytes = STACK_BYTES;
	if (session_open(&ts, &cfg) || pipe(pfd))
		ktap_fail_all("cannot set up a session");
	skd_dev_start(ts.fd);
	t.pid = fork();
	if (!t.pid) {
		close(pfd[0]);
		snprintf(wfd, sizeof(wfd), "%d", pfd[1]);
		execl(prog, "maps_prog", "stack", "1.5", wfd, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = 0;
	ran = sscanf(line, "%p %p %p", &a, &b, &c) == 3;
	t.leaf_start = (uintptr_t)a;
	t.leaf_end = (uintptr_t)b;
	t.words = (uintptr_t)c;
	/* Drain as it runs: the rings are not sized for 1.5 s of samples. */
	for (i = 0; i < 40; i++) {
		sleep_seconds(0.05);
		session_drain(&ts, &d);
	}
	ran = reap(t.pid) && ran;
	skd_dev_stop(ts.fd);
	session_drain(&ts, &d);
	session_stats(&ts, st, 64, &sum);

	ktap_result(ran && t.user >= 20 && !t.missing && !t.bad_abi,
		    "%s: every sample carries user regs and stack; %llu user "
		    "samples of the child, all ABI 64", pmu ? argv[1] : "timer",
		    (unsigned long long)t.user);
	/* A precise PMU sample may land a few instructions off the PMI's. */
	ktap_result(t.user && (pmu ? t.ip_ok * 100 >= t.user * 90 :
				     t.ip_ok == t.user),
		    "regs[IP] == the sample's ip in %llu of %llu", 
		    (unsigned long long)t.ip_ok, (unsigned long long)t.user);
	ktap_result(t.in_leaf * 2 >= t.user,
		    "most are in the leaf function (%llu)",
		    (unsigned long long)t.in_leaf);
	ktap_result(t.in_leaf && t.sp_ok == t.in_leaf,
		    "regs[SP] is just below the caller's array in all of them "
		    "(%llu)", (unsigned long long)t.sp_ok);
	ktap_result(t.in_leaf && t.pattern_ok == t.in_leaf,
		    "the caller's pattern is in the copied stack at its offset "
		    "from regs[SP] (%llu of %llu)",
		    (unsigned long long)t.pattern_ok,
		    (unsigned long long)t.in_leaf);
	/*
	 * A sample's stack pointer may point into a page nothing has touched
	 * yet: a precise sample's push faulting it in, or any sample right
	 * after a `sub $N, %rsp` opened a frame in a new page (seen once on
	 * the timer, in ld.so, on the debug kernel). The copy stops at a
	 * missing page, so nothing is copied, as the ABI allows. Rare.
	 */
	ktap_result(t.max_size <= STACK_BYTES &&
		    t.with_stack * 100 >= t.user * 99,
		    "no copy above %d bytes (largest %llu), under 1%% empty",
		    STACK_BYTES, (unsigned long long)t.max_size);
	ktap_result(pmu ? t.kernel_thread == t.kernel_thread_ok :
		    t.kernel_thread && t.kernel_thread == t.kernel_thread_ok,
		    "the idle task's samples (%llu) carry ABI NONE and no stack",
		    (unsigned long long)t.kernel_thread);
	ktap_diag("user %llu, with stack %llu, in leaf %llu, idle %llu",
		  (unsigned long long)t.user, (unsigned long long)t.with_stack,
		  (unsigned long long)t.in_leaf,
		  (unsigned long long)t.kernel_thread);
	if (sum.generated != sum.delivered + sum.lost)
		ktap_diag("accounting: %llu != %llu + %llu",
			  (unsigned long long)sum.generated,
			  (unsigned long long)sum.delivered,
			  (unsigned long long)sum.lost);
	session_close(&ts);
	return ktap_finish();
}
