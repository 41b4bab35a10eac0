# SPDX-License-Identifier: GPL-2.0
#
# skidless: the module (through Kbuild), the userland and the tests.
#
#   make                 module for the running kernel (or KDIR=...) + tools
#   make check           everything tested: static checks, unit tests, VM tests
#   make demo            record a real profile inside a VM and show it
#   make install         tool, man pages and completion to $(PREFIX), module to
#                        /lib/modules
#   make dkms-install    source to /usr/src and dkms add/build/install
#   make deb             Debian packages skidless and skidless-dkms in build/deb
#   make dkms-check      skidless-dkms under DKMS for Debian's 6.1 and 6.12,
#                        its modules loaded and sampled with in the VM
#
# The module is built against KDIR; KERNELRELEASE names the target kernel
# (DKMS passes it), not the kernel this machine runs.

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
PREFIX ?= /usr/local
VERSION := 0.1.0
BUILD := $(CURDIR)/build

CC ?= cc
# Quiet like kbuild unless V=1.
ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-7s %s\n'
endif
PKGS := libdw libelf libkmod json-c libprotobuf-c zlib capstone libnl-3.0 libnl-genl-3.0
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -MMD -MP \
	-Iuapi -Iuserland/lib -Iuserland/cli -Ikmod/intel -Ikmod/host -I$(BUILD)/gen \
	-DSKD_TOOL_VERSION='"$(VERSION)"' \
	$(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS += $(shell pkg-config --libs $(PKGS) 2>/dev/null || \
	echo -ldw -lelf -lkmod -ljson-c -lprotobuf-c -lz -lcapstone -lnl-genl-3 -lnl-3) -liberty -lm

# Intel's event lists become C at build time, for the command as for the
# module (Kbuild runs the same generator): rules and names.
GEN := $(BUILD)/gen
GEN_EVENTS := $(BUILD)/gen_events
PERFMON := kmod/intel/perfmon
PERFMON_FILES := $(PERFMON)/mapfile.csv $(wildcard $(PERFMON)/*/events/*.json)
JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null || echo -I/usr/include/json-c)
JSONC_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)

# The model table, the event rules and the session planner are the
# module's: one source, so the command explains a refusal by the very
# rules the module applied.
LIB_SRCS := $(wildcard userland/lib/*.c) kmod/intel/models.c \
	kmod/intel/plan.c kmod/intel/event_rules.c
GEN_SRCS := $(GEN)/event_table.c $(GEN)/event_info.c
# pprof's profile.proto becomes C through protobuf-c's compiler.
PROTO := userland/proto/profile.proto
PROTO_C := $(GEN)/profile.pb-c.c
CLI_SRCS := $(wildcard userland/cli/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN_SRCS:.c=.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o) $(PROTO_C:.c=.o)
LIB := $(BUILD)/libskidless.a
TOOL := $(BUILD)/skidless

# In-VM tests: one program per tests/kselftest/*.c (testlib.c and
# pmulib.c are shared), helper programs from progs/, and shell tests.
KSFT_LIBS := tests/kselftest/testlib.c tests/kselftest/pmulib.c
KSFT_SRCS := $(filter-out $(KSFT_LIBS),$(wildcard tests/kselftest/*.c))
KSFT_BINS := $(KSFT_SRCS:tests/kselftest/%.c=$(BUILD)/kselftest/%)
KSFT_PROGS := $(patsubst tests/kselftest/progs/%.c,$(BUILD)/kselftest/%,\
	$(wildcard tests/kselftest/progs/*.c))
KSFT_SCRIPTS := $(wildcard tests/kselftest/*.sh)
# Test programs keep frame pointers so call chains through them are whole.
KSFT_CFLAGS := -O1 -g -fno-omit-frame-pointer -fno-inline-functions-called-once

all: module tools

# SIM=1 also builds the simulated PMU (skidless_sim.ko) and the test-only
# modules (tests/kselftest/modules/), for the tests.
module:
	@test -d $(KDIR) || { echo "No kernel build tree at $(KDIR): install" \
		"linux-headers-$(KERNELRELEASE) or pass KDIR=/path/to/build"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(if $(SIM),SKD_SIM=y) modules

tools: $(TOOL)

# The same command under ASan + UBSan (leaks included), for the VM tests.
ASAN_TOOL := $(BUILD)/skidless-asan
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
$(ASAN_TOOL): $(LIB_SRCS) $(GEN_SRCS) $(CLI_SRCS) $(PROTO_C) $(wildcard userland/*/*.h)
	$(quiet) LD $(@F)
	$(Q)$(CC) $(filter-out -MMD -MP,$(CFLAGS)) $(ASAN_FLAGS) -o $@ \
		$(LIB_SRCS) $(GEN_SRCS) $(CLI_SRCS) $(PROTO_C) $(LDLIBS)

$(GEN_EVENTS): kmod/host/gen_events.c
	@mkdir -p $(dir $@)
	$(quiet) HOSTCC $(@F)
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror \
		$(JSONC_CFLAGS) -o $@ $< $(JSONC_LIBS)

$(GEN)/event_table.c: $(GEN_EVENTS) $(PERFMON_FILES)
	@mkdir -p $(dir $@)
	$(quiet) GEN $(@F)
	$(Q)$(GEN_EVENTS) --rules -o $@ $(PERFMON)

$(GEN)/event_info.c: $(GEN_EVENTS) $(PERFMON_FILES)
	@mkdir -p $(dir $@)
	$(quiet) GEN $(@F)
	$(Q)$(GEN_EVENTS) --info -o $@ $(PERFMON)

$(PROTO_C): $(PROTO)
	@mkdir -p $(dir $@)
	$(quiet) PROTOC $(<F)
	$(Q)protoc-c --c_out=$(GEN) -I$(dir $<) $<

$(PROTO_C:.c=.h): $(PROTO_C)

# Whatever includes the generated header waits for it.
$(BUILD)/userland/cli/pprof_encode.o: $(PROTO_C:.c=.h)

$(GEN)/%.o: $(GEN)/%.c
	$(quiet) CC $(<F)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	$(quiet) AR $(@F)
	$(Q)$(AR) rcs $@ $^

$(TOOL): $(CLI_OBJS) $(LIB)
	$(quiet) LD $(@F)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(LDLIBS)

# The selftest's call chain keeps frame pointers: the sim PMU builds its
# LBR contents from the frame-pointer chain (real LBRs need none).
$(BUILD)/userland/cli/selftest_work.o: CFLAGS += -fno-omit-frame-pointer

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(quiet) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

kselftests: $(KSFT_BINS) $(KSFT_PROGS)

# A test too big for one file keeps its other parts in tests/kselftest/NAME/.
.SECONDEXPANSION:
$(BUILD)/kselftest/%: tests/kselftest/%.c $$(wildcard tests/kselftest/%/*) \
		$(KSFT_LIBS) $(KSFT_LIBS:.c=.h) tests/kselftest/ktap.h $(LIB)
	@mkdir -p $(dir $@)
	$(quiet) CC $<
	$(Q)$(CC) $(filter-out -O2,$(CFLAGS)) $(KSFT_CFLAGS) -Itests/kselftest \
		-o $@ $< $(wildcard tests/kselftest/$*/*.c) $(KSFT_EXTRA) \
		$(KSFT_LIBS) $(LIB) $(LDLIBS)

# The device fuzzer also speaks the netlink family, as the netlink test.
$(BUILD)/kselftest/fuzz_device: KSFT_EXTRA := tests/kselftest/netlink/rawnl.c
$(BUILD)/kselftest/fuzz_device: tests/kselftest/netlink/rawnl.c \
	tests/kselftest/netlink/rawnl.h

# The DWARF unwinding test's workload must have no frame pointers.
$(BUILD)/kselftest/dwarf_chain: KSFT_CFLAGS += -O1 -g -fomit-frame-pointer
# AutoFDO (Debian's 0.19) reads no DWARF 5, GCC 12's default: the
# optimizers test (tests/analysis/optimizers.sh) profiles busyloop.
$(BUILD)/kselftest/busyloop: KSFT_CFLAGS += -gdwarf-4

$(BUILD)/kselftest/%: tests/kselftest/progs/%.c
	@mkdir -p $(dir $@)
	$(quiet) CC $<
	$(Q)$(CC) $(filter-out -O2,$(CFLAGS)) $(KSFT_CFLAGS) -o $@ $<

# Everything the VM needs in one directory: the tool, the tests, the list.
vm-bin: tools kselftests $(ASAN_TOOL)
	@rm -rf $(BUILD)/vm-bin && mkdir -p $(BUILD)/vm-bin
	$(Q)cp $(TOOL) $(ASAN_TOOL) $(KSFT_BINS) $(KSFT_PROGS) $(KSFT_SCRIPTS) tests/kselftest/list \
		tests/vm/demo.sh $(BUILD)/vm-bin/
	@# Debian's depmod (kmod) for kmod_load.sh: busybox's writes no
	@# modules.dep.bin, which libkmod reads.
	$(Q)cp /sbin/depmod $(BUILD)/vm-bin/depmod

check:
	bash tests/check.sh

# Instructions per PEBS sample on the drain path and per sample in the
# reader, under callgrind; then skidless report and script against perf's
# on a 5-million-sample file; then recording cost against perf in a VM
# (needs make module SIM=1).
bench: tools
	@rc=0; bash bench/run.sh || rc=1; bash bench/reader_cost.sh || rc=1; \
		bash bench/analysis.sh || rc=1; \
		bash bench/cost.sh --limits bench/cost_limits || rc=1; exit $$rc

demo:
	bash tests/vm/demo-run.sh

install: all
	install -D -m 0755 $(TOOL) $(DESTDIR)$(PREFIX)/bin/skidless
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man4
	install -m 0644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 man/*.4 $(DESTDIR)$(PREFIX)/share/man/man4/
	install -D -m 0644 completion/skidless \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/skidless
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(KERNELRELEASE)

# The module's build reads Intel's event lists with a host program that
# links json-c: DKMS builds need libjson-c-dev (and pkg-config) too.
dkms-install:
	@pkg-config --exists json-c || { echo "dkms-install: the module's" \
		"build needs json-c: apt-get install libjson-c-dev pkg-config"; exit 1; }
	rm -rf /usr/src/skidless-$(VERSION)
	mkdir -p /usr/src/skidless-$(VERSION)
	cp -r Kbuild dkms.conf kmod uapi /usr/src/skidless-$(VERSION)/
	find /usr/src/skidless-$(VERSION) \( -name '*.o' -o -name '.*.cmd' \
		-o -name '*.mod' -o -name '*.mod.c' -o -name '*.ko' \
		-o -name event_table.c -o -name gen_events \) -delete
	dkms add -m skidless -v $(VERSION)
	dkms build -m skidless -v $(VERSION) -k $(KERNELRELEASE)
	dkms install -m skidless -v $(VERSION) -k $(KERNELRELEASE)

# Debian packages (debian/): the source package is made from the files git
# tracks, as they are in the work tree, so build products never get in
# (outside git: every file but build/).
# Output in build/deb: .dsc, .tar.xz, .changes, .buildinfo and both .debs.
DEB_DIR := $(BUILD)/deb
deb:
	@command -v dpkg-buildpackage > /dev/null || { echo "deb: needs" \
		"dpkg-dev and debhelper (tests/deps.sh installs them)"; exit 1; }
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/skidless-$(VERSION)
	{ if git rev-parse --git-dir > /dev/null 2>&1; then git ls-files -z; \
	  else find . \( -path ./build -o -path ./.git \) -prune -o \
		\( -type f -o -type l \) ! -name '*.o' ! -name '*.ko' \
		! -name '*.cmd' ! -name '*.mod' ! -name '*.mod.c' -print0; fi; } | \
		tar --null -T - --ignore-failed-read -cf - | \
		tar -xf - -C $(DEB_DIR)/skidless-$(VERSION)
	cd $(DEB_DIR)/skidless-$(VERSION) && dpkg-buildpackage -us -uc \
		--build=source,binary > ../build.log 2>&1 || \
		{ tail -n 40 ../build.log; exit 1; }
	rm -rf $(DEB_DIR)/skidless-$(VERSION)
	@ls $(DEB_DIR)

# DKMS add/build/install/status/uninstall/remove of the skidless-dkms
# package against the headers of both bookworm kernels, in a clean
# bookworm chroot (root; tests/dkms-check.sh); then the modules it built
# loaded and sampled with in the VM on their kernels (tests/dkms-vm.sh).
dkms-check:
	bash tests/dkms-check.sh
	$(MAKE) -s vm-bin
	bash tests/dkms-vm.sh

clean:
	rm -rf $(BUILD)
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/tests/kselftest/modules clean 2>/dev/null

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)

.PHONY: all module tools kselftests vm-bin check bench demo install dkms-install deb dkms-check clean
