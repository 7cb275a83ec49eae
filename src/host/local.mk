# SPDX-License-Identifier: GPL-2.0-or-later
# Host processes placed in emulated cgroups (no FUSE: the fs places them).
libmemcgfs_a_SOURCES += \
	src/host/host.h \
	src/host/internal.h \
	src/host/host.c \
	src/host/shadow.c \
	$(NULL)
