# SPDX-License-Identifier: GPL-2.0-or-later
# memcgfs-run: a bash script, made from its .in with the installed memcgfs's
# path (the tests point it at the build tree's with MEMCGFS=).
bin_SCRIPTS = memcgfs-run
# memcgfs-fixture: a hierarchy's files to a directory of plain files.
dist_bin_SCRIPTS = src/run/memcgfs-fixture
CLEANFILES += memcgfs-run
EXTRA_DIST += src/run/memcgfs-run.in
memcgfs-run: $(top_srcdir)/src/run/memcgfs-run.in Makefile
	$(AM_V_GEN)sed -e 's|@bindir[@]|$(bindir)|g' $(top_srcdir)/src/run/memcgfs-run.in > $@.tmp && \
		chmod +x $@.tmp && mv $@.tmp $@
dist_man_MANS += man/memcgfs-run.1 man/memcgfs-fixture.1

# cgget (cgroup-tools) and, where installed, the JVM and runc under
# memcgfs-run.
TESTS += tests/fs-run.sh tests/fs-fixture.sh tests/fs-runc.sh
dist_check_SCRIPTS += tests/fs-run.sh tests/fs-fixture.sh tests/fs-runc.sh
