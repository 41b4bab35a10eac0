# `skidless record --idle`: when it may be given, what it asks the module.
TESTS += test_record_idle

$(UBUILD)/test_record_idle: test_record_idle.c $(TOP)/userland/cli/record_idle.c \
		$(TOP)/userland/cli/record_idle.h $(TOP)/uapi/skidless.h | $(UBUILD)
	$(CC) $(UCFLAGS) -I$(TOP)/userland/cli -o $@ $(filter %.c,$^) $(ULDLIBS)
