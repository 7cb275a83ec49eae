#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memory.reclaim of a busy cgroup ends in bounded time: once nothing is left
# to take, the kernel's retries run out (EAGAIN) instead of the request
# living on what the workers charge meanwhile (1G of a seed001 cgroup took
# 33 s before).  A cgroup with enough to reclaim still gets all of it.
. "${top_srcdir:-.}/tests/fs-lib.sh"
command -v timeout >/dev/null 2>&1 || skip "no timeout(1)"

mount_fs "$TMP/m" --cpus=2
M=$TMP/m
mkdir "$M/busy" "$M/cache" || fail mkdir
echo preset=seed001 >"$M/busy/memcgfs.workload" || fail "busy profile"
echo "file_read=50000 footprint=64M" >"$M/cache/memcgfs.workload" || fail "cache profile"
i=0
while [ "$(cat "$M/cache/memory.current")" -lt 33554432 ]; do
	i=$((i + 1))
	[ $i -lt 200 ] || fail "cache cgroup below 32M after 20 s"
	sleep 0.1
done
expect "32M of a page cache of 64M" "$(err write "$M/cache/memory.reclaim" 32M)" OK
# A limit on the wait, not a timing: the loop is bounded by its retries.
expect "1G of a busy cgroup" "$(timeout 15 "$SEQREAD" -e write "$M/busy/memory.reclaim" 1G)" EAGAIN
expect "1G of a busy cgroup, again" \
	"$(timeout 15 "$SEQREAD" -e write "$M/busy/memory.reclaim" 1G)" EAGAIN
grep -q "^pgsteal " "$M/busy/memory.stat" || fail "no pgsteal in memory.stat"

# A limit's reclaim takes the subtree's pages whichever CPU's tasks
# faulted them (a memcg's LRU lists are per node, not per CPU): clean
# page cache under a limit is reclaimed, never an OOM, however many CPUs
# share the work (try_charge_memcg() retries while reclaim makes progress)
mount_fs "$TMP/c8" --cpus=8
mkdir "$TMP/c8/f" || fail mkdir
echo 8M > "$TMP/c8/f/memory.max"
echo "file_read=50000 footprint=64M" >"$TMP/c8/f/memcgfs.workload" || fail "cache profile"
sleep 2
echo preset=idle >"$TMP/c8/f/memcgfs.workload"
[ "$(awk '$1 == "max" { print $2 }' "$TMP/c8/f/memory.events")" -gt 0 ] || fail "the limit was never hit"
expect "no OOM on clean cache" "$(awk '$1 == "oom" { print $2 }' "$TMP/c8/f/memory.events")" 0
echo "PASS: fs-reclaim"
