// SPDX-License-Identifier: GPL-2.0
/*
 * What an event does on a counter, as the hardware would: whether it
 * counts there and whether PEBS records it, from Intel's event list of the
 * core (the generated tables, which tests/unit/test_event_data.c checks
 * against Intel's JSON), and the rules of the whole setup that Linux's
 * arch/x86/events/intel keeps and the lists do not state:
 *
 *   - an event counts only on the counters its list names (CounterHTOff
 *     when the core has more than four GP counters); elsewhere it counts
 *     nothing;
 *   - PEBS records it only where its list gives PEBS (PEBScounters, or
 *     the PEBS counters of the Skylake family); elsewhere no record;
 *   - TakenAlone events count alone on the GP counters;
 *   - load latency on a Golden Cove core needs event 0x03/0x82 counting
 *     beside it (core.c require_mem_loads_aux_event()), or it records
 *     nothing;
 *   - an event with an extra MSR needs that MSR programmed;
 *   - with TSX force-abort present and MSR 0x10F[0] clear, PMC3 belongs
 *     to TSX (core.c tfa_get_event_constraints());
 *   - PEBS must not be armed while VMX is on: a guest entry would keep
 *     it writing through the guest's page tables (core.c
 *     intel_guest_get_msrs()).
 *
 * Each broken rule is logged once per setup (what counts where), not once
 * per tick. In the tick, on the CPU.
 */
#include "event_rules.h"
#include "sim.h"

#define EVSEL_EVENT_BITS	(ARCH_PERFMON_EVENTSEL_EVENT | ARCH_PERFMON_EVENTSEL_UMASK | \
				 ARCH_PERFMON_EVENTSEL_EDGE | ARCH_PERFMON_EVENTSEL_ANY | \
				 ARCH_PERFMON_EVENTSEL_INV | ARCH_PERFMON_EVENTSEL_CMASK)
#define LDLAT_AUX_CONFIG	0x8203

/* A GP counter counts: enabled in GLOBAL_CTRL and in its select. */
static bool gp_enabled(const struct sim_cpu *sc, unsigned int i)
{
	return (sc->r.global_ctrl & BIT_ULL(i)) &&
	       (sc->r.evtsel[i] & ARCH_PERFMON_EVENTSEL_ENABLE);
}

static const struct skd_event_rule *rule_of(const struct sim_cpu *sc,
					    u32 config)
{
	return skd_event_rule_find(sc->events, config & EVSEL_EVENT_BITS);
}

static void log_once(struct sim_cpu *sc, enum sim_rule rule, u32 msr,
		     u64 val, u64 extra)
{
	if (sc->logged & BIT(rule))
		return;
	sc->logged |= BIT(rule);
	sim_violation(sc, rule, msr, val, extra);
}

bool sim_counts_here(struct sim_cpu *sc, unsigned int idx, u32 config)
{
	const struct skd_event_rule *r;
	u16 where;

	if (idx >= 32)		/* a fixed counter counts its own event */
		return true;
	if (idx == 3 && (sc->core->quirks & SIM_TFA_CAPABLE) &&
	    READ_ONCE(sim_tfa) && !(sc->r.tsx_force_abort & 1)) {
		log_once(sc, SIM_V_TFA, SKD_MSR_EVENTSEL(3), config, 0);
		return false;
	}
	r = rule_of(sc, config);
	if (!r)
		return true;	/* not in the list: a raw event counts */
	where = sc->core->nr_gp > 4 ? r->counters_htoff : r->counters;
	if (where & BIT(idx))
		return true;
	log_once(sc, SIM_V_COUNTER, SKD_MSR_EVENTSEL(idx), config, where);
	return false;
}

bool sim_pebs_here(struct sim_cpu *sc, unsigned int idx, u32 config)
{
	const struct skd_event_rule *r;
	unsigned int slot = idx >= 32 ? 8 + idx - 32 : idx;

	if (idx >= 32) {
		/* The fixed counter's own event: its pseudo encoding. */
		static const u32 fixed_event[] = { 0x0100, 0x0200, 0x0300,
						   0x0400 };

		config = fixed_event[idx - 32];
	}
	r = rule_of(sc, config);
	if (!r) {
		/* Adaptive PEBS records any event; earlier, unlisted none. */
		if (sc->core->baseline)
			return true;
		log_once(sc, SIM_V_PEBS, MSR_IA32_PEBS_ENABLE, config, 0);
		return false;
	}
	if (!(r->pebs & BIT(slot))) {
		log_once(sc, SIM_V_PEBS, MSR_IA32_PEBS_ENABLE, config, r->pebs);
		return false;
	}
	if ((r->flags & SKD_RULE_LDLAT) &&
	    (sc->core->quirks & SIM_LDLAT_AUX)) {
		unsigned int i;

		for (i = 0; i < sc->core->nr_gp; i++)
			if (gp_enabled(sc, i) &&
			    (sc->r.evtsel[i] & 0xffff) == LDLAT_AUX_CONFIG)
				return true;
		log_once(sc, SIM_V_LDLAT_AUX, SKD_MSR_EVENTSEL(idx), config, 0);
		return false;
	}
	return true;
}

/* A digest of what counts where: rules are checked again when it changes. */
static u64 setup_digest(const struct sim_cpu *sc)
{
	u64 d = sc->r.global_ctrl ^ sc->r.pebs_enable * 3 ^
		sc->r.fixed_ctrl * 5 ^ sc->r.ld_lat * 7 ^
		sc->r.frontend * 11 ^ sc->r.offcore[0] * 13 ^
		sc->r.offcore[1] * 17;
	unsigned int i;

	for (i = 0; i < SKD_MAX_GP; i++)
		d = d * 31 + sc->r.evtsel[i];
	return d;
}

/* The extra MSR a rule needs, and its value here. */
static bool extra_msr_missing(const struct sim_cpu *sc,
			      const struct skd_event_rule *r, u32 *msr)
{
	if (r->flags & SKD_RULE_LDLAT) {
		*msr = MSR_PEBS_LD_LAT_THRESHOLD;
		return !sc->r.ld_lat;
	}
	if (r->flags & SKD_RULE_FRONTEND) {
		*msr = MSR_PEBS_FRONTEND;
		return !sc->r.frontend;
	}
	if (r->flags & SKD_RULE_OFFCORE) {
		*msr = SKD_MSR_OFFCORE_RSP(0);
		return !sc->r.offcore[0];
	}
	if (r->flags & SKD_RULE_OFFCORE1) {
		*msr = SKD_MSR_OFFCORE_RSP(1);
		return !sc->r.offcore[1];
	}
	return false;
}

void sim_check_setup(struct sim_cpu *sc)
{
	u64 digest = setup_digest(sc);
	unsigned int i, k, enabled = 0;
	u64 pebs_armed;
	u32 msr;

	if (digest != sc->setup) {
		sc->setup = digest;
		sc->logged = 0;
	}
	for (i = 0; i < sc->core->nr_gp; i++)
		enabled += gp_enabled(sc, i);
	for (i = 0; i < sc->core->nr_gp; i++) {
		const struct skd_event_rule *r;

		if (!gp_enabled(sc, i))
			continue;
		r = rule_of(sc, sc->r.evtsel[i]);
		if (!r)
			continue;
		if (extra_msr_missing(sc, r, &msr))
			log_once(sc, SIM_V_EXTRA_MSR, msr, sc->r.evtsel[i], 0);
		if (!(r->flags & SKD_RULE_TAKEN_ALONE) || enabled < 2)
			continue;
		for (k = 0; k < sc->core->nr_gp; k++)
			if (k != i && gp_enabled(sc, k) &&
			    (sc->r.evtsel[k] & 0xffff) != LDLAT_AUX_CONFIG)
				log_once(sc, SIM_V_TAKEN_ALONE,
					 SKD_MSR_EVENTSEL(i), sc->r.evtsel[i],
					 sc->r.evtsel[k]);
	}
	pebs_armed = sc->r.pebs_enable & sc->r.global_ctrl &
		     (((1ULL << sc->core->nr_gp) - 1) | (0xfULL << 32));
	if (READ_ONCE(sim_vmx) && pebs_armed)
		log_once(sc, SIM_V_VMX, MSR_IA32_PEBS_ENABLE,
			 sc->r.pebs_enable, sc->r.global_ctrl);
}
