#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# seq_file semantics: one rendering per read sequence, served whole whatever
# the read size; lseek(0) or a read elsewhere renders afresh; a first pread
# at an offset works.  cgroup.stat changes with mkdir, which shows which
# rendering a read was served from.
. "${top_srcdir:-.}/tests/fs-lib.sh"

mount_fs "$TMP/v1" --hierarchy=v1
M=$TMP/v1
mkdir "$M/c" || fail mkdir
golden=$(cat "$M/c/memory.stat")
# short reads of 7 bytes give the whole text
expect "7-byte reads" "$("$SEQREAD" "$M/c/memory.stat" a:7)" "[$golden
]"
expect "1-byte reads" "$("$SEQREAD" "$M/c/memory.stat" a:1)" "[$golden
]"
expect "one big read" "$("$SEQREAD" "$M/c/memory.stat" r:1048576 r:10)" "[$golden
]
[]"
# a first pread at an offset: 50 bytes at 100
want=$(printf '%s\n' "$golden" | dd bs=1 skip=100 count=50 2>/dev/null)
expect "first pread" "$("$SEQREAD" "$M/c/memory.stat" p:50:100)" "[$want]"
expect "pread past the end" "$("$SEQREAD" "$M/c/memory.stat" p:10:100000)" "[]"

mount_fs "$TMP/v2"
M=$TMP/v2
# continue from the same rendering after a change; lseek(0) renders afresh
out=$("$SEQREAD" "$M/cgroup.stat" r:16 "x:mkdir $M/n1" r:2 s:0 r:17 "x:mkdir $M/n2" p:17:0)
expect "snapshot, then lseek(0)" "$(echo "$out" | tr '\n' '|')" \
	"[nr_descendants 0]|[|n]|=0|[nr_descendants 1|]|[nr_descendants 2|]|"
# a read at another offset than where the last one ended renders afresh
out=$("$SEQREAD" "$M/cgroup.stat" r:15 "x:mkdir $M/n3" p:3:14)
expect "pread elsewhere" "$(echo "$out" | tr '\n' '|')" "[nr_descendants ]|[ 3|]|"
# a long text (64 nodes) is served whole through small reads
mount_fs "$TMP/big" --nodes=64
mkdir "$TMP/big/c" || fail mkdir
n=$("$SEQREAD" "$TMP/big/c/memory.numa_stat" a:100 | wc -c)
m=$(cat "$TMP/big/c/memory.numa_stat" | wc -c)
[ "$m" -gt 8192 ] || fail "numa_stat of 64 nodes only $m bytes"
expect "long text through 100-byte reads" "$n" "$((m + 3))"
expect "long text last line" "$(tail -n1 "$TMP/big/c/memory.numa_stat" | wc -w)" 65
echo "PASS: fs-seqread"
