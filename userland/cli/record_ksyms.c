// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "buildid_cache.h"
#include "capture.h"
#include "hmap.h"
#include "record_ksyms.h"
#include "symbols.h"

struct ksym_hits {
	struct skd_hmap ips;	/* distinct kernel ips */
	struct skd_hmap syms;	/* symbol address -> symbol, to write */
	struct skd_symtab *kallsyms;
	struct skd_capture_writer *out;
	long written;
};

struct ksym_hits *ksym_hits_new(void)
{
	return calloc(1, sizeof(struct ksym_hits));
}

void ksym_hits_add(struct ksym_hits *h, uint64_t ip)
{
	/* Return addresses may end a function: keep ip - 1 too (cheap). */
	if (!skd_hmap_has(&h->ips, ip))
		skd_hmap_put(&h->ips, ip, h);
	if (!skd_hmap_has(&h->ips, ip - 1))
		skd_hmap_put(&h->ips, ip - 1, h);
}

static void resolve_one(uint64_t ip, void *val, void *arg)
{
	struct ksym_hits *h = arg;
	const struct skd_sym *sym = skd_symtab_lookup(h->kallsyms, ip);

	(void)val;
	if (sym && !skd_hmap_has(&h->syms, sym->addr))
		skd_hmap_put(&h->syms, sym->addr, (void *)sym);
}

static void write_one(uint64_t addr, void *val, void *arg)
{
	struct ksym_hits *h = arg;
	const struct skd_sym *sym = val;

	(void)addr;
	if (!skd_capture_put_ksym(h->out, sym->addr, sym->size, sym->name))
		h->written++;
}

long ksym_hits_write(struct ksym_hits *h, struct skd_capture_writer *out)
{
	/*
	 * Like perf record, keep the text under the kernel's build-id in
	 * the build-id cache, whatever was hit: perf.data carries only the
	 * build-id. Best effort: native files have the KSYM records below.
	 */
	skd_buildid_cache_add(NULL, SKD_KALLSYMS_NAME, NULL, NULL, NULL, 0);
	if (!h->ips.len)
		return 0;
	h->kallsyms = skd_symtab_open_kallsyms("/proc/kallsyms");
	if (!h->kallsyms)
		return -errno;
	h->out = out;
	skd_hmap_each(&h->ips, resolve_one, h);
	skd_hmap_each(&h->syms, write_one, h);
	return h->written;
}

void ksym_hits_free(struct ksym_hits *h)
{
	if (!h)
		return;
	skd_hmap_free(&h->ips);
	skd_hmap_free(&h->syms);
	skd_symtab_free(h->kallsyms);
	free(h);
}
