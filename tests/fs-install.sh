#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make install` into a DESTDIR, then a mount as an fstab line makes it:
# mount(8) runs mount.fuse3, which runs `memcgfs SOURCE MOUNTPOINT -o
# rw,OPTIONS` through the shell, finding memcgfs on PATH.  (mount(8) itself
# resets PATH to the default, which holds /usr/local/bin and /usr/bin: here
# the DESTDIR's bin goes first on PATH and mount.fuse3 is run directly.)
. "${top_srcdir:-.}/tests/fs-lib.sh"

command -v make >/dev/null 2>&1 || skip "no make"
mount_fuse=$(command -v mount.fuse3 || echo /sbin/mount.fuse3)
[ -x "$mount_fuse" ] || skip "no mount.fuse3 (Debian package fuse3)"

inst=$TMP/inst
# A make of its own, not a job of the make running the tests.
(unset MAKEFLAGS MFLAGS MAKELEVEL; make -s -C "$top_builddir" install DESTDIR="$inst") \
	>"$TMP/install.log" 2>&1 || fail "make install: $(tail -n 5 "$TMP/install.log")"
bin=$(find "$inst" -path '*/bin/memcgfs' -type f)
[ -x "$bin" ] || fail "make install put no bin/memcgfs under $inst"
for f in bin/memcgfs-bench man8/memcgfs.8 system/memcgfs@.service system/mnt-memcgfs.mount; do
	[ -n "$(find "$inst" -path "*/$f" -type f)" ] || fail "make install put no $f"
done
service=$(find "$inst" -name 'memcgfs@.service')
grep -q "^ExecStart=$(dirname "${bin#$inst}")/memcgfs " "$service" ||
	fail "memcgfs@.service does not start the installed memcgfs: $(grep ExecStart= "$service")"
grep -q "^Restart=on-failure$" "$service" || fail "memcgfs@.service has no Restart=on-failure"

# memcgfs  MNT  fuse.memcgfs  hierarchy=v1,cpus=2  0 0
mkdir "$TMP/mnt"
FS_MOUNTS="$FS_MOUNTS $TMP/mnt"
if ! PATH="$(dirname "$bin"):$PATH" "$mount_fuse" memcgfs "$TMP/mnt" -t memcgfs \
	-o rw,hierarchy=v1,cpus=2 2>"$TMP/err"; then
	grep -qiE "permission|not permitted|fusermount" "$TMP/err" &&
		skip "FUSE mount refused: $(head -n 1 "$TMP/err")"
	fail "mount.fuse3 of the installed memcgfs: $(cat "$TMP/err")"
fi
grep -q "^memcgfs $TMP/mnt fuse.memcgfs " /proc/mounts ||
	fail "not in /proc/mounts as memcgfs $TMP/mnt fuse.memcgfs"
[ -r "$TMP/mnt/memory.usage_in_bytes" ] || fail "not a v1 hierarchy: -o hierarchy=v1 lost"
fusermount3 -u "$TMP/mnt" || fail "fusermount3 -u"
wait_mount "$TMP/mnt" 0 || fail "still mounted"
echo "PASS: fs-install"
