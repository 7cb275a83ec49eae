# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark scripts and helpers.
noinst_PROGRAMS += contrib/memcgfs-constfs
contrib_memcgfs_constfs_SOURCES = contrib/constfs.c
contrib_memcgfs_constfs_CFLAGS = $(AM_CFLAGS) $(FUSE_CFLAGS)
contrib_memcgfs_constfs_LDADD = $(FUSE_LIBS) $(GLIB_LIBS) $(PTHREAD_LIBS)

EXTRA_DIST += contrib/bench-read-1000.sh contrib/bench-workload.sh contrib/bench-hotpath-ab.sh \
	contrib/stress-hostile.sh \
	contrib/bench-hier.sh \
	contrib/selftests.sh contrib/noclone3.c

# The kernel's memory-controller selftests, unmodified, against a v2 mount
# under memcgfs-run: `make check-selftests KSRC=DIR [HOST_CGROUP=DIR]`,
# DIR a kernel tree (as root; README, "The kernel's selftests").
check-selftests: all
	@test -n "$(KSRC)" || { echo "make check-selftests KSRC=DIR (a kernel tree)" >&2; exit 2; }
	hc="$(HOST_CGROUP)"; $(SHELL) $(top_srcdir)/contrib/selftests.sh \
		--builddir "$(abs_top_builddir)" --ksrc "$(KSRC)" $${hc:+--host-cgroup "$$hc"}
.PHONY: check-selftests

# systemd units: a template service (Restart=on-failure) and a mount unit.
systemdsystemunit_DATA = contrib/memcgfs@.service contrib/mnt-memcgfs.mount
contrib/memcgfs@.service: $(top_srcdir)/contrib/memcgfs@.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) contrib && sed -e 's|@bindir[@]|$(bindir)|g' $(top_srcdir)/contrib/memcgfs@.service.in >$@
CLEANFILES += contrib/memcgfs@.service
EXTRA_DIST += contrib/memcgfs@.service.in contrib/mnt-memcgfs.mount
# distcheck installs under its own prefix, not in the system's unit dir.
AM_DISTCHECK_CONFIGURE_FLAGS = --with-systemdsystemunitdir=$$dc_install_base/$(systemdsystemunitdir)
# The bench's argument checks (no mount, nothing under /sys).
TESTS += tests/bench-read-args.sh
dist_check_SCRIPTS += tests/bench-read-args.sh
# contrib/bench-hotpath-ab.sh's refusals and arithmetic, on fake builds.
TESTS += tests/bench-hotpath-ab.sh
dist_check_SCRIPTS += tests/bench-hotpath-ab.sh
