# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark scripts and helpers.
noinst_PROGRAMS += contrib/memcgfs-constfs
contrib_memcgfs_constfs_SOURCES = contrib/constfs.c
contrib_memcgfs_constfs_CFLAGS = $(AM_CFLAGS) $(FUSE_CFLAGS)
contrib_memcgfs_constfs_LDADD = $(FUSE_LIBS) $(GLIB_LIBS) $(PTHREAD_LIBS)

EXTRA_DIST += contrib/bench-read-1000.sh contrib/bench-workload.sh
# The bench's argument checks (no mount, nothing under /sys).
TESTS += tests/bench-read-args.sh
dist_check_SCRIPTS += tests/bench-read-args.sh
