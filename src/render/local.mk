# SPDX-License-Identifier: GPL-2.0-or-later
# Renderers: v2, v1 and numa_stat text over the engine's counters.
libmemcgfs_a_SOURCES += \
	src/render/format.h \
	src/render/format.c \
	src/render/format_v1.h \
	src/render/format_v1.c \
	$(NULL)

# Item tables and renderers, against real engines and the kernel's golden output.
if HAVE_CHECK
check_PROGRAMS += tests/check_format
tests_check_format_SOURCES = tests/check_format.c
tests_check_format_CFLAGS = $(TEST_CFLAGS)
tests_check_format_LDADD = $(TEST_LDADD)
TESTS += tests/check_format
endif

EXTRA_DIST += \
	tests/golden/README.md \
	tests/golden/v1-empty-memcg.memory.stat \
	tests/golden/v1-empty-memcg.memory.numa_stat \
	tests/golden/v1-root.memory.stat \
	tests/golden/v1-root.memory.numa_stat \
	tests/golden/derive.sh \
	tests/golden/kernels \
	$(NULL)
