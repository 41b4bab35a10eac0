// SPDX-License-Identifier: GPL-2.0
/*
 * struct skd_pmu_caps for the command's planner (see pmu_models.h): from
 * GET_PMU's report, or nominal for a typical part of each Intel event
 * list. The nominal values are those CPUID leaf 0xA, leaf 0x1C and
 * IA32_PERF_CAPABILITIES give on such parts (SDM vol. 3B, "Architectural
 * Performance Monitoring" and "Last Branch Records"); the legacy LBR
 * layout is the model's (kmod/intel/models.c), as detect.c takes it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "event_rules.h"
#include "models.h"
#include "msrs.h"
#include "pmu_models.h"

/* Arch LBR depth of every nominal part that has one (CPUID.1CH:EAX). */
#define NOMINAL_ARCH_LBR_DEPTH	32
/*
 * CPUID.1CH:EBX CPL filtering, branch filtering, call-stack mode and
 * ECX mispredict, timed LBRs, branch type: what Sapphire Rapids and Alder
 * Lake report, and what the planner needs for -j and --call-graph lbr.
 */
#define NOMINAL_ARCH_LBR_EBX	0x7
#define NOMINAL_ARCH_LBR_ECX	0x7
/* Counter widths of every part here (CPUID.0AH:EAX[23:16], EDX[12:5]). */
#define NOMINAL_WIDTH		48

/* What one microarchitecture's PMU has. */
struct uarch_pmu {
	u32 version;		/* architectural perfmon version */
	u32 nr_gp;
	u32 fixed_mask;
	u32 pebs_fmt;
	bool baseline;		/* adaptive PEBS */
	bool arch_lbr;		/* else legacy LBR, format 5 (LBR_INFO) */
};

/* Skylake, Cascade Lake: 4 GP per thread with HT on. */
static const struct uarch_pmu skl_pmu = { 4, 4, 0x7, 3, false, false };
/* Sunny/Willow/Cypress Cove: 8 GP, fixed 3 is TOPDOWN.SLOTS. */
static const struct uarch_pmu icl_pmu = { 5, 8, 0xf, 4, true, false };
/* Golden Cove and later big cores. */
static const struct uarch_pmu glc_pmu = { 5, 8, 0xf, 5, true, true };
/* Gracemont: 6 GP, no TOPDOWN.SLOTS fixed counter. */
static const struct uarch_pmu grt_pmu = { 5, 6, 0x7, 5, true, true };

static const struct nominal {
	const char *list;		/* skd_event_lists[] name */
	const char *aliases[4];
	u32 signature;		/* CPUID.1:EAX of a typical part */
	u32 core_type;		/* hybrid: CPUID.1AH:EAX[31:24] */
	const struct uarch_pmu *pmu;
} nominals[] = {
	/* 6-5E stepping 3: Skylake-S. */
	{ "skylake", { "skl" }, 0x506e3, 0, &skl_pmu },
	/* 6-55 stepping 4: Skylake-SP; 7: Cascade Lake-SP (mapfile.csv). */
	{ "skylakex", { "skx", "skylake-x" }, 0x50654, 0, &skl_pmu },
	{ "cascadelakex", { "clx", "cascadelake-x" }, 0x50657, 0, &skl_pmu },
	/* 6-7E stepping 5: Ice Lake-U; 6-6A stepping 6: Ice Lake-SP. */
	{ "icelake", { "icl" }, 0x706e5, 0, &icl_pmu },
	{ "icelakex", { "icx", "icelake-x" }, 0x606a6, 0, &icl_pmu },
	{ "tigerlake", { "tgl" }, 0x806c1, 0, &icl_pmu },
	{ "rocketlake", { "rkl" }, 0xa0671, 0, &icl_pmu },
	{ "sapphirerapids", { "spr" }, 0x806f8, 0, &glc_pmu },
	{ "emeraldrapids", { "emr" }, 0xc06f2, 0, &glc_pmu },
	{ "graniterapids", { "gnr" }, 0xa06d1, 0, &glc_pmu },
	/* 6-97 stepping 2: Alder Lake-S, a P-core and an E-core. */
	{ "alderlake_goldencove", { "adl", "alderlake", "adl-p", "glc" },
	  0x90672, 0x40, &glc_pmu },
	{ "alderlake_gracemont", { "adl-e", "gracemont", "grt" },
	  0x90672, 0x20, &grt_pmu },
};

/* Family, model and stepping as detect.c's read_identity() splits them. */
static void split_signature(struct skd_pmu_caps *caps, u32 sig)
{
	u32 base_family = (sig >> 8) & 0xf;

	caps->signature = sig;
	caps->family = base_family;
	if (base_family == 0xf)
		caps->family += (sig >> 20) & 0xff;
	caps->model = (sig >> 4) & 0xf;
	if (base_family == 0x6 || base_family == 0xf)
		caps->model |= ((sig >> 16) & 0xf) << 4;
	caps->stepping = sig & 0xf;
}

static u32 count_bits(u32 v)
{
	u32 n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* The legacy LBR registers of the model, as detect.c's read_lbr() sets them. */
static void legacy_lbr(struct skd_pmu_caps *caps)
{
	const struct skd_cpu_model *m = caps->cpu;

	if (!m || !m->lbr_nr)
		return;
	caps->lbr_from = m->lbr_from;
	caps->lbr_to = m->lbr_to;
	if (caps->lbr_fmt == SKD_LBR_FMT_INFO ||
	    caps->lbr_fmt == SKD_LBR_FMT_INFO2)
		caps->lbr_info = m->lbr_info;
}

void skd_caps_from_info(const struct skd_pmu_info *q,
			struct skd_pmu_caps *caps)
{
	char list[sizeof(q->model_name) + 1];

	memset(caps, 0, sizeof(*caps));
	/* Only on Intel CPUs does detection name a list or find a PMU. */
	if (q->model_name[0] || (q->flags & SKD_PMU_USABLE))
		snprintf(caps->vendor, sizeof(caps->vendor), "GenuineIntel");
	split_signature(caps, q->cpu_signature);
	caps->version = q->perfmon_version;
	caps->nr_gp = q->nr_gp;
	caps->gp_width = q->gp_width;
	caps->nr_fixed = q->nr_fixed;
	caps->fixed_width = q->fixed_width;
	caps->fixed_mask = q->fixed_mask;
	caps->perf_cap = q->perf_capabilities;
	caps->pebs_fmt = q->pebs_format;
	caps->lbr_fmt = q->lbr_format;
	caps->lbr_nr = q->lbr_depth;
	caps->flags = q->flags;
	caps->core_type = q->core_type;
	caps->arch_lbr_ebx = q->arch_lbr_ebx;
	caps->arch_lbr_ecx = q->arch_lbr_ecx;
	/*
	 * A module of the first uapi version does not report the arch LBR's
	 * filters: assume all, so only the limits it does report show.
	 */
	if (q->size < SKD_PMU_INFO_SIZE_VER1 && (q->flags & SKD_PMU_ARCH_LBR)) {
		caps->arch_lbr_ebx = NOMINAL_ARCH_LBR_EBX;
		caps->arch_lbr_ecx = NOMINAL_ARCH_LBR_ECX;
	}
	/* The deepest depth is all GET_PMU says of CPUID.1CH:EAX. */
	if ((q->flags & SKD_PMU_ARCH_LBR) && q->lbr_depth >= 8)
		caps->arch_lbr_depths = 1U << (q->lbr_depth / 8 - 1);
	snprintf(caps->why, sizeof(caps->why), "%.*s",
		 (int)sizeof(q->why), q->why);
	/* A name the command does not know (a newer module): no list. */
	snprintf(list, sizeof(list), "%.*s", (int)sizeof(q->model_name),
		 q->model_name);
	caps->events = list[0] ? skd_event_list_by_name(list) : NULL;
	caps->cpu = skd_cpu_model_of(caps->events);
	if (q->flags & SKD_PMU_LBR)
		legacy_lbr(caps);
}

static const struct nominal *nominal_find(const char *name)
{
	size_t i, k;

	if (!name)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(nominals); i++) {
		const struct nominal *n = &nominals[i];

		if (!strcasecmp(name, n->list))
			return n;
		for (k = 0; k < ARRAY_SIZE(n->aliases) && n->aliases[k]; k++)
			if (!strcasecmp(name, n->aliases[k]))
				return n;
	}
	return NULL;
}

const char *skd_caps_list_name(const char *name)
{
	const struct nominal *n = nominal_find(name);

	return n ? n->list : NULL;
}

int skd_caps_nominal(const char *name, struct skd_pmu_caps *caps)
{
	const struct nominal *n = nominal_find(name);
	const struct uarch_pmu *u;

	if (!n)
		return -ENOENT;
	u = n->pmu;
	memset(caps, 0, sizeof(*caps));
	snprintf(caps->vendor, sizeof(caps->vendor), "GenuineIntel");
	split_signature(caps, n->signature);
	caps->version = u->version;
	caps->nr_gp = u->nr_gp;
	caps->gp_width = NOMINAL_WIDTH;
	caps->fixed_mask = u->fixed_mask;
	caps->nr_fixed = count_bits(u->fixed_mask);
	caps->fixed_width = NOMINAL_WIDTH;
	caps->pebs_fmt = u->pebs_fmt;
	caps->flags = SKD_PMU_USABLE | SKD_PMU_PEBS | SKD_PMU_PEBS_TRAP |
		      SKD_PMU_FW_WRITES;
	caps->perf_cap = PERF_CAP_PEBS_TRAP | PERF_CAP_ARCH_REG |
			 (u64)u->pebs_fmt << 8 | SKD_PERFCAP_FW_WRITES;
	if (u->baseline) {
		caps->flags |= SKD_PMU_PEBS_BASELINE;
		caps->perf_cap |= PERF_CAP_PEBS_BASELINE;
	}
	caps->events = skd_event_list_by_name(n->list);
	caps->cpu = skd_cpu_model_of(caps->events);
	if (u->arch_lbr) {
		/* PERF_CAPABILITIES[5:0] reads 0x3f with architectural LBR. */
		caps->perf_cap |= 0x3f;
		caps->flags |= SKD_PMU_ARCH_LBR;
		caps->lbr_nr = NOMINAL_ARCH_LBR_DEPTH;
		caps->arch_lbr_depths = 1U << (NOMINAL_ARCH_LBR_DEPTH / 8 - 1);
		caps->arch_lbr_ebx = NOMINAL_ARCH_LBR_EBX;
		caps->arch_lbr_ecx = NOMINAL_ARCH_LBR_ECX;
	} else if (caps->cpu && caps->cpu->lbr_nr) {
		caps->perf_cap |= SKD_LBR_FMT_INFO;
		caps->flags |= SKD_PMU_LBR;
		caps->lbr_fmt = SKD_LBR_FMT_INFO;
		caps->lbr_nr = caps->cpu->lbr_nr;
		legacy_lbr(caps);
	}
	if (n->core_type) {
		caps->flags |= SKD_PMU_HYBRID;
		caps->core_type = n->core_type;
	}
	return 0;
}

/* snprintf at *@pos, which never passes the terminating NUL. */
static void append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos = *pos + (size_t)n < len ? *pos + (size_t)n : len - 1;
}

void skd_caps_nominal_names(char *buf, size_t len)
{
	size_t i, k, pos = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(nominals); i++) {
		const struct nominal *n = &nominals[i];

		append(buf, len, &pos, "%s%s", i ? ", " : "", n->list);
		for (k = 0; k < ARRAY_SIZE(n->aliases) && n->aliases[k]; k++)
			append(buf, len, &pos, "%s%s", k ? ", " : " (",
			       n->aliases[k]);
		if (k)
			append(buf, len, &pos, ")");
	}
}
