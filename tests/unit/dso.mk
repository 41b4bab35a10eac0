# libdwfl symbolization (dso.c, symbolize.c, buildid_cache.c, plt.c,
# jitmap.c, demangle.c) and DWARF unwinding (unwind_dwarf.c).
#
# Fixtures are built here at test time with gcc, g++, objcopy and strip
# (dso_fx.sh: PIE, shared library, stripped + .gnu_debuglink, a rebuild
# with another build-id, MiniDebugInfo, C++, inlines, PLT calls), and
# fixtures/unw_prog.c twice with -fomit-frame-pointer: with -g and with
# .eh_frame only.

DSO_FX := $(UBUILD)/dso
DSO_SRC := $(TOP)/tests/unit/fixtures
DSO_LIBSRC := $(TOP)/userland/lib
DSO_LIBS := $(shell pkg-config --libs libdw libelf) -liberty
DSO_CORE := $(addprefix $(DSO_LIBSRC)/,dso.c symbolize.c buildid.c \
	buildid_cache.c plt.c jitmap.c demangle.c symbols.c readall.c hmap.c \
	maps.c unwind_dwarf.c)
DSO_HDRS := $(DSO_CORE:.c=.h)
UNW_CC := gcc -O1 -fomit-frame-pointer -fno-optimize-sibling-calls \
	-fasynchronous-unwind-tables -Wl,--build-id=sha1

TESTS += test_dso test_unwind

$(DSO_FX):
	mkdir -p $@

$(DSO_FX)/unw_g: $(DSO_SRC)/unw_prog.c | $(DSO_FX)
	$(UNW_CC) -g -o $@ $<

$(DSO_FX)/unw_eh: $(DSO_SRC)/unw_prog.c | $(DSO_FX)
	$(UNW_CC) -o $@ $<
	! readelf -S $@ | grep -q debug_info

$(DSO_FX)/stamp: $(DSO_SRC)/dso_fx.sh $(wildcard $(DSO_SRC)/dso_*.c*) | $(DSO_FX)
	sh $(DSO_SRC)/dso_fx.sh $(DSO_SRC) $(DSO_FX) && touch $@

$(UBUILD)/test_unwind: test_unwind.c $(DSO_CORE) $(DSO_HDRS) \
		$(DSO_FX)/unw_g $(DSO_FX)/unw_eh | $(UBUILD)
	$(CC) $(UCFLAGS) -DDSO_FX='"$(DSO_FX)"' -o $@ $(filter %.c,$^) \
		$(ULDLIBS) $(DSO_LIBS)

$(UBUILD)/test_dso: test_dso.c $(DSO_CORE) $(DSO_HDRS) $(DSO_FX)/stamp | $(UBUILD)
	$(CC) $(UCFLAGS) -I$(DSO_FX) -DDSO_FX='"$(DSO_FX)"' -DSYM_SRC='"$(DSO_SRC)"' -o $@ $(filter %.c,$^) \
		$(ULDLIBS) $(DSO_LIBS)
