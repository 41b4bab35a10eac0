# The session planner, kmod/intel/plan.c, with the model tables it reads
# (kmod/intel/models.c). Both are module sources built on the host through
# kmod/host/kernel_shim.h.
PLAN_SRC := $(TOP)/kmod/intel

TESTS += test_plan

$(UBUILD)/test_plan: test_plan.c pmu_caps.c $(PLAN_SRC)/plan.c \
		$(PLAN_SRC)/models.c pmu_caps.h \
		$(PLAN_SRC)/plan.h $(PLAN_SRC)/pmu.h $(PLAN_SRC)/msrs.h \
		$(PLAN_SRC)/models.h $(TOP)/kmod/host/kernel_shim.h \
		$(TOP)/uapi/skidless.h | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)
