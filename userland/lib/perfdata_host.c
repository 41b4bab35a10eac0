// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "buildid.h"
#include "perfdata_host.h"
#include "readall.h"

#ifndef SKD_TOOL_VERSION
#define SKD_TOOL_VERSION "unknown"
#endif

static void put_string_feature(struct pd_writer *w, unsigned int f,
			       const char *s)
{
	struct pd_buf b = { 0 };

	pd_buf_string(&b, s);
	if (!b.err)
		pd_writer_feature(w, f, b.p, b.len);
	pd_buf_free(&b);
}

/* The value of the first "@key<spaces>: value" line of @path, squashed. */
static int proc_field(const char *path, const char *key, char *out,
		      size_t len)
{
	char line[1024], *v, *o;
	size_t klen = strlen(key);
	FILE *f = fopen(path, "re");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || !strchr(line, ':'))
			continue;
		for (v = line + klen; *v == ' ' || *v == '\t'; v++)
			;
		if (*v != ':')
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		/* perf squashes runs of blanks to one (header.c). */
		for (o = out; *v && *v != '\n' && o + 1 < out + len; v++)
			if (!(*v == ' ' && o > out && o[-1] == ' '))
				*o++ = *v == '\t' ? ' ' : *v;
		*o = '\0';
		found = 1;
	}
	fclose(f);
	return found;
}

static void put_cpu_features(struct pd_writer *w, const char *cpudesc)
{
	char vendor[64], fam[16], model[16], step[16], desc[256], cpuid[160];
	uint32_t nr[2];
	long n;

	/* NRCPUS: the code reads nr_cpus_avail first, then online. */
	n = sysconf(_SC_NPROCESSORS_CONF);
	nr[0] = n > 0 ? (uint32_t)n : 1;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	nr[1] = n > 0 ? (uint32_t)n : 1;
	pd_writer_feature(w, PD_FEAT_NRCPUS, nr, sizeof(nr));
	if (cpudesc)
		put_string_feature(w, PD_FEAT_CPUDESC, cpudesc);
	else if (proc_field("/proc/cpuinfo", "model name", desc, sizeof(desc)))
		put_string_feature(w, PD_FEAT_CPUDESC, desc);
	if (proc_field("/proc/cpuinfo", "vendor_id", vendor, sizeof(vendor)) &&
	    proc_field("/proc/cpuinfo", "cpu family", fam, sizeof(fam)) &&
	    proc_field("/proc/cpuinfo", "model", model, sizeof(model)) &&
	    proc_field("/proc/cpuinfo", "stepping", step, sizeof(step))) {
		snprintf(cpuid, sizeof(cpuid), "%s,%s,%s,%s", vendor, fam,
			 model, step);
		put_string_feature(w, PD_FEAT_CPUID, cpuid);
	}
}

static uint64_t ts_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int pd_host_features(struct pd_writer *w, int argc, char *const argv[],
		     const char *cpudesc)
{
	struct pd_buf b = { 0 };
	char mem[64];
	struct utsname u;
	struct timespec res;
	uint64_t kb, v;
	int i;

	if (!uname(&u)) {
		put_string_feature(w, PD_FEAT_HOSTNAME, u.nodename);
		put_string_feature(w, PD_FEAT_OSRELEASE, u.release);
		put_string_feature(w, PD_FEAT_ARCH, u.machine);
	}
	put_string_feature(w, PD_FEAT_VERSION, "skidless " SKD_TOOL_VERSION);
	put_cpu_features(w, cpudesc);
	/* TOTAL_MEM: the MemTotal number, kB (header.c writes it so). */
	if (proc_field("/proc/meminfo", "MemTotal", mem, sizeof(mem))) {
		kb = strtoull(mem, NULL, 10);
		pd_writer_feature(w, PD_FEAT_TOTAL_MEM, &kb, sizeof(kb));
	}
	pd_buf_u32(&b, (uint32_t)argc);
	for (i = 0; i < argc; i++)
		pd_buf_string(&b, argv[i]);
	if (!b.err)
		pd_writer_feature(w, PD_FEAT_CMDLINE, b.p, b.len);
	pd_buf_free(&b);

	/* Our clock is CLOCK_MONOTONIC: its resolution, and a pairing
	 * with the wall clock for perf script --clock-time. */
	v = clock_getres(CLOCK_MONOTONIC, &res) ? 1 :
	    (uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec;
	pd_writer_feature(w, PD_FEAT_CLOCKID, &v, sizeof(v));
	pd_buf_u32(&b, 1);			/* version */
	pd_buf_u32(&b, CLOCK_MONOTONIC);
	pd_buf_u64(&b, ts_ns(CLOCK_REALTIME));
	pd_buf_u64(&b, ts_ns(CLOCK_MONOTONIC));
	if (!b.err)
		pd_writer_feature(w, PD_FEAT_CLOCK_DATA, b.p, b.len);
	pd_buf_free(&b);
	return pd_writer_flush(w);
}

/* ---- kernel maps ---- */

static int kallsyms_text(uint64_t *text, uint64_t *etext)
{
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "re");

	*text = *etext = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && (!*text || !*etext)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			*text = addr;
		else if (!strcmp(name, "_etext"))
			*etext = addr;
	}
	fclose(f);
	/* Zeros: kptr_restrict hides addresses; perf rebuilds the maps. */
	return *text && *etext > *text ? 0 : -EPERM;
}

int pd_host_kernel_maps(struct pd_writer *w, struct pd_conv *c)
{
	const struct pd_header *h;
	unsigned long long size, addr;
	uint64_t text, etext;
	char line[512], name[256];
	FILE *f;
	int err = 0;

	if (kallsyms_text(&text, &etext))
		return 0;
	h = pd_conv_kernel_mmap(c, "[kernel.kallsyms]_text", text,
				etext - text, text, &err);
	if (h)
		pd_writer_put(w, h);
	f = fopen("/proc/modules", "re");
	if (!f)
		return err;
	while (fgets(line, sizeof(line), f)) {
		char mod[300];

		/* name size refcount deps state address */
		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", name, &size,
			   &addr) != 3 || !addr || !size)
			continue;
		snprintf(mod, sizeof(mod), "[%s]", name);
		h = pd_conv_kernel_mmap(c, mod, addr, size, 0, &err);
		if (h)
			pd_writer_put(w, h);
	}
	fclose(f);
	return err;
}

/* ---- build-ids ---- */

void pd_build_id_entry(struct pd_buf *b, uint16_t cpumode,
		       const uint8_t *id, uint8_t id_len, const char *path)
{
	static const uint8_t zeros[PD_NAME_ALIGN];
	size_t n = strlen(path) + 1;
	size_t padded = (n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;
	struct pd_header h = { PD_REC_HEADER_BUILD_ID,
			       (uint16_t)(cpumode | PD_MISC_BUILD_ID_SIZE), 0 };
	uint8_t bid[24] = { 0 };
	int32_t pid = -1;		/* host machine */

	if (PD_BUILD_ID_REC_FIXED + padded > 0xfff8)
		return;
	h.size = (uint16_t)(PD_BUILD_ID_REC_FIXED + padded);
	memcpy(bid, id, id_len > 20 ? 20 : id_len);
	bid[20] = id_len;
	pd_buf_put(b, &h, sizeof(h));
	pd_buf_put(b, &pid, sizeof(pid));
	pd_buf_put(b, bid, sizeof(bid));
	pd_buf_put(b, path, n);
	pd_buf_put(b, zeros, padded - n);
}

int pd_host_kernel_build_id(struct pd_buf *b)
{
	char hex[SKD_BUILD_ID_HEX];
	uint8_t id[20];
	int ret;

	ret = skd_build_id_kernel(NULL, hex, sizeof(hex));
	if (ret < 0)
		return ret;
	ret = skd_build_id_bytes(hex, id, sizeof(id));
	if (ret < 0)
		return ret;
	pd_build_id_entry(b, PD_MISC_KERNEL, id, (uint8_t)ret,
			  "[kernel.kallsyms]");
	return 0;
}
