# Symbol tables (kallsyms, lists: userland/lib/symbols.c) and maps.c; the
# ELF fixtures below serve test_profile (ELF objects: dso.mk).
#
# test_symbols runs against real ELF files built here from fixtures/*.c (a
# non-PIE executable, a PIE, a shared library, the library stripped down to
# .dynsym, its separate debug file and a copy without build-id) and compares
# with what binutils says about them: fixtures/elf_expect.sh turns readelf
# output into one header per file. Fixtures are built without sanitizers so
# that their symbol tables stay small and predictable.

SYM_FX := $(UBUILD)/symbols
SYM_SRC := $(TOP)/tests/unit/fixtures
SYM_LIB := $(TOP)/userland/lib
SYM_FXCC := $(CC) -std=c11 -O1 -g -Wall -Wextra -Werror -fno-omit-frame-pointer
SYM_ELFLIBS := $(shell pkg-config --libs libelf)

SYM_ELFS := $(addprefix $(SYM_FX)/,fx_nopie fx_pie libfx.so libfx_strip.so libfx.debug \
	libfx_noid.so)
SYM_HDRS := $(addprefix $(SYM_FX)/,fx_nopie.h fx_pie.h fx_lib.h fx_strip.h)
SYM_DEFS := -I$(SYM_FX) -DSYM_FX='"$(SYM_FX)"' -DSYM_SRC='"$(SYM_SRC)"'

TESTS += test_symbols test_maps

$(SYM_FX):
	mkdir -p $@

$(SYM_FX)/fx_nopie: $(SYM_SRC)/fx_main.c $(SYM_SRC)/fx_funcs.c | $(SYM_FX)
	$(SYM_FXCC) -fno-pie -no-pie -Wl,--build-id=sha1 -o $@ $^

$(SYM_FX)/fx_pie: $(SYM_SRC)/fx_main.c $(SYM_SRC)/fx_funcs.c | $(SYM_FX)
	$(SYM_FXCC) -fPIE -pie -Wl,--build-id=sha1 -o $@ $^

$(SYM_FX)/libfx.so: $(SYM_SRC)/fx_funcs.c | $(SYM_FX)
	$(SYM_FXCC) -fPIC -shared -Wl,--build-id=sha1 -o $@ $^

$(SYM_FX)/libfx_noid.so: $(SYM_SRC)/fx_funcs.c | $(SYM_FX)
	$(SYM_FXCC) -fPIC -shared -Wl,--build-id=none -o $@ $^

$(SYM_FX)/libfx_strip.so: $(SYM_FX)/libfx.so
	strip --strip-all -o $@ $<

$(SYM_FX)/libfx.debug: $(SYM_FX)/libfx.so
	objcopy --only-keep-debug $< $@

$(SYM_FX)/fx_nopie.h: $(SYM_FX)/fx_nopie $(SYM_SRC)/elf_expect.sh
	sh $(SYM_SRC)/elf_expect.sh fx_nopie $< symtab > $@.tmp && mv $@.tmp $@

$(SYM_FX)/fx_pie.h: $(SYM_FX)/fx_pie $(SYM_SRC)/elf_expect.sh
	sh $(SYM_SRC)/elf_expect.sh fx_pie $< symtab > $@.tmp && mv $@.tmp $@

$(SYM_FX)/fx_lib.h: $(SYM_FX)/libfx.so $(SYM_SRC)/elf_expect.sh
	sh $(SYM_SRC)/elf_expect.sh fx_lib $< symtab > $@.tmp && mv $@.tmp $@

$(SYM_FX)/fx_strip.h: $(SYM_FX)/libfx_strip.so $(SYM_SRC)/elf_expect.sh
	sh $(SYM_SRC)/elf_expect.sh fx_strip $< dynsym > $@.tmp && mv $@.tmp $@

$(UBUILD)/test_symbols: test_symbols.c $(SYM_LIB)/symbols.c $(SYM_LIB)/maps.c \
		$(SYM_LIB)/readall.c $(SYM_LIB)/symbols.h $(SYM_LIB)/maps.h \
		$(SYM_LIB)/readall.h | $(UBUILD)
	$(CC) $(UCFLAGS) $(SYM_DEFS) -o $@ $(filter %.c,$^) $(ULDLIBS)

$(UBUILD)/test_maps: test_maps.c $(SYM_LIB)/maps.c $(SYM_LIB)/maps.h \
		$(SYM_LIB)/readall.c $(SYM_LIB)/readall.h | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)
