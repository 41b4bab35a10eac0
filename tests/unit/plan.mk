# The session planner, kmod/intel/plan.c, with the model table it reads
# (kmod/intel/models.c) and Intel's event lists as the module has them
# (event_rules.c and the table gen_events.c generates from
# kmod/intel/perfmon/, built by the top Makefile through the grouped rule
# of event_data.mk). All module sources, built on the host through
# kmod/host/kernel_shim.h.
#
#   make -C tests/unit run TESTS=test_plan
PLAN_SRC := $(TOP)/kmod/intel
PLAN_GEN := $(TOP)/build/gen/event_table.c

TESTS += test_plan

$(UBUILD)/test_plan: test_plan.c pmu_caps.c $(PLAN_SRC)/plan.c \
		$(PLAN_SRC)/models.c $(PLAN_SRC)/event_rules.c $(PLAN_GEN) \
		pmu_caps.h $(PLAN_SRC)/plan.h $(PLAN_SRC)/pmu.h \
		$(PLAN_SRC)/msrs.h $(PLAN_SRC)/models.h \
		$(PLAN_SRC)/event_rules.h $(TOP)/kmod/host/kernel_shim.h \
		$(TOP)/uapi/skidless.h | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)
