# The PEBS drain (kmod/intel/drain.c) with the record writer and ring it
# feeds, built unchanged against bench/kernel's stand-ins, as bench/run.sh
# builds it (no PIE: the stand-ins' `current' is an absolute address),
# but with the unit tests' sanitizers.

DRAIN_KSRCS := $(TOP)/kmod/intel/drain.c $(TOP)/kmod/record.c \
	$(TOP)/kmod/ring_core.c $(TOP)/kmod/intel/pebs.c \
	$(TOP)/kmod/intel/lbr_decode.c $(TOP)/bench/kernel/stubs.c
DRAIN_CFLAGS := -std=c11 -O1 -g -fno-pie -no-pie -Wall -Wextra -Werror $(SANITIZE) \
	-I$(TOP)/bench/kernel -I$(TOP)/uapi -I$(TOP)/kmod -I$(TOP)/kmod/intel \
	-I$(TOP)/kmod/host \
	-include $(TOP)/bench/kernel/linux/compiler_types.h \
	$(shell pkg-config --cflags cmocka)

TESTS += test_drain
$(UBUILD)/test_drain: test_drain.c $(DRAIN_KSRCS) \
		$(wildcard $(TOP)/bench/kernel/*/*.h $(TOP)/kmod/*.h \
			   $(TOP)/kmod/intel/*.h) $(TOP)/uapi/skidless.h | $(UBUILD)
	$(CC) $(DRAIN_CFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)
