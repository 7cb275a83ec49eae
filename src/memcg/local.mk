libmemcgfs_a_SOURCES += \
	src/memcg/items.h \
	src/memcg/items.c \
	src/memcg/format.h \
	src/memcg/format.c \
	src/memcg/format_v1.c \
	$(NULL)
