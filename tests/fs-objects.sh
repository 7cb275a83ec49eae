#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A new memcg's own objects are charged to its parent in bytes (its
# per-CPU statistics and, from 6.8, its statistics structs:
# mem_cgroup_alloc() under set_active_memcg(parent) in
# mem_cgroup_css_alloc()), through the CPU's object stock
# (obj_cgroup_charge()), whole pages to the parent's counters.  So a
# limit of a few pages takes a child or refuses it (ENOMEM) at the limit
# the kernel does.  The limits here are at 2 possible CPUs and one node
# on v1, whoever makes the child: a delegated user (nobody) where the
# test can act as one.  6.18's were measured on a 6.18 kernel with 2
# CPUs (a child's mkdir fails under 8192 bytes and takes 12288, 3 kmem
# pages); the other releases' come from their sources (memcgfs(8),
# "Memory of a new cgroup").
. "${top_srcdir:-.}/tests/fs-lib.sh"

as=""
if nobody_ready; then
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi

# try RELEASE LIMIT WANT [KMEM]: under a fresh parent limited to LIMIT
# bytes, a child's mkdir gives WANT (OK or an errno name), and then the
# parent's v1 kmem usage is KMEM bytes
try() {
	n=$((n + 1))
	mkdir "$M/p$n" || fail "$1: mkdir p$n"
	echo "$2" > "$M/p$n/memory.limit_in_bytes" || fail "$1: limit $2"
	[ -z "$as" ] || chown 65534:65534 "$M/p$n" || fail "$1: chown p$n"
	expect "$1: a child under $2 bytes" "$($as "$SEQREAD" -e mkdir "$M/p$n/c")" "$3"
	[ -z "$4" ] || expect "$1: kmem under $2 bytes" "$(cat "$M/p$n/memory.kmem.usage_in_bytes")" "$4"
}

n=0
for spec in "5.10 4096 8192" "6.1 4096 8192" "6.18 8192 12288" "7.3 12288 16384"; do
	set -- $spec
	M=$TMP/v1-$1
	mount_fs "$M" --hierarchy=v1 --cpus=2 --nodes=1 --kernel="$1"
	try "$1" 4096 ENOMEM
	try "$1" "$2" ENOMEM
	try "$1" "$3" OK "$3"
	fusermount3 -u "$M" || fail "unmount $M"
done

# 6.18 as its kernel: under one unlimited parent the children made in turn
# share the stock's spare bytes, 3, 5, 8 and 10 kmem pages after the first
# four (10160 bytes each there, 9520 here with 6.12's item counts: the
# fifth takes 13 pages there, 12 here)
M=$TMP/v1-seq
mount_fs "$M" --hierarchy=v1 --cpus=2 --nodes=1 --kernel=6.18
mkdir "$M/p" || fail mkdir
[ -z "$as" ] || chown 65534:65534 "$M/p" || fail chown
pages=""
for k in 1 2 3 4; do
	$as mkdir "$M/p/c$k" || fail "mkdir c$k"
	pages="$pages $(($(cat "$M/p/memory.kmem.usage_in_bytes") / 4096))"
done
expect "6.18: kmem pages after each child" "$pages" " 3 5 8 10"
# 5.4 charged nothing of a memcg (per-CPU memory was not accountable
# before 5.9): no limit stops a child
fusermount3 -u "$M" || fail "unmount $M"
M=$TMP/v1-5.4
mount_fs "$M" --hierarchy=v1 --cpus=2 --nodes=1 --kernel=5.4
try 5.4 4096 OK 0
exit 0
