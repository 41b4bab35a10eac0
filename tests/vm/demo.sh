#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM for `make demo`: profile the hot/warm/cold workload
# with the timer backend and show where its time went.
set -e
cd /tmp
PATH=/skd/bin:$PATH

echo "== skidless info"
skidless info
echo
echo "== skidless record -F 997 -o demo.data -- hotcold 4"
skidless record -q -F 997 -o demo.data -- hotcold 4
echo
echo "== skidless report --no-children -i demo.data -n 8"
skidless report --no-children -i demo.data -n 8
echo
echo "== skidless script -i demo.data (three samples in hot_loop)"
skidless script -i demo.data | grep " hot_loop+" | head -n 3
