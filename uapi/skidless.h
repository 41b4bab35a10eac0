/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * skidless: the ABI between the skidless kernel module and its readers.
 *
 * Documentation
 * =============
 *
 * Device
 * ------
 * The module registers the misc device /dev/skidless (mode 0600). Opening it
 * needs CAP_PERFMON or CAP_SYS_ADMIN, otherwise open() fails with EPERM.
 * That is the only check: an open file is the capability, and whoever it
 * is passed to (fork, SCM_RIGHTS) may use its session as the opener may.
 * One open file description is one session; closing it stops and frees the
 * session. The module cannot be unloaded while any session is open.
 *
 * A session goes through: open -> SKD_IOC_CONFIG (once) -> mmap the rings
 * -> SKD_IOC_START -> drain with poll()/epoll -> SKD_IOC_STOP -> drain the
 * rest -> SKD_IOC_GET_STATS -> close. START and STOP may alternate.
 *
 * Ioctls
 * ------
 * Every ioctl takes a pointer to a struct whose first field is its size as
 * the caller knows it. Structs only ever grow at the end. The kernel accepts
 * a larger size when the bytes it does not know are zero (E2BIG otherwise)
 * and a smaller one down to the first published version (EINVAL below it).
 *
 *   SKD_IOC_GET_INFO   struct skd_info, filled by the kernel. ->size on
 *                      return is the number of bytes the kernel wrote.
 *   SKD_IOC_CONFIG     struct skd_config, read by the kernel. Allocates the
 *                      rings. Only once per session (EBUSY afterwards).
 *   SKD_IOC_START      argument must be 0. EBADFD before CONFIG, EALREADY
 *                      when running.
 *   SKD_IOC_STOP       argument must be 0. EALREADY when not running.
 *   SKD_IOC_GET_STATS  struct skd_stats; the kernel writes one
 *                      struct skd_cpu_stats per possible CPU id into the
 *                      caller's array.
 *   SKD_IOC_GET_PMU    struct skd_pmu_info: what the intel backend found
 *                      on this machine, or what a sim model declares.
 *                      Works on any open file, configured or not.
 *   SKD_IOC_READ_MAPS  struct skd_read_maps: COMM and SKD_REC_MMAP records
 *                      describing, as they are now, the threads and the
 *                      executable mappings of the tasks the session
 *                      follows (version 2). EBADFD before CONFIG.
 *
 * The PMU backends (intel, sim) sample events (struct skd_event_attr,
 * given to CONFIG) with PEBS where asked and possible, and LBR branch
 * stacks (skd_config.branch_sample). One session at a time owns the PMU
 * of a CPU: START of a second session wanting the same CPU fails with
 * EBUSY, as it does when perf or the NMI watchdog holds the counters.
 * Further errnos of CONFIG for them: EOPNOTSUPP (an event is not
 * PEBS-capable on this model, or the model has no LBR), ENOSPC (more
 * events than counters, or counter constraints that cannot all be met),
 * EPERM (PEBS refused while kernel page-table isolation is active).
 *
 * Errors are specific: EFAULT (bad pointer), EINVAL (a field has a value
 * that can never be valid), E2BIG (unknown non-zero trailing bytes),
 * EOPNOTSUPP (unknown flag bits), ERANGE (a number outside the module's
 * limits, see struct skd_info), ENODEV (backend not usable on this machine),
 * ESRCH (no such process), EBUSY (already configured), EBADFD (not yet
 * configured), EALREADY (already in the requested state), ENOTTY (not an
 * skidless ioctl).
 *
 * Rings and mmap
 * --------------
 * CONFIG creates one ring per possible CPU. Each ring is reached at its own
 * mmap offset (see SKD_MMAP_OFFSET) and has two regions, mapped separately
 * with MAP_SHARED:
 *
 *   control  exactly one page, PROT_READ | PROT_WRITE: struct skd_ring_ctrl.
 *            The reader writes data_tail here and nothing else.
 *   data     ring_pages pages, PROT_READ only. A mapping of twice that size
 *            maps the data twice back to back, so a record never wraps in
 *            the reader's view.
 *
 * Any other length, offset, a writable data mapping or MAP_PRIVATE fails
 * (EINVAL, EINVAL, EPERM, EINVAL). A file opened O_RDONLY maps both
 * regions, for reading only.
 *
 * The kernel never overwrites data the reader has not released by advancing
 * data_tail. When a record does not fit, it is dropped and counted; once
 * space returns, an SKD_REC_LOST record carrying the count is written ahead
 * of the next record (a record from an interrupt nested in that write may
 * come first). Per CPU, generated == delivered + lost holds exactly whenever
 * no record is being written (in particular after STOP), and the LOST
 * counts in the stream plus lost_unreported add up to lost.
 *
 * Reader loop (C11 atomics shown; any acquire/release pair works):
 *
 *	head = atomic_load_explicit(&ctrl->data_head, memory_order_acquire);
 *	tail = ctrl->data_tail;
 *	while (tail != head) {
 *		hdr = data + (tail & (ctrl->data_size - 1));
 *		consume(hdr);                 (hdr->size bytes, 8-byte aligned)
 *		tail += hdr->size;
 *	}
 *	atomic_store_explicit(&ctrl->data_tail, tail, memory_order_release);
 *
 * The acquire load pairs with the kernel's release store of data_head after
 * the record bytes; the release store of data_tail pairs with the kernel's
 * acquire load before it reuses the space (kmod/ring_core.c).
 *
 * poll() reports EPOLLIN when a ring holds at least wakeup_bytes unread
 * bytes, and also, once the session is stopped, when any ring holds unread
 * bytes.
 *
 * Records
 * -------
 * Every record starts with struct skd_rec_header, then struct skd_rec_id.
 * Sizes are multiples of 8. Readers skip types they do not know. Record
 * types below 0x4000 are produced by the kernel; the range from 0x8000 is
 * left to readers for their own files. Time is CLOCK_MONOTONIC in ns, one
 * clock on every CPU, comparable with clock_gettime(CLOCK_MONOTONIC).
 * Process ids are in the pid namespace of the process that opened the
 * session (0 when the task is not visible there).
 */
#ifndef _UAPI_SKIDLESS_H
#define _UAPI_SKIDLESS_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#define SKD_ABI_VERSION		2
#define SKD_DEVICE_NAME		"skidless"

#define SKD_MAX_CALLCHAIN	127	/* frames per sample, kernel + user */

/* ------------------------------------------------------------------ */
/* Backends                                                            */

enum skd_backend_id {
	SKD_BACKEND_DEFAULT	= 0,	/* the module's backend= parameter */
	SKD_BACKEND_TIMER	= 1,	/* hrtimer sampling, any machine */
	SKD_BACKEND_INTEL	= 2,	/* the CPU's PMU: PEBS and LBR */
	SKD_BACKEND_SIM		= 3,	/* simulated Intel PMU */
	__SKD_BACKEND_MAX		/* non-ABI */
};

/* ------------------------------------------------------------------ */
/* SKD_IOC_GET_INFO                                                    */

struct skd_info {
	__u32 size;		/* in: caller's sizeof; out: bytes written */
	__u32 abi_version;	/* SKD_ABI_VERSION of the module */
	__u32 backends;		/* bit (1 << id) per usable backend */
	__u32 default_backend;	/* what SKD_BACKEND_DEFAULT resolves to */
	__u32 nr_cpu_ids;	/* CPU ids are < this: rings, stats, masks */
	__u32 nr_cpus_online;
	__u32 page_size;
	__u32 max_ring_pages;	/* upper bound of skd_config.ring_pages */
	__u32 max_callchain;	/* SKD_MAX_CALLCHAIN */
	__u32 max_freq;		/* timer backend: highest sample_freq, Hz */
	__u32 sessions;		/* sessions open right now, this one included */
	__u32 features;		/* enum skd_features (version 2; 0 before) */
	char version[32];	/* module version, NUL-terminated */
	char pmu[128];		/* PMU found, or why none is usable */
};

#define SKD_INFO_SIZE_VER0	208

enum skd_features {
	/*
	 * SKD_REC_MMAP records are written as followed tasks map code. Without
	 * it (a kernel without kprobes), only SKD_IOC_READ_MAPS knows maps.
	 */
	SKD_FEAT_MMAP_EVENTS	= 1U << 0,
	SKD_FEAT_READ_MAPS	= 1U << 1,	/* SKD_IOC_READ_MAPS */
	SKD_FEAT_USER_STACK	= 1U << 2,	/* skd_config.user_stack_bytes */
	/*
	 * The timer backend samples CPU time, not wall time: per CPU, only
	 * while a followed task (SKD_CFG_PID) or, system-wide, any task but
	 * the idle task runs there (SKD_CFG_IDLE: the idle task too). Before
	 * it, every CPU's timer ran all the time and idle was sampled.
	 */
	SKD_FEAT_TIMER_FOLLOWS	= 1U << 3,
};

/* ------------------------------------------------------------------ */
/* SKD_IOC_CONFIG                                                      */

enum skd_config_flags {
	SKD_CFG_FREQ		= 1U << 0,	/* sample_freq is valid, not sample_period */
	SKD_CFG_PID		= 1U << 1,	/* only pid and its descendants */
	SKD_CFG_EXCLUDE_USER	= 1U << 2,	/* no samples in user mode */
	SKD_CFG_EXCLUDE_KERNEL	= 1U << 3,	/* no samples in kernel mode */
	SKD_CFG_NO_SIDEBAND	= 1U << 4,	/* no COMM/EXEC/FORK/EXIT/MMAP records */
	/*
	 * Timer backend, system-wide (no SKD_CFG_PID): sample the idle task
	 * too, waking idle CPUs to do so. Without it the timer of a CPU runs
	 * only while the CPU runs a task (SKD_FEAT_TIMER_FOLLOWS). EINVAL
	 * with SKD_CFG_PID (a process is never the idle task) and with the
	 * PMU backends (their events do not count in idle).
	 */
	SKD_CFG_IDLE		= 1U << 5,
	__SKD_CFG_ALL		= (1U << 6) - 1	/* non-ABI */
};

struct skd_config {
	__u32 size;		/* caller's sizeof(struct skd_config) */
	__u32 flags;		/* enum skd_config_flags */
	__u32 backend;		/* enum skd_backend_id */
	__u32 ring_pages;	/* data pages per CPU, power of two */
	union {
		__u64 sample_freq;	/* Hz, with SKD_CFG_FREQ */
		__u64 sample_period;	/* timer: ns; PMU backends: events */
	};
	__u32 wakeup_bytes;	/* wake at this fill, <= half a ring; 0: half */
	__u32 callchain_depth;	/* frames per sample, 0 for none */
	__s32 pid;		/* with SKD_CFG_PID: the process (tgid) */
	__u32 cpumask_bytes;	/* bytes at cpumask_ptr; 0 (and ptr 0): all */
	__u64 cpumask_ptr;	/* bitmap of CPUs, little-endian __u64 words */
	__u64 reserved[4];	/* must be zero */

	/* Version 1: the PMU backends. */
	__u64 events_ptr;	/* struct skd_event_attr[nr_events] */
	__u32 nr_events;	/* 1..SKD_MAX_EVENTS; 0 for the timer backend */
	__u32 event_attr_size;	/* caller's sizeof(struct skd_event_attr) */
	__u32 branch_sample;	/* enum skd_branch_sample; 0: no branch stacks */
	__u32 sim_model;	/* sim backend: enum skd_sim_model; 0: default */

	/*
	 * Version 2: DWARF unwinding. With user_stack_bytes non-zero, every
	 * sample of a user task carries its user registers and up to that
	 * many bytes of its user stack from the stack pointer up (a multiple
	 * of 8, at most SKD_MAX_USER_STACK; ERANGE otherwise). A sample is
	 * never larger than half a ring nor than a record's u16 size: the
	 * stack copy is cut to fit. The PMU backends then take one PEBS
	 * record per PMI, as for call chains.
	 */
	__u32 user_stack_bytes;
	__u32 reserved1;	/* must be zero */
};

#define SKD_CONFIG_SIZE_VER0	80
#define SKD_CONFIG_SIZE_VER1	104
#define SKD_CONFIG_SIZE_VER2	112
#define SKD_MAX_USER_STACK	32768
#define SKD_MAX_EVENTS		16

/*
 * One event for a PMU backend. config has the layout of IA32_PERFEVTSELx:
 * event [7:0], umask [15:8], edge [18], inv [23], cmask [31:24]. The
 * module places it on a fixed counter when one counts exactly that event,
 * else on a general-purpose counter its constraints allow.
 */
struct skd_event_attr {
	__u32 size;		/* == skd_config.event_attr_size (EINVAL) */
	__u32 flags;		/* enum skd_event_flags */
	__u64 config;		/* EVENTSEL encoding, see above */
	__u64 ldlat;		/* load-latency threshold, cycles (ldlat events) */
	union {
		__u64 sample_period;	/* events between samples */
		__u64 sample_freq;	/* with SKD_EV_FREQ: samples/s per CPU */
	};			/* 0: the session's sample_freq/period */
	__u8 precise;		/* 0: counter overflow, 1-3: PEBS (:p :pp :ppp) */
	__u8 reserved0[3];
	__u32 reserved1;

	/* Version 1. */
	__u64 config1;		/* the value of the event's extra MSR: */
				/* MSR_OFFCORE_RSP_x (offcore response) or */
				/* MSR_PEBS_FRONTEND (front-end events); 0 else */
};

#define SKD_EVENT_ATTR_SIZE_VER0	40
#define SKD_EVENT_ATTR_SIZE_VER1	48

enum skd_event_flags {
	SKD_EV_FREQ		= 1U << 0,	/* sample_freq, not sample_period */
	SKD_EV_EXCLUDE_USER	= 1U << 1,
	SKD_EV_EXCLUDE_KERNEL	= 1U << 2,
	__SKD_EV_ALL		= (1U << 3) - 1	/* non-ABI */
};

/* Which taken branches the LBR keeps, as perf's -j spells them. */
enum skd_branch_sample {
	SKD_BRANCH_USER		= 1U << 0,	/* u: in user mode */
	SKD_BRANCH_KERNEL	= 1U << 1,	/* k: in the kernel */
	SKD_BRANCH_ANY		= 1U << 2,	/* any */
	SKD_BRANCH_ANY_CALL	= 1U << 3,	/* any_call */
	SKD_BRANCH_ANY_RETURN	= 1U << 4,	/* any_ret */
	SKD_BRANCH_IND_CALL	= 1U << 5,	/* ind_call */
	SKD_BRANCH_IND_JUMP	= 1U << 6,	/* ind_jmp */
	SKD_BRANCH_COND		= 1U << 7,	/* cond */
	SKD_BRANCH_CALL		= 1U << 8,	/* call: direct calls */
	SKD_BRANCH_CALL_STACK	= 1U << 9,	/* LBR call-stack mode */
	__SKD_BRANCH_ALL	= (1U << 10) - 1	/* non-ABI */
};

/* Models of the simulated PMU. */
enum skd_sim_model {
	SKD_SIM_DEFAULT		= 0,	/* the module's sim_model= parameter */
	SKD_SIM_SKYLAKE		= 1,	/* PEBS fmt 3, 32 legacy LBRs + INFO */
	SKD_SIM_ICELAKE		= 2,	/* adaptive PEBS fmt 4 */
	SKD_SIM_SAPPHIRERAPIDS	= 3,	/* PEBS fmt 5, architectural LBR */
	SKD_SIM_SKYLAKE_HTOFF	= 4,	/* Skylake server, 8 GP (no HT) */
	SKD_SIM_ALDERLAKE	= 5,	/* hybrid: CPU 0 P-core, others E */
	__SKD_SIM_MAX			/* non-ABI */
};

#define SKD_CPUMASK_MAX_BYTES	1024	/* 8192 CPUs */

/* ------------------------------------------------------------------ */
/* SKD_IOC_GET_STATS                                                   */

struct skd_cpu_stats {
	__u64 generated;	/* records produced (samples and sideband) */
	__u64 delivered;	/* of those, written into the ring */
	__u64 lost;		/* of those, dropped: the ring was full */
	__u64 lost_unreported;	/* of lost, not yet told by an SKD_REC_LOST */
	__u64 samples;		/* SKD_REC_SAMPLE records among generated */
	__u64 wakeups;		/* reader wakeups raised */
	__u64 reserved[2];
};

struct skd_stats {
	__u32 size;		/* caller's sizeof(struct skd_stats) */
	__u32 nr_cpus;		/* in: entries at cpus_ptr; out: nr_cpu_ids */
	__u32 cpu_stats_size;	/* caller's sizeof(struct skd_cpu_stats) */
	__u32 reserved0;	/* must be zero */
	__u64 cpus_ptr;		/* struct skd_cpu_stats[nr_cpus], by CPU id */
};

#define SKD_STATS_SIZE_VER0	24
#define SKD_CPU_STATS_SIZE_VER0	64

/* ------------------------------------------------------------------ */
/* SKD_IOC_GET_PMU                                                     */

enum skd_pmu_flags {
	SKD_PMU_USABLE		= 1U << 0,	/* the backend can run here */
	SKD_PMU_PEBS		= 1U << 1,	/* PEBS present and decodable */
	SKD_PMU_PEBS_BASELINE	= 1U << 2,	/* adaptive PEBS */
	SKD_PMU_PEBS_TRAP	= 1U << 3,	/* assist is trap-like */
	SKD_PMU_LBR		= 1U << 4,	/* legacy LBR */
	SKD_PMU_ARCH_LBR	= 1U << 5,	/* architectural LBR */
	SKD_PMU_FW_WRITES	= 1U << 6,	/* full-width counter writes */
	SKD_PMU_HYBRID		= 1U << 7,	/* hybrid part: core types differ */
	SKD_PMU_HYPERVISOR	= 1U << 8,	/* running under a hypervisor */
	SKD_PMU_PTI		= 1U << 9,	/* page-table isolation: no PEBS */
	SKD_PMU_SIMULATED	= 1U << 10,	/* a model, not this CPU */
	SKD_PMU_TFA		= 1U << 11,	/* TSX force-abort off: no counter 3 */
	SKD_PMU_VMX		= 1U << 12,	/* VMX on or KVM loaded: no PEBS */
};

/* skd_pmu_info.query */
enum skd_pmu_query {
	SKD_PMU_QUERY_CPU	= 1U << 0,	/* describe skd_pmu_info.cpu */
	__SKD_PMU_QUERY_ALL	= (1U << 1) - 1	/* non-ABI */
};

struct skd_pmu_info {
	__u32 size;		/* in: caller's sizeof; out: bytes written */
	__u32 backend;		/* in: SKD_BACKEND_INTEL or SKD_BACKEND_SIM */
	__u32 sim_model;	/* in: enum skd_sim_model; out: the one used */
	__u32 flags;		/* out: enum skd_pmu_flags; in: 0 */
	__u32 cpu_signature;	/* CPUID.1:EAX (family, model...); in: 0 */
	__u8 perfmon_version;	/* CPUID.0AH:EAX[7:0] */
	__u8 nr_gp;		/* general-purpose counters */
	__u8 gp_width;
	__u8 nr_fixed;
	__u8 fixed_width;
	__u8 pebs_format;	/* IA32_PERF_CAPABILITIES[11:8] */
	__u8 lbr_format;	/* IA32_PERF_CAPABILITIES[5:0] (legacy LBR) */
	__u8 lbr_depth;		/* LBR entries; 0: none */
	__u32 fixed_mask;	/* fixed counters present, bit j = counter j */
	__u64 perf_capabilities;	/* IA32_PERF_CAPABILITIES as read */
	__u32 max_sample_rate;	/* samples/s per CPU before throttling */
	__u32 sim_models;	/* bit (1 << model) per sim model built in */
	char model_name[32];	/* Intel's event list: "skylakex", ...; "" */
				/* when the CPU is not in skidless's lists */
	char why[128];		/* why the backend is not usable; else "" */

	/* Version 1: hybrid parts, whose core types differ, and arch LBR. */
	__u32 query;		/* in: enum skd_pmu_query; 0: CPU 0 */
	__u32 cpu;		/* in: with SKD_PMU_QUERY_CPU; out: the CPU */
	__u32 core_type;	/* CPUID.1AH:EAX[31:24]: 0x40 Core, 0x20 Atom */
	__u32 arch_lbr_ebx;	/* CPUID.1CH:EBX: filters (CPL, type, stack) */
	__u32 arch_lbr_ecx;	/* CPUID.1CH:ECX: INFO fields (mispred, ...) */
	__u32 reserved0;
};

#define SKD_PMU_INFO_SIZE_VER0	208
#define SKD_PMU_INFO_SIZE_VER1	232

/* ------------------------------------------------------------------ */
/* SKD_IOC_READ_MAPS                                                   */

/*
 * Synthesized sideband, read in pieces: call with both cursors 0, then
 * again with the cursors as returned until bytes comes back 0. Each call
 * fills buf with whole records: for every followed process (in tgid
 * order) an SKD_REC_COMM per thread, then an SKD_REC_MMAP per executable
 * mapping, all with misc SKD_MISC_SYNTHESIZED. A process that exits
 * between calls is skipped; one created meanwhile is reported by the
 * ring's own FORK/EXEC/MMAP records, since the session is running.
 * Read it after START, so that nothing falls between the two. The
 * cursors mean nothing to the caller; bytes is 0 once every followed
 * process has been described, and stays 0 for those cursors. A buffer
 * above 1 MiB is used up to 1 MiB. The ids of MMAP records name the
 * process (tid == pid); time is when the record was made.
 */
struct skd_read_maps {
	__u32 size;		/* caller's sizeof(struct skd_read_maps) */
	__u32 flags;		/* must be zero */
	__u64 buf_ptr;		/* where the records go */
	__u32 buf_len;		/* at least SKD_READ_MAPS_MIN_BUF (EINVAL) */
	__u32 bytes;		/* out: bytes of records written; 0: done */
	__u64 cursor_pid;	/* in/out: where to go on; 0 at first */
	__u64 cursor_addr;	/* in/out: likewise */
};

#define SKD_READ_MAPS_SIZE_VER0	40
#define SKD_READ_MAPS_MIN_BUF	8192

/* ------------------------------------------------------------------ */
/* Ioctl numbers                                                       */

#define SKD_IOC_MAGIC		0xD5
#define SKD_IOC_GET_INFO	_IO(SKD_IOC_MAGIC, 0x01)	/* struct skd_info * */
#define SKD_IOC_CONFIG		_IO(SKD_IOC_MAGIC, 0x02)	/* struct skd_config * */
#define SKD_IOC_START		_IO(SKD_IOC_MAGIC, 0x03)	/* 0 */
#define SKD_IOC_STOP		_IO(SKD_IOC_MAGIC, 0x04)	/* 0 */
#define SKD_IOC_GET_STATS	_IO(SKD_IOC_MAGIC, 0x05)	/* struct skd_stats * */
#define SKD_IOC_GET_PMU		_IO(SKD_IOC_MAGIC, 0x06)	/* struct skd_pmu_info * */
#define SKD_IOC_READ_MAPS	_IO(SKD_IOC_MAGIC, 0x07)	/* struct skd_read_maps * */

/* ------------------------------------------------------------------ */
/* mmap                                                                */

enum skd_mmap_region {
	SKD_MMAP_CONTROL	= 0,
	SKD_MMAP_DATA		= 1,
};

#define SKD_MMAP_CPU_SHIFT	32
#define SKD_MMAP_REGION_SHIFT	24
#define SKD_MMAP_OFFSET(cpu, region) \
	(((__u64)(cpu) << SKD_MMAP_CPU_SHIFT) | \
	 ((__u64)(region) << SKD_MMAP_REGION_SHIFT))

#define SKD_RING_VERSION	1

/*
 * The control page. The kernel writes everything but data_tail; it never
 * reads anything back but data_tail, so a reader scribbling here only
 * confuses itself. Producer and consumer indexes are free-running byte
 * counts; mask them with data_size - 1.
 */
struct skd_ring_ctrl {
	__u32 version;		/* SKD_RING_VERSION */
	__u32 compat_version;	/* oldest version this layout still serves */
	__u32 size;		/* bytes of this struct the kernel fills */
	__u32 cpu;		/* CPU id of this ring */
	__u64 data_size;	/* ring bytes: ring_pages * page size */
	__u64 data_offset;	/* mmap offset of the data region */
	__u64 reserved[60];	/* pad: header is 512 bytes */

	/* Written by the kernel: the end of the published records. */
	__u64 data_head;	/* load with acquire, see above */
	__u64 reserved_head[7];	/* own cache line */

	/* Written by the reader: the end of what it has consumed. */
	__u64 data_tail;	/* store with release, see above */
	__u64 reserved_tail[7];
};

/* ------------------------------------------------------------------ */
/* Records                                                             */

enum skd_rec_type {
	/*
	 * struct skd_rec_sample, then in this order:
	 *	{ __u16 nr; __u16 nr_kernel; __u32 reserved;
	 *	  __u64 ips[nr]; }		&& SKD_SAMPLE_CALLCHAIN
	 *	struct skd_sample_mem		&& SKD_SAMPLE_MEM
	 *	{ __u16 nr; __u16 flags; __u32 reserved;
	 *	  struct skd_branch_entry entries[nr]; }
	 *					&& SKD_SAMPLE_BRANCHES
	 *	struct skd_user_stack, then its data
	 *					&& SKD_SAMPLE_USER_STACK
	 * ips[] starts at the leaf: nr_kernel kernel frames (ips[0] is the
	 * interrupted ip when it was in the kernel), then the user frames
	 * (the first is the user ip where the task entered the kernel).
	 * Branch entries start at the most recent branch.
	 */
	SKD_REC_SAMPLE		= 1,
	/* struct skd_rec_lost */
	SKD_REC_LOST		= 2,
	/*
	 * struct skd_rec_comm; misc SKD_MISC_COMM_EXEC when set by exec: it
	 * then marks where the new image starts, before its MMAP records.
	 */
	SKD_REC_COMM		= 3,
	/*
	 * struct skd_rec_exec, then the path, NUL-padded to 8 bytes; written
	 * once the new image is loaded, after its MMAP records.
	 */
	SKD_REC_EXEC		= 4,
	/* struct skd_rec_task: id names the new task */
	SKD_REC_FORK		= 5,
	/* struct skd_rec_task: id names the exiting task */
	SKD_REC_EXIT		= 6,
	/* struct skd_rec_throttle: this CPU's PMU sampling is paused */
	SKD_REC_THROTTLE	= 7,
	/* struct skd_rec_throttle: and resumed */
	SKD_REC_UNTHROTTLE	= 8,
	/*
	 * struct skd_rec_mmap, then the path NUL-padded to 8 bytes: a task
	 * mapped code (PROT_EXEC), or SKD_IOC_READ_MAPS describes a mapping.
	 * Live records come as the kernel reports new mappings to perf: at
	 * mmap(), and again at an mprotect() that leaves a mapping
	 * executable. The mappings of a new image (the executable, its
	 * interpreter, [vdso]) are made by execve() before the EXEC record
	 * is written: they precede it in the ring, with the same pid and
	 * tid, after the COMM of exec's own task rename.
	 */
	SKD_REC_MMAP		= 9,
	__SKD_REC_MAX			/* non-ABI */
};

/* skd_rec_header.misc */
#define SKD_MISC_CPUMODE_MASK	0x7
#define SKD_MISC_KERNEL		1	/* sample taken in the kernel */
#define SKD_MISC_USER		2	/* sample taken in user mode */
#define SKD_MISC_SYNTHESIZED	0x0800	/* from SKD_IOC_READ_MAPS: a state */
#define SKD_MISC_MODELED	0x1000	/* written by the simulated PMU */
#define SKD_MISC_COMM_EXEC	0x2000	/* COMM set by exec */
#define SKD_MISC_EXACT_IP	0x4000	/* ip is the eventing instruction */

struct skd_rec_header {
	__u32 type;		/* enum skd_rec_type */
	__u16 misc;
	__u16 size;		/* whole record, bytes, multiple of 8 */
};

struct skd_rec_id {
	__u64 time;		/* CLOCK_MONOTONIC ns */
	__u32 cpu;
	__u32 pid;		/* tgid */
	__u32 tid;
	__u32 reserved;
};

enum skd_sample_fields {
	SKD_SAMPLE_CALLCHAIN	= 1U << 0,
	SKD_SAMPLE_MEM		= 1U << 1,
	SKD_SAMPLE_BRANCHES	= 1U << 2,
	SKD_SAMPLE_USER_STACK	= 1U << 3,
};

struct skd_rec_sample {
	struct skd_rec_header hdr;	/* misc: mode, EXACT_IP, MODELED */
	struct skd_rec_id id;
	__u64 ip;
	__u64 period;		/* timer: ns; PMU: events since the previous */
	__u32 fields;		/* enum skd_sample_fields: what follows */
	__u16 event;		/* index of the event in the session */
	__u16 reserved;
};

struct skd_callchain {
	__u16 nr;
	__u16 nr_kernel;
	__u32 reserved;
	__u64 ips[];
};

/* What a PEBS record says about the memory access of the sample. */
struct skd_sample_mem {
	__u64 addr;		/* data linear address */
	__u64 source;		/* the record's data-source field, raw */
	__u64 latency;		/* the record's latency field, raw */
	__u32 flags;		/* SKD_MEM_* */
	__u32 reserved;
};

#define SKD_MEM_MODELED		0x1	/* made up by the simulated PMU */
/*
 * latency holds two fields (Golden Cove and Gracemont): bits 15:0 the
 * instruction's latency, 47:32 the cache access latency, in core cycles.
 * Without this flag it is one load latency.
 */
#define SKD_MEM_LAT_SPLIT	0x2

/*
 * One LBR entry, the same on every LBR format: info is normalized to the
 * layout of IA32_LBR_x_INFO.
 */
struct skd_branch_entry {
	__u64 from;
	__u64 to;
	__u64 info;		/* SKD_BR_INFO_* */
};

#define SKD_BR_INFO_MISPRED	_BITULL(63)
#define SKD_BR_INFO_IN_TX	_BITULL(62)
#define SKD_BR_INFO_ABORT	_BITULL(61)
#define SKD_BR_INFO_CYC_VALID	_BITULL(60)
#define SKD_BR_INFO_TYPE_SHIFT	56	/* 4 bits: arch LBR branch type */
#define SKD_BR_INFO_TYPE_VALID	_BITULL(55)
#define SKD_BR_INFO_CYCLES	0xffffULL	/* cycles since the previous */

/* skd_sample branches.flags */
#define SKD_BR_CALL_STACK	0x1	/* entries are the open calls */

/*
 * The user registers of a sample (those a DWARF unwinder needs, in the
 * order of perf's x86-64 register numbers: PERF_REG_X86_AX..SS then
 * R8..R15, i.e. perf's sample_regs_user mask SKD_USER_REGS_PERF_MASK),
 * then size bytes of user stack from regs[SP] up, zero-padded to 8. size
 * is less than asked where the stack ends or a page is not present.
 */
struct skd_user_stack {
	__u32 abi;		/* SKD_USER_ABI_*; NONE: a kernel thread */
	__u32 size;		/* stack bytes that follow regs[] */
	__u64 regs[20];
	__u8 data[];
};

#define SKD_USER_ABI_NONE	0
#define SKD_USER_ABI_64		2	/* as PERF_SAMPLE_REGS_ABI_64 */
#define SKD_USER_REGS_NR	20
#define SKD_USER_REGS_PERF_MASK	0xff0fffULL	/* perf's bits, x86-64 */

struct skd_rec_throttle {
	struct skd_rec_header hdr;
	struct skd_rec_id id;	/* pid and tid are 0 */
	__u64 limit;		/* samples/s per CPU that was exceeded */
};

struct skd_branches {
	__u16 nr;
	__u16 flags;		/* SKD_BR_CALL_STACK */
	__u32 reserved;
	struct skd_branch_entry entries[];
};

struct skd_rec_lost {
	struct skd_rec_header hdr;
	struct skd_rec_id id;	/* pid and tid are 0 */
	__u64 lost;		/* records dropped since the previous LOST */
};

#define SKD_COMM_LEN		16

struct skd_rec_comm {
	struct skd_rec_header hdr;
	struct skd_rec_id id;
	char comm[SKD_COMM_LEN];	/* NUL-terminated */
};

struct skd_rec_exec {
	struct skd_rec_header hdr;
	struct skd_rec_id id;
	__u32 old_tid;		/* the thread that called execve */
	__u32 reserved;
	char path[];		/* absolute path of the new image */
};

struct skd_rec_mmap {
	struct skd_rec_header hdr;	/* misc: SKD_MISC_SYNTHESIZED or 0 */
	struct skd_rec_id id;
	__u64 start;		/* first byte mapped */
	__u64 len;		/* bytes */
	__u64 pgoff;		/* file offset of start, bytes */
	__u32 maj;		/* the file's device */
	__u32 min;
	__u64 ino;		/* the file's inode, 0 for anonymous code */
	__u64 ino_generation;
	__u32 prot;		/* PROT_*: PROT_EXEC and what else is set */
	__u32 flags;		/* MAP_SHARED or MAP_PRIVATE */
	char path[];		/* absolute path, or "[vdso]", "//anon" */
};

struct skd_rec_task {
	struct skd_rec_header hdr;
	struct skd_rec_id id;
	__u32 ppid;		/* parent tgid */
	__u32 ptid;		/* parent thread */
};

#endif /* _UAPI_SKIDLESS_H */
