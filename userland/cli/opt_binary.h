/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The program an optimizer feed is for (`convert --binary PATH`): which
 * of a capture's addresses fall in it, where in its file, and which of
 * its functions holds them, named as BOLT names them (the symbol table's
 * own, mangled names; a local symbol gets "/N", its rank among the local
 * symbols of that name in address order, as llvm-bolt's NameResolver
 * makes them unique; a PLT stub is NAME@PLT).
 */
#ifndef _SKD_OPT_BINARY_H
#define _SKD_OPT_BINARY_H

#include <stdbool.h>
#include <stdint.h>

#include "buildid.h"
#include "profile.h"

struct opt_func {
	uint64_t addr, size;	/* link-time address */
	char *name;		/* BOLT's name */
};

struct opt_segment {
	uint64_t vaddr, offset, filesz;
};

struct opt_binary {
	char path[4096];	/* as given */
	char build_id[SKD_BUILD_ID_HEX];	/* "" when it has none */
	struct opt_segment seg[16];	/* PT_LOAD */
	unsigned int nr_seg;
	struct opt_func *funcs;	/* by address */
	size_t nr_funcs;
	uint64_t in;		/* addresses found in it */
	/* A mapping of the same name with another build-id: rebuilt since. */
	char other_id[SKD_BUILD_ID_HEX];
};

/* Says why on stderr (naming @cmd) and returns -errno on failure. */
int opt_binary_open(struct opt_binary *b, const char *path, const char *cmd);
void opt_binary_close(struct opt_binary *b);

/*
 * Is @addr of @ev's process in @b? Then its file offset. The mapping
 * matches by build-id when the capture has one for it, else by file
 * name (what AutoFDO's reader does).
 */
bool opt_binary_offset(struct opt_binary *b, struct skd_profile *p,
		       const struct skd_event *ev, uint64_t addr,
		       uint64_t *file_off);

/*
 * Where AutoFDO's reader (quipper) puts @addr: true with the file offset
 * in whatever object is mapped there (a kernel address: itself), *@in
 * telling whether that object is @b; false when no mapping of @ev's
 * process holds it.
 */
bool opt_binary_place(struct opt_binary *b, struct skd_profile *p,
		      const struct skd_event *ev, uint64_t addr,
		      uint64_t *file_off, bool *in);

/* The function holding file offset @off, and where in it; NULL: none. */
const struct opt_func *opt_binary_func(const struct opt_binary *b,
				       uint64_t off, uint64_t *func_off);

/*
 * @ev's branch stack as a trace of taken branches, newest first; NULL
 * (and *@nr 0) without one, or for an LBR call stack (--call-graph lbr),
 * whose entries are the open calls, not the branches taken.
 */
static inline const struct skd_branch_entry *
opt_trace(const struct skd_event *ev, unsigned int *nr)
{
	if (!ev->sample.branches || !ev->sample.nr_branches ||
	    (ev->sample.branch_flags & SKD_BR_CALL_STACK)) {
		*nr = 0;
		return NULL;
	}
	*nr = ev->sample.nr_branches;
	return ev->sample.branches;
}

/*
 * The checks both feeds share before writing: the capture has branch
 * traces (@need_branches; without it, a note when only call stacks) and
 * touches the binary. Says why on stderr.
 */
int opt_binary_check(struct opt_binary *b, struct skd_profile *p,
		     const char *input, const char *cmd, bool need_branches);

#endif /* _SKD_OPT_BINARY_H */
