#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's memory-controller selftests, unmodified, against memcgfs.
#
#   contrib/selftests.sh --builddir DIR --ksrc KDIR [--host-cgroup HDIR] [--timeout S]
#
# Builds test_memcontrol and test_kmem from KDIR/tools/testing/selftests/
# cgroup (a kernel tree: ../shared/tools/kernel-source 7.3 gives one;
# nothing of it is kept here) into DIR/selftests, and runs each under
# memcgfs-run on a v2 mount (the cgroup2 line they look for), twice:
# unmodified, and through contrib/noclone3.c, which makes clone3(2) answer
# ENOSYS, the one fallback their library takes (a FUSE directory is no
# cgroup for CLONE_INTO_CGROUP, which answers EBADF, a failure to them).
# HDIR: --host_cgroup for the daemon (a host v1 memory hierarchy
# directory, made and removed here); else the /proc source.  Each binary
# gets S seconds (default 600): a test that hangs ends its binary's run,
# and it and the tests after it have "no result".  Prints a line per test of
# the sources' T() tables, each failure with its reason (README, "The
# kernel's selftests"), and a summary.  As root.  `make check-selftests KSRC=KDIR
# [HOST_CGROUP=HDIR]` runs it.
set -u

builddir= ksrc= host_cgroup= limit=600
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) limit=$2; shift 2 ;;
	--builddir) builddir=$2; shift 2 ;;
	--ksrc) ksrc=$2; shift 2 ;;
	--host-cgroup) host_cgroup=$2; shift 2 ;;
	*) echo "usage: $0 --builddir DIR --ksrc KDIR [--host-cgroup HDIR]" >&2; exit 2 ;;
	esac
done
[ -n "$builddir" ] && [ -n "$ksrc" ] ||
	{ echo "usage: $0 --builddir DIR --ksrc KDIR [--host-cgroup HDIR]" >&2; exit 2; }
src=$ksrc/tools/testing/selftests/cgroup
[ -f "$src/test_memcontrol.c" ] || { echo "$0: no $src/test_memcontrol.c" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "$0: memcgfs-run's mounts need root" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$builddir/selftests
mkdir -p "$out" || exit 2
# As tools/testing/selftests/cgroup/Makefile and lib.mk build them: no -O
# (at -O2 gcc drops alloc_anon()'s stores to a buffer it then frees, so
# the tests' children would touch no memory at all)
for t in test_memcontrol test_kmem; do
	gcc -Wall -pthread -D_GNU_SOURCE= -w -I"$src/.." -I"$src/lib/include" -o "$out/$t" \
		"$src/$t.c" "$src/lib/cgroup_util.c" || { echo "$0: cannot build $t" >&2; exit 2; }
done
gcc -O2 -Wall -o "$out/noclone3" "$here/noclone3.c" || exit 2

opts=(--hierarchy=v2)
if [ -n "$host_cgroup" ]; then
	mkdir -p "$host_cgroup" || exit 2
	opts+=(--host_cgroup="$host_cgroup")
fi

# Why a test fails here, by name: what the source of host processes'
# memory (or memcgfs) does not give it.  A failure not listed says so.
reason() {
	case $1 in
	test_memcg_current_peak) echo "from /proc: page cache written with write(2) is invisible" ;;
	test_memcg_min | test_memcg_low) echo "memory.min and memory.low protect host pages only by reclaim, which neither source does on a v1 host" ;;
	test_memcg_high) echo "from /proc: memory.high throttles a host process but cannot reclaim its anon (no swap) or its page cache" ;;
	test_memcg_high_sync) echo "a v1 host has no memory.high: the child mlocks at the host's speed and meets memory.max (a max event, which the test forbids) before the daemon's look throttles it; from /proc it may hang if no look sees the child (every 10 ms in its first 500 ms), as the test waits without a timeout" ;;
	test_memcg_max) echo "from /proc: page cache written with write(2) is invisible, so memory.max cannot hold it" ;;
	test_memcg_reclaim) echo "unmodified: its children cannot join (clone3 into a FUSE directory is EBADF); from /proc: memory.reclaim cannot reclaim host pages" ;;
	test_memcg_sock) echo "unmodified: its server cannot join (clone3 into a FUSE directory is EBADF); from /proc: socket memory is invisible" ;;
	test_memcg_oom_group_score_events) echo "set_oom_adj_score(-1000) needs CAP_SYS_RESOURCE, which this machine's root lacks (EIO)" ;;
	test_memcg_oom_group_*|test_memcg_oom_events) echo "from /proc: a child that faults its memory and exits between two looks is never seen" ;;
	test_kmem_*|test_percpu_*) echo "from /proc: slab and percpu memory are invisible" ;;
	test_memcg_inotify_delete_file) echo "hangs: vfs_rmdir() prunes the unused dentry of memory.events before FUSE can clear its link count, so no IN_DELETE_SELF comes (the run ends at the timeout)" ;;
	test_memcg_inotify_delete_dir) echo "not reached: the test before it hangs" ;;
	test_memcg_swap_max_peak) echo "skipped by the test: no swap on this machine" ;;
	*) echo "not analysed" ;;
	esac
}

declare -A result
# every test, in the order the binaries run them: their T() tables
mapfile -t tests < <(grep -ho 'T(test_[a-z0-9_]*)' "$src/test_memcontrol.c" "$src/test_kmem.c" |
	sed 's/^T(\(.*\))$/\1/')
for mode in unmodified fallback; do
	for t in test_memcontrol test_kmem; do
		if [ $mode = fallback ]; then cmd=("$out/noclone3" "$out/$t"); else cmd=("$out/$t"); fi
		MEMCGFS=$builddir/memcgfs timeout "$limit" "$builddir/memcgfs-run" "${opts[@]}" -- "${cmd[@]}" \
			> "$out/$t.$mode.tap" 2> "$out/$t.$mode.err"
		while read -r line; do
			case $line in
			"ok "*"# SKIP"*) r=SKIP; name=${line##* } ;;
			"ok "*) r=ok; name=${line#ok * } ;;
			"not ok "*) r=FAIL; name=${line#not ok * } ;;
			*) continue ;;
			esac
			name=${name%% *}
			result[$name.$mode]=$r
		done < "$out/$t.$mode.tap"
	done
done

pass_u=0 pass_f=0
for name in "${tests[@]}"; do
	u=${result[$name.unmodified]:-"no result"} f=${result[$name.fallback]:-"no result"}
	[ "$u" = ok ] && pass_u=$((pass_u + 1))
	[ "$f" = ok ] && pass_f=$((pass_f + 1))
	line=$(printf '%-36s unmodified %-11s fallback %-11s' "$name" "$u" "$f")
	if [ "$f" != ok ]; then
		echo "$line  $(reason "$name")"
	else
		echo "$line"
	fi
done
echo "${#tests[@]} tests: $pass_u pass unmodified, $pass_f with the clone3 fallback"
[ -z "$host_cgroup" ] || rmdir "$host_cgroup" 2>/dev/null
exit 0
