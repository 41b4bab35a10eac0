/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The planner's description of a PMU (struct skd_pmu_caps,
 * kmod/intel/pmu.h) in the command: either rebuilt from what the module
 * reported (SKD_IOC_GET_PMU), so the command plans and explains exactly
 * as the module does, or the nominal PMU of a typical part of one of
 * Intel's event lists, so events can be listed and checked without the
 * module (skidless list --pmu MODEL, the host tests).
 */
#ifndef _SKD_PMU_MODELS_H
#define _SKD_PMU_MODELS_H

#include <stddef.h>

#include "pmu.h"

/*
 * The capabilities the module planned with when it reported @q: every
 * field GET_PMU carries, the event list named by q->model_name and its
 * CPU model (kmod/intel/models.h), the legacy LBR layout of that model.
 * Fields GET_PMU does not carry (vendor, events_missing) are what
 * detection gives an Intel CPU the lists know.
 */
void skd_caps_from_info(const struct skd_pmu_info *q,
			struct skd_pmu_caps *caps);

/*
 * The nominal PMU of a typical part of event list @name: a list name
 * ("skylakex", "alderlake_gracemont") or an alias, case-insensitive:
 *
 *	skl				skylake
 *	skx, skylake-x			skylakex
 *	clx, cascadelake-x		cascadelakex
 *	icl				icelake
 *	icx, icelake-x			icelakex
 *	tgl				tigerlake
 *	rkl				rocketlake
 *	spr				sapphirerapids
 *	emr				emeraldrapids
 *	gnr				graniterapids
 *	adl, alderlake, adl-p, glc	alderlake_goldencove (the P-core)
 *	adl-e, gracemont, grt		alderlake_gracemont (the E-core)
 *
 * The part is usable, without page-table isolation, TSX force-abort or a
 * hypervisor: what the event lists allow, not what one machine's setup
 * takes away. 0, or -ENOENT when @name is none of those.
 */
int skd_caps_nominal(const char *name, struct skd_pmu_caps *caps);

/* The list @name (a list name or alias) stands for, or NULL. */
const char *skd_caps_list_name(const char *name);

/* "skylake (skl), skylakex (skx, skylake-x), ...", for messages. */
void skd_caps_nominal_names(char *buf, size_t len);

#endif /* _SKD_PMU_MODELS_H */
