# SPDX-License-Identifier: GPL-2.0-or-later
# What each modelled kernel is: item tables and layouts, one file per era
# with its choice of mechanisms (the patches on top are src/patches/).
# Pure data and small choosers, below the engine: no threads, no FUSE.
libmemcgfs_a_SOURCES += \
	src/kernel/items.h \
	src/kernel/items.c \
	src/kernel/kernel.h \
	src/kernel/eras.h \
	src/kernel/kernel.c \
	src/kernel/era-5.10.c \
	src/kernel/era-6.1.c \
	src/kernel/era-6.12.c \
	src/kernel/era-7.3.c \
	$(NULL)
