# SPDX-License-Identifier: GPL-2.0-or-later
# Check suites: one program per module, each linking libmemcgfs.a (and the
# patches above it).
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
TEST_LDADD = $(LIBPATCHES) $(CHECK_LIBS)
AM_TESTS_ENVIRONMENT = CK_DEFAULT_TIMEOUT=60 top_builddir=$(top_builddir) top_srcdir=$(top_srcdir); export CK_DEFAULT_TIMEOUT top_builddir top_srcdir;

if HAVE_CHECK
check_PROGRAMS += tests/check_engine
tests_check_engine_SOURCES = tests/check_engine.c tests/helpers.h
tests_check_engine_CFLAGS = $(TEST_CFLAGS)
tests_check_engine_LDADD = $(TEST_LDADD)
TESTS += tests/check_engine

check_PROGRAMS += tests/check_rstat
tests_check_rstat_SOURCES = tests/check_rstat.c
tests_check_rstat_CFLAGS = $(TEST_CFLAGS)
tests_check_rstat_LDADD = $(TEST_LDADD)
TESTS += tests/check_rstat

check_PROGRAMS += tests/check_workload
tests_check_workload_SOURCES = tests/check_workload.c
tests_check_workload_CFLAGS = $(TEST_CFLAGS)
tests_check_workload_LDADD = $(TEST_LDADD)
TESTS += tests/check_workload

check_PROGRAMS += tests/check_host
tests_check_host_SOURCES = tests/check_host.c
tests_check_host_CFLAGS = $(TEST_CFLAGS)
tests_check_host_LDADD = $(TEST_LDADD)
TESTS += tests/check_host
else
# configure found no Check: one test says so, the mount tests still run.
TESTS += tests/no-check.sh
endif
dist_check_SCRIPTS += tests/no-check.sh

# contrib/install-deps.sh against a fake apt: lock wait, non-root, flags.
TESTS += tests/install-deps.sh
dist_check_SCRIPTS += tests/install-deps.sh

# The man pages format without a groff warning (a table wider than 80
# columns).
TESTS += tests/man-pages.sh
dist_check_SCRIPTS += tests/man-pages.sh
