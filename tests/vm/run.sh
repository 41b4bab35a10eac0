#!/bin/bash
# Boot a QEMU (TCG) VM on a stock kernel with a busybox initramfs, run the
# skidless tests inside it and check the results.
#
#   tests/vm/run.sh [--ko skidless.ko] [--sim-ko skidless_sim.ko]
#                   [--test-ko FILE.ko]... [--bin DIR] [--tests LIST] [--out DIR]
#                   [--kernel VMLINUZ] [--timeout SECS] [--smp N] [--mem SIZE]
#                   [--append "KERNEL ARGS"] [--mode tests|demo] [--demo CMD]
#                   [--no-pvh]
#
# Defaults: --kernel the newest /boot/vmlinuz-VER that has /lib/modules/VER,
# --timeout 900 (whole VM), --smp 2, --mem 1G, --out a new /tmp/skd-vm.*,
# --mode tests.  Every file of --bin lands in the guest's /skd/bin (with
# the shared libraries of ELF files), --ko as /skd/skidless.ko (insmod'ed
# first, rmmod'ed last), --sim-ko as /skd/skidless_sim.ko (loaded after it,
# unloaded before it; then the device model's violation log is checked
# after every test, and its sum is one result of its own), each --test-ko
# in /skd/test-modules/ (for the tests to load).  LIST has one test per line,
# "NAME [TIMEOUT_SECS] [ARGS...]": NAME is a program in --bin, run in /tmp;
# default limit 120 s, 0 = none; # starts a comment line.  Exit code 4 =
# skipped, 124 = timed out.  Without --tests the guest only boots (and
# loads/unloads --ko).  --mode demo --demo "CMD" runs CMD instead of the
# list and shows its output live.
#
# Logs in --out: console.log (kernel console, ttyS0), tap.log (raw test
# channel, ttyS1), results.tap (flat TAP of every case), qemu.log.  A
# result there reads "NAME [ARGS, KERNEL]: case": the list line's
# arguments but the time limit, and the guest's kernel release, are the
# configuration tests/tap_summary.sh counts the test once over.  The
# last line printed is "N passed, N failed, N skipped" (distinct tests);
# exit 0 iff nothing failed, 2 on a usage or setup error.
#
# A bzImage kernel is booted as its uncompressed vmlinux (PVH entry, cached
# in ~/.cache/skidless-vm), which halves the boot time under TCG;
# --no-pvh boots the bzImage as it is.  SKD_QEMU_EXTRA in the environment
# adds QEMU arguments, for debugging (a -monitor socket, say).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TAP_SUMMARY=$HERE/../tap_summary.sh

TEST_KOS=()
KERNEL='' KO='' SIM_KO='' BIN='' TESTS='' OUT='' TIMEOUT=900 SMP=2 MEM=1G APPEND=''
MODE=tests DEMO='' NO_PVH=''
BOOT_IMAGE='' QEMU_PID='' WORK='' WORK_TREE='' VM_SECS=0 QEMU_RC=0

# Kernel log lines that mean the kernel is unhappy.
KERNEL_BAD='WARNING:|BUG:|Oops|NMI received for unknown reason|Dazed and confused|Call Trace|Kernel panic|UBSAN:|KASAN|possible circular locking|possible recursive locking|inconsistent lock state|unreferenced object|soft lockup|rcu_sched detected stall|rcu: INFO:'
# Taint bits a loaded out-of-tree (O, 4096), unsigned (E, 8192) module sets.
TAINT_OK=$((4096 | 8192))
TAINT_LETTERS=(P F S R M B U D A W C I O E L K X T N)
TAINT_WHAT=("proprietary module" "module force-loaded" "SMP/out-of-spec"
    "module force-unloaded" "machine check" "bad page" "user request"
    "kernel died (oops/BUG)" "ACPI table overridden" "kernel warning"
    "staging driver" "firmware workaround" "out-of-tree module"
    "unsigned module" "soft lockup" "live patch" "auxiliary" "randstruct"
    "test module")

die() { echo "run.sh: $*" >&2; exit 2; }

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
    exit "${1:-2}"
}

# ---------------------------------------------------------------- options

parse_args() {
    local opt val
    while [ $# -gt 0 ]; do
        opt=$1
        case "$opt" in
            -h|--help) usage 0 ;;
            --no-pvh) NO_PVH=1; shift; continue ;;
            --*=*) val=${opt#*=}; opt=${opt%%=*}; shift ;;
            --*) [ $# -ge 2 ] || die "$opt needs a value (see --help)"
                 val=$2; shift 2 ;;
            *) die "unexpected argument '$opt' (see --help)" ;;
        esac
        case "$opt" in
            --kernel) KERNEL=$val ;;
            --ko) KO=$val ;;
            --sim-ko) SIM_KO=$val ;;
            --test-ko) TEST_KOS+=("$val") ;;
            --bin) BIN=$val ;;
            --tests) TESTS=$val ;;
            --out) OUT=$val ;;
            --timeout) TIMEOUT=$val ;;
            --smp) SMP=$val ;;
            --mem) MEM=$val ;;
            --append) APPEND=$val ;;
            --mode) MODE=$val ;;
            --demo) DEMO=$val ;;
            *) die "unknown option $opt (see --help)" ;;
        esac
    done
}

# Newest /boot/vmlinuz-VER that has a /lib/modules/VER next to it.
default_kernel() {
    local k ver
    for k in /boot/vmlinuz-*; do
        ver=${k#/boot/vmlinuz-}
        [ -d "/lib/modules/$ver" ] && echo "$ver"
    done | sort -V | tail -n 1 | sed 's|^|/boot/vmlinuz-|'
}

check_args() {
    [ -n "$KERNEL" ] || KERNEL=$(default_kernel)
    [ -n "$KERNEL" ] || die "no /boot/vmlinuz-VER with /lib/modules/VER; pass --kernel"
    [ -r "$KERNEL" ] || die "cannot read kernel $KERNEL"
    KERNEL=$(realpath "$KERNEL")
    [[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "--timeout wants whole seconds, got '$TIMEOUT'"
    [[ $SMP =~ ^[1-9][0-9]*$ ]] || die "--smp wants a CPU count, got '$SMP'"
    [ -z "$KO" ] || [ -f "$KO" ] || die "--ko $KO: no such file (build the module first)"
    [ -z "$SIM_KO" ] || [ -f "$SIM_KO" ] || die "--sim-ko $SIM_KO: no such file (make module SIM=1)"
    local ko
    for ko in "${TEST_KOS[@]}"; do
        [ -f "$ko" ] || die "--test-ko $ko: no such file (make module SIM=1)"
    done
    [ -z "$BIN" ] || [ -d "$BIN" ] || die "--bin $BIN: not a directory"
    case "$MODE" in
        tests) [ -z "$TESTS" ] || [ -r "$TESTS" ] || die "--tests $TESTS: cannot read" ;;
        demo) [ -n "$DEMO" ] || die "--mode demo needs --demo CMD" ;;
        *) die "--mode is tests or demo, not '$MODE'" ;;
    esac
    local tool
    for tool in qemu-system-x86_64 cpio gzip ldd timeout; do
        command -v "$tool" >/dev/null || die "$tool not found (apt-get install qemu-system-x86 cpio)"
    done
    if [ ! -x /bin/busybox ] || ldd /bin/busybox >/dev/null 2>&1; then
        die "/bin/busybox must be the static one (apt-get install busybox-static)"
    fi
    if [ -z "$OUT" ]; then
        OUT=$(mktemp -d /tmp/skd-vm.XXXXXX)
    fi
    mkdir -p "$OUT"
    OUT=$(realpath "$OUT")
}

# Fail before booting if the list names a program --bin does not provide.
check_test_list() {
    [ "$MODE" = tests ] && [ -n "$TESTS" ] || return 0
    local name rest missing=()
    while read -r name rest; do
        case "$name" in ''|'#'*) continue ;; esac
        [ -n "$BIN" ] && [ -f "$BIN/$name" ] && [ -x "$BIN/$name" ] ||
            missing+=("$name")
    done < <(tr -d '\r' <"$TESTS")
    [ ${#missing[@]} -eq 0 ] ||
        die "$TESTS lists ${missing[*]}, but --bin ${BIN:-(none)} has no executable of that name"
}

# ---------------------------------------------------------------- initramfs

is_elf() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }

# The separate debug file of @lib, by build-id, where the host has one
# (libc6-dbg gives libc's and ld.so's): the guest then names what a
# machine with the distribution's debug packages names.
copy_debug_file() {
    local tree=$1 lib=$2 id dbg
    id=$(readelf -n "$lib" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
    [ -n "$id" ] || return 0
    dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
    [ -r "$dbg" ] && cp -L --parents "$dbg" "$tree/"
    return 0
}

# Copy the shared libraries and ELF interpreter of every ELF file in the
# guest's /skd/bin to the same absolute paths in the tree.
copy_libs() {
    local tree=$1 f lib
    declare -A seen=()
    while IFS= read -r -d '' f; do
        is_elf "$f" || continue
        if ldd "$f" 2>/dev/null | grep -q 'not found'; then
            die "$f: ldd cannot resolve: $(ldd "$f" | grep 'not found' | tr -s ' \t' ' ')"
        fi
        # static executables make ldd fail: nothing to copy
        for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*' || true); do
            [ -z "${seen[$lib]-}" ] || continue
            seen[$lib]=1
            cp -L --parents "$lib" "$tree/"
            copy_debug_file "$tree" "$lib"
        done
    done < <(find "$tree/skd/bin" -type f -print0)
}

build_initramfs() {
    local tree
    tree=$(mktemp -d "$OUT/initramfs.XXXXXX")
    WORK_TREE=$tree
    mkdir -p "$tree"/{bin,dev,proc,sys,tmp,run,skd/bin}
    cp /bin/busybox "$tree/bin/busybox"
    install -m 0755 "$HERE/init.sh" "$tree/init"
    echo "$MODE" >"$tree/skd/mode"
    [ -z "$KO" ] || cp "$KO" "$tree/skd/skidless.ko"
    [ -z "$SIM_KO" ] || cp "$SIM_KO" "$tree/skd/skidless_sim.ko"
    mkdir -p "$tree/skd/test-modules"
    [ ${#TEST_KOS[@]} = 0 ] || cp "${TEST_KOS[@]}" "$tree/skd/test-modules/"
    [ -z "$TESTS" ] || tr -d '\r' <"$TESTS" >"$tree/skd/tests.list"
    [ "$MODE" != demo ] || printf '%s\n' "$DEMO" >"$tree/skd/demo.cmd"
    if [ -n "$BIN" ]; then
        cp -RL --preserve=mode "$BIN/." "$tree/skd/bin/"
        copy_libs "$tree"
    fi
    (cd "$tree" && find . -mindepth 1 | LC_ALL=C sort |
        cpio --quiet -o -H newc -R 0:0) | gzip -1 >"$OUT/initramfs.gz"
    rm -rf "$tree"
    WORK_TREE=
}

# ---------------------------------------------------------------- the VM

# Booting a bzImage makes TCG run the kernel's own XZ decompressor: ~3 s of
# every boot.  QEMU can instead enter an uncompressed vmlinux through its
# PVH note, so unpack the payload once and keep it in a cache.
payload_decompressor() {  # bzImage -> "OFFSET COMMAND"
    local k=$1 setup off start magic
    [ "$(od -An -c -j $((0x202)) -N 4 "$k" | tr -d ' ')" = HdrS ] || return 1
    setup=$(od -An -tu1 -j $((0x1f1)) -N 1 "$k")
    [ "$setup" -ne 0 ] || setup=4
    off=$(od -An -tu4 -j $((0x248)) -N 4 "$k")
    start=$(((setup + 1) * 512 + off))
    magic=$(od -An -tx1 -j "$start" -N 4 "$k" | tr -d ' ')
    case "$magic" in
        fd377a58) echo "$start xz -dc --single-stream" ;;
        28b52ffd) echo "$start zstd -dcq" ;;
        1f8b*) echo "$start gzip -dc" ;;
        *) return 1 ;;
    esac
}

has_pvh_note() {  # XEN_ELFNOTE_PHYS32_ENTRY (18) is what QEMU looks for
    readelf -n "$1" 2>/dev/null | grep -E '^ *Xen ' | grep -q '0x00000012'
}

# Echo the kernel image to give QEMU: a cached PVH vmlinux if possible.
boot_image() {
    local cache key img start cmd
    if is_elf "$KERNEL" || [ -n "$NO_PVH" ] || ! command -v readelf >/dev/null; then
        echo "$KERNEL"; return
    fi
    cache=${XDG_CACHE_HOME:-$HOME/.cache}/skidless-vm
    key=$(stat -c '%s-%Y' "$KERNEL")
    img=$cache/vmlinux-$(basename "$KERNEL")-$key
    if [ ! -s "$img" ] && read -r start cmd < <(payload_decompressor "$KERNEL"); then
        mkdir -p "$cache"
        # the decompressors complain about the size word after the stream
        tail -c +$((start + 1)) "$KERNEL" | $cmd >"$img.$$" 2>/dev/null || true
        if is_elf "$img.$$" && has_pvh_note "$img.$$"; then
            mv "$img.$$" "$img"
        else
            rm -f "$img.$$"
        fi
    fi
    if [ -s "$img" ]; then echo "$img"; else echo "$KERNEL"; fi
}

cleanup() {
    [ -z "$QEMU_PID" ] || kill -TERM "$QEMU_PID" 2>/dev/null || true
    [ -z "$WORK_TREE" ] || rm -rf "$WORK_TREE"
    [ -z "$WORK" ] || rm -rf "$WORK"
}

start_vm() {
    # loglevel=4 keeps the console quiet, so a WARN that panics would
    # leave only "panic_on_warn set" there; panic_print=0x20 replays the
    # whole kernel log at panic time, WARNING line with file:line included.
    local cmdline="console=ttyS0 rdinit=/init panic=-1 oops=panic panic_on_warn=1"
    cmdline+=" softlockup_panic=1 loglevel=4 panic_print=0x20${APPEND:+ $APPEND}"
    : >"$OUT/console.log"
    : >"$OUT/tap.log"
    # One TCG thread runs both vCPUs. With a thread per vCPU, a vCPU could
    # keep executing its translation of an int3 that text_poke_bp() had
    # already removed (tracepoint and static-key patching of __schedule,
    # at module load and per-task sessions): the kernel's int3 handler
    # rewinds to the new instruction, the stale block traps again, with
    # interrupts off, and the patching CPU waits for it forever.
    # No CMPXCHG16B (-cx16): QEMU 7.2's TCG can leave an interrupt that
    # lands right after one with EFLAGS made of the low bits of RAX (seen
    # three times in the device fuzzer, all in SLUB's cmpxchg16b fast path:
    # EFLAGS 0x3ffb17c2 with RAX ffff88803ffb15c0, 0x0a83e672 with
    # ffff88800a83e630; bits 22-31 no guest instruction can set), then
    # a #DB from the stray TF or a double fault. Without the instruction
    # the guest's SLUB takes its other path; the module never uses it.
    # cd into OUT: QEMU's file: chardev syntax cannot take every path.
    # timeout forwards a TERM from cleanup() to QEMU.
    (cd "$OUT" && exec timeout --kill-after=10 "$TIMEOUT" \
        qemu-system-x86_64 -accel tcg,thread=single -cpu max,-cx16 \
            -smp "$SMP" -m "$MEM" \
            -nographic -no-reboot -nodefaults -nic none \
            -serial file:console.log -serial file:tap.log \
            -kernel "$BOOT_IMAGE" -initrd initramfs.gz -append "$cmdline" \
            ${SKD_QEMU_EXTRA:-} \
    ) </dev/null >"$OUT/qemu.log" 2>&1 &
    QEMU_PID=$!
}

# Demo mode: show what the demo prints, live, without the protocol lines.
stream_demo() {
    tail -n +1 -F -s 0.2 --pid="$QEMU_PID" "$OUT/tap.log" 2>/dev/null |
        sed -u -n -e 's/\r$//' \
            -e '/^# skd-demo-begin$/,/^# skd-demo-exit:/{/^# skd-demo-/d;p}'
}

run_vm() {
    local t0 t1 streamer=
    t0=$(date +%s%N)
    start_vm
    if [ "$MODE" = demo ]; then
        stream_demo &
        streamer=$!
    fi
    wait "$QEMU_PID" && QEMU_RC=0 || QEMU_RC=$?
    QEMU_PID=
    t1=$(date +%s%N)
    [ -z "$streamer" ] || wait "$streamer" || true
    VM_SECS=$(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.1f", ns / 1e9 }')
}

# ---------------------------------------------------------------- checks

# Serial output has CRLF line ends; SeaBIOS adds terminal escapes.
normalize_logs() {
    tr -d '\r' <"$OUT/tap.log" >"$WORK/tap"
    tr -d '\r' <"$OUT/console.log" |
        sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' >"$WORK/console"
    sed -n '/^# skd-dmesg-begin$/,/^# skd-dmesg-end$/{/^# skd-dmesg-/d;s/^# //;p}' \
        "$WORK/tap" >"$WORK/dmesg"
}

# Turn the per-program sections of tap.log into flat TAP lines (into
# $WORK/results, without a plan), applying the exit code and plan rules;
# tell the reader about each program on stdout.
parse_sections() {
    awk -v out="$WORK/results" -v list="$TESTS" '
    function signame(rc,   s) {
        s = rc - 128
        if (s == 4) return "SIGILL"; if (s == 6) return "SIGABRT"
        if (s == 7) return "SIGBUS"; if (s == 8) return "SIGFPE"
        if (s == 9) return "SIGKILL"; if (s == 11) return "SIGSEGV"
        if (s == 13) return "SIGPIPE"; if (s == 15) return "SIGTERM"
        return "signal " s
    }
    # The list lines, in order: a section of the next listed name ran
    # that line, whose arguments (but the time limit) name its
    # configuration, with the kernel; other sections (insmod, sim-rules,
    # kmemleak) have the kernel alone.
    BEGIN {
        while (list != "" && (getline l < list) > 0) {
            sub(/[ \t\r]+$/, "", l)
            if (l ~ /^[ \t]*(#|$)/) continue
            nw = split(l, w, /[ \t]+/)
            i = (w[1] == "") ? 2 : 1
            lname[++nlist] = w[i++]
            if (i <= nw && w[i] ~ /^[0-9]+$/) i++
            a = ""
            for (; i <= nw; i++) a = a (a == "" ? "" : " ") w[i]
            largs[nlist] = a
        }
        nextline = 1
    }
    function label(name,   c, i) {
        c = ""
        for (i = nextline; i <= nlist && lname[i] != name; i++) ;
        if (i <= nlist) { c = largs[i]; nextline = i + 1 }
        if (kernel != "") c = c (c == "" ? "" : ", ") kernel
        return c == "" ? name : name " [" c "]"
    }
    function emit(status, desc, kind,   p) {
        # the result names its test and configuration: "NAME [ARGS, KERNEL]: case"
        p = substr(desc, length(sec) + 1, 1)
        if (sec != "" && index(desc, sec) == 1 && (p == "" || p == ":" || p == " "))
            desc = seclabel substr(desc, length(sec) + 1)
        print status " " (++n) " " desc > out
        if (kind == "fail") { nfail++; fails = fails "    FAIL " desc "\n" }
        else if (kind == "skip") nskip++
        else npass++
    }
    function start(name) {
        sec = name; seclabel = label(name); plan = ""; planline = ""; fails = ""; ncom = 0
        nres = npass = nfail = nskip = nrealfail = 0
    }
    function result(line,   status, desc, kind) {
        status = (line ~ /^not ok/) ? "not ok" : "ok"
        desc = line
        sub(/^(not )?ok[ \t]*[0-9]*[ \t]*(-[ \t]+)?/, "", desc)
        kind = (toupper(line) ~ /#[ \t]*SKIP/) ? "skip" : (status == "ok" ? "pass" : "fail")
        if (kind == "fail") nrealfail++
        nres++
        emit(status, sec (desc == "" ? "" : ": " desc), kind)
    }
    function finish(rc,   why) {
        if (rc != 0 && rc != 4 && nrealfail == 0) {
            why = (rc == 124) ? "timeout" : "exit " rc
            if (rc > 128) why = why " (" signame(rc) ")"
            emit("not ok", sec ": " why, "fail")
        }
        # exit 4 says "skipping the rest", so a short count is expected
        if (plan != "" && plan + 0 != nres && rc != 4)
            emit("not ok", sec ": planned " plan ", ran " nres, "fail")
        # A test of the real PMU on a machine without one: not a skip,
        # listed apart by tests/tap_summary.sh.
        if (nres == 0 && rc == 4 && planline ~ /#[ \t]*needs hardware:/) {
            why = planline; sub(/^1\.\.0[ \t]*#[ \t]*needs hardware:[ \t]*/, "", why)
            print "# needs hardware: " sec ": " why > out
            printf "  %-24s needs hardware: %s\n", sec, why
            sec = ""
            return
        }
        if (nres == 0 && (rc == 4 || (plan == "0" && rc == 0))) {
            why = planline; sub(/^1\.\.0[ \t]*(#[ \t]*[Ss][Kk][Ii][Pp][ \t]*)?/, "", why)
            emit("ok", sec " # SKIP " (why != "" ? why : "exit " rc), "skip")
        }
        if (nres == 0 && plan == "" && rc == 0)
            emit("not ok", sec ": exited 0 but printed no TAP results", "fail")
        printf "  %-24s %d passed, %d failed, %d skipped (rc=%s)\n",
            sec, npass, nfail, nskip, rc
        printf "%s", fails
        if (nfail > 0) show_comments()
        sec = ""
    }
    # The last comment lines of a failing program usually say why.
    function show_comments(   i) {
        for (i = (ncom > 8 ? ncom - 8 : 0); i < ncom; i++)
            print "      | " com[i % 8]
    }
    function handle(line,   rc) {
        if (line ~ /^# skd-kernel: /) { kernel = substr(line, 15); return }
        if (line ~ /^# skd-test: /) { start(substr(line, 13)); return }
        if (line ~ /^# skd-test-exit: /) {
            rc = line; sub(/.* rc=/, "", rc)
            if (sec != "") finish(rc + 0)
            return
        }
        if (line ~ /^# skd-demo-exit: rc=/) {
            rc = line; sub(/.* rc=/, "", rc); sec = "demo"; seclabel = label(sec)
            if (rc + 0 != 0) emit("not ok", "demo: exit " rc, "fail")
            else emit("ok", "demo: exit 0", "pass")
            printf "  %-24s exit %s\n", "demo", rc
            sec = ""
            return
        }
        if (sec == "") return
        if (line ~ /^1\.\.[0-9]+/) {
            planline = line; plan = line; sub(/^1\.\./, "", plan); sub(/[^0-9].*/, "", plan)
            return
        }
        if (line ~ /^(not )?ok([ \t]|$)/) result(line)
        else if (line ~ /^#/) com[ncom++ % 8] = line
    }
    {
        # A program whose last line lacks a newline glues the exit marker
        # to it; split it off again.
        p = index($0, "# skd-test-exit: ")
        if (p > 1) { handle(substr($0, 1, p - 1)); handle(substr($0, p)) }
        else handle($0)
    }
    END {
        if (sec == "") exit
        printf "  %-24s %d passed, %d failed, %d skipped (did not finish)\n",
            sec, npass, nfail, nskip
        printf "%s", fails
        show_comments()
    }' "$WORK/tap"
}

# Result lines so far ("# needs hardware:" comments are not results).
nr_results() {
    grep -c '^\(not \)\?ok ' "$WORK/results" || true
}

fail() {  # add a harness-level failure; the message says what to do
    local kernel
    kernel=$(sed -n '/^# skd-kernel: /{s///p;q}' "$WORK/tap" 2>/dev/null) || kernel=
    echo "not ok $(($(nr_results) + 1)) vm${kernel:+ [$kernel]}: $1" >>"$WORK/results"
    echo "FAIL vm: $1"
}

# The test that was running when the guest stopped, if any.
unfinished_test() {
    awk '/^# skd-test: / { t = substr($0, 13) }
         /# skd-test-exit: / { t = "" }
         /^# skd-demo-begin$/ { t = "demo" }
         /^# skd-demo-exit: / { t = "" }
         END { print t }' "$WORK/tap"
}

check_end_marker() {
    grep -qx '# SKD-END-OF-TESTS' "$WORK/tap" && return 0
    local what running
    running=$(unfinished_test)
    if grep -q 'Kernel panic' "$WORK/console"; then
        what="crash: the kernel panicked"
    elif [ "$QEMU_RC" = 124 ] || [ "$QEMU_RC" = 137 ]; then
        what="timeout: the VM was still running after --timeout $TIMEOUT s (guest hang, or raise --timeout)"
    else
        what="the VM stopped early (qemu exit $QEMU_RC; see $OUT/qemu.log)"
    fi
    [ -z "$running" ] || what+=", while running $running"
    fail "no end marker: $what"
    echo "---- last 30 lines of $OUT/console.log:"
    tail -n 30 "$WORK/console" | awk 1      # awk 1: end on a newline
    echo "----"
    [ ! -s "$OUT/qemu.log" ] || { echo "---- $OUT/qemu.log:"; tail -n 10 "$OUT/qemu.log"; echo "----"; }
}

# One failure for the lot; show the first hit of each pattern in context.
check_kernel_log() {
    local pat src hit found=()
    while IFS= read -r -d '|' pat; do
        hit=
        for src in console dmesg; do
            grep -qF -- "$pat" "$WORK/$src" || continue
            hit=1
            echo "---- first '$pat' in the $src log:"
            grep -nF -m 1 -B 2 -A 10 -- "$pat" "$WORK/$src"
        done
        [ -z "$hit" ] || found+=("'$pat'")
    done <<<"$KERNEL_BAD|"
    [ ${#found[@]} -eq 0 ] && return 0
    echo "----"
    fail "kernel log has ${found[*]} (see above; whole logs: $OUT/console.log, dmesg dump in $OUT/tap.log)"
}

check_taint() {
    local start final bad bit letters='' what=
    final=$(sed -n 's/^# skd-taint: //p' "$WORK/tap" | tail -n 1)
    [[ $final =~ ^[0-9]+$ ]] || return 0      # no trailer: end marker check says why
    start=$(sed -n 's/^# skd-taint-start: //p' "$WORK/tap" | head -n 1)
    bad=$((final & ~TAINT_OK))
    [ "$bad" -eq 0 ] && return 0
    for bit in "${!TAINT_LETTERS[@]}"; do
        [ $((bad >> bit & 1)) -eq 1 ] || continue
        letters+=${TAINT_LETTERS[$bit]}
        what+="${what:+, }${TAINT_LETTERS[$bit]} = ${TAINT_WHAT[$bit]}"
    done
    [ $((bad >> ${#TAINT_LETTERS[@]})) -eq 0 ] || what+="${what:+, }unknown high bits"
    fail "kernel tainted $final: $letters ($what); it was ${start:-?} at boot; only O and E are expected, check the dmesg dump in $OUT/tap.log"
}

report() {
    local total
    total=$(nr_results)
    { echo "1..$total"; cat "$WORK/results"; } >"$OUT/results.tap"
    echo "logs: $OUT (console.log, tap.log, results.tap)"
    echo "vm: $VM_SECS s"
    "$TAP_SUMMARY" "$OUT/results.tap"
}

main() {
    parse_args "$@"
    check_args
    check_test_list
    WORK=$(mktemp -d "$OUT/work.XXXXXX")
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    build_initramfs
    BOOT_IMAGE=$(boot_image)
    echo "vm: booting $KERNEL${KO:+ with $KO}, logs in $OUT"
    [ "$BOOT_IMAGE" = "$KERNEL" ] || echo "vm: (as uncompressed $BOOT_IMAGE)"
    run_vm
    normalize_logs
    echo "results:"
    : >"$WORK/results"
    parse_sections
    check_end_marker
    check_kernel_log
    check_taint
    report
}

main "$@"
