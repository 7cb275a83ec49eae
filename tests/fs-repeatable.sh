#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Repeatable states (--clock=manual, --random_seed, memcgfs.clock,
# memcgfs.charge): one script run twice gives byte-identical memory.stat,
# memory.numa_stat and memory.events; a chosen state matches its golden
# file; bad input is EINVAL and leaves the old state.
. "${top_srcdir:-.}/tests/fs-lib.sh"

GOLDEN=$top_srcdir/tests/repeatable

# The script: workloads with random node choices, direct charges, a limit
# that reclaims and OOM-kills, events, and time moved by hand in between.
script() {
	m=$1
	mkdir "$m/a" "$m/a/b" "$m/c" || fail "mkdir in $m"
	echo "preset=seed001" > "$m/a/b/memcgfs.workload" || fail "profile"
	echo "anon=3000 file_read=2000 file_write=500 slab=100 nodes=all" > "$m/c/memcgfs.workload" ||
		fail "profile"
	echo "anon 64M node=1" > "$m/a/memcgfs.charge" || fail "charge"
	echo "file 8M node=0 cpu=3" > "$m/a/memcgfs.charge" || fail "charge"
	echo 1500ms > "$m/memcgfs.clock" || fail "clock"
	echo 48M > "$m/c/memory.max" || fail "memory.max"
	echo "oom_kill 2" > "$m/c/memcgfs.charge" || fail "event"
	echo 2s > "$m/memcgfs.clock" || fail "clock"
	cat "$m/a/b/memory.stat" > /dev/null	# a read flushes, as readers do
	echo "anon -16M node=1" > "$m/a/memcgfs.charge" || fail "uncharge"
	echo 2500ms > "$m/memcgfs.clock" || fail "clock"
	for f in memory.stat memory.numa_stat memory.events; do
		for cg in a a/b c; do
			echo "== $cg/$f"
			cat "$m/$cg/$f"
		done
	done
	cat "$m/memcgfs.clock"
}

OPTS="--clock=manual --random_seed=42 --cpus=4 --nodes=2"
mount_fs "$TMP/r1" $OPTS
script "$TMP/r1" > "$TMP/run1" || fail "first run"
mount_fs "$TMP/r2" $OPTS
script "$TMP/r2" > "$TMP/run2" || fail "second run"
cmp "$TMP/run1" "$TMP/run2" || { diff -u "$TMP/run1" "$TMP/run2" | head -40; fail "runs differ"; }
# The run did something: steps charged, the limit OOM-killed.
grep -q '^pgfault [1-9]' "$TMP/run1" || fail "no faults in the run"
grep -A6 '^== c/memory.events' "$TMP/run1" | grep -q '^oom_kill [3-9]' || fail "no OOM kill in c"
expect "emulated time" "$(tail -n1 "$TMP/run1")" 6000000000

# A third mount with another seed makes other node choices.
mount_fs "$TMP/r3" --clock=manual --random_seed=43 --cpus=4 --nodes=2
script "$TMP/r3" > "$TMP/run3" || fail "third run"
cmp -s "$TMP/run1" "$TMP/run3" && fail "seed 43 gave the same run as seed 42"

# The man page's example: a chosen state against its golden file.
mount_fs "$TMP/g" --clock=manual --random_seed=1 --cpus=2 --nodes=2
G=$TMP/g
mkdir "$G/job" || fail mkdir
echo "anon 100M node=1" > "$G/job/memcgfs.charge" || fail charge
echo "file 20M" > "$G/job/memcgfs.charge" || fail charge
echo "file_dirty 4M node=1" > "$G/job/memcgfs.charge" || fail charge
echo "slab_unreclaimable 1M" > "$G/job/memcgfs.charge" || fail charge
echo "oom_kill 3" > "$G/job/memcgfs.charge" || fail charge
echo 1s > "$G/memcgfs.clock" || fail clock
for f in memory.stat memory.numa_stat memory.events; do
	cmp "$GOLDEN/job-7.3.$f" "$G/job/$f" ||
		{ diff -u "$GOLDEN/job-7.3.$f" "$G/job/$f"; fail "golden $f"; }
done

# Bad input: EINVAL, and nothing changes.
snapshot() { cat "$G/memcgfs.clock" "$G/job/memory.stat" "$G/job/memory.numa_stat" \
	"$G/job/memory.events" "$G/job/memory.current"; }
snapshot > "$TMP/before"
for bad in "2" "2 s" "s" "-1s" "1h" "1.5s" "18446744073709551616ns" "18446744073709551615s" "3601s" " "; do
	expect "memcgfs.clock '$bad'" "$(err write "$G/memcgfs.clock" "$bad")" EINVAL
done
for bad in "anon" "anon 100" "anon 1000" "anon 0" "anon -0" "anon 1M node=2" "anon 1M cpu=2" \
	"anon 1M cpu=-1" "anon 1M nod=1" "anon 1M node=1 extra" "anon -1G" "file -21M" \
	"file_dirty -8M node=1" "shmem -4K" "anon 1X" "anon 99999999999999999999" "bogus 1M" \
	"oom_kill" "oom_kill 0" "oom_kill -1" "oom_kill 1000001" "oom_kill 1 node=0" "oom_kill 1M" " "; do
	expect "memcgfs.charge '$bad'" "$(err write "$G/job/memcgfs.charge" "$bad")" EINVAL
done
snapshot > "$TMP/after"
cmp "$TMP/before" "$TMP/after" || { diff -u "$TMP/before" "$TMP/after"; fail "bad input changed the state"; }

# A charge over the limit does what try_charge_memcg() does: the page
# cache is reclaimed first, then, with nothing left to reclaim, the OOM
# killer takes this very task: ENOMEM.
echo 110M > "$G/job/memory.max" || fail "memory.max"
expect "charge over the limit" "$(err write "$G/job/memcgfs.charge" "anon 20M")" ENOMEM
grep -q '^max [1-9]' "$G/job/memory.events" || fail "no max event"
grep -q '^pgsteal [1-9]' "$G/job/memory.stat" || fail "no reclaim"
grep -q '^oom_kill 4$' "$G/job/memory.events" || fail "no OOM kill"

# A real clock refuses to be moved.
mount_fs "$TMP/real"
expect "memcgfs.clock on a real clock" "$(err write "$TMP/real/memcgfs.clock" 1s)" EINVAL
echo "PASS: fs-repeatable"
