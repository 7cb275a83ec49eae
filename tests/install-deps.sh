#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/install-deps.sh against a fake dpkg-query (nothing installed), a
# fake apt-get (records its arguments, prints apt's lines) and a fake sudo:
#  - a normal user without sudo is told the exact command to run as root;
#  - a held apt lock is waited for, with a message, and given up on after
#    MEMCGFS_APT_WAIT seconds, before any apt-get;
#  - then update, and install with --no-install-recommends, showing
#    progress (man-db among the packages: a minimal Debian has none).
# It runs a copy of the script, in a fresh directory that user nobody can
# reach: the tree may be closed to nobody (a checkout in root's 0700 home).
: "${top_srcdir:=.}"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
command -v perl >/dev/null 2>&1 || { echo "SKIP: no perl"; exit 77; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/memcgfs-test.XXXXXX") || fail mktemp
holder=
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null; rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
mkdir "$TMP/bin" "$TMP/sudo"
script=$TMP/install-deps.sh
cp "$top_srcdir/contrib/install-deps.sh" "$script" || fail "cannot copy contrib/install-deps.sh"
cat >"$TMP/bin/dpkg-query" <<EOF
#!/bin/sh
[ -e "$TMP/installed" ] && echo "install ok installed"
exit 0
EOF
cat >"$TMP/bin/apt-get" <<EOF
#!/bin/sh
echo "\$*" >>"$TMP/apt-get.args"
case " \$* " in *" install "*)
	echo "Unpacking check (0.15.2-2) ..."
	echo "Setting up check (0.15.2-2) ..."
	: >"$TMP/installed" ;;
esac
EOF
printf '#!/bin/sh\nexec "$@"\n' >"$TMP/sudo/sudo"
chmod 755 "$TMP/bin/"* "$TMP/sudo/sudo"
PATH=$TMP/bin:$PATH
export PATH MEMCGFS_APT_LOCKS="$TMP/lock"
: >"$TMP/lock"

# A normal user, no sudo: the command to run as root, nothing run.
if [ "$(id -u)" -eq 0 ]; then
	as_user="runuser -u nobody --"
	command -v runuser >/dev/null 2>&1 || as_user=
	if [ -n "$as_user" ] && ! $as_user test -r "$script"; then
		echo "a normal user without sudo: skipped, nobody cannot reach $TMP (TMPDIR=${TMPDIR:-})"
		as_user=
	fi
else
	as_user=env
fi
if [ -n "$as_user" ]; then
	$as_user env PATH="$PATH" MEMCGFS_APT_LOCKS="$TMP/lock" bash "$script" >"$TMP/user.out" 2>&1 &&
		fail "a normal user without sudo: exit 0"
	grep -q "run as root:" "$TMP/user.out" || fail "no 'run as root': $(cat "$TMP/user.out")"
	grep -q "^    apt-get update && apt-get install -y --no-install-recommends .*libfuse3-dev" \
		"$TMP/user.out" || fail "no exact command: $(cat "$TMP/user.out")"
	[ -e "$TMP/apt-get.args" ] && fail "apt-get run for a normal user without sudo"
fi

# Through sudo where there is one (for root: directly); apt locked.
PATH=$TMP/sudo:$PATH
perl -MFcntl -e 'open(my $fh, "+<", $ARGV[0]) or die; my $lk = pack("s s x![q] q q i x![q]", F_WRLCK, 0, 0, 0, 0);
	fcntl($fh, F_SETLKW, $lk) or die; print "locked\n"; $| = 1; sleep 60' "$TMP/lock" >"$TMP/held" &
holder=$!
i=0
until grep -q locked "$TMP/held"; do i=$((i + 1)); [ $i -lt 100 ] || fail "no lock"; sleep 0.1; done
MEMCGFS_APT_WAIT=2 bash "$script" >"$TMP/locked.out" 2>&1 && fail "exit 0 with apt locked"
grep -q "apt is locked by pid $holder .*waiting up to 2 s" "$TMP/locked.out" ||
	fail "no waiting message: $(cat "$TMP/locked.out")"
grep -q "giving up" "$TMP/locked.out" || fail "no giving up message: $(cat "$TMP/locked.out")"
[ -e "$TMP/apt-get.args" ] && fail "apt-get run while apt was locked"
kill "$holder"
wait "$holder" 2>/dev/null
holder=

bash "$script" >"$TMP/run.out" 2>&1 || fail "install: $(cat "$TMP/run.out")"
grep -q "update" "$TMP/apt-get.args" || fail "no apt-get update: $(cat "$TMP/apt-get.args")"
grep -q "install -y -q --no-install-recommends .*libfuse3-dev" "$TMP/apt-get.args" ||
	fail "install without --no-install-recommends: $(cat "$TMP/apt-get.args")"
grep -q "install .* man-db" "$TMP/apt-get.args" || fail "no man-db: $(cat "$TMP/apt-get.args")"
grep -q "^install-deps:   Setting up check" "$TMP/run.out" || fail "no progress: $(cat "$TMP/run.out")"
grep -q "^install-deps: done" "$TMP/run.out" || fail "no done: $(cat "$TMP/run.out")"
# Everything installed: silent.
[ -z "$(bash "$script" 2>&1)" ] || fail "not silent once everything is installed"
echo "PASS: install-deps"
