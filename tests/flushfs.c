/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: the smallest FUSE server whose files the kernel FLUSHes.
 *
 *   flushfs -f [-o allow_other] MOUNTPOINT
 *
 * One empty file, MOUNTPOINT/f.  Unlike memcgfs's (noflush), its opens ask
 * for a FLUSH at every close, which it answers, one request at a time: a
 * close of one of its files by anyone waits for this process, and waits
 * for ever while it is stopped (SIGSTOP).  tests/fs-hostile.sh hands such a
 * file to memcgfs, which must never close it on a request's path. */
#define FUSE_USE_VERSION 314
#include <errno.h>
#include <fuse_lowlevel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_INO 2

static int stat_of(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_uid = getuid();
	st->st_gid = getgid();
	if (ino == FUSE_ROOT_ID) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (ino == FILE_INO) {
		st->st_mode = S_IFREG | 0644;
		st->st_nlink = 1;
	} else {
		return -1;
	}
	return 0;
}

static void ff_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e = { .ino = FILE_INO, .attr_timeout = 1, .entry_timeout = 1 };

	if (parent != FUSE_ROOT_ID || strcmp(name, "f")) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	stat_of(FILE_INO, &e.attr);
	fuse_reply_entry(req, &e);
}

static void ff_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (stat_of(ino, &st))
		fuse_reply_err(req, ENOENT);
	else
		fuse_reply_attr(req, &st, 1);
}

static void ff_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (ino != FILE_INO) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	fi->noflush = 0;
	fuse_reply_open(req, fi);
}

static void ff_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	(void)ino;
	(void)size;
	(void)off;
	(void)fi;
	fuse_reply_buf(req, NULL, 0);
}

static void ff_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static const struct fuse_lowlevel_ops ops = {
	.lookup = ff_lookup,
	.getattr = ff_getattr,
	.open = ff_open,
	.read = ff_read,
	.flush = ff_flush,
};

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts opts;
	struct fuse_session *se;
	int ret = 1;

	if (fuse_parse_cmdline(&args, &opts) != 0 || !opts.mountpoint) {
		fprintf(stderr, "usage: flushfs -f [-o allow_other] MOUNTPOINT\n");
		return 2;
	}
	se = fuse_session_new(&args, &ops, sizeof(ops), NULL);
	if (se && fuse_set_signal_handlers(se) == 0) {
		if (fuse_session_mount(se, opts.mountpoint) == 0) {
			ret = fuse_session_loop(se) ? 1 : 0;
			fuse_session_unmount(se);
		}
		fuse_remove_signal_handlers(se);
	}
	if (se)
		fuse_session_destroy(se);
	free(opts.mountpoint);
	fuse_opt_free_args(&args);
	return ret;
}
