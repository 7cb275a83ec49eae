#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mkdir and rmdir of trees, link counts, cgroup.stat, rename (v1 only).
. "${top_srcdir:-.}/tests/fs-lib.sh"

mount_fs "$TMP/v2"
M=$TMP/v2
mkdir -p "$M/a/b/c" "$M/a/d" "$M/e" || fail "mkdir -p"
expect "root nlink" "$(stat -c %h "$M")" 4
expect "a nlink" "$(stat -c %h "$M/a")" 4
expect "c nlink" "$(stat -c %h "$M/a/b/c")" 2
expect "size" "$(stat -c %s "$M/a/memory.stat")" 0
expect "a cgroup.stat" "$(head -n1 "$M/a/cgroup.stat")" "nr_descendants 3"
expect "root cgroup.stat" "$(head -n1 "$M/cgroup.stat")" "nr_descendants 5"
# cgroup_stat_show(): live csses of each controller in the subtree, the
# cgroup's own included (css->nr_descendants + 1), 0 without one; a's
# children have none, a not enabling io or memory for them
expect "subsys lines" "$(sed -n 2,3p "$M/a/cgroup.stat" | tr '\n' '|')" "nr_subsys_io 1|nr_subsys_memory 1|"
expect "root subsys" "$(sed -n 2,3p "$M/cgroup.stat" | tr '\n' '|')" "nr_subsys_io 3|nr_subsys_memory 3|"
expect "no css of its own" "$(sed -n 2,3p "$M/a/b/cgroup.stat" | tr '\n' '|')" "nr_subsys_io 0|nr_subsys_memory 0|"
echo +memory > "$M/a/cgroup.subtree_control" || fail "+memory"
expect "memory enabled below a" "$(sed -n 2,3p "$M/a/cgroup.stat" | tr '\n' '|')" "nr_subsys_io 1|nr_subsys_memory 3|"
expect "b's own" "$(sed -n 2,3p "$M/a/b/cgroup.stat" | tr '\n' '|')" "nr_subsys_io 0|nr_subsys_memory 1|"
echo -memory > "$M/a/cgroup.subtree_control" || fail "-memory"
expect "dirs in a" "$(cd "$M/a" && ls -d */ | tr -d '\n')" "b/d/"
expect "rmdir busy" "$(err rmdir "$M/a/b")" EBUSY
rmdir "$M/a/b/c" "$M/a/b" "$M/a/d" || fail "rmdir"
expect "a nlink after rmdir" "$(stat -c %h "$M/a")" 2
[ -e "$M/a/b" ] && fail "a/b still there"
expect "v2 rename" "$(err rename "$M/e" "$M/f")" EPERM
# many at once, then gone
i=0; while [ $i -lt 200 ]; do mkdir "$M/a/n$i"; i=$((i + 1)); done
expect "200 children" "$(head -n1 "$M/a/cgroup.stat")" "nr_descendants 200"
expect "ls count" "$(ls "$M/a" | grep -c '^n')" 200
i=0; while [ $i -lt 200 ]; do rmdir "$M/a/n$i"; i=$((i + 1)); done
expect "0 children" "$(head -n1 "$M/a/cgroup.stat")" "nr_descendants 0"
rmdir "$M/a" "$M/e" || fail "rmdir a e"

mount_fs "$TMP/v1" --hierarchy=v1
M=$TMP/v1
mkdir -p "$M/p/q" "$M/r" || fail "v1 mkdir"
mv "$M/p/q" "$M/p/q2" || fail "v1 rename in place"
[ -d "$M/p/q2" ] && [ ! -e "$M/p/q" ] || fail "rename result"
expect "rename to another parent" "$(err rename "$M/p/q2" "$M/r/q2")" EIO
expect "rename onto a cgroup" "$(err rename "$M/p" "$M/r")" EEXIST
expect "rename a file" "$(err rename "$M/p/memory.stat" "$M/p/x")" ENOTDIR
cat "$M/p/q2/memory.stat" >/dev/null || fail "read after rename"
rmdir "$M/p/q2" "$M/p" "$M/r" || fail "v1 rmdir"
echo "PASS: fs-tree"
