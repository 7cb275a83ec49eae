#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Mounts v1 and v2, reads the root, unmounts with fusermount3 -u and umount;
# option errors exit 2 with one line; --help and --version exit 0; the
# kernel build options memcg_v1= and lru_gen=, and v1 at every release.
. "${top_srcdir:-.}/tests/fs-lib.sh"

out=$("$MEMCGFS" --version) || fail "--version"
case $out in "memcgfs "*) ;; *) fail "--version said: $out" ;; esac
"$MEMCGFS" --help >/dev/null || fail "--help"
for bad in "--hierarchy=v3" "--cpus=0" "--cpus=1025" "--nodes=65" "--kernel=5.4" \
	   "-o flush_period_ms=x" "-o no_such_option" "--seed=000:maybe" \
	   "--seed=000:before --kernel=7.3" "--seed=005:after" \
	   "--seed=001:after --hierarchy=v1" "--seed=000" "--patch=nosuchpatch" \
	   "--patch=seed000:maybe" "--patch=seed000 --kernel=7.3" "-o patch=" \
	   "--patch=seed000 --seed=002:after" \
	   "--tick_ms=0" "--tick_ms=101" "-o max_threads=-1" "-o max_threads=0" \
	   "-o cpus" "--event_limit=0" "--cpus=$(printf '%05000d' 7)"; do
	"$MEMCGFS" $bad "$TMP/m" 2>"$TMP/err" && fail "$bad accepted"
	expect "exit status of $bad" "$?" 2
	expect "error lines of $bad" "$(wc -l < "$TMP/err")" 1
done
# A long bad value is cut, not echoed whole; an option without its value
# is called that, not unknown.
"$MEMCGFS" --cpus="$(printf '%05000d' 7)" "$TMP/m" 2>"$TMP/err"
[ "$(wc -c < "$TMP/err")" -lt 200 ] || fail "a 5000-byte value echoed: $(wc -c < "$TMP/err") bytes"
"$MEMCGFS" -o cpus "$TMP/m" 2>"$TMP/err"
grep -q "bad cpus" "$TMP/err" || fail "-o cpus: $(cat "$TMP/err")"
# allow_other for a user fusermount3 will refuse it to: a usage error.
if nobody_ready &&
   ! grep -qx "[[:space:]]*user_allow_other[[:space:]]*" /etc/fuse.conf 2>/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$MEMCGFS" -o allow_other "$TMP/m" \
		2>"$TMP/err"
	expect "exit status of a user's allow_other" "$?" 2
	grep -q "user_allow_other" "$TMP/err" || fail "allow_other: $(cat "$TMP/err")"
fi
"$MEMCGFS" 2>/dev/null
expect "exit status without a mount point" "$?" 2
: >"$TMP/file"
mkdir -p "$TMP/m"
for bad in "$TMP/missing" "a $TMP/m c" "$TMP/file"; do
	"$MEMCGFS" $bad 2>"$TMP/err" && fail "mount point $bad accepted"
	expect "exit status of mount point $bad" "$?" 2
	expect "error lines of mount point $bad" "$(wc -l < "$TMP/err")" 1
done
grep -q "is not a directory" "$TMP/err" || fail "a file as mount point: $(cat "$TMP/err")"

# The kernel build options (mcg_kernel_configure()): refused with one line
# naming the option, before the mount point is looked at.
for bad in "--memcg_v1=x|bad memcg_v1" "-o memcg_v1=yes|bad memcg_v1" \
	   "--lru_gen=1|bad lru_gen" \
	   "--hierarchy=v1 --memcg_v1=n|memcg_v1=n builds no v1" \
	   "-o hierarchy=v1,memcg_v1=n,kernel=6.12|memcg_v1=n builds no v1" \
	   "--kernel=6.10 --memcg_v1=n|CONFIG_MEMCG_V1 came in 6.11" \
	   "--kernel=6.0 --lru_gen=y|CONFIG_LRU_GEN) came in 6.1" \
	   "-o kernel=5.4,lru_gen=y|CONFIG_LRU_GEN) came in 6.1" \
	   "--seed=001:before --memcg_v1=y|patch 001:before: this patch runs a kernel" \
	   "--patch=seed001 --memcg_v1=y|patch seed001: this patch runs a kernel" \
	   "--seed=001:before --hierarchy=v1|without CONFIG_MEMCG_V1"; do
	opts=${bad%%|*}
	"$MEMCGFS" $opts "$TMP/m" 2>"$TMP/err" && fail "$opts accepted"
	expect "exit status of $opts" "$?" 2
	expect "error lines of $opts" "$(wc -l < "$TMP/err")" 1
	grep -qF "${bad#*|}" "$TMP/err" || fail "$opts: $(cat "$TMP/err")"
done

# v1 at every release, built with CONFIG_MEMCG_V1 as the 6.18 of the v1 goldens is
# (Debian's 6.12 and 7.3 build without it; a v1 mount implies memcg_v1=y)
for k in 6.12 6.18 7.3; do
	for form in "--kernel=$k --hierarchy=v1" "-o kernel=$k,hierarchy=v1,memcg_v1=y"; do
		mount_fs "$TMP/k1" $form
		mkdir "$TMP/k1/c" || fail "mkdir $form"
		expect "$form memory.stat" \
			"$(cut -d' ' -f1 "$TMP/k1/c/memory.stat" | head -n 15 | tr '\n' ' ')" \
			"cache rss rss_huge shmem mapped_file dirty writeback workingset_refault_anon \
workingset_refault_file swap swapcached pgpgin pgpgout pgfault pgmajfault "
		[ -r "$TMP/k1/c/memory.limit_in_bytes" ] || fail "$form: no memory.limit_in_bytes"
		rmdir "$TMP/k1/c" || fail "rmdir $form"
		fusermount3 -u "$TMP/k1" || fail "umount $form"
		wait "$FS_PID"
	done
done
# v2 takes the release's Debian default, or memcg_v1=n where it exists
mount_fs "$TMP/k2" -o kernel=7.3,memcg_v1=n,lru_gen=n
[ -r "$TMP/k2/memory.stat" ] || fail "memcg_v1=n,lru_gen=n v2"
fusermount3 -u "$TMP/k2" || fail "umount memcg_v1=n"

# --help and memcgfs(8) give the same defaults
for opt in nodes= flush_period_ms= tick_ms= timeout= max_read= max_threads=; do
	h=$("$MEMCGFS" --help | awk -v o="$opt" 'index($0, o) && match($0, /default [0-9]+/) {
		print substr($0, RSTART + 8, RLENGTH - 8); exit }')
	m=$(awk -v o="$opt" 'f && /^\.TP/ { exit } index($0, o) { f = 1 }
		f && match($0, /default [0-9]+/) { print substr($0, RSTART + 8, RLENGTH - 8); exit }' \
		"$top_srcdir/man/memcgfs.8")
	[ -n "$h" ] || fail "--help gives no default for $opt"
	expect "default of $opt in --help and memcgfs(8)" "$h" "$m"
done

# v2 (default), a seed patch on its base kernel, unmounted with fusermount3 -u
mount_fs "$TMP/v2" -o cpus=4,nodes=2,kernel=6.12,flush_period_ms=0,seed=002:before
[ -r "$TMP/v2/memory.stat" ] || fail "v2 root has no memory.stat"
[ -e "$TMP/v2/memory.current" ] && fail "v2 root has memory.current"
grep -q "^anon N0=0 N1=0$" "$TMP/v2/memory.numa_stat" || fail "v2 numa_stat with 2 nodes"
grep -q "^memcgfs: mounted at $TMP/v2 " "$TMP/daemon.out" || fail "no 'mounted at' line: $(cat "$TMP/daemon.out")"
grep -q "^memcgfs $TMP/v2 fuse.memcgfs " /proc/mounts || fail "not in /proc/mounts as memcgfs ... fuse.memcgfs"
# a second daemon on a mounted point is refused, the first stays
"$MEMCGFS" "$TMP/v2" 2>"$TMP/err" && fail "second mount accepted"
expect "exit status of a second mount" "$?" 2
expect "error lines of a second mount" "$(wc -l < "$TMP/err")" 1
[ -r "$TMP/v2/memory.stat" ] || fail "first mount gone after a second daemon"
fusermount3 -u "$TMP/v2" || fail "fusermount3 -u"
wait "$FS_PID"
expect "exit status after fusermount3 -u" "$?" 0
mountpoint -q "$TMP/v2" && fail "still mounted"

# v1 with a patch by name (seed 003's before, on its base 5.10), unmounted
# with umount
mount_fs "$TMP/v1" --hierarchy=v1 --patch=seed003:before
[ -r "$TMP/v1/memory.usage_in_bytes" ] || fail "v1 root has no memory.usage_in_bytes"
grep -q "^hierarchical_total=0 N0=0$" "$TMP/v1/memory.numa_stat" ||
	fail "5.10 v1 numa_stat: $(cat "$TMP/v1/memory.numa_stat")"
expect "v1 root mode" "$FS_ROOT_MODE" "dr-xr-xr-x"
umount "$TMP/v1" || fail "umount"
wait "$FS_PID"
expect "exit status after umount" "$?" 0
wait_mount "$TMP/v1" 0 || fail "still mounted after umount"

# a daemon killed with SIGKILL leaves a dead mount: refused, saying how to
# remove it, which works
mount_fs "$TMP/dead"
kill -KILL "$FS_PID"
wait "$FS_PID"
"$MEMCGFS" "$TMP/dead" 2>"$TMP/err" && fail "mount over a dead mount accepted"
expect "exit status over a dead mount" "$?" 2
expect "error lines over a dead mount" "$(wc -l < "$TMP/err")" 1
grep -q "fusermount3 -u $TMP/dead" "$TMP/err" || fail "no fusermount3 -u: $(cat "$TMP/err")"
fusermount3 -u "$TMP/dead" || fail "fusermount3 -u of a dead mount"
stat "$TMP/dead" >/dev/null || fail "dead mount still there"

# daemonized (no -f), as mount.fuse3 starts it from fstab: SOURCE MOUNTPOINT
mkdir -p "$TMP/bg"
"$MEMCGFS" job-memcg "$TMP/bg" -o hierarchy=v1,cpus=2 >"$TMP/bg.out" || fail "daemonized start"
FS_MOUNTS="$FS_MOUNTS $TMP/bg"
mountpoint -q "$TMP/bg" || fail "daemonized mount missing"
[ -s "$TMP/bg.out" ] && fail "daemonized start printed: $(cat "$TMP/bg.out")"
grep -q "^job-memcg $TMP/bg fuse.memcgfs " /proc/mounts || fail "SOURCE not the mount's name"
[ -r "$TMP/bg/memory.usage_in_bytes" ] || fail "-o hierarchy=v1 after SOURCE MOUNTPOINT"
fusermount3 -u "$TMP/bg" || fail "unmount of daemonized mount"
echo "PASS: fs-mount"
