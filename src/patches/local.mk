# SPDX-License-Identifier: GPL-2.0-or-later
# Patches to the statistics machinery, one file each (src/patches/patches.h):
# a delta on its base kernel and its experiment.  Adding a patch is adding
# its file and its one line here; the registry, src/patches/list.h, is made
# from this list.
MCG_PATCHES = \
	src/patches/seed000.c \
	src/patches/seed001.c \
	src/patches/seed002.c \
	src/patches/seed003.c \
	src/patches/seed004.c \
	src/patches/flush-only-if-updated.c \
	src/patches/per-memcg-threshold.c \
	$(NULL)

# Above the library (a patch's experiment drives daemons) and below the
# programs: the daemon mounts a patch, memcgfs-bench runs its experiment.
noinst_LIBRARIES += libpatches.a
libpatches_a_SOURCES = \
	src/patches/patches.h \
	src/patches/patches.c \
	src/experiment/experiment.h \
	src/experiment/stats.c \
	src/experiment/daemon.c \
	src/experiment/pairs.c \
	src/experiment/report.c \
	src/experiment/battery.c \
	$(MCG_PATCHES) \
	$(NULL)
nodist_libpatches_a_SOURCES = src/patches/list.h
LIBPATCHES = libpatches.a $(LIBMEMCGFS)

# One MCG_PATCH(symbol) per file of MCG_PATCHES: its stem, '-' as '_'.
src/patches/list.h: $(srcdir)/src/patches/local.mk
	$(AM_V_GEN)$(MKDIR_P) src/patches && \
	for f in $(MCG_PATCHES); do \
		n=$${f##*/}; printf 'MCG_PATCH(%s)\n' "$${n%.c}" | tr - _; \
	done >$@.tmp && mv $@.tmp $@
BUILT_SOURCES += src/patches/list.h
# Also for a make of one program, which BUILT_SOURCES does not cover.
src/patches/patches.$(OBJEXT): src/patches/list.h
CLEANFILES += src/patches/list.h
