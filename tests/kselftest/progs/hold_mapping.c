// SPDX-License-Identifier: GPL-2.0
/*
 * For module_cycle.sh: configure a session, map its control page, close
 * the fd, and keep the mapping for the given seconds.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "skidless.h"

int main(int argc, char *argv[])
{
	struct skd_config cfg = {
		.size = sizeof(cfg), .flags = SKD_CFG_FREQ, .ring_pages = 1,
		.sample_freq = 10, .backend = SKD_BACKEND_TIMER,
	};
	int fd = open("/dev/skidless", O_RDWR);
	void *p;

	if (fd < 0 || ioctl(fd, SKD_IOC_CONFIG, &cfg))
		return 1;
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd,
		 SKD_MMAP_OFFSET(0, SKD_MMAP_CONTROL));
	close(fd);
	if (p == MAP_FAILED)
		return 1;
	sleep(argc > 1 ? atoi(argv[1]) : 2);
	return munmap(p, 4096) ? 1 : 0;
}
