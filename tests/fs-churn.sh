#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Concurrent readers while other processes mkdir and rmdir: no crash, no
# wrong text, and the daemon still answers and unmounts cleanly.
. "${top_srcdir:-.}/tests/fs-lib.sh"

mount_fs "$TMP/v2" --cpus=4
M=$TMP/v2
mkdir "$M/stable" || fail mkdir
want=$(cat "$M/stable/memory.stat")
end=$(( $(date +%s) + ${CHURN_SECONDS:-5} ))

churn() {	# mkdir/rmdir subtree $1 until the end
	while [ "$(date +%s)" -lt $end ]; do
		mkdir -p "$M/$1/a" 2>/dev/null
		echo +memory > "$M/$1/cgroup.subtree_control" 2>/dev/null
		echo +memory > "$M/$1/a/cgroup.subtree_control" 2>/dev/null
		mkdir "$M/$1/a/b" 2>/dev/null
		cat "$M/$1/a/b/memory.stat" >/dev/null 2>&1
		rmdir "$M/$1/a/b" "$M/$1/a" "$M/$1" 2>/dev/null
	done
}
reader() {	# reads every file it finds; the stable file must not change
	while [ "$(date +%s)" -lt $end ]; do
		for f in "$M"/*/memory.stat "$M"/*/a/memory.numa_stat "$M"/*/cgroup.stat; do
			cat "$f" >/dev/null 2>&1
		done
		ls -lR "$M" >/dev/null 2>&1
		[ "$(cat "$M/stable/memory.stat")" = "$want" ] || echo bad >> "$TMP/bad"
	done
}
pids=""
for i in 1 2 3; do churn "t$i" & pids="$pids $!"; done
for i in 1 2 3; do reader & pids="$pids $!"; done
for p in $pids; do wait "$p"; done
[ -e "$TMP/bad" ] && fail "stable memory.stat changed under churn"
kill -0 "$FS_PID" || fail "daemon died"
for i in 1 2 3; do rmdir "$M/t$i/a/b" "$M/t$i/a" "$M/t$i" 2>/dev/null; done
expect "after churn" "$(head -n1 "$M/cgroup.stat")" "nr_descendants 1"
fusermount3 -u "$M" || fail unmount
wait "$FS_PID"
expect "exit status" "$?" 0
echo "PASS: fs-churn"
