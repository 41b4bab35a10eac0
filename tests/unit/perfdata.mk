# perf.data: the writer byte by byte against the perf ABI (test_pd_write),
# the reader on round trips and damaged files (test_pd_read), the writer
# on a full disk (test_pd_fulldisk), and the PEBS data-source translation
# against Linux's ds.c tables (test_data_src).

PD_SRC := $(TOP)/userland/lib
PD_WRITE := $(PD_SRC)/perfdata_write.c $(PD_SRC)/perfdata_write.h \
	$(PD_SRC)/perf_data.h
PD_CONV := $(PD_SRC)/perfdata_conv.c $(PD_SRC)/perfdata_conv.h \
	$(PD_SRC)/data_src.c $(PD_SRC)/data_src.h $(PD_SRC)/decode.c \
	$(PD_SRC)/decode.h $(TOP)/uapi/skidless.h
PD_READ := $(PD_SRC)/perfdata_read.c $(PD_SRC)/perfdata_read.h \
	$(PD_SRC)/readall.c $(PD_SRC)/readall.h

TESTS += test_pd_write test_pd_read test_pd_fulldisk test_data_src

$(UBUILD)/test_pd_write: test_pd_write.c pd_fx.h $(PD_WRITE) $(PD_CONV) \
		$(PD_SRC)/perfdata_host.c $(PD_SRC)/perfdata_host.h \
		$(PD_SRC)/buildid.c $(PD_SRC)/buildid.h \
		$(PD_SRC)/readall.c $(PD_SRC)/readall.h | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS) \
		$(shell pkg-config --libs libdw libelf)

$(UBUILD)/test_pd_read: test_pd_read.c pd_fx.h $(PD_WRITE) $(PD_CONV) $(PD_READ) | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)

$(UBUILD)/test_pd_fulldisk: test_pd_fulldisk.c pd_fx.h $(PD_WRITE) $(PD_CONV) \
		$(PD_READ) | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)

$(UBUILD)/test_data_src: test_data_src.c $(PD_SRC)/data_src.c \
		$(PD_SRC)/data_src.h | $(UBUILD)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) $(ULDLIBS)
