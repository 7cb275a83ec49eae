# SPDX-License-Identifier: GPL-2.0-or-later
# FUSE daemon: src/fs is the only code that includes fuse_lowlevel.h.
bin_PROGRAMS += memcgfs
memcgfs_SOURCES = \
	src/main.c \
	src/fs/fs.h \
	src/fs/internal.h \
	src/fs/fs.c \
	src/fs/files.c \
	src/fs/notify.c \
	src/fs/inotify.c \
	src/fs/options.c \
	src/fs/parse.c \
	src/fs/state.c \
	$(NULL)
memcgfs_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)
memcgfs_CFLAGS = $(AM_CFLAGS) $(FUSE_CFLAGS)
memcgfs_LDADD = $(LIBPATCHES) $(FUSE_LIBS)

dist_man_MANS += man/memcgfs.8

# Shell tests that mount (skipped with 77 where /dev/fuse is unusable).
check_PROGRAMS += tests/seqread
tests_seqread_SOURCES = tests/seqread.c
# A FUSE server whose closes wait for it (tests/fs-hostile.sh).
# A host process whose memory and threads tests/fs-host-tasks.sh drives:
# built without the sanitizers, whose shadow memory would move its RSS.
check_PROGRAMS += tests/hosttask
tests_hosttask_SOURCES = tests/hosttask.c
tests_hosttask_CFLAGS = -std=gnu11 $(MCG_WARN_CFLAGS) $(PTHREAD_CFLAGS)
tests_hosttask_LDFLAGS = $(PTHREAD_CFLAGS)

check_PROGRAMS += tests/flushfs
tests_flushfs_SOURCES = tests/flushfs.c
tests_flushfs_CFLAGS = $(AM_CFLAGS) $(FUSE_CFLAGS)
tests_flushfs_LDADD = $(FUSE_LIBS)

FS_TESTS = \
	tests/fs-mount.sh \
	tests/fs-tree.sh \
	tests/fs-files.sh \
	tests/fs-golden.sh \
	tests/fs-errors.sh \
	tests/fs-write.sh \
	tests/fs-parity.sh \
	tests/fs-iocost.sh \
	tests/fs-notify.sh \
	tests/fs-seqread.sh \
	tests/fs-pagecache.sh \
	tests/fs-churn.sh \
	tests/fs-signal.sh \
	tests/fs-workload.sh \
	tests/fs-repeatable.sh \
	tests/fs-install.sh \
	tests/fs-reclaim.sh \
	tests/fs-memcss.sh \
	tests/fs-objects.sh \
	tests/fs-rootstat.sh \
	tests/fs-hostile.sh \
	tests/fs-host-tasks.sh \
	tests/fs-host-cgroup.sh \
	tests/fs-threaded.sh \
	$(NULL)
TESTS += $(FS_TESTS)
dist_check_SCRIPTS += $(FS_TESTS) tests/fs-lib.sh
# The chosen state of tests/fs-repeatable.sh and the man page's example.
EXTRA_DIST += tests/repeatable/README.md tests/repeatable/job-7.3.memory.stat \
	tests/repeatable/job-7.3.memory.numa_stat tests/repeatable/job-7.3.memory.events
