#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every patch's experiment in --quick mode, through real mounts: the table,
# DIR/NAME.tsv well formed with exactly one headline row, and the plot
# where gnuplot is installed.  No timing is asserted: this machine's
# figures belong to doc/experiments.md, not to a test.
. "${top_srcdir:-.}/tests/fs-lib.sh"

BENCH=$top_builddir/memcgfs-bench
[ -x "$BENCH" ] || fail "no $BENCH"
export MEMCGFS

out=$TMP/out
"$BENCH" experiment all --quick --out "$out" >"$TMP/log" 2>&1 ||
	fail "experiment all --quick: $(tail -n 20 "$TMP/log")"
# Every patch memcgfs-bench lists (its names start a line).
patches=$("$BENCH" experiment --list | grep -v "^ ")
expect "the seeds among the patches" "$(echo "$patches" | grep -c "^seed00[0-4]$")" 5
for n in $patches; do
	tsv=$out/$n.tsv
	[ -s "$tsv" ] || fail "no $tsv"
	expect "$n header" "$(head -n 1 "$tsv")" \
		"$(printf 'patch\tmeasure\tunit\tbefore\tafter\tratio\tci_low\tci_high\teffect_kind\teffect\teffect_low\teffect_high\tn\tpublished\tpublished_effect\tverdict\tdaemon_pairs')"
	# Every row is well formed; a row with a published effect has one of
	# the three verdicts, a row without says so.
	awk -F '\t' -v patch="$n" '
		function num(v) { return v ~ /^-?(inf|nan|[0-9.]+(e[-+]?[0-9]+)?)$/ }
		NR == 1 { next }
		NF != 17 { print "line " NR ": " NF " fields"; bad = 1 }
		$17 !~ /^[1-9][0-9]*$/ { print "line " NR ": daemon pairs " $17; bad = 1 }
		$17 > 1 && $16 !~ /daemon pairs: mean of their medians/ {
			print "line " NR ": verdict " $16 " of " $17 " daemon pairs"; bad = 1 }
		$1 != patch { print "line " NR ": patch " $1; bad = 1 }
		!num($4) || !num($5) || !num($6) || !num($7) || !num($8) || !num($10) ||
		!num($11) || !num($12) { print "line " NR ": not a number"; bad = 1 }
		$9 !~ /^(ratio-1|before-after|level)$/ { print "line " NR ": effect " $9; bad = 1 }
		$13 !~ /^[1-9][0-9]*$/ { print "line " NR ": n " $13; bad = 1 }
		$15 != "-" && !num($15) { print "line " NR ": published effect " $15; bad = 1 }
		$15 != "-" && $16 !~ /(^|; )(reproduced|same direction|differs): effect / {
			print "line " NR ": verdict " $16; bad = 1 }
		$15 == "-" && $16 !~ /no published figure/ { print "line " NR ": verdict " $16; bad = 1 }
		$2 ~ /^headline: / { heads++; if ($15 == "-") { print "headline unpublished"; bad = 1 } }
		END {
			if (heads != 1) { print heads + 0 " headline rows"; bad = 1 }
			if (NR < 3) { print "only " NR - 1 " rows"; bad = 1 }
			exit bad
		}' "$tsv" || fail "$n.tsv is malformed"
	# The headline has real figures.
	awk -F '\t' '$2 ~ /^headline: / && ($10 !~ /^-?[0-9.e+-]+$/) { exit 1 }' \
		"$tsv" || fail "$n headline is not a number"
	grep -q "^\* " "$TMP/log" || fail "no headline in the table"
	if command -v gnuplot >/dev/null 2>&1; then
		[ -s "$out/$n.png" ] || fail "no $n.png"
		expect "$n.png is a PNG" "$(head -c 4 "$out/$n.png" | tail -c 3)" PNG
	fi
done
grep -q "identical text" "$out/seed003.tsv" || fail "seed003: before and after differ"
# The experiments of small effects measure over several daemon pairs.
for n in seed001 seed002 seed004 flush-only-if-updated; do
	awk -F '\t' '$2 ~ /^headline: / && $17 >= 2 { ok = 1 } END { exit !ok }' \
		"$out/$n.tsv" || fail "$n: headline from one daemon pair"
done
# An A/A run (--same): the before kernel on both sides, its own files,
# no verdict against a published figure.
"$BENCH" experiment seed003 --quick --same --out "$out" >"$TMP/aa.log" 2>&1 ||
	fail "experiment seed003 --same: $(tail -n 20 "$TMP/aa.log")"
[ -s "$out/seed003-aa.tsv" ] || fail "no seed003-aa.tsv"
grep -q "A/A (before on both sides)" "$TMP/aa.log" || fail "the A/A run does not say so"
awk -F '\t' 'NR > 1 && ($15 != "-" || $16 ~ /reproduced|same direction|differs/) { exit 1 }' \
	"$out/seed003-aa.tsv" || fail "seed003-aa.tsv has a verdict"
# --battery: the standard battery for a patch with its own experiment, in
# its own files, the battery's rows and not the experiment's.
"$BENCH" experiment seed003 --quick --battery --out "$out" >"$TMP/battery.log" 2>&1 ||
	fail "experiment seed003 --battery: $(tail -n 20 "$TMP/battery.log")"
grep -q "the standard battery" "$TMP/battery.log" || fail "the battery run does not say so"
for row in "daemon us per memory.stat read of a busy parent, 64 CPUs" \
	"reader ms per root memory.numa_stat read, 1000 memcgs" \
	"workers' CPU ns per page event, 8 CPUs, no reader"; do
	awk -F '\t' -v m="$row" '$2 == m { ok = 1 } END { exit !ok }' "$out/seed003-battery.tsv" ||
		fail "seed003-battery.tsv: no '$row'"
done
grep -q "identical text" "$out/seed003-battery.tsv" && fail "the battery ran seed003's own experiment"
echo "PASS: fs-experiments"
