# Asking the module about each CPU's PMU and grouping them by core type
# (userland/lib/pmu_query.c), against a module played by a wrapped ioctl().
PQ_LIB := $(TOP)/userland/lib

TESTS += test_pmu_query
$(UBUILD)/test_pmu_query: test_pmu_query.c $(PQ_LIB)/pmu_query.c \
		$(PQ_LIB)/cpulist.c $(PQ_LIB)/pmu_query.h $(PQ_LIB)/cpulist.h \
		$(TOP)/uapi/skidless.h | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS) -Wl,--wrap=ioctl
