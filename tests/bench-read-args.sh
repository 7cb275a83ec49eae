#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/bench-read-1000.sh refuses, before it mounts or makes anything, a
# kernel directory that already exists or whose parent is neither in a v1
# memory hierarchy nor a cgroup2 cgroup giving its children memory (fake
# cgroup2 directories here), and a --variant that is not LABEL=OPTIONS.
# Nothing under /sys is touched.
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
BENCH=$top_srcdir/contrib/bench-read-1000.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/memcgfs-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# refuse DIR: runs the bench with ARGS, wants exit 2 and PATTERN on stderr
refuse() {
	pattern=$1
	shift
	sh "$BENCH" --builddir "$top_builddir" "$@" > "$TMP/out" 2> "$TMP/err"
	st=$?
	[ $st = 2 ] || fail "$*: exit $st, want 2 ($(cat "$TMP/err"))"
	grep -q "$pattern" "$TMP/err" || fail "$*: '$(cat "$TMP/err")' lacks '$pattern'"
	[ -s "$TMP/out" ] && fail "$*: printed '$(cat "$TMP/out")'"
	return 0
}

mkdir "$TMP/exists"
refuse "exists; remove it or name another" --real-kernel="$TMP/exists"
refuse "neither a directory of a v1 memory hierarchy nor a cgroup2 directory" \
	--real-kernel="$TMP/exists/new"
[ -e "$TMP/exists/new" ] && fail "made $TMP/exists/new"
# cgroup2 without the memory controller, then with it but not given on
mkdir "$TMP/v2"
echo "cpuset cpu io pids" > "$TMP/v2/cgroup.controllers"
echo "cpu" > "$TMP/v2/cgroup.subtree_control"
refuse "cgroup2 directory without the memory controller (cgroup.controllers: cpuset cpu io pids)" \
	--real-kernel="$TMP/v2/new"
echo "cpuset cpu io memory pids" > "$TMP/v2/cgroup.controllers"
refuse "does not give its children the memory controller.*echo +memory > $TMP/v2/cgroup.subtree_control" \
	--real-kernel="$TMP/v2/new"
[ -e "$TMP/v2/new" ] && fail "made $TMP/v2/new"
sh "$BENCH" --help | grep -q "cgroup2: a cgroup with \"memory\" in its cgroup.subtree_control" ||
	fail "--help does not say what a cgroup2 DIR needs"
refuse "is not LABEL=OPTIONS" --variant nolabel
echo "PASS: bench-read-args"
