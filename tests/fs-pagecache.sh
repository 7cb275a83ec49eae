#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --pagecache: files that cannot be written are rendered at OPEN and read
# from the kernel's page cache.  The bytes are the direct I/O mode's; stat
# shows the text's length; a text that grows or shrinks between opens is
# read whole, with no stale tail; one fd keeps its open's text (lseek(0)
# included) while a second open at the same time reads directly and
# afresh; a removed cgroup's open file reads ENODEV; concurrent readers
# under mkdir/rmdir never see a mix of two texts.  What the mode promises is
# in doc/read-path.md.
. "${top_srcdir:-.}/tests/fs-lib.sh"

mount_fs "$TMP/d" --hierarchy=v1
mount_fs "$TMP/p" --hierarchy=v1 --pagecache
mkdir "$TMP/d/c" "$TMP/p/c" || fail mkdir
D=$TMP/d/c
P=$TMP/p/c
for f in memory.stat memory.numa_stat memory.usage_in_bytes; do
	expect "$f bytes" "$(cat "$P/$f")" "$(cat "$D/$f")"
	expect "$f size" "$(stat -c %s "$P/$f")" "$(wc -c < "$P/$f")"
	expect "$f direct size" "$(stat -c %s "$D/$f")" 0
done
# small reads give the whole text
golden=$(cat "$P/memory.stat")
expect "7-byte reads" "$("$SEQREAD" "$P/memory.stat" a:7)" "[$golden
]"
expect "first pread" "$("$SEQREAD" "$P/memory.stat" p:50:100)" \
	"[$(printf '%s\n' "$golden" | dd bs=1 skip=100 count=50 2>/dev/null)]"
# a writable file stays direct: size 0, a write shows at the next read
expect "writable size" "$(stat -c %s "$P/memory.limit_in_bytes")" 0
echo 1M > "$P/memory.limit_in_bytes" || fail "write limit"
expect "written limit" "$(cat "$P/memory.limit_in_bytes")" 1048576

# a text that grows and shrinks between opens
mount_fs "$TMP/v2" --pagecache
V=$TMP/v2
first() { head -n1 "$V/cgroup.stat"; }
expect "0 descendants" "$(first)" "nr_descendants 0"
i=1
while [ $i -le 12 ]; do mkdir "$V/n$i" || fail mkdir; i=$((i + 1)); done
expect "12 descendants" "$(first)" "nr_descendants 12"
expect "grown size" "$(stat -c %s "$V/cgroup.stat")" "$(wc -c < "$V/cgroup.stat")"
i=1
while [ $i -le 12 ]; do rmdir "$V/n$i" || fail rmdir; i=$((i + 1)); done
text=$(cat "$V/cgroup.stat")
expect "shrunk text" "$(printf '%s\n' "$text" | head -n1)" "nr_descendants 0"
expect "shrunk lines" "$(printf '%s\n' "$text" | wc -l)" 6
expect "shrunk size" "$(stat -c %s "$V/cgroup.stat")" "$(printf '%s\n' "$text" | wc -c)"

# one fd keeps its text; an open beside it reads afresh, directly
out=$("$SEQREAD" "$V/cgroup.stat" r:16 "x:mkdir $V/m1" "x:head -n1 $V/cgroup.stat > $TMP/beside" \
	r:2 s:0 r:17)
expect "one fd, one text" "$(echo "$out" | tr '\n' '|')" \
	"[nr_descendants 0]|[|n]|=0|[nr_descendants 0|]|"
expect "open beside" "$(cat "$TMP/beside")" "nr_descendants 1"
expect "after the fd" "$(first)" "nr_descendants 1"

# a removed cgroup's file, still open: ENODEV
mkdir "$V/gone" || fail mkdir
exec 3<"$V/gone/memory.stat"
rmdir "$V/gone" || fail rmdir
cat <&3 >/dev/null 2>"$TMP/enodev" && fail "read of a removed cgroup succeeded"
grep -q "No such device" "$TMP/enodev" || fail "read of a removed cgroup: $(cat "$TMP/enodev")"
exec 3<&-

# concurrent readers while the text changes length: each read is whole
reader() {
	j=0
	while [ $j -lt 150 ]; do
		cat "$V/cgroup.stat"
		echo "--"
		j=$((j + 1))
	done > "$TMP/reads.$1"
}
reader 1 & r1=$!
reader 2 & r2=$!
reader 3 & r3=$!
k=0
while [ $k -lt 60 ]; do
	mkdir "$V/s$((k % 15))" 2>/dev/null || rmdir "$V/s$((k % 15))"
	k=$((k + 1))
done
wait $r1 $r2 $r3
cat "$TMP/reads.1" "$TMP/reads.2" "$TMP/reads.3" | awk '
	$0 == "--" { if (n != 6) bad = bad " lines=" n; n = 0; next }
	{ n++; if (NF != 2 || $2 !~ /^[0-9]+$/) bad = bad " [" $0 "]" }
	n == 1 && $1 != "nr_descendants" { bad = bad " first=" $1 }
	n == 6 && $1 != "nr_dying_subsys_memory" { bad = bad " last=" $1 }
	END { if (bad != "") { print "torn:" bad; exit 1 } }' || fail "a read mixed two texts"
expect "reads done" "$(grep -c -- -- "$TMP/reads.1")" 150

# the same with a text of several pages whose values and length change
# (64 nodes, busy workers): every line whole, 64 nodes in order
mount_fs "$TMP/n" --nodes=64 --pagecache --workload=multi-fault
mkdir "$TMP/n/w" || fail mkdir
NS=$TMP/n/w/memory.numa_stat
[ "$(wc -c < "$NS")" -gt 8192 ] || fail "numa_stat of 64 nodes under 2 pages"
nreader() {
	j=0
	while [ $j -lt 100 ]; do cat "$NS"; j=$((j + 1)); done > "$TMP/nreads.$1"
}
nreader 1 & r1=$!
nreader 2 & r2=$!
nreader 3 & r3=$!
wait $r1 $r2 $r3
cat "$TMP/nreads.1" "$TMP/nreads.2" "$TMP/nreads.3" | awk '
	NF != 65 || $1 !~ /^[a-z_]+$/ { bad++; next }
	{ for (i = 2; i <= 65; i++) if ($i !~ "^N" (i - 2) "=[0-9]+$") { bad++; break } }
	END { if (bad || NR < 300) { print "torn lines: " bad ", lines " NR; exit 1 } }' ||
	fail "a numa_stat read mixed two texts"
echo "PASS: fs-pagecache"
