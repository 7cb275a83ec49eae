/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memcgfs-constfs: the speed reference for memcgfs, a minimal FUSE daemon
 * that serves one constant text in every file of a flat tree of directories.
 *
 * It answers the same kernel requests memcgfs answers for `cat dir/file`
 * (LOOKUP, OPEN, READ, RELEASE) with the least work a FUSE daemon can do:
 * no statistics, no rendering, no per-open buffer.  Whatever time memcgfs
 * spends above this daemon on the same tree is the cost of the emulation.
 *
 * The tree: the root holds directories made with mkdir (flat, never
 * removed until unmount); each directory holds the files named in
 * -o names=FILE (one a line; default: memory.stat), all with the text of
 * -o text=FILE (default: an empty v1 memcg's memory.stat).
 *
 * Three ways to serve a file, chosen by -o pagecache and -o keep_cache:
 *  - default: the files report size 0, as cgroupfs files do, and are opened
 *    with direct I/O, so every read reaches the daemon (what memcgfs must do
 *    to serve size-0 files whose text changes): OPEN, READ, READ at EOF;
 *  - pagecache: the files report their real size and reads go through the
 *    page cache, emptied at each open (one READ per open; the read at EOF
 *    is answered by the kernel);
 *  - pagecache,keep_cache: the page cache is kept across opens, so a file
 *    read once is read again with no READ at all: OPEN is the only request
 *    a reader waits for, the floor of any FUSE daemon that opens files.
 *
 * Both use the same caching as memcgfs: long entry and attribute timeouts,
 * no FLUSH on close, READDIRPLUS, a bounded multi-threaded loop.
 */
#define FUSE_USE_VERSION 314

#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <glib.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Inode numbers: 1 is the root; directory d (0-based) is (d + 1) << 8 and
 * its file f is ((d + 1) << 8) | (f + 1).  Nothing is ever freed before
 * unmount, so lookup counts need no bookkeeping. */
#define CONST_FILE_BITS 8
#define CONST_MAX_FILES ((1u << CONST_FILE_BITS) - 1)

struct constfs {
	char *text;		/* immutable after start */
	size_t text_len;
	char **names;		/* file names of a directory, immutable */
	unsigned nr_names;
	bool pagecache;
	bool keep_cache;	/* with pagecache */
	unsigned max_read;	/* -o max_read, repeated in init as libfuse requires */
	double timeout;
	struct timespec start;

	pthread_mutex_t lock;
	GPtrArray *dirs;	/* char * names; protected by lock */
	GHashTable *by_name;	/* name -> index + 1; protected by lock */
};

static const char default_text[] =
	"cache 0\nrss 0\nrss_huge 0\nshmem 0\nmapped_file 0\ndirty 0\nwriteback 0\n"
	"workingset_refault_anon 0\nworkingset_refault_file 0\nswap 0\nswapcached 0\n"
	"pgpgin 0\npgpgout 0\npgfault 0\npgmajfault 0\ninactive_anon 0\nactive_anon 0\n"
	"inactive_file 0\nactive_file 0\nunevictable 0\n"
	"hierarchical_memory_limit 9223372036854771712\n"
	"hierarchical_memsw_limit 9223372036854771712\n"
	"total_cache 0\ntotal_rss 0\ntotal_rss_huge 0\ntotal_shmem 0\ntotal_mapped_file 0\n"
	"total_dirty 0\ntotal_writeback 0\ntotal_workingset_refault_anon 0\n"
	"total_workingset_refault_file 0\ntotal_swap 0\ntotal_swapcached 0\ntotal_pgpgin 0\n"
	"total_pgpgout 0\ntotal_pgfault 0\ntotal_pgmajfault 0\ntotal_inactive_anon 0\n"
	"total_active_anon 0\ntotal_inactive_file 0\ntotal_active_file 0\n"
	"total_unevictable 0\n";

static struct constfs *cfs(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static void const_stat(struct constfs *c, fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_atim = st->st_mtim = st->st_ctim = c->start;
	st->st_blksize = 4096;
	if (ino == FUSE_ROOT_ID || (ino & CONST_MAX_FILES) == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = c->pagecache ? (off_t)c->text_len : 0;
	}
}

/* Index + 1 of directory `name`, or 0. */
static unsigned const_dir_find(struct constfs *c, const char *name)
{
	pthread_mutex_lock(&c->lock);
	unsigned i = GPOINTER_TO_UINT(g_hash_table_lookup(c->by_name, name));
	pthread_mutex_unlock(&c->lock);
	return i;
}

static void const_reply_entry(fuse_req_t req, fuse_ino_t ino)
{
	struct constfs *c = cfs(req);
	struct fuse_entry_param e = {
		.ino = ino,
		.attr_timeout = c->timeout,
		.entry_timeout = c->timeout,
	};

	const_stat(c, ino, &e.attr);
	fuse_reply_entry(req, &e);
}

static void const_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct constfs *c = cfs(req);

	if (parent == FUSE_ROOT_ID) {
		unsigned d = const_dir_find(c, name);
		if (d) {
			const_reply_entry(req, (fuse_ino_t)d << CONST_FILE_BITS);
			return;
		}
	} else if ((parent & CONST_MAX_FILES) == 0) {
		for (unsigned f = 0; f < c->nr_names; f++) {
			if (strcmp(c->names[f], name) == 0) {
				const_reply_entry(req, parent | (f + 1));
				return;
			}
		}
	}
	fuse_reply_err(req, ENOENT);
}

static void const_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct constfs *c = cfs(req);
	struct stat st;

	const_stat(c, ino, &st);
	fuse_reply_attr(req, &st, c->timeout);
}

static void const_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	struct constfs *c = cfs(req);
	unsigned d;

	if (parent != FUSE_ROOT_ID) {
		fuse_reply_err(req, EPERM);
		return;
	}
	pthread_mutex_lock(&c->lock);
	if (g_hash_table_contains(c->by_name, name)) {
		pthread_mutex_unlock(&c->lock);
		fuse_reply_err(req, EEXIST);
		return;
	}
	char *copy = g_strdup(name);
	g_ptr_array_add(c->dirs, copy);
	d = c->dirs->len;
	g_hash_table_insert(c->by_name, copy, GUINT_TO_POINTER(d));
	pthread_mutex_unlock(&c->lock);
	const_reply_entry(req, (fuse_ino_t)d << CONST_FILE_BITS);
}

static void const_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct constfs *c = cfs(req);

	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EACCES);
		return;
	}
	fi->direct_io = !c->pagecache;
	fi->keep_cache = c->pagecache && c->keep_cache;
	fi->noflush = 1;
	fuse_reply_open(req, fi);
}

static void const_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct constfs *c = cfs(req);

	if ((size_t)off >= c->text_len)
		fuse_reply_buf(req, NULL, 0);
	else
		fuse_reply_buf(req, c->text + off, MIN(size, c->text_len - (size_t)off));
}

/* Directory listing: ".", "..", then the entries, offsets 1, 2, ... */
static void const_readdir_common(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
				 bool plus)
{
	struct constfs *c = cfs(req);
	g_autofree char *buf = g_malloc(size);
	size_t pos = 0;
	unsigned nr = ino == FUSE_ROOT_ID ? 0 : c->nr_names;

	if (ino == FUSE_ROOT_ID) {
		pthread_mutex_lock(&c->lock);
		nr = c->dirs->len;
		pthread_mutex_unlock(&c->lock);
	}
	for (off_t i = off; i < (off_t)nr + 2; i++) {
		const char *name;
		fuse_ino_t child;
		struct fuse_entry_param e = { .attr_timeout = c->timeout,
					      .entry_timeout = c->timeout };
		size_t len;

		if (i == 0) {
			name = ".";
			child = ino;
		} else if (i == 1) {
			name = "..";
			child = FUSE_ROOT_ID;
		} else if (ino == FUSE_ROOT_ID) {
			pthread_mutex_lock(&c->lock);
			name = g_ptr_array_index(c->dirs, i - 2);
			pthread_mutex_unlock(&c->lock);
			child = (fuse_ino_t)(i - 1) << CONST_FILE_BITS;
		} else {
			name = c->names[i - 2];
			child = ino | (fuse_ino_t)(i - 1);
		}
		e.ino = child;
		const_stat(c, child, &e.attr);
		if (plus && i >= 2)
			len = fuse_add_direntry_plus(req, buf + pos, size - pos, name, &e, i + 1);
		else if (plus) {
			/* "." and ".." carry no entry: no lookup count taken. */
			struct fuse_entry_param dot = { .attr = e.attr };
			len = fuse_add_direntry_plus(req, buf + pos, size - pos, name, &dot, i + 1);
		} else
			len = fuse_add_direntry(req, buf + pos, size - pos, name, &e.attr, i + 1);
		if (len > size - pos)
			break;
		pos += len;
	}
	fuse_reply_buf(req, buf, pos);
}

static void const_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			  struct fuse_file_info *fi)
{
	const_readdir_common(req, ino, size, off, false);
}

static void const_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			      struct fuse_file_info *fi)
{
	const_readdir_common(req, ino, size, off, true);
}

static void const_init(void *userdata, struct fuse_conn_info *conn)
{
	struct constfs *c = userdata;

	if (c->max_read)
		conn->max_read = c->max_read;
	if (conn->capable & FUSE_CAP_READDIRPLUS)
		conn->want |= FUSE_CAP_READDIRPLUS;
	conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
	if (conn->capable & FUSE_CAP_PARALLEL_DIROPS)
		conn->want |= FUSE_CAP_PARALLEL_DIROPS;
}

static const struct fuse_lowlevel_ops const_ops = {
	.init = const_init,
	.lookup = const_lookup,
	.getattr = const_getattr,
	.mkdir = const_mkdir,
	.open = const_open,
	.read = const_read,
	.readdir = const_readdir,
	.readdirplus = const_readdirplus,
};

struct const_opts {
	unsigned max_read;
	char *text;
	char *names;
	int pagecache;
	int keep_cache;
};

static const struct fuse_opt const_opt_spec[] = {
	{ "text=%s", offsetof(struct const_opts, text), 0 },
	{ "names=%s", offsetof(struct const_opts, names), 0 },
	{ "pagecache", offsetof(struct const_opts, pagecache), 1 },
	{ "keep_cache", offsetof(struct const_opts, keep_cache), 1 },
	/* kept for fuse_session_new() too (FUSE_OPT_KEEP via the -1 value) */
	{ "max_read=%u", offsetof(struct const_opts, max_read), 0 },
	FUSE_OPT_KEY("max_read=", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_END
};

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts opts = { 0 };
	struct const_opts copts = { 0 };
	struct constfs c = { .timeout = 86400.0 };
	struct fuse_session *se;
	struct fuse_loop_config *loop;
	int ret = 1;

	if (fuse_parse_cmdline(&args, &opts) != 0 ||
	    fuse_opt_parse(&args, &copts, const_opt_spec, NULL) == -1)
		return 2;
	if (opts.show_help || !opts.mountpoint) {
		printf("usage: %s [-f] [-o text=FILE,names=FILE,pagecache,keep_cache] MOUNTPOINT\n", argv[0]);
		fuse_cmdline_help();
		ret = opts.show_help ? 0 : 2;
		goto out_args;
	}
	if (copts.text) {
		GError *err = NULL;
		if (!g_file_get_contents(copts.text, &c.text, &c.text_len, &err)) {
			fprintf(stderr, "%s: %s\n", argv[0], err->message);
			g_error_free(err);
			ret = 2;
			goto out_args;
		}
	} else {
		c.text = g_strdup(default_text);
		c.text_len = strlen(default_text);
	}
	if (copts.names) {
		g_autofree char *all = NULL;
		if (!g_file_get_contents(copts.names, &all, NULL, NULL)) {
			fprintf(stderr, "%s: cannot read %s\n", argv[0], copts.names);
			ret = 2;
			goto out_text;
		}
		g_strchomp(all);
		c.names = g_strsplit(all, "\n", -1);
	} else {
		c.names = g_strsplit("memory.stat", "\n", -1);
	}
	c.nr_names = g_strv_length(c.names);
	if (c.nr_names > CONST_MAX_FILES - 1) {
		fprintf(stderr, "%s: too many names\n", argv[0]);
		ret = 2;
		goto out_names;
	}
	c.pagecache = copts.pagecache;
	c.keep_cache = copts.keep_cache;
	c.max_read = copts.max_read;
	clock_gettime(CLOCK_REALTIME, &c.start);
	pthread_mutex_init(&c.lock, NULL);
	c.dirs = g_ptr_array_new_with_free_func(g_free);
	c.by_name = g_hash_table_new(g_str_hash, g_str_equal);

	se = fuse_session_new(&args, &const_ops, sizeof(const_ops), &c);
	if (!se)
		goto out_tree;
	if (fuse_set_signal_handlers(se) != 0)
		goto out_session;
	if (fuse_session_mount(se, opts.mountpoint) != 0)
		goto out_signals;
	fuse_daemonize(opts.foreground);

	loop = fuse_loop_cfg_create();
	fuse_loop_cfg_set_max_threads(loop, opts.max_threads ? opts.max_threads : 8);
	if (opts.max_idle_threads != UINT_MAX)
		fuse_loop_cfg_set_idle_threads(loop, opts.max_idle_threads);
	ret = fuse_session_loop_mt(se, loop) < 0 ? 1 : 0;
	fuse_loop_cfg_destroy(loop);

	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out_session:
	fuse_session_destroy(se);
out_tree:
	g_hash_table_destroy(c.by_name);
	g_ptr_array_free(c.dirs, TRUE);
	pthread_mutex_destroy(&c.lock);
out_names:
	g_strfreev(c.names);
out_text:
	g_free(c.text);
out_args:
	free(opts.mountpoint);
	free(copts.text);
	free(copts.names);
	fuse_opt_free_args(&args);
	return ret;
}
