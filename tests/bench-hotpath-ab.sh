#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/bench-hotpath-ab.sh: refuses bad arguments with exit 2, and
# prints per era the median over invocations of each build's minima and
# their ratio.  Two fake memcgfs-bench programs stand for the builds, so
# the arithmetic is checked exactly and nothing is timed.
: "${top_srcdir:=.}"
AB=$top_srcdir/contrib/bench-hotpath-ab.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/memcgfs-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# A build whose hotpath prints, at its Nth invocation, the Nth line of
# its figures file ("5.10 7.3" pairs of ns).
fake_build() {	# DIR FIGURES...
	dir=$1
	shift
	mkdir -p "$dir"
	printf '%s\n' "$@" > "$dir/figures"
	cat > "$dir/memcgfs-bench" <<FAKE
#!/bin/sh
[ "\$*" = "--runs 31 hotpath" ] || { echo "bad args: \$*" >&2; exit 3; }
n=\$(cat "$dir/count" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > "$dir/count"
set -- \$(sed -n "\${n}p" "$dir/figures")
echo "5.10 \$1"
echo "7.3 \$2"
FAKE
	chmod +x "$dir/memcgfs-bench"
}

sh "$AB" "$TMP/none" "$TMP/none" 2>"$TMP/err" && fail "no builds accepted"
grep -q "build it first" "$TMP/err" || fail "no builds: $(cat "$TMP/err")"
sh "$AB" "$TMP" 2>/dev/null; [ $? = 2 ] || fail "one argument: not exit 2"

fake_build "$TMP/old" "8 6" "9 5" "7 7"
fake_build "$TMP/new" "4 3" "6 2" "5 9"
sh "$AB" "$TMP/old" "$TMP/new" 0 2>/dev/null; [ $? = 2 ] || fail "0 invocations: not exit 2"
sh "$AB" "$TMP/old" "$TMP/new" 3 > "$TMP/out" || fail "run: $(cat "$TMP/out")"
# 5.10: old 7 8 9 -> 8, new 4 5 6 -> 5; 7.3: old 5 6 7 -> 6, new 2 3 9 -> 3.
grep -q '^  5\.10 *8\.00 *5\.00 *0\.625x$' "$TMP/out" || fail "5.10 row: $(cat "$TMP/out")"
grep -q '^  7\.3 *6\.00 *3\.00 *0\.500x$' "$TMP/out" || fail "7.3 row: $(cat "$TMP/out")"
[ "$(cat "$TMP/old/count")" = 3 ] && [ "$(cat "$TMP/new/count")" = 3 ] ||
	fail "not 3 invocations of each build"
echo "PASS: bench-hotpath-ab"
