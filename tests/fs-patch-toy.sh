#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A patch is one file and one line: a copy of the sources gains a toy patch
# (7.3 with half the flush threshold, no experiment of its own) in
# src/patches/toy-threshold.c and its line in src/patches/local.mk, and
# nothing else; built, it is listed, mounts with --patch, and its standard
# battery runs with --quick into a well-formed TSV.  No timing is asserted.
. "${top_srcdir:-.}/tests/fs-lib.sh"

command -v autoreconf >/dev/null 2>&1 || skip "no autoreconf"
"$top_srcdir/.ci/copy-source" "$TMP/orig" || fail "copy the sources"
"$top_srcdir/.ci/copy-source" "$TMP/src" || fail "copy the sources"
cat >"$TMP/src/src/patches/toy-threshold.c" <<'EOF'
/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A toy patch, tests/fs-patch-toy.sh's fixture: 7.3 with half the memcg
 * flush threshold.  No experiment of its own: the standard battery. */
#include "patches/patches.h"

static void toy_after(struct mcg_kernel *k)
{
	k->flush_threshold_pct = 50;
}

const struct mcg_patch mcg_patch_toy_threshold = {
	.name = "toy-threshold",
	.base = "7.3",
	.title = "toy: half the memcg flush threshold",
	.upstream = "none: a test's fixture",
	.before_help = "7.3",
	.after_help = "7.3 with half the flush threshold",
	.after = toy_after,
};
EOF
sed -i 's|^\tsrc/patches/seed000.c \\$|&\n\tsrc/patches/toy-threshold.c \\|' \
	"$TMP/src/src/patches/local.mk"
# The whole change: one new file, one line.
(cd "$TMP" && diff -r orig src) >"$TMP/diff"
expect "files added" "$(grep -c '^Only in' "$TMP/diff")" 1
grep -q "^Only in src/src/patches: toy-threshold.c$" "$TMP/diff" || fail "$(cat "$TMP/diff")"
expect "lines changed" "$(grep -c '^[<>]' "$TMP/diff")" 1
grep -q '^> 	src/patches/toy-threshold.c \\$' "$TMP/diff" || fail "$(cat "$TMP/diff")"

(cd "$TMP/src" && ./autogen.sh >/dev/null 2>&1) || fail "autogen.sh"
mkdir "$TMP/build"
(cd "$TMP/build" && "$TMP/src/configure" -q && make -s -j2 memcgfs memcgfs-bench) \
	>"$TMP/build.log" 2>&1 || fail "build with the toy: $(tail -n 20 "$TMP/build.log")"
BENCH=$TMP/build/memcgfs-bench
MEMCGFS=$TMP/build/memcgfs
export MEMCGFS

"$BENCH" experiment --list >"$TMP/list" || fail "experiment --list"
grep -q "^toy-threshold$" "$TMP/list" || fail "toy-threshold not listed"
grep -A6 "^toy-threshold$" "$TMP/list" | grep -q "experiment: the standard battery" ||
	fail "toy-threshold's experiment: $(grep -A6 '^toy-threshold$' "$TMP/list")"
"$MEMCGFS" --help | grep -q "toy-threshold on 7.3" || fail "toy-threshold not in --help"
mount_fs "$TMP/m" --patch=toy-threshold
[ -r "$TMP/m/memory.stat" ] || fail "toy-threshold: no memory.stat"
fusermount3 -u "$TMP/m" || fail "umount"
wait "$FS_PID"

"$BENCH" experiment toy-threshold --quick --out "$TMP/out" >"$TMP/log" 2>&1 ||
	fail "experiment toy-threshold --quick: $(tail -n 20 "$TMP/log")"
tsv=$TMP/out/toy-threshold.tsv
[ -s "$tsv" ] || fail "no $tsv"
# The battery's rows, each from pairs of both sides; no figure published,
# so no headline and no verdict but "no published figure".
for m in "daemon us per memory.stat read of a busy parent, 64 CPUs" \
	 "flush callbacks per memory.stat read, 64 CPUs" \
	 "error of a read, p99 of the largest, pages, 64 CPUs" \
	 "age of a read's data, median, ms, 64 CPUs" \
	 "reader ms per root memory.numa_stat read, 1000 memcgs" \
	 "workers' CPU ns per page event, 8 CPUs, no reader" \
	 "us per periodic flush, 100 busy memcgs at 64 CPUs (500 ms period)"; do
	awk -F '\t' -v m="$m" '$2 == m && $1 == "toy-threshold" && $13 > 0 &&
		$4 ~ /^[0-9.e+-]+$/ && $5 ~ /^[0-9.e+-]+$/ { ok = 1 } END { exit !ok }' "$tsv" ||
		fail "no row '$m': $(cat "$tsv")"
done
awk -F '\t' 'NR > 1 && ($2 ~ /^headline: / || $16 !~ /^no published figure/) { exit 1 }' \
	"$tsv" || fail "a headline or verdict without a published figure"
echo "PASS: fs-patch-toy"
