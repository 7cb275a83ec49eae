# SPDX-License-Identifier: GPL-2.0-or-later
libmemcgfs_a_SOURCES += \
	src/workload/workload.h \
	src/workload/internal.h \
	src/workload/profile.c \
	src/workload/psi.c \
	src/workload/ledger.c \
	src/workload/workload.c \
	src/workload/css.c \
	src/workload/host-group.c \
	$(NULL)
