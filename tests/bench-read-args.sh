#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/bench-read-1000.sh refuses, before it mounts or makes anything, a
# kernel directory that already exists or is not in a v1 memory hierarchy,
# and a --variant that is not LABEL=OPTIONS.  Nothing under /sys is touched.
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
refuse "not a directory of the v1 memory hierarchy" --real-kernel="$TMP/exists/new"
[ -e "$TMP/exists/new" ] && fail "made $TMP/exists/new"
refuse "is not LABEL=OPTIONS" --variant nolabel
echo "PASS: bench-read-args"
