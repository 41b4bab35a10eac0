# skidless load/unload: the messages per errno, the module parameters from
# the command line, and the scan for the processes that hold the device.
TESTS += test_kmod

$(UBUILD)/test_kmod: test_kmod.c $(TOP)/userland/lib/kmod_explain.c \
		$(TOP)/userland/lib/kmod_params.c $(TOP)/userland/lib/dev_users.c \
		$(TOP)/userland/lib/kmod_explain.h $(TOP)/userland/lib/kmod_params.h \
		$(TOP)/userland/lib/dev_users.h | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)
