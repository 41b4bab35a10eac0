/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the kernels skidless builds against
 * (Debian's 6.1 and 6.12, and newer). Kbuild probes the headers for each
 * API (SKD_HAVE_*) rather than trusting version numbers, so distribution
 * kernels with backports get the right side too.
 */
#ifndef _SKD_COMPAT_H
#define _SKD_COMPAT_H

#include <linux/mm.h>
#include <linux/hrtimer.h>
#include <linux/syscore_ops.h>

/* 6.3 made vma->vm_flags read-only behind helpers. */
#ifdef SKD_HAVE_VM_FLAGS_SET
#define skd_vm_flags_set(vma, flags)	vm_flags_set(vma, flags)
#define skd_vm_flags_clear(vma, flags)	vm_flags_clear(vma, flags)
#else
static inline void skd_vm_flags_set(struct vm_area_struct *vma,
				    unsigned long flags)
{
	vma->vm_flags |= flags;
}

static inline void skd_vm_flags_clear(struct vm_area_struct *vma,
				      unsigned long flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/* 6.13 replaced hrtimer_init() + ->function with hrtimer_setup(). */
#ifdef SKD_HAVE_HRTIMER_SETUP
#define skd_hrtimer_setup(t, fn, clock, mode)	hrtimer_setup(t, fn, clock, mode)
#else
static inline void skd_hrtimer_setup(struct hrtimer *t,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(t, clock, mode);
	t->function = fn;
}
#endif

/* 6.16 renamed the 64-bit MSR accessors from *msrl* to *msrq*. */
#include <asm/msr.h>
#ifdef SKD_HAVE_RDMSRQ
#define skd_rdmsr_safe(msr, val)	rdmsrq_safe(msr, val)
#define skd_wrmsr_safe(msr, val)	wrmsrq_safe(msr, val)
#else
#define skd_rdmsr_safe(msr, val)	rdmsrl_safe(msr, val)
#define skd_wrmsr_safe(msr, val)	wrmsrl_safe(msr, val)
#endif

/*
 * 6.18 (and Debian's later 6.12 updates) pass syscore callbacks a data
 * pointer and register them through a struct syscore. Callbacks are
 * declared with SKD_SYSCORE_ARGS as their parameter list.
 */
#ifdef SKD_HAVE_REGISTER_SYSCORE
#define SKD_SYSCORE_ARGS	void *data
struct skd_syscore {
	struct syscore_ops ops;
	struct syscore syscore;
};

static inline void skd_register_syscore(struct skd_syscore *s)
{
	s->syscore.ops = &s->ops;
	register_syscore(&s->syscore);
}

static inline void skd_unregister_syscore(struct skd_syscore *s)
{
	unregister_syscore(&s->syscore);
}
#else
#define SKD_SYSCORE_ARGS	void
struct skd_syscore {
	struct syscore_ops ops;
};

static inline void skd_register_syscore(struct skd_syscore *s)
{
	register_syscore_ops(&s->ops);
}

static inline void skd_unregister_syscore(struct skd_syscore *s)
{
	unregister_syscore_ops(&s->ops);
}
#endif

/*
 * 6.8 set overlayfs's backing files apart: /proc/PID/maps and perf show
 * the file the user opened, file_user_path() and file_user_inode().
 */
#include <linux/fs.h>
#ifdef SKD_HAVE_FILE_USER_PATH
#define skd_file_user_path(f)	file_user_path(f)
#define skd_file_user_inode(f)	file_user_inode(f)
#else
static inline const struct path *skd_file_user_path(struct file *f)
{
	return &f->f_path;
}

static inline const struct inode *skd_file_user_inode(struct file *f)
{
	return file_inode(f);
}
#endif

/*
 * 6.15 moved the CPUID helpers (cpuid_count() and the rest) to
 * <asm/cpuid/api.h>, which <asm/processor.h> stopped pulling in by 7.2.
 */
#ifdef SKD_HAVE_ASM_CPUID_API
#include <asm/cpuid/api.h>
#else
#include <asm/processor.h>
#endif

/*
 * 6.2 made nla_policy's range pointers const; before, the ranges a policy
 * points at cannot be const themselves.
 */
#ifdef SKD_HAVE_CONST_NLA_RANGE
#define skd_nla_range_t	const struct netlink_range_validation
#else
#define skd_nla_range_t	struct netlink_range_validation __ro_after_init
#endif

#endif /* _SKD_COMPAT_H */
