# SPDX-License-Identifier: GPL-2.0
# TAP for the shell tests: `plan N`, `result RC description`, `finish`.
tap_n=0
tap_fail=0
tap_planned=0

plan() {
	tap_planned=$1
	echo "TAP version 13"
	echo "1..$1"
}

# result RC DESCRIPTION: RC 0 passes.
result() {
	tap_n=$((tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $tap_n $2"
	else
		echo "not ok $tap_n $2"
		tap_fail=1
	fi
}

# check DESCRIPTION COMMAND...: runs the command, passes on exit 0.
check() {
	desc=$1
	shift
	"$@"
	result $? "$desc"
}

diag() {
	echo "# $*"
}

finish() {
	[ "$tap_n" = "$tap_planned" ] || { diag "planned $tap_planned, ran $tap_n"; exit 1; }
	exit $tap_fail
}

# slow SECONDS: a workload's duration, stretched on a slow kernel. On a
# kernel with KASAN and lockdep (the reliability lane) exec, page faults
# and allocations cost many times more, and a profile of a short program
# is mostly its start-up; /init sets SKD_SLOW to the factor there.
slow() {
	awk -v s="$1" -v f="${SKD_SLOW:-1}" 'BEGIN { print s * f }'
}

# skd_insmod, skd_rmmod: the module, and the simulated PMU's module after
# it when the VM has one ($SKD_SIM_KO). The model depends on skidless: it
# goes first and comes back last.
skd_loaded() {
	grep -q '^skidless ' /proc/modules
}

skd_insmod() {
	skd_loaded || insmod "${SKD_KO:-/skd/skidless.ko}" || return 1
	[ -n "${SKD_SIM_KO:-}" ] && [ -e "$SKD_SIM_KO" ] || return 0
	grep -q '^skidless_sim ' /proc/modules || insmod "$SKD_SIM_KO"
}

skd_rmmod() {
	if grep -q '^skidless_sim ' /proc/modules; then
		rmmod skidless_sim || return 1
	fi
	rmmod skidless
}
