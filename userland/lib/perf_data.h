/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of perf's on-disk ABI that skidless writes and reads, restated
 * from Linux's include/uapi/linux/perf_event.h (records, sample_type bits,
 * branch entries, data_src) and tools/perf/util/header.{c,h} (file header,
 * feature numbers and payloads). Only what we use; little-endian x86-64.
 * We define our own names (PD_*) so this builds without kernel headers of
 * any particular version and cannot clash with <linux/perf_event.h>.
 */
#ifndef _SKD_PERF_DATA_H
#define _SKD_PERF_DATA_H

#include <stdint.h>

/* "PERFILE2" read as a little-endian u64. */
#define PD_MAGIC		0x32454c4946524550ULL
#define PD_MAGIC_SWAPPED	0x50455246494c4532ULL	/* "2ELIFREP": big-endian writer */

/* perf_event_attr as of PERF_ATTR_SIZE_VER7 (5.13): perf 6.1 refuses 136. */
#define PD_ATTR_SIZE		128
#define PD_ATTR_SIZE_VER0	64

struct pd_attr {
	uint32_t type;			/* PD_TYPE_* */
	uint32_t size;			/* PD_ATTR_SIZE */
	uint64_t config;
	uint64_t sample_period;		/* or sample_freq with PD_ATTR_FREQ */
	uint64_t sample_type;		/* PD_SAMPLE_* */
	uint64_t read_format;
	uint64_t flags;			/* PD_ATTR_* bitfield word */
	uint32_t wakeup_events;
	uint32_t bp_type;
	uint64_t config1;		/* bp_addr, kprobe_func, config1 */
	uint64_t config2;
	uint64_t branch_sample_type;	/* PD_BRANCH_* */
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t reserved2;
	uint32_t aux_sample_size;
	uint32_t reserved3;
	uint64_t sig_data;
};

_Static_assert(sizeof(struct pd_attr) == PD_ATTR_SIZE, "perf attr VER7");

#define PD_TYPE_HARDWARE	0
#define PD_TYPE_SOFTWARE	1
#define PD_TYPE_RAW		4
#define PD_COUNT_HW_CPU_CYCLES	0
#define PD_COUNT_SW_CPU_CLOCK	0

/* Bits of the attr's flags word, in perf_event_attr's bitfield order. */
#define PD_ATTR_DISABLED	(1ULL << 0)
#define PD_ATTR_INHERIT		(1ULL << 1)
#define PD_ATTR_EXCLUDE_USER	(1ULL << 4)
#define PD_ATTR_EXCLUDE_KERNEL	(1ULL << 5)
#define PD_ATTR_EXCLUDE_HV	(1ULL << 6)
#define PD_ATTR_MMAP		(1ULL << 8)
#define PD_ATTR_COMM		(1ULL << 9)
#define PD_ATTR_FREQ		(1ULL << 10)
#define PD_ATTR_TASK		(1ULL << 13)
#define PD_ATTR_PRECISE_SHIFT	15	/* 2 bits: precise_ip */
#define PD_ATTR_SAMPLE_ID_ALL	(1ULL << 18)
#define PD_ATTR_EXCLUDE_GUEST	(1ULL << 20)
#define PD_ATTR_MMAP2		(1ULL << 23)
#define PD_ATTR_COMM_EXEC	(1ULL << 24)
#define PD_ATTR_USE_CLOCKID	(1ULL << 25)

/* sample_type bits (enum perf_event_sample_format). */
#define PD_SAMPLE_IP		(1ULL << 0)
#define PD_SAMPLE_TID		(1ULL << 1)
#define PD_SAMPLE_TIME		(1ULL << 2)
#define PD_SAMPLE_ADDR		(1ULL << 3)
#define PD_SAMPLE_READ		(1ULL << 4)
#define PD_SAMPLE_CALLCHAIN	(1ULL << 5)
#define PD_SAMPLE_ID		(1ULL << 6)
#define PD_SAMPLE_CPU		(1ULL << 7)
#define PD_SAMPLE_PERIOD	(1ULL << 8)
#define PD_SAMPLE_STREAM_ID	(1ULL << 9)
#define PD_SAMPLE_RAW		(1ULL << 10)
#define PD_SAMPLE_BRANCH_STACK	(1ULL << 11)
#define PD_SAMPLE_REGS_USER	(1ULL << 12)
#define PD_SAMPLE_STACK_USER	(1ULL << 13)
#define PD_SAMPLE_WEIGHT	(1ULL << 14)
#define PD_SAMPLE_DATA_SRC	(1ULL << 15)
#define PD_SAMPLE_IDENTIFIER	(1ULL << 16)
#define PD_SAMPLE_TRANSACTION	(1ULL << 17)
#define PD_SAMPLE_REGS_INTR	(1ULL << 18)
#define PD_SAMPLE_PHYS_ADDR	(1ULL << 19)
#define PD_SAMPLE_AUX		(1ULL << 20)
#define PD_SAMPLE_CGROUP	(1ULL << 21)
#define PD_SAMPLE_DATA_PAGE_SIZE (1ULL << 22)
#define PD_SAMPLE_CODE_PAGE_SIZE (1ULL << 23)
#define PD_SAMPLE_WEIGHT_STRUCT	(1ULL << 24)
#define PD_SAMPLE_MAX		(1ULL << 25)	/* bits we may meet */

/* branch_sample_type bits (enum perf_branch_sample_type_shift). */
#define PD_BRANCH_USER		(1ULL << 0)
#define PD_BRANCH_KERNEL	(1ULL << 1)
#define PD_BRANCH_HV		(1ULL << 2)
#define PD_BRANCH_ANY		(1ULL << 3)
#define PD_BRANCH_ANY_CALL	(1ULL << 4)
#define PD_BRANCH_ANY_RETURN	(1ULL << 5)
#define PD_BRANCH_IND_CALL	(1ULL << 6)
#define PD_BRANCH_COND		(1ULL << 10)
#define PD_BRANCH_CALL_STACK	(1ULL << 11)
#define PD_BRANCH_IND_JUMP	(1ULL << 12)
#define PD_BRANCH_CALL		(1ULL << 13)
#define PD_BRANCH_HW_INDEX	(1ULL << 17)	/* we never set it */

/*
 * perf_branch_entry.flags, a u64 of bitfields in this order: mispred:1,
 * predicted:1, in_tx:1, abort:1, cycles:16, type:4, spec:2, new_type:4,
 * priv:3, reserved:33.
 */
#define PD_BR_MISPRED		(1ULL << 0)
#define PD_BR_PREDICTED		(1ULL << 1)
#define PD_BR_IN_TX		(1ULL << 2)
#define PD_BR_ABORT		(1ULL << 3)
#define PD_BR_CYCLES_SHIFT	4
#define PD_BR_CYCLES_MASK	0xffffULL
#define PD_BR_TYPE_SHIFT	20
#define PD_BR_TYPE_MASK		0xfULL

/* PERF_BR_* branch types. */
enum {
	PD_BR_UNKNOWN = 0, PD_BR_COND = 1, PD_BR_UNCOND = 2, PD_BR_IND = 3,
	PD_BR_CALL = 4, PD_BR_IND_CALL = 5, PD_BR_RET = 6,
};

struct pd_branch_entry {
	uint64_t from;
	uint64_t to;
	uint64_t flags;		/* PD_BR_* */
};

/* Callchain context markers (enum perf_callchain_context). */
#define PD_CONTEXT_HV		((uint64_t)-32)
#define PD_CONTEXT_KERNEL	((uint64_t)-128)
#define PD_CONTEXT_USER		((uint64_t)-512)
#define PD_CONTEXT_GUEST	((uint64_t)-2048)
#define PD_CONTEXT_MAX		((uint64_t)-4095)	/* markers are >= this */

#define PD_REGS_ABI_NONE	0
#define PD_REGS_ABI_64		2

/* weight_struct (PERF_SAMPLE_WEIGHT_STRUCT) as the record stores it. */
struct pd_weight {
	uint32_t var1_dw;	/* Golden Cove: the cache access latency */
	uint16_t var2_w;	/* Golden Cove: the instruction latency */
	uint16_t var3_w;
};

/*
 * union perf_mem_data_src: mem_op:5, mem_lvl:14, mem_snoop:5, mem_lock:2,
 * mem_dtlb:7, mem_lvl_num:4, mem_remote:1, mem_snoopx:2, mem_blk:3,
 * mem_hops:3, reserved. PD_MEM_S(field, value) places a value.
 */
#define PD_MEM_OP_SHIFT		0
#define PD_MEM_LVL_SHIFT	5
#define PD_MEM_SNOOP_SHIFT	19
#define PD_MEM_LOCK_SHIFT	24
#define PD_MEM_TLB_SHIFT	26
#define PD_MEM_LVLNUM_SHIFT	33
#define PD_MEM_REMOTE_SHIFT	37
#define PD_MEM_SNOOPX_SHIFT	38
#define PD_MEM_BLK_SHIFT	40
#define PD_MEM_HOPS_SHIFT	43

#define PD_MEM_OP_NA		0x01
#define PD_MEM_OP_LOAD		0x02
#define PD_MEM_OP_STORE		0x04
#define PD_MEM_LVL_NA		0x01
#define PD_MEM_LVL_HIT		0x02
#define PD_MEM_LVL_MISS		0x04
#define PD_MEM_LVL_L1		0x08
#define PD_MEM_LVL_LFB		0x10
#define PD_MEM_LVL_L2		0x20
#define PD_MEM_LVL_L3		0x40
#define PD_MEM_LVL_LOC_RAM	0x80
#define PD_MEM_LVL_REM_RAM1	0x100
#define PD_MEM_LVL_REM_RAM2	0x200
#define PD_MEM_LVL_REM_CCE1	0x400
#define PD_MEM_LVL_REM_CCE2	0x800
#define PD_MEM_LVL_IO		0x1000
#define PD_MEM_LVL_UNC		0x2000
#define PD_MEM_LVLNUM_L1	0x01
#define PD_MEM_LVLNUM_L2	0x02
#define PD_MEM_LVLNUM_L3	0x03
#define PD_MEM_LVLNUM_L4	0x04
#define PD_MEM_LVLNUM_ANY_CACHE	0x0b
#define PD_MEM_LVLNUM_LFB	0x0c
#define PD_MEM_LVLNUM_RAM	0x0d
#define PD_MEM_LVLNUM_PMEM	0x0e
#define PD_MEM_LVLNUM_NA	0x0f
#define PD_MEM_SNOOP_NA		0x01
#define PD_MEM_SNOOP_NONE	0x02
#define PD_MEM_SNOOP_HIT	0x04
#define PD_MEM_SNOOP_MISS	0x08
#define PD_MEM_SNOOP_HITM	0x10
#define PD_MEM_SNOOPX_FWD	0x01
#define PD_MEM_LOCK_NA		0x01
#define PD_MEM_LOCK_LOCKED	0x02
#define PD_MEM_TLB_NA		0x01
#define PD_MEM_TLB_HIT		0x02
#define PD_MEM_TLB_MISS		0x04
#define PD_MEM_TLB_L1		0x08
#define PD_MEM_TLB_L2		0x10
#define PD_MEM_REMOTE_REMOTE	0x01
#define PD_MEM_BLK_NA		0x01
#define PD_MEM_BLK_DATA		0x02
#define PD_MEM_BLK_ADDR		0x04

#define PD_MEM_S(field, val) \
	((uint64_t)PD_MEM_##field##_##val << PD_MEM_##field##_SHIFT)
/* PERF_MEM_NA: every field "not available". */
#define PD_MEM_NA (PD_MEM_S(OP, NA) | PD_MEM_S(LVL, NA) | \
		   PD_MEM_S(SNOOP, NA) | PD_MEM_S(LOCK, NA) | PD_MEM_S(TLB, NA))

/* Record types (enum perf_event_type, and perf's own user types). */
enum {
	PD_REC_MMAP		= 1,
	PD_REC_LOST		= 2,
	PD_REC_COMM		= 3,
	PD_REC_EXIT		= 4,
	PD_REC_THROTTLE		= 5,
	PD_REC_UNTHROTTLE	= 6,
	PD_REC_FORK		= 7,
	PD_REC_READ		= 8,
	PD_REC_SAMPLE		= 9,
	PD_REC_MMAP2		= 10,
	PD_REC_KERNEL_MAX	= 64,	/* kernel types are below */
	PD_REC_HEADER_ATTR	= 64,
	PD_REC_HEADER_BUILD_ID	= 67,
	PD_REC_FINISHED_ROUND	= 68,
	PD_REC_HEADER_FEATURE	= 80,
	PD_REC_FINISHED_INIT	= 82,
};

/* perf_event_header.misc */
#define PD_MISC_CPUMODE_MASK	0x7
#define PD_MISC_KERNEL		1
#define PD_MISC_USER		2
#define PD_MISC_MMAP_DATA	(1U << 13)
#define PD_MISC_COMM_EXEC	(1U << 13)
#define PD_MISC_EXACT_IP	(1U << 14)
#define PD_MISC_MMAP_BUILD_ID	(1U << 14)
#define PD_MISC_BUILD_ID_SIZE	(1U << 15)

struct pd_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size;		/* whole record, a multiple of 8 */
};

struct pd_section {
	uint64_t offset;
	uint64_t size;
};

/* struct perf_file_header: 104 bytes in file mode, 16 in pipe mode. */
struct pd_file_header {
	uint64_t magic;
	uint64_t size;		/* 104: sizeof this */
	uint64_t attr_size;	/* one attrs entry: attr.size + 16 */
	struct pd_section attrs;
	struct pd_section data;
	struct pd_section event_types;	/* unused: zeros */
	uint64_t features[4];	/* bit N: feature N has a section */
};

struct pd_pipe_header {
	uint64_t magic;
	uint64_t size;		/* 16 */
};

_Static_assert(sizeof(struct pd_file_header) == 104, "perf file header");

/* Feature numbers (enum in tools/perf/util/header.h). */
enum {
	PD_FEAT_TRACING_DATA	= 1,
	PD_FEAT_BUILD_ID	= 2,
	PD_FEAT_HOSTNAME	= 3,
	PD_FEAT_OSRELEASE	= 4,
	PD_FEAT_VERSION		= 5,
	PD_FEAT_ARCH		= 6,
	PD_FEAT_NRCPUS		= 7,
	PD_FEAT_CPUDESC		= 8,
	PD_FEAT_CPUID		= 9,
	PD_FEAT_TOTAL_MEM	= 10,
	PD_FEAT_CMDLINE		= 11,
	PD_FEAT_EVENT_DESC	= 12,
	PD_FEAT_BRANCH_STACK	= 15,
	PD_FEAT_AUXTRACE	= 18,
	PD_FEAT_STAT		= 19,
	PD_FEAT_SAMPLE_TIME	= 21,
	PD_FEAT_CLOCKID		= 23,
	PD_FEAT_CLOCK_DATA	= 29,
	PD_FEAT_MAX		= 256,	/* bits in the header bitmap */
};

/* Strings in feature payloads: u32 len, then NUL-padded to 64 bytes. */
#define PD_NAME_ALIGN		64

/* Sizes of the fixed parts of the records we write. */
#define PD_BUILD_ID_MAX		20
/* PERF_RECORD_HEADER_BUILD_ID: header, pid, build_id[24] (20 + size + pad). */
#define PD_BUILD_ID_REC_FIXED	(8 + 4 + 24)

/*
 * Not perf's: the CPUDESC skidless writes for a capture of its simulated
 * PMU ("skidless simulated PMU: sim:MODEL"); its reader then marks the
 * samples as modeled.
 */
#define PD_SIM_CPUDESC	"skidless simulated PMU"

#endif /* _SKD_PERF_DATA_H */
