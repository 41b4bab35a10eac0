# SPDX-License-Identifier: GPL-2.0
# Sourced by the analysis tests (not a test itself), after TOP and W are set.
# mkperf FILE: build tests/perfdata/mkperf.c into $W/mkperf and write FILE
# with it (PEBS memory samples and LBR stacks through skidless's real
# perf.data writer); the compiler's and mkperf's messages in $W/cc.err.
mkperf() {
	local L=$TOP/userland/lib
	cc -std=c11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer -I"$TOP/uapi" \
		-I"$L" -o "$W/mkperf" "$TOP/tests/perfdata/mkperf.c" \
		"$L/perfdata_conv.c" "$L/perfdata_write.c" "$L/perfdata_host.c" \
		"$L/data_src.c" "$L/decode.c" "$L/readall.c" "$L/buildid.c" \
		-ldw -lelf 2> "$W/cc.err" && "$W/mkperf" "$1" 2>> "$W/cc.err"
}
