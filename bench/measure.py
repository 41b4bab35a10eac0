#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Run a command, its stdout to a file; print "WALL CPU MAXRSS_KB".

  measure.py OUT_FILE CMD [ARGS...]

WALL is seconds from fork to exit, CPU the child's user + system seconds
and MAXRSS its peak resident set in KiB, from the rusage wait4() returns
for that child alone. Exits with the command's status.
"""
import os
import sys
import time


def main():
    out, cmd = sys.argv[1], sys.argv[2:]
    with open(out, 'wb') as f:
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.dup2(f.fileno(), 1)
            try:
                os.execvp(cmd[0], cmd)
            finally:
                os._exit(127)
        _, status, ru = os.wait4(pid, 0)
        wall = time.monotonic() - t0
    print('%.3f %.3f %d' % (wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss))
    sys.exit(os.waitstatus_to_exitcode(status))


main()
