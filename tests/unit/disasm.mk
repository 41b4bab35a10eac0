# The capstone wrapper (userland/lib/disasm.c).
TESTS += test_disasm
$(UBUILD)/test_disasm: test_disasm.c $(TOP)/userland/lib/disasm.c \
		$(TOP)/userland/lib/disasm.h | $(UBUILD)
	$(CC) $(UCFLAGS) $(shell pkg-config --cflags capstone) -o $@ \
		$(filter %.c,$^) $(ULDLIBS) $(shell pkg-config --libs capstone)
