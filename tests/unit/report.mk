# report's option values, filters and aggregation (userland/cli/report_opts.c,
# report_hist.c, report_callgraph.c) and its text layout (report_output.c),
# fed made-up samples.

REPORT_CLI := $(TOP)/userland/cli
REPORT_LIB := $(TOP)/userland/lib

TESTS += test_report

$(UBUILD)/test_report: test_report.c $(REPORT_CLI)/report_opts.c \
		$(REPORT_CLI)/report_hist.c $(REPORT_CLI)/report_callgraph.c \
		$(REPORT_CLI)/report_output.c $(REPORT_LIB)/cpulist.c \
		$(REPORT_CLI)/report_hist.h $(REPORT_CLI)/report_callgraph.h \
		$(REPORT_CLI)/report_output.h $(REPORT_LIB)/hmap.h \
		$(REPORT_LIB)/cpulist.h | $(UBUILD)
	$(CC) $(UCFLAGS) -I$(REPORT_CLI) -o $@ $(filter %.c,$^) $(ULDLIBS) \
		$(shell pkg-config --libs json-c)
