# What each modelled kernel is: item tables and layouts, eras and seed patches.
# Pure data and small choosers, below the engine: no threads, no FUSE.
libmemcgfs_a_SOURCES += \
	src/kernel/items.h \
	src/kernel/items.c \
	$(NULL)
