#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Mounts v1 and v2, reads the root, unmounts with fusermount3 -u and umount;
# option errors exit 2 with one line; --help and --version exit 0.
. "${top_srcdir:-.}/tests/fs-lib.sh"

out=$("$MEMCGFS" --version) || fail "--version"
case $out in "memcgfs "*) ;; *) fail "--version said: $out" ;; esac
"$MEMCGFS" --help >/dev/null || fail "--help"
for bad in "--hierarchy=v3" "--cpus=0" "--cpus=1025" "--nodes=65" "--kernel=5.4" \
	   "-o flush_period_ms=x" "-o no_such_option" "--seed=000:maybe" \
	   "--seed=000:before --kernel=7.3" "--seed=005:after" \
	   "--seed=001:after --hierarchy=v1" "--kernel=6.12 --hierarchy=v1" \
	   "--tick_ms=0" "--tick_ms=101"; do
	"$MEMCGFS" $bad "$TMP/m" 2>"$TMP/err" && fail "$bad accepted"
	expect "exit status of $bad" "$?" 2
	expect "error lines of $bad" "$(wc -l < "$TMP/err")" 1
done
"$MEMCGFS" 2>/dev/null
expect "exit status without a mount point" "$?" 2

# v2 (default), a seed patch on its base kernel, unmounted with fusermount3 -u
mount_fs "$TMP/v2" -o cpus=4,nodes=2,kernel=6.12,flush_period_ms=0,seed=002:before
[ -r "$TMP/v2/memory.stat" ] || fail "v2 root has no memory.stat"
[ -e "$TMP/v2/memory.current" ] && fail "v2 root has memory.current"
grep -q "^anon N0=0 N1=0$" "$TMP/v2/memory.numa_stat" || fail "v2 numa_stat with 2 nodes"
fusermount3 -u "$TMP/v2" || fail "fusermount3 -u"
wait "$FS_PID"
expect "exit status after fusermount3 -u" "$?" 0
mountpoint -q "$TMP/v2" && fail "still mounted"

# v1, unmounted with umount
mount_fs "$TMP/v1" --hierarchy=v1
[ -r "$TMP/v1/memory.usage_in_bytes" ] || fail "v1 root has no memory.usage_in_bytes"
expect "v1 root mode" "$(stat -c %A "$TMP/v1")" "dr-xr-xr-x"
umount "$TMP/v1" || fail "umount"
wait "$FS_PID"
expect "exit status after umount" "$?" 0
wait_mount "$TMP/v1" 0 || fail "still mounted after umount"

# daemonized (no -f): the mount is there when the command returns
mkdir -p "$TMP/bg"
"$MEMCGFS" "$TMP/bg" || fail "daemonized start"
FS_MOUNTS="$FS_MOUNTS $TMP/bg"
mountpoint -q "$TMP/bg" || fail "daemonized mount missing"
fusermount3 -u "$TMP/bg" || fail "unmount of daemonized mount"
echo "PASS: fs-mount"
