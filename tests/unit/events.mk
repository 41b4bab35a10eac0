# -e and -j parsing (userland/lib/events.c) against the CPU model table
# the module uses (kmod/intel/models.c, linked as is).
EV_INTEL := $(TOP)/kmod/intel

TESTS += test_events
$(UBUILD)/test_events: test_events.c $(TOP)/userland/lib/events.c \
		$(EV_INTEL)/models.c $(TOP)/userland/lib/events.h \
		$(EV_INTEL)/models.h $(EV_INTEL)/msrs.h $(TOP)/kmod/host/kernel_shim.h \
		$(TOP)/uapi/skidless.h | $(UBUILD)
	$(CC) $(UCFLAGS) -I$(EV_INTEL) -o $@ $(filter %.c,$^) $(ULDLIBS)
