#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The root's cpu.stat and io.stat flush nothing, in every modelled era:
# cgroup_base_stat_cputime_show() reads root_cgroup_cputime() (every CPU's
# kcpustat) and blkcg_print_stat() blkcg_fill_root_iostats() (the disks'
# counters) for the root; a child's read flushes its subtree.  On 6.1's and 6.12's
# shared rstat tree a child's read runs memcg's callback as well (a side
# flush), the root's never.  The root's totals cover the children's.
. "${top_srcdir:-.}/tests/fs-lib.sh"

key_of() {
	awk -v k="$2" '$1 == k { print $2 }' "$1"
}

# io_total FILE: rbytes + wbytes over every device line of an io.stat
io_total() {
	awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "=");
		if (kv[1] == "rbytes" || kv[1] == "wbytes") s += kv[2] } } END { print s + 0 }' "$1"
}

for kernel in 6.1 6.12 7.3; do
	m=$TMP/m-$kernel
	mount_fs "$m" --kernel="$kernel" --cpus=4
	mkdir "$m/a" || fail "$kernel: mkdir"
	echo "anon=2000 file_read=2000 file_write=1000 footprint=16M" > "$m/a/memcgfs.workload" ||
		fail "$kernel: workload"
	i=0
	until [ "$(key_of "$m/a/cpu.stat" usage_usec)" -gt 0 ] && [ "$(io_total "$m/a/io.stat")" -gt 0 ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && fail "$kernel: no CPU time or I/O after 10 s"
		sleep 0.1
	done
	echo "preset=idle" > "$m/a/memcgfs.workload" || fail "$kernel: idle"
	sleep 0.3
	fs=$m/memcgfs.flush_stats
	b0=$(key_of "$fs" base_flushes); i0=$(key_of "$fs" io_flushes)
	s0=$(key_of "$fs" side_flushes)
	cat "$m/cpu.stat" "$m/io.stat" > "$TMP/root" || fail "$kernel: root read"
	expect "$kernel: root cpu.stat flushes" "$(key_of "$fs" base_flushes)" "$b0"
	expect "$kernel: root io.stat flushes" "$(key_of "$fs" io_flushes)" "$i0"
	expect "$kernel: root side flushes" "$(key_of "$fs" side_flushes)" "$s0"
	cat "$m/a/cpu.stat" > "$TMP/a.cpu" || fail "$kernel: a/cpu.stat"
	cat "$m/a/io.stat" > "$TMP/a.io" || fail "$kernel: a/io.stat"
	expect "$kernel: a/cpu.stat flushes" "$(key_of "$fs" base_flushes)" "$((b0 + 1))"
	expect "$kernel: a/io.stat flushes" "$(key_of "$fs" io_flushes)" "$((i0 + 1))"
	if [ "$kernel" != 7.3 ]; then
		expect "$kernel: a's reads ran memcg's callback" "$(key_of "$fs" side_flushes)" \
			"$((s0 + 2))"
	else
		expect "$kernel: a's reads side flushes" "$(key_of "$fs" side_flushes)" "$s0"
	fi
	# cgroup_base_stat_cputime_show()'s lines: nice_usec from 6.12 on.
	expect "$kernel: cpu.stat keys" "$(cut -d' ' -f1 "$TMP/a.cpu" | tr '\n' ' ')" \
		"usage_usec user_usec system_usec $([ "$kernel" = 6.1 ] || echo "nice_usec ")"
	# The root counts everything, flushed or not: at least the child.
	cat "$m/cpu.stat" > "$TMP/root.cpu"
	cat "$m/io.stat" > "$TMP/root.io"
	[ "$(key_of "$TMP/root.cpu" usage_usec)" -ge "$(key_of "$TMP/a.cpu" usage_usec)" ] ||
		fail "$kernel: root usage $(key_of "$TMP/root.cpu" usage_usec) < a's"
	[ "$(io_total "$TMP/root.io")" -ge "$(io_total "$TMP/a.io")" ] ||
		fail "$kernel: root io $(io_total "$TMP/root.io") < a's $(io_total "$TMP/a.io")"
	fusermount3 -u "$m" || fail "$kernel: unmount"
done

# The root has a blkg on every disk from the start: 6.1's
# blkcg_print_one_stat() prints a line for each, counters or not; 5.10's
# blkcg_print_stat() only lines with something to say.  A child with no
# I/O has no blkg, so no line.
for kernel in 5.10 6.1 7.3; do
	m=$TMP/io-$kernel
	mount_fs "$m" --kernel="$kernel" --cpus=2
	mkdir "$m/a" || fail "$kernel: mkdir"
	if [ "$kernel" = 5.10 ]; then want=""; else want=$(printf '8:0 \n8:16 '); fi
	expect "$kernel: idle root io.stat" "$(cat "$m/io.stat")" "$want"
	expect "$kernel: idle child io.stat" "$(cat "$m/a/io.stat")" ""
	fusermount3 -u "$m" || fail "$kernel: unmount"
done
echo "PASS: fs-rootstat"
