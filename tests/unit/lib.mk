# Record decoding, the capture file, profile loading and the small helpers
# of userland/lib (cpulist, hmap, explain, memlock_explain).
#
# test_profile symbolizes against the ELF fixtures that symbols.mk builds
# (and the headers it generates from readelf). This fragment is included
# before symbols.mk, whose variables are still empty while these rules are
# read, so the fixture paths are spelled out here; the rules that build them
# stay in symbols.mk.

LIB_SRC := $(TOP)/userland/lib
LIB_UAPI := $(TOP)/uapi/skidless.h
LIB_FX := $(UBUILD)/symbols
LIB_FX_FILES := $(addprefix $(LIB_FX)/,fx_nopie fx_pie libfx.so libfx_noid.so \
	fx_nopie.h fx_pie.h fx_lib.h)

TESTS += test_decode test_capture test_profile test_misc

$(UBUILD)/test_decode: test_decode.c $(LIB_SRC)/decode.c $(LIB_SRC)/decode.h \
		$(LIB_UAPI) | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)

$(UBUILD)/test_capture: test_capture.c $(LIB_SRC)/capture.c $(LIB_SRC)/capture.h \
		$(LIB_UAPI) | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)

$(UBUILD)/test_profile: test_profile.c $(LIB_SRC)/profile.c $(LIB_SRC)/capture.c \
		$(LIB_SRC)/perfdata_profile.c $(LIB_SRC)/perfdata_read.c \
		$(LIB_SRC)/decode.c $(LIB_SRC)/hmap.c $(LIB_SRC)/maps.c \
		$(LIB_SRC)/symbols.c $(LIB_SRC)/readall.c $(LIB_SRC)/readall.h \
		$(addprefix $(LIB_SRC)/,symbolize.c dso.c buildid.c buildid_cache.c \
		plt.c jitmap.c demangle.c unwind_dwarf.c symbolize.h dso.h \
		unwind_dwarf.h) \
		$(LIB_SRC)/profile.h $(LIB_SRC)/capture.h \
		$(LIB_SRC)/decode.h $(LIB_SRC)/hmap.h $(LIB_SRC)/maps.h \
		$(LIB_SRC)/symbols.h $(LIB_UAPI) $(LIB_FX_FILES) | $(UBUILD)
	$(CC) $(UCFLAGS) -I$(LIB_FX) -DSYM_FX='"$(LIB_FX)"' -o $@ \
		$(filter %.c,$^) $(ULDLIBS) $(shell pkg-config --libs libdw libelf) -liberty

$(UBUILD)/test_misc: test_misc.c $(LIB_SRC)/cpulist.c $(LIB_SRC)/hmap.c \
		$(LIB_SRC)/explain.c $(LIB_SRC)/memlock_explain.c \
		$(LIB_SRC)/reader.c $(LIB_SRC)/reader.h \
		$(LIB_SRC)/cpulist.h $(LIB_SRC)/hmap.h $(LIB_SRC)/explain.h \
		$(LIB_SRC)/memlock_explain.h | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)
