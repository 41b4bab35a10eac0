# The per-CPU ring (kmod/ring_core.c) against a real double mapping.
#
# test_ring.c #includes ring_core.c rather than linking it: it wraps a few
# $(TOP)/kmod/host/kernel_shim.h primitives first so a test can run a nested writer at an
# exact point inside skd_ring_begin()/skd_ring_end(), as an NMI would. The
# ring source itself is compiled unmodified, so it is a prerequisite here
# but not a separate object.
TESTS += test_ring
$(UBUILD)/test_ring: test_ring.c $(TOP)/kmod/ring_core.c \
		$(TOP)/kmod/ring_core.h $(TOP)/kmod/host/kernel_shim.h $(TOP)/uapi/skidless.h \
		| $(UBUILD)
	$(CC) $(UCFLAGS) -pthread -o $@ $< $(ULDLIBS)
