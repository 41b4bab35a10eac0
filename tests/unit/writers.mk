# The encoders behind `skidless convert` and `skidless diff --svg`:
# folded-stack naming and order (stacks.c), the SVG flame graph
# (flamegraph.c, read back with libxml2's parser), the pprof encoder
# (pprof_encode.c, read back with zlib and protobuf-c's generated
# decoder) and JSON lines (jsonl_encode.c, read back with json-c's
# parser). profile.proto is compiled here as the top Makefile does.

WR_CLI := $(TOP)/userland/cli
WR_GEN := $(UBUILD)/gen
WR_SRCS := $(addprefix $(WR_CLI)/,stacks.c flamegraph.c pprof_encode.c \
	jsonl_encode.c) \
	$(TOP)/userland/lib/hmap.c $(WR_GEN)/profile.pb-c.c

TESTS += test_writers

$(WR_GEN)/profile.pb-c.c: $(TOP)/userland/proto/profile.proto
	mkdir -p $(WR_GEN)
	protoc-c --c_out=$(WR_GEN) -I$(dir $<) $<

$(UBUILD)/test_writers: test_writers.c $(WR_SRCS) $(WR_CLI)/stacks.h \
		$(WR_CLI)/flamegraph.h $(WR_CLI)/pprof_encode.h \
		$(WR_CLI)/jsonl_encode.h | $(UBUILD)
	$(CC) $(UCFLAGS) -I$(WR_CLI) -I$(WR_GEN) \
		$(shell pkg-config --cflags libxml-2.0 json-c) -o $@ \
		$(filter %.c,$^) $(ULDLIBS) \
		$(shell pkg-config --libs libprotobuf-c zlib libxml-2.0 json-c)
