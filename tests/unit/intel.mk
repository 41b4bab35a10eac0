# The Intel PEBS and LBR decoders (kmod/intel/pebs.c, lbr_decode.c), pure
# module code built here through $(TOP)/kmod/host/kernel_shim.h and fed
# records laid out from the SDM's PEBS record and LBR layouts.

INTEL_SRC := $(TOP)/kmod/intel

TESTS += test_pebs test_lbr

$(UBUILD)/test_pebs: test_pebs.c $(INTEL_SRC)/pebs.c $(INTEL_SRC)/pebs.h \
		$(INTEL_SRC)/msrs.h $(TOP)/kmod/host/kernel_shim.h | $(UBUILD)
	$(CC) $(UCFLAGS) -I$(INTEL_SRC) -o $@ $(filter %.c,$^) $(ULDLIBS)

$(UBUILD)/test_lbr: test_lbr.c $(INTEL_SRC)/lbr_decode.c $(INTEL_SRC)/lbr.h \
		$(INTEL_SRC)/msrs.h $(TOP)/uapi/skidless.h $(TOP)/kmod/host/kernel_shim.h \
		| $(UBUILD)
	$(CC) $(UCFLAGS) -I$(INTEL_SRC) -o $@ $(filter %.c,$^) $(ULDLIBS)
