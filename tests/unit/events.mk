# -e and -j parsing (userland/lib/events.c) on the planner the module uses
# (kmod/intel/plan.c, models.c, event_rules.c, linked as they are) and
# Intel's event lists as the build generates them (build/gen, made by the
# top Makefile's gen_events rules), with the nominal PMUs of
# userland/lib/pmu_models.c.
EV_INTEL := $(TOP)/kmod/intel
EV_LIB := $(TOP)/userland/lib
EV_GEN := $(TOP)/build/gen
EV_GEN_SRCS := $(EV_GEN)/event_table.c $(EV_GEN)/event_info.c

TESTS += test_events
$(UBUILD)/test_events: test_events.c $(EV_LIB)/events.c $(EV_LIB)/pmu_models.c \
		$(EV_INTEL)/plan.c $(EV_INTEL)/models.c $(EV_INTEL)/event_rules.c \
		$(EV_INTEL)/detect.c $(EV_GEN_SRCS) \
		$(EV_LIB)/events.h $(EV_LIB)/pmu_models.h $(EV_LIB)/event_info.h \
		$(EV_INTEL)/plan.h $(EV_INTEL)/pmu.h $(EV_INTEL)/models.h \
		$(EV_INTEL)/event_rules.h $(EV_INTEL)/msrs.h \
		$(TOP)/kmod/host/kernel_shim.h $(TOP)/uapi/skidless.h | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)

# The generated tables come from the top Makefile, which knows when Intel's
# JSON or the generator changed; a pattern rule, so another fragment may
# name the same files.
$(EV_GEN)/%.c: $(EV_INTEL)/gen_events.c $(wildcard $(EV_INTEL)/perfmon/*/events/*.json) \
		$(EV_INTEL)/perfmon/mapfile.csv
	$(MAKE) -C $(TOP) $@
