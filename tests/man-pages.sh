#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages format for an 80-column terminal, man's width, without a
# warning from groff (tables laid out, -ww: every warning), such as a
# table wider than the line.
: "${top_srcdir:=.}"
command -v groff >/dev/null 2>&1 || { echo "SKIP: no groff"; exit 77; }
status=0
for f in "$top_srcdir"/man/*.[18]; do
	w=$(groff -t -man -Tutf8 -rLL=78n -ww -z "$f" 2>&1)
	if [ -n "$w" ]; then
		echo "FAIL: groff warns about ${f#"$top_srcdir"/}:" >&2
		echo "$w" >&2
		status=1
	fi
done
[ "$status" -eq 0 ] && echo "PASS: man-pages"
exit "$status"
