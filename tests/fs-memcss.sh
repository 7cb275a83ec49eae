#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Memory csses on cgroup2, through the mount, as 6.12 and 7.3 keep them:
#  - a cgroup whose parent does not enable memory has no css; its tasks
#    charge the nearest ancestor's (task_css(), the css_set's effective
#    css), so their OOM kills are that css's local events;
#  - "+memory" makes a fresh css (mem_cgroup_css_alloc()): what the tasks
#    charged before stays with the ancestor;
#  - "-memory" kills it (kill_css()): before 7.3 it stays dying while
#    pages hold it (cgroup.stat nr_dying_subsys_memory), 7.3 reparents
#    them at once (memcg_reparent_objcgs()).
. "${top_srcdir:-.}/tests/fs-lib.sh"

# wait_for WHAT COMMAND...: runs COMMAND until it succeeds (10 s at most)
wait_for() {
	what=$1
	shift
	i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -gt 100 ] && fail "$what: not after 10 s"
		sleep 0.1
	done
}

positive() {
	[ "$(key_of "$1" "$2")" -gt 0 ]
}

over_1m() {
	[ "$(cat "$1")" -gt 1000000 ]
}

is_zero() {
	[ "$(key_of "$1" "$2")" = 0 ]
}

for k in 6.12 7.3; do
	M=$TMP/$k
	mount_fs "$M" --kernel=$k --cpus=2 --flush_period_ms=50
	mkdir "$M/a" "$M/a/b" || fail "$k: mkdir"
	[ ! -e "$M/a/b/memory.current" ] || fail "$k: b has memory files without +memory"

	# b's tasks hit a's limit: the OOM killer's victim is a task of a's
	# css, so the kill is a local event of a (memcg_memory_event_mm()).
	echo 4M > "$M/a/memory.max"
	echo 'anon=50000 footprint=64M swap=off' > "$M/a/b/memcgfs.workload" || fail "$k: profile"
	wait_for "$k: an OOM kill local to a" positive "$M/a/memory.events.local" oom_kill
	echo preset=idle > "$M/a/b/memcgfs.workload"
	echo max > "$M/a/memory.max"

	# Page cache of b's tasks, charged to a, stays a's after "+memory":
	# b's new css starts from nothing.
	echo 'file_read=20000 footprint=4M' > "$M/a/b/memcgfs.workload"
	sleep 0.5
	echo preset=idle > "$M/a/b/memcgfs.workload"
	sleep 0.3
	before=$(cat "$M/a/memory.current")
	[ "$before" -gt 4000000 ] || fail "$k: a holds $before bytes of b's page cache"
	echo +memory > "$M/a/cgroup.subtree_control" || fail "$k: +memory"
	expect "$k: fresh css's usage" "$(cat "$M/a/b/memory.current")" 0
	expect "$k: fresh css's peak" "$(cat "$M/a/b/memory.peak")" 0
	expect "$k: fresh css's kills" "$(key_of "$M/a/b/memory.events" oom_kill)" 0
	[ "$(key_of "$M/a/b/memory.stat" file)" -eq 0 ] || fail "$k: b's css shows a's pages"
	now=$(cat "$M/a/memory.current")
	[ "$now" -ge "$before" ] || fail "$k: a lost b's old pages: $before -> $now"

	# b's tasks charge its css now; "-memory" kills it with pages on it.
	# Tasks that change css keep their memory: they do not fault their
	# footprint in again (2M of anon, a's 4M of page cache).
	echo 'anon=500 footprint=2M swap=off' > "$M/a/b/memcgfs.workload"
	wait_for "$k: b's css charged" over_1m "$M/a/b/memory.current"
	echo -memory > "$M/a/cgroup.subtree_control" || fail "$k: -memory"
	[ ! -e "$M/a/b/memory.current" ] || fail "$k: b keeps memory files after -memory"
	expect "$k: b is no dying cgroup" "$(key_of "$M/a/cgroup.stat" nr_dying_descendants)" 0
	if [ $k = 7.3 ]; then
		expect "$k: reparented at once" "$(key_of "$M/a/cgroup.stat" nr_dying_subsys_memory)" 0
	else
		expect "$k: the killed css is dying" \
			"$(key_of "$M/a/cgroup.stat" nr_dying_subsys_memory)" 1
		expect "$k: so in the root's count" \
			"$(key_of "$M/cgroup.stat" nr_dying_subsys_memory)" 1
	fi
	echo +memory > "$M/a/cgroup.subtree_control" || fail "$k: +memory"
	echo -memory > "$M/a/cgroup.subtree_control" || fail "$k: -memory"
	sleep 1
	now=$(cat "$M/a/memory.current")
	[ "$now" -lt $((before + 3500000)) ] || fail "$k: css changes grew the tasks: $before -> $now"
	if [ $k = 6.12 ]; then
		# the tasks' exit frees their anonymous memory, on the old css
		# too, and the emptied css goes with it
		echo preset=idle > "$M/a/b/memcgfs.workload"
		wait_for "$k: the css released" is_zero "$M/a/cgroup.stat" nr_dying_subsys_memory
	fi

	# A css made again is hidden from the cgroup tree but fresh as well
	# (the tasks gone, nothing charges it meanwhile).
	echo preset=idle > "$M/a/b/memcgfs.workload"
	echo +memory > "$M/a/cgroup.subtree_control" || fail "$k: +memory again"
	expect "$k: second css's usage" "$(cat "$M/a/b/memory.current")" 0
	expect "$k: still one child" "$(key_of "$M/a/cgroup.stat" nr_descendants)" 1
	# an fd open on the memory file of a css that went is dead, even
	# once a new css brings the file back (kernfs removed its node)
	out=$("$SEQREAD" "$M/a/b/memory.current" r:64 \
		"x:echo -memory > $M/a/cgroup.subtree_control; echo +memory > $M/a/cgroup.subtree_control" \
		s:0 r:64 | tr '\n' ' ')
	expect "$k: fd across a new css" "$out" "[0 ] =0 ENODEV "
	rmdir "$M/a/b" || fail "$k: rmdir b"
	# a keeps b's old page cache, which pins no removed cgroup
	expect "$k: b is not dying" "$(key_of "$M/a/cgroup.stat" nr_dying_descendants)" 0
	rmdir "$M/a" || fail "$k: rmdir a"
done
echo "PASS: fs-memcss"
