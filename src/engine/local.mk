# SPDX-License-Identifier: GPL-2.0-or-later
libmemcgfs_a_SOURCES += \
	src/engine/engine.h \
	src/engine/internal.h \
	src/engine/rstat.h \
	src/engine/rstat.c \
	src/engine/rstat-llist.c \
	src/engine/rstat-locked.c \
	src/engine/cgroup.c \
	src/engine/memcg.c \
	src/engine/memcg-batched.c \
	src/engine/flush.h \
	src/engine/flush-per-memcg.c \
	src/engine/flush-global.c \
	src/engine/counter.c \
	src/engine/charge.c \
	src/engine/objcg.c \
	src/engine/percpu.c \
	src/engine/basestat.c \
	src/engine/iostat.c \
	src/engine/engine.c \
	src/engine/accuracy.c \
	src/engine/trace.c \
	src/engine/lockstat.h \
	src/engine/lockstat.c \
	$(NULL)
