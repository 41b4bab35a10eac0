# `skidless record`'s output stage (userland/cli/record_output.c) with
# everything it calls, linked as the command links it, fed synthetic
# kernel records (uapi/skidless.h) and read back with perfdata_read.c.
#
# The mapped objects are two tiny PIEs built here from fixtures/ro_obj.c
# (RO_VARIANT 1 and 2: two build-ids); the test asks readelf -n for their
# build-ids and stat(2) for their device and inode.
#
#   make -C tests/unit run TESTS=test_record_output

RO_FX := $(UBUILD)/record_output
RO_SRC := $(TOP)/tests/unit/fixtures
RO_LIB := $(TOP)/userland/lib
RO_CLI := $(TOP)/userland/cli
RO_SRCS := $(RO_CLI)/record_output.c $(addprefix $(RO_LIB)/,buildid.c \
	buildid_cache.c capture.c decode.c hmap.c perfdata_conv.c data_src.c \
	perfdata_host.c perfdata_write.c perfdata_read.c readall.c symbols.c)
RO_HDRS := $(RO_CLI)/record_output.h $(RO_CLI)/record_pmu.h \
	$(RO_SRCS:%.c=%.h) $(RO_LIB)/perf_data.h $(TOP)/uapi/skidless.h
RO_FXCC := $(CC) -std=c11 -O1 -fPIE -pie -Wl,--build-id=sha1

TESTS += test_record_output

$(RO_FX):
	mkdir -p $@

$(RO_FX)/ro_a: $(RO_SRC)/ro_obj.c | $(RO_FX)
	$(RO_FXCC) -DRO_VARIANT=1 -o $@ $<

$(RO_FX)/ro_b: $(RO_SRC)/ro_obj.c | $(RO_FX)
	$(RO_FXCC) -DRO_VARIANT=2 -o $@ $<

$(UBUILD)/test_record_output: test_record_output.c $(RO_SRCS) $(RO_HDRS) \
		$(RO_FX)/ro_a $(RO_FX)/ro_b | $(UBUILD)
	$(CC) $(UCFLAGS) -I$(RO_CLI) -DRO_FX='"$(RO_FX)"' -Wl,--wrap=write -o $@ \
		$(filter %.c,$^) $(ULDLIBS) $(shell pkg-config --libs libdw libelf)
