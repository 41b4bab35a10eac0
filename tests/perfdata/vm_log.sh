# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/perfdata/vm_perf.sh and tests/analysis/run.sh (not a
# test itself): the files the VM's tests export in its serial log, $LOG.
# The serial console ends lines in CR LF.

# extract NAME: the file NAME on stdout.
extract() {
	tr -d '\r' < "$LOG" |
		sed -n "/^# skd-file-begin $1\$/,/^# skd-file-end $1\$/s/^# b64 //p" |
		base64 -d
}
# The names of the exported files, the kernel's kallsyms aside.
vm_names() {
	tr -d '\r' < "$LOG" | sed -n 's/^# skd-file-begin //p' | grep -v '^kallsyms-'
}
# The VM kernel's kallsyms into $HOME's build-id cache, as perf's
# build-id cache keeps a kernel's.
vm_kallsyms() {
	local k bid d

	for k in $(tr -d '\r' < "$LOG" | sed -n 's/^# skd-file-begin \(kallsyms-.*\)/\1/p'); do
		bid=${k#kallsyms-}
		d="$HOME/.debug/[kernel.kallsyms]/$bid"
		mkdir -p "$d" "$HOME/.debug/.build-id/${bid:0:2}"
		extract "$k" | gunzip > "$d/kallsyms"
		ln -sfn "../../[kernel.kallsyms]/$bid" "$HOME/.debug/.build-id/${bid:0:2}/${bid:2}"
	done
}
