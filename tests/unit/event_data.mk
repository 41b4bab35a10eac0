# The independent oracle for Intel's event lists (test_event_data.c): the
# perfmon JSON read again with jansson, against the tables gen_events.c
# generates, their lookups (event_rules.c) and the planner (plan.c,
# models.c), all module sources built here through kernel_shim.h.
#
# The generated tables are the top Makefile's: it is asked for them
# whenever the generator or the data is newer, in one invocation for both
# (a grouped target), so a parallel make builds gen_events once.
#
#   make -C tests/unit $(TOP)/build/unit/test_event_data    this test only
#   make -C tests/unit run TESTS=test_event_data            and run it (TAP)
EVD_INTEL := $(TOP)/kmod/intel
EVD_PERFMON := $(EVD_INTEL)/perfmon
EVD_GEN := $(TOP)/build/gen/event_table.c $(TOP)/build/gen/event_info.c
EVD_DATA := $(EVD_PERFMON)/mapfile.csv $(wildcard $(EVD_PERFMON)/*/events/*.json)

TESTS += test_event_data

$(EVD_GEN) &: $(TOP)/kmod/host/gen_events.c $(EVD_DATA)
	$(MAKE) -C $(TOP) $(EVD_GEN)

$(UBUILD)/test_event_data: test_event_data.c $(EVD_INTEL)/plan.c \
		$(EVD_INTEL)/models.c $(EVD_INTEL)/event_rules.c $(EVD_GEN) \
		$(EVD_INTEL)/plan.h $(EVD_INTEL)/pmu.h $(EVD_INTEL)/msrs.h \
		$(EVD_INTEL)/models.h $(EVD_INTEL)/event_rules.h \
		$(TOP)/userland/lib/event_info.h $(TOP)/kmod/host/kernel_shim.h \
		$(TOP)/uapi/skidless.h | $(UBUILD)
	$(CC) $(UCFLAGS) -DPERFMON_DIR='"$(EVD_PERFMON)"' \
		$(shell pkg-config --cflags jansson) -o $@ $(filter %.c,$^) \
		$(ULDLIBS) $(shell pkg-config --libs jansson)
