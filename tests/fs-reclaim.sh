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
echo "PASS: fs-reclaim"
