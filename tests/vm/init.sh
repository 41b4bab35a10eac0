#!/bin/busybox sh
# shellcheck shell=sh disable=SC2016,SC2164
# /init of the skidless test VM (busybox sh, PID 1).
#
# Written into the initramfs by tests/vm/run.sh, together with:
#   /skd/mode        "tests" or "demo"
#   /skd/tests.list  NAME [TIMEOUT_SECS] [ARGS...] per line (tests mode)
#   /skd/demo.cmd    the demo command line (demo mode)
#   /skd/skidless.ko optional
#   /skd/skidless_sim.ko optional: the simulated PMU, loaded after it
#   /skd/bin/        test programs and tools
#
# Channels: the kernel console and these progress lines go to ttyS0
# (host: console.log); everything the host parses goes to ttyS1 (host:
# tap.log) through fd 3.  Protocol, per test:
#   # skd-test: NAME
#   <stdout unchanged (TAP)>   <stderr as "# ..." lines>
#   # skd-test-exit: NAME rc=RC        (124 = timed out)
# then "# skd-taint: V", the dmesg dump, "# SKD-END-OF-TESTS".

/bin/busybox mkdir -p /proc /sys /dev /tmp /run
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox mount -t debugfs debugfs /sys/kernel/debug
/bin/busybox mount -t tmpfs tmpfs /tmp
# All applets into /bin: PATH is only /skd/bin:/bin, and the default
# --install would put insmod/rmmod/poweroff into /sbin.
/bin/busybox --install -s /bin

export PATH=/skd/bin:/bin
export SKD_KO=/skd/skidless.ko
export SKD_SIM_KO=/skd/skidless_sim.ko
SIM_DEBUGFS=/sys/kernel/debug/skidless-sim
export HOME=/tmp
# A lockdep kernel is the reliability lane's debug kernel (KASAN, kmemleak,
# ...): tests stretch the workloads they profile by this factor (tap.sh).
[ -r /proc/lockdep_stats ] && export SKD_SLOW=5
set -f                       # test arguments are never globbed

STATE=/run/skd               # scratch space the tests do not see as cwd
mkdir -p "$STATE"
DEFAULT_TIMEOUT=120

log() { echo "skd-init: $*"; }      # -> console (ttyS0)
tap() { echo "$*" >&3; }            # -> tap.log (ttyS1)

# Copy the lines of stdin to ttyS1 as TAP comments.
comment() { sed 's/^/# /' >&3; }

# run_limited SECS CMD [ARGS...]: run CMD in its own session with stdout on
# ttyS1 and stderr turned into comments; sets RC (124 if it was killed at
# the time limit; 0 SECS = no limit).  busybox 1.35 `timeout` cannot be
# used: it reports a timeout as 143 (like any SIGTERM death) and only
# kills the one process, not the children the test forked.
run_limited() {
    secs=$1; shift
    rm -f "$STATE/timedout" "$STATE/err"
    mkfifo "$STATE/err"
    sed 's/^/# /' <"$STATE/err" >&3 &
    sed_pid=$!

    setsid "$@" </dev/null >&3 2>"$STATE/err" 3>&- &
    pid=$!       # = session and process group id (setsid does not fork)
    wd_pid=
    if [ "$secs" -gt 0 ]; then
        setsid sh -c 'sleep "$1"; : >"$3"; kill -TERM -- "-$2"
                      sleep 5; kill -KILL -- "-$2"' \
            watchdog "$secs" "$pid" "$STATE/timedout" \
            </dev/null >/dev/null 2>&1 3>&- &
        wd_pid=$!
    fi

    wait "$pid"; RC=$?
    [ -n "$wd_pid" ] && kill -KILL -- "-$wd_pid" 2>/dev/null
    kill -KILL -- "-$pid" 2>/dev/null          # leftovers of the test
    [ -e "$STATE/timedout" ] && RC=124

    # sed ends once every writer of the fifo is gone; a daemon that
    # escaped the process group could keep it open, so bound the wait.
    n=0
    while kill -0 "$sed_pid" 2>/dev/null && [ $n -lt 20 ]; do
        sleep 0.1; n=$((n + 1))
    done
    reap_all
}

# Clean slate: kill every process but PID 1 (escaped daemons, a stuck
# sed) and reap them.  Also needed before rmmod (they may hold the module)
# and before the end (they may hold ttyS1 open, see main).
reap_all() {
    kill -KILL -1 2>/dev/null
    wait
}

# insmod/rmmod are reported as one-case TAP sections of their own.
module_step() {  # NAME DESCRIPTION CMD...
    name=$1 desc=$2; shift 2
    tap "# skd-test: $name"
    tap "1..1"
    if out=$("$@" 2>&1); then
        tap "ok 1 $desc"
    else
        tap "not ok 1 $desc"
        [ -n "$out" ] && echo "$out" | comment
        # the kernel's reason for a failed load (vermagic, symbols) is here
        [ "$name" = insmod ] && dmesg | tail -n 5 | comment
    fi
    tap "# skd-test-exit: $name rc=0"
}

load_module() {
    [ -e "$SKD_KO" ] || { log "no $SKD_KO, running without the module"; return; }
    log "insmod $SKD_KO"
    module_step insmod "insmod skidless.ko" insmod "$SKD_KO"
    [ -e "$SKD_SIM_KO" ] || return 0
    log "insmod $SKD_SIM_KO"
    module_step insmod-sim "insmod skidless_sim.ko" insmod "$SKD_SIM_KO"
}

unload_module() {
    if [ -d /sys/module/skidless_sim ]; then
        log "rmmod skidless_sim"
        module_step rmmod-sim "rmmod skidless_sim" rmmod skidless_sim
    fi
    [ -d /sys/module/skidless ] || return 0
    log "rmmod skidless"
    module_step rmmod "rmmod skidless" rmmod skidless
}

# The device model logs every rule the driver broke (kmod/sim/rules.c,
# msr.c): after each test, its log must be empty. A test that broke one
# gets a failing result of its own with the log; the sum is one result.
SIM_CHECKED=0 SIM_BROKEN=''
sim_check() {  # TEST NAME
    [ -e "$SKD_SIM_KO" ] || return 0
    SIM_CHECKED=$((SIM_CHECKED + 1))
    # The test may have unloaded the model (module tests): nothing logged.
    [ -r "$SIM_DEBUGFS/violations_count" ] || return 0
    n=$(cat "$SIM_DEBUGFS/violations_count")
    [ "$n" = 0 ] && return 0
    SIM_BROKEN="$SIM_BROKEN $1"
    tap "# skd-test: sim-rules:$1"
    tap "1..1"
    tap "not ok 1 the device model logged $n broken rules during $1"
    head -n 40 "$SIM_DEBUGFS/violations" | comment
    tap "# skd-test-exit: sim-rules:$1 rc=0"
    echo x >"$SIM_DEBUGFS/violations"
}

# A test ends with nothing of the device model held: every session and
# query gave its module reference back. Else a failing result, with the
# processes that still hold the device open.
sim_refs_check() {  # TEST NAME
    [ -r /sys/module/skidless_sim/refcnt ] || return 0
    i=0
    while [ "$(cat /sys/module/skidless_sim/refcnt)" != 0 ] && [ $i -lt 20 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    n=$(cat /sys/module/skidless_sim/refcnt)
    [ "$n" = 0 ] && return 0
    tap "# skd-test: sim-refs:$1"
    tap "1..1"
    tap "not ok 1 $n references to skidless_sim left after $1"
    for p in /proc/[0-9]*; do
        ls -l "$p/fd" 2>/dev/null | grep -q skidless &&
            echo "${p#/proc/} $(cat "$p/comm" 2>/dev/null) holds /dev/skidless"
    done | comment
    tap "# skd-test-exit: sim-refs:$1 rc=0"
}

sim_report() {
    [ -e "$SKD_SIM_KO" ] || return 0
    tap "# skd-test: sim-rules"
    tap "1..1"
    if [ -z "$SIM_BROKEN" ]; then
        tap "ok 1 the device model saw no rule broken, checked after each of $SIM_CHECKED tests"
    else
        tap "not ok 1 the device model saw rules broken during:$SIM_BROKEN"
    fi
    tap "# skd-test-exit: sim-rules rc=0"
}

# One list line: NAME [TIMEOUT_SECS] [ARGS...]
run_test_line() {
    # shellcheck disable=SC2086  # split on purpose (globbing is off)
    set -- $1
    name=$1; shift
    secs=$DEFAULT_TIMEOUT
    case "${1-}" in
        ''|*[!0-9]*) ;;
        *) secs=$1; shift ;;
    esac
    if [ "$secs" -gt 0 ]; then log "test $name (limit ${secs}s)"
    else log "test $name (no time limit)"; fi
    tap "# skd-test: $name"
    t0=$(cut -d' ' -f1 /proc/uptime)
    if [ -x "/skd/bin/$name" ]; then
        cd /tmp
        run_limited "$secs" "/skd/bin/$name" "$@"
        cd /
    else
        tap "# /skd/bin/$name is missing or not executable"
        RC=127
    fi
    tap "# skd-test-time: $name $(awk -v a="$t0" '{ printf "%.1f", $1 - a }' /proc/uptime) s"
    tap "# skd-test-exit: $name rc=$RC"
    sim_check "$(echo "$name $*" | tr ' ' ':' | sed 's/:*$//')"
    sim_refs_check "$(echo "$name $*" | tr ' ' ':' | sed 's/:*$//')"
}

run_tests() {
    [ -f /skd/tests.list ] || return 0
    while IFS= read -r line || [ -n "$line" ]; do
        # shellcheck disable=SC2086  # split on purpose, drops leading blanks
        set -- $line
        case "${1-#}" in '#'*) continue ;; esac
        run_test_line "$line"
    done </skd/tests.list
}

# Demo output is streamed live by the host, between these two markers.
run_demo() {
    log "demo: $(cat /skd/demo.cmd)"
    tap "# skd-demo-begin"
    cd /tmp
    sh /skd/demo.cmd </dev/null >&3 2>&1
    rc=$?
    cd /
    tap ""
    tap "# skd-demo-exit: rc=$rc"
}

# On a kernel with kmemleak: forget what boot left behind (the scan at the
# end then reports only what the tests leaked), and at the end scan twice,
# objects younger than 5 s being exempt, and report a section of its own.
KMEMLEAK=/sys/kernel/debug/kmemleak
kmemleak_baseline() {
    [ -w "$KMEMLEAK" ] || return 0
    echo scan >"$KMEMLEAK" 2>/dev/null
    echo clear >"$KMEMLEAK" 2>/dev/null
}

kmemleak_report() {
    [ -w "$KMEMLEAK" ] || return 0
    log "kmemleak scan"
    tap "# skd-test: kmemleak"
    tap "1..1"
    sleep 6
    echo scan >"$KMEMLEAK"
    echo scan >"$KMEMLEAK"
    n=$(grep -c '^unreferenced object' "$KMEMLEAK")
    if [ "$n" = 0 ]; then
        tap "ok 1 no unreferenced object after the tests"
    else
        tap "not ok 1 $n unreferenced objects after the tests"
        head -n 60 "$KMEMLEAK" | comment
    fi
    tap "# skd-test-exit: kmemleak rc=0"
}

# Lockdep turns itself off after its first report: still on = no report.
lockdep_report() {
    [ -r /proc/lockdep_stats ] || return 0
    tap "# skd-test: lockdep"
    tap "1..1"
    if grep -Eq '^ *debug_locks: *1$' /proc/lockdep_stats; then
        tap "ok 1 still enabled at the end, so it reported nothing"
    else
        tap "not ok 1 turned off by a report (see the kernel log)"
    fi
    tap "# skd-test-exit: lockdep rc=0"
}

trailer() {
    tap "# skd-taint: $(cat /proc/sys/kernel/tainted)"
    tap "# skd-dmesg-begin"
    dmesg | comment
    tap "# skd-dmesg-end"
    tap "# SKD-END-OF-TESTS"
}

main() {
    if [ ! -c /dev/ttyS1 ]; then
        log "no /dev/ttyS1: the kernel needs CONFIG_SERIAL_8250=y and QEMU two -serial ports"
        poweroff -f
    fi
    exec 3>/dev/ttyS1
    tap "# skd-taint-start: $(cat /proc/sys/kernel/tainted)"
    tap "# skd-kernel: $(uname -r)"
    kmemleak_baseline
    load_module
    if [ "$(cat /skd/mode 2>/dev/null)" = demo ]; then
        run_demo
    else
        run_tests
    fi
    reap_all
    sim_check end-of-tests
    sim_report
    unload_module
    kmemleak_report
    lockdep_report
    trailer
    log "done, powering off"
    # Closing the last descriptor of ttyS1 waits until the UART has sent
    # everything; powering off with bytes still queued would lose the tail
    # (and with it the end marker).
    exec 3>&-
    sync
    poweroff -f
}

main
# Not reached unless poweroff failed; PID 1 must not exit.
while :; do sleep 3600; done
