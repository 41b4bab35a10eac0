// SPDX-License-Identifier: GPL-2.0
/*
 * Readers sleep in poll()/epoll and are woken at the watermark: not before
 * sampling starts, promptly once enough is there, and after STOP for what
 * is left.
 */
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "device.h"
#include "ktap.h"
#include "testlib.h"

static int poll_in(int fd, int timeout_ms, double *waited)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	double t0 = now_seconds();
	int n = poll(&p, 1, timeout_ms);

	*waited = now_seconds() - t0;
	return n > 0 && (p.revents & POLLIN);
}

int main(void)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct skd_cpu_stats st[64], sum;
	struct drained d = { 0 };
	struct test_session s;
	struct skd_config cfg;
	double waited;
	int ep, r;

	ktap_plan(6);
	cfg = test_config(1000, 16, 8);
	cfg.wakeup_bytes = 4096;
	/* Nothing else runs: the idle task's samples fill the rings. */
	cfg.flags |= SKD_CFG_IDLE;
	if (session_open(&s, &cfg))
		ktap_fail_all("cannot set up a session");

	r = poll_in(s.fd, 300, &waited);
	ktap_result(!r && waited >= 0.25, "before START poll() sleeps until "
		    "its timeout (%.2f s)", waited);

	skd_dev_start(s.fd);
	r = poll_in(s.fd, 10000, &waited);
	ktap_result(r && waited < 9.0, "after START poll() wakes at the "
		    "watermark (%.2f s)", waited);

	session_drain(&s, &d);
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, s.fd, &ev);
	r = epoll_wait(ep, &out, 1, 10000);
	ktap_result(r == 1 && (out.events & EPOLLIN), "epoll wakes too");
	close(ep);

	skd_dev_stop(s.fd);
	r = poll_in(s.fd, 0, &waited);
	ktap_result(r, "after STOP, unread records are reported at once");
	session_drain(&s, &d);
	r = poll_in(s.fd, 200, &waited);
	ktap_result(!r, "a drained, stopped session does not wake readers");

	session_stats(&s, st, 64, &sum);
	ktap_result(sum.wakeups > 0 && sum.wakeups <= sum.delivered,
		    "wakeups were counted (%llu)", (unsigned long long)sum.wakeups);
	session_close(&s);
	return ktap_finish();
}
