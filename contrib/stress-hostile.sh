#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stress-hostile.sh: an unprivileged user at everything a root-run mount
# offers at once, for SECONDS, on two daemons (v1 at 6.1, whose
# cgroup.event_control is world-writable; v2 at 7.3 with a delegated
# subtree): mkdir/rmdir churn with files and working directories left
# open, readers of the stat files, limit writers (good values and bad),
# event_control registrations (eventfds kept and closed, pollers),
# memory.pressure triggers, and workloads under tight limits.  Then it
# stops the load and checks, for each daemon: it still answers, it kept
# every charge (memcgfs.audit "lost 0"), SIGTERM ends it with status 0,
# and its log has no sanitizer report.
#
#   contrib/stress-hostile.sh [--builddir DIR] [--seconds S] [--user UID]
#
# Run it with a sanitizer build (configure --enable-sanitizers=address,
# undefined or =thread) as root; --user (default 65534) is the attacker.
# Prints the operations made and "stress: PASS" or what failed; exit 0
# only on a pass.  Touches nothing outside its temporary directory.
set -u

builddir=.
seconds=300
user=65534
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$2; shift ;;
	--builddir=*) builddir=${1#*=} ;;
	--seconds) seconds=$2; shift ;;
	--seconds=*) seconds=${1#*=} ;;
	--user) user=$2; shift ;;
	--user=*) user=${1#*=} ;;
	*) echo "usage: $0 [--builddir DIR] [--seconds S] [--user UID]" >&2; exit 2 ;;
	esac
	shift
done
MEMCGFS=$(cd "$builddir" && pwd)/memcgfs
SEQREAD=$(cd "$builddir" && pwd)/tests/seqread
for f in "$MEMCGFS" "$SEQREAD"; do
	[ -x "$f" ] || { echo "stress: no $f (build it: make, make tests/seqread)" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "stress: run as root (the daemons are root's)" >&2; exit 2; }

TMP=$(mktemp -d /tmp/memcgfs-stress.XXXXXX)
chmod 755 "$TMP"
mkdir "$TMP/log" && chmod 1777 "$TMP/log"
pids=()		# daemons
loads=()	# load loops
cleanup() {
	for p in "${loads[@]}"; do kill -- "-$p" 2>/dev/null; done
	for m in "$TMP"/v1 "$TMP"/v2; do fusermount3 -u -z "$m" 2>/dev/null; done
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
# The attacker runs seqread: a copy of it where the user cannot reach the
# build (a checkout in root's 0700 home).
if ! setpriv --reuid="$user" --regid="$user" --clear-groups test -x "$SEQREAD"; then
	cp "$SEQREAD" "$TMP/seqread" || exit 1
	SEQREAD=$TMP/seqread
fi

# Daemons in the foreground, their stderr (sanitizer reports) in a log.
start() {	# NAME OPTIONS...
	local name=$1
	shift
	mkdir "$TMP/$name"
	"$MEMCGFS" -f --cpus=4 --flush_period_ms=50 "$@" "$TMP/$name" 2>"$TMP/$name.log" &
	pids+=($!)
	for _ in $(seq 200); do
		mountpoint -q "$TMP/$name" && return 0
		sleep 0.05
	done
	echo "stress: $name did not mount: $(cat "$TMP/$name.log")"
	exit 1
}
start v1 --hierarchy=v1 --kernel=6.1 -o allow_other
start v2 --kernel=7.3 -o allow_other --max_cgroups=5000
V1=$TMP/v1
V2=$TMP/v2
# The attacker's ground: a delegated subtree on v2 (cgroup.procs and
# cgroup.subtree_control are the delegation files, as systemd hands them
# out), world-writable files on v1.
echo +memory > "$V2/cgroup.subtree_control"
mkdir "$V2/u" "$V1/u"
echo +memory > "$V2/u/cgroup.subtree_control"
chown "$user:$user" "$V2/u" "$V2/u/cgroup.procs" "$V2/u/cgroup.subtree_control"
chown -R "$user:$user" "$V1/u"

end=$(($(date +%s) + seconds))
# loop NAME BODY: runs BODY (bash, as the attacker, with $u set to a
# hierarchy's subtree, $R to a random number) until the end, counting.
loop() {	# NAME MOUNT BODY
	setsid setpriv --reuid="$user" --regid="$user" --clear-groups env END="$end" U="$2/u" SEQREAD="$SEQREAD" LOG="$TMP/log/$1" bash -c '
		n=0
		ok=0
		u=$U
		while [ "$(date +%s)" -lt "$END" ]; do
			R=$RANDOM
			'"$3"'
			[ $? -eq 0 ] && ok=$((ok + 1))
			n=$((n + 1))
		done >/dev/null 2>&1
		echo "$n $ok" >"$LOG"
	' &
	loads+=($!)
}

for m in "$V1" "$V2"; do
	h=$(basename "$m")
	# cgroups made and removed, a file or the cwd left open a while
	loop "$h-churn" "$m" '
		d=$u/c$((R % 50))
		mkdir "$d/x" 2>/dev/null || mkdir "$d"
		(exec 3<"$d/memory.stat"; cd "$d" && sleep 0.$((R % 5))) &
		rmdir "$d/x" 2>/dev/null || rmdir "$d"'
	loop "$h-read" "$m" '
		for f in memory.stat memory.numa_stat cgroup.stat cgroup.events memory.events \
			memory.pressure memory.usage_in_bytes; do
			cat "$u/c$((R % 50))/$f" "$u/$f" 2>/dev/null
		done
		ls -R "$u" >/dev/null 2>&1'
	loop "$h-limits" "$m" '
		for f in memory.max memory.high memory.low memory.limit_in_bytes \
			memory.soft_limit_in_bytes memory.swap.max; do
			for v in $((R * 4096 + 4194304)) max -1 "$R$R$R$R$R" 12x 8M; do
				echo "$v" >"$u/w$((R % 3))/$f"
			done
		done 2>/dev/null
		# a good value last, whose write tells whether the round went through
		f=$u/w$((R % 3))/memory.max
		[ -e "$f" ] || f=$u/w$((R % 3))/memory.limit_in_bytes
		echo 64M >"$f"'
done
# PSI triggers, each polled a moment then closed
loop "v2-psi" "$V2" '
	"$SEQREAD" "$u/w$((R % 3))/memory.pressure" "w:some 150000 2000000" P:$((R % 300)) |
		grep -q "^+"'
# workloads under tight limits, in cgroups the churn does not remove
for m in "$V1" "$V2"; do
	for i in 0 1 2; do
		mkdir "$m/u/w$i"
		chown -R "$user:$user" "$m/u/w$i" 2>/dev/null
		echo "preset=seed001 footprint=16M" >"$m/u/w$i/memcgfs.workload"
	done
	f=$m/u/w0/memory.max
	[ -e "$f" ] || f=$m/u/w0/memory.limit_in_bytes
	echo 4M >"$f"
done
# v1 event registrations: kept (a threshold, an OOM event, pressure),
# and a hundred at a time with their eventfds closed at once
loop "v1-events" "$V1" '
	c=$u/w$((R % 3))
	case $((R % 3)) in
	0) "$SEQREAD" -E "$c/memory.usage_in_bytes" "$c/cgroup.event_control" 2M $((R % 500)) ;;
	1) "$SEQREAD" -E "$c/memory.oom_control" "$c/cgroup.event_control" - $((R % 500)) ;;
	2) "$SEQREAD" -N 100 "$c/memory.pressure_level" "$c/cgroup.event_control" low 10 ;;
	esac'
loop "v2-cgevents" "$V2" '
	"$SEQREAD" "$u/w$((R % 3))/cgroup.events" a:65536 P:$((R % 400))'
loop "v2-pollers" "$V2" '
	"$SEQREAD" "$u/w$((R % 3))/memory.events" a:65536 P:$((R % 400))'

echo "stress: ${#loads[@]} loads for $seconds s on $V1 and $V2"
sleep "$seconds"
for p in "${loads[@]}"; do wait "$p" 2>/dev/null; done
loads=()
sleep 2	# what the loads left running (their sleeps) ends

fail=0
for i in 0 1; do
	m=$TMP/v$((i + 1))
	h=$(basename "$m")
	# the load stopped: the workers idle, every cgroup gone
	for w in 0 1 2; do echo preset=idle >"$m/u/w$w/memcgfs.workload"; done
	sleep 1	# the workers' tasks exit
	find "$m/u" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
	rmdir "$m/u" || { echo "stress: $h: the cgroups would not all go"; fail=1; }
	if ! timeout 10 cat "$m/memory.stat" >/dev/null; then
		echo "stress: $h does not answer"
		fail=1
	fi
	audit=$(timeout 30 cat "$m/memcgfs.audit" | tr '\n' ' ')
	echo "stress: $h audit: $audit"
	case $audit in
	*" lost 0 ") ;;
	*) echo "stress: $h lost charges"; fail=1 ;;
	esac
	# 7.3 hands a removed cgroup's pages to its parent: none stays dying
	# (6.1's stay while their pages do)
	if [ "$h" = v2 ]; then
		dying=$(awk '$1 == "nr_dying_descendants" { print $2 }' "$m/cgroup.stat")
		[ "$dying" = 0 ] || { echo "stress: v2: $dying dying cgroups"; fail=1; }
	fi
	kill -TERM "${pids[$i]}"
	for _ in $(seq 100); do
		kill -0 "${pids[$i]}" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "${pids[$i]}" 2>/dev/null; then
		echo "stress: $h still runs 10 s after SIGTERM"
		kill -KILL "${pids[$i]}"
		fail=1
	fi
	wait "${pids[$i]}"
	rc=$?
	[ "$rc" -eq 0 ] || { echo "stress: $h exited $rc after SIGTERM"; fail=1; }
	if grep -E "Sanitizer|runtime error|WARNING: ThreadSanitizer" "$TMP/$h.log"; then
		echo "stress: $h has sanitizer reports (above)"
		fail=1
	fi
done
pids=()
for l in {v1,v2}-{churn,read,limits} v2-psi v1-events v2-pollers v2-cgevents; do
	read -r rounds ok <"$TMP/log/$l" 2>/dev/null
	echo "stress: $l ${rounds:-no} rounds, ${ok:-0} of them whole"
	# a load none of whose rounds went through tested nothing
	[ "${ok:-0}" -gt 0 ] || { echo "stress: $l did nothing"; fail=1; }
	rounds= ok=
done
[ $fail -eq 0 ] && echo "stress: PASS" || echo "stress: FAIL"
exit $fail
