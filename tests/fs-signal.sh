#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGTERM and SIGINT unmount cleanly, exit 0 and leave no mount behind, even
# with open files, directories and cgroups (the kernel sends no RELEASE for
# them: the daemon frees them itself, or the ASan build exits 1 on leaks).
. "${top_srcdir:-.}/tests/fs-lib.sh"

for sig in TERM INT; do
	mount_fs "$TMP/$sig" --hierarchy=v1
	mkdir -p "$TMP/$sig/a/b" || fail mkdir
	cat "$TMP/$sig/a/b/memory.stat" >/dev/null || fail read
	exec 3<"$TMP/$sig/a/b/memory.stat" 4<"$TMP/$sig/a"
	head -c 10 <&3 >/dev/null || fail "read of an open file"
	ls "$TMP/$sig/a/b" >/dev/null || fail "ls"
	kill -$sig "$FS_PID"
	wait "$FS_PID"
	expect "exit status after SIG$sig" "$?" 0
	exec 3<&- 4<&-
	wait_mount "$TMP/$sig" 0 || fail "still mounted after SIG$sig"
	grep -q " $TMP/$sig " /proc/mounts && fail "in /proc/mounts after SIG$sig"
done
echo "PASS: fs-signal"
