#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memcgfs-fixture: a mounted hierarchy, in a state set by hand, written to a
# directory as plain files, for a v1 (7.3) and a v2 (6.12) layout.
. "${top_srcdir:-.}/tests/fs-lib.sh"

FIXTURE=$top_srcdir/src/run/memcgfs-fixture
[ -x "$FIXTURE" ] || fail "no $FIXTURE"

# The fixture holds the tree's directories and files, memcgfs.* left out;
# a readable file's text as a read gives it, a write-only file or one whose
# reads fail (v1 memory.pressure_level) empty.
check() {
	m=$1 d=$2
	(cd "$m" && find . -mindepth 1 ! -name 'memcgfs.*' | LC_ALL=C sort) > "$TMP/want"
	(cd "$d" && find . -mindepth 1 | LC_ALL=C sort) > "$TMP/got"
	cmp "$TMP/want" "$TMP/got" || { diff -u "$TMP/want" "$TMP/got" | head; fail "$d: file set"; }
	(cd "$m" && find . -type f ! -name 'memcgfs.*') | while read -r f; do
		if [ "$(stat -c %A "$m/$f" | cut -c2)" = r ] && cat "$m/$f" > "$TMP/text" 2>/dev/null; then
			cmp "$TMP/text" "$d/$f" || fail "$d/$f differs from the mount"
		else
			[ -s "$d/$f" ] && fail "$d/$f: not empty"
		fi
	done
	[ -f "$d/memory.stat" ] || fail "$d: no memory.stat"
}

mount_fs "$TMP/v1" --hierarchy=v1 --clock=manual --nodes=2
mkdir -p "$TMP/v1/a/b" || fail mkdir
echo "anon 8M node=1" > "$TMP/v1/a/b/memcgfs.charge" || fail charge
echo 64M > "$TMP/v1/a/memory.limit_in_bytes" || fail limit
"$FIXTURE" "$TMP/v1" "$TMP/fx1" 2>"$TMP/err" || fail "fixture v1"
grep -q "memory.pressure_level: unreadable" "$TMP/err" || fail "no word of the unreadable file"
check "$TMP/v1" "$TMP/fx1"
grep -qx "total_rss 8388608" "$TMP/fx1/a/memory.stat" || fail "v1 fixture: total_rss"
expect "v1 fixture limit" "$(cat "$TMP/fx1/a/memory.limit_in_bytes")" 67108864

mount_fs "$TMP/v2" --kernel=6.12 --clock=manual
mkdir -p "$TMP/v2/a/b" || fail mkdir
echo "file 4M" > "$TMP/v2/a/b/memcgfs.charge" || fail charge
"$FIXTURE" "$TMP/v2" "$TMP/fx2" || fail "fixture v2"
check "$TMP/v2" "$TMP/fx2"
[ -f "$TMP/fx2/a/memory.reclaim" ] || fail "v2 fixture: no memory.reclaim"
grep -qx "file 4194304" "$TMP/fx2/a/memory.stat" || fail "v2 fixture: file"

# With the emulator's files; and never over an existing directory.
"$FIXTURE" --emulator-files "$TMP/v2" "$TMP/fx3" || fail "fixture with emulator files"
[ -f "$TMP/fx3/memcgfs.clock" ] || fail "no memcgfs.clock with --emulator-files"
"$FIXTURE" "$TMP/v2" "$TMP/fx3" 2>/dev/null && fail "fixture over an existing directory"
echo "PASS: fs-fixture"
