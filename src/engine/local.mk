libmemcgfs_a_SOURCES += \
	src/engine/engine.h \
	src/engine/internal.h \
	src/engine/rstat.h \
	src/engine/rstat.c \
	src/engine/cgroup.c \
	src/engine/memcg.c \
	src/engine/counter.c \
	src/engine/basestat.c \
	src/engine/iostat.c \
	src/engine/engine.c \
	$(NULL)
