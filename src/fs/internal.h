/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private types of the file system, shared by fs.c (FUSE operations and
 * inode lifetime), files.c (the file tables and their handlers), parse.c
 * (the kernel's number parsers) and options.c (the command line). */
#ifndef MEMCGFS_FS_INTERNAL_H
#define MEMCGFS_FS_INTERNAL_H

#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "engine/engine.h"
#include "fs/fs.h"

struct fuse_session;

/* ---- Files ----------------------------------------------------------------
 *
 * Every file of a cgroup directory is one row of a table, one table per
 * hierarchy (files.c).  A row says where the file exists, its mode, and the
 * two functions behind it: show() renders the whole text for a read (the
 * kernel's seq_show), write() takes one write (the kernel's cftype write).
 * One function per control file, so a later layer can take over a single
 * file (memory.max reclaiming, memory.reclaim, memory.force_empty) by
 * replacing one row.  Emulator-only files (memcgfs.*) are rows flagged
 * FS_EMULATOR, listed after the kernel's files.
 */
enum fs_file_flags {
	FS_NOT_ON_ROOT = 1 << 0,	/* CFTYPE_NOT_ON_ROOT */
	FS_ONLY_ON_ROOT = 1 << 1,	/* CFTYPE_ONLY_ON_ROOT */
	FS_EMULATOR = 1 << 2,		/* memcgfs.*: not a kernel file */
};

struct fs_call;
/* Appends the file's text to out; 0 or a negative errno (the read fails). */
typedef int (*fs_show_fn)(struct fs_call *c, GString *out);
/* Takes one write: buf holds at most FS_WRITE_MAX bytes and a NUL.  0 (the
 * whole write is accepted) or a negative errno (nothing changed). */
typedef int (*fs_write_fn)(struct fs_call *c, char *buf);

struct fs_file {
	const char *name;
	unsigned short mode;	/* permission bits: 0444, 0644, 0200 */
	unsigned short flags;	/* enum fs_file_flags */
	fs_show_fn show;	/* NULL: not readable */
	fs_write_fn write;	/* NULL: not writable */
	int arg;		/* row argument: counter, event set ... */
	/* Kernel versions (MCG_KVER()) that have the file: since <= version
	 * < until; 0 leaves that side open. */
	unsigned since, until;
};

/* cgroup files set atomic_write_len = PAGE_SIZE: kernfs takes a write of
 * up to a page whole, and refuses a longer one with E2BIG. */
#define FS_WRITE_MAX 4096

/* Index 0 is a cgroup's directory, 1..nr its files (table row + 1).  Tables
 * stay below FS_IDX_LIMIT rows so an index fits in a node pointer's low
 * bits (see fs.c). */
#define FS_IDX_BITS 6
#define FS_IDX_LIMIT (1u << FS_IDX_BITS)

/* The files of hierarchy h as the kernel of `layout` has them, in table
 * order; built once per layout, immutable, never NULL. */
const struct fs_file *fs_files_of(enum mcg_hierarchy h, enum mcg_layout_id layout, unsigned *nr);
/* Does this file exist in a cgroup directory (root or not)? */
static inline bool fs_file_present(const struct fs_file *f, bool is_root)
{
	if (is_root)
		return !(f->flags & FS_NOT_ON_ROOT);
	return !(f->flags & FS_ONLY_ON_ROOT);
}

/* ---- Per-cgroup state -------------------------------------------------------
 *
 * Values the kernel keeps in struct cgroup or struct mem_cgroup and the
 * engine does not: control files that store a setting and nothing else.
 * C11 atomics, no lock, as the kernel's READ_ONCE/WRITE_ONCE: a reader sees
 * the old or the new value.  Writes that check other cgroups' values
 * (subtree_control, hierarchy limits) serialise on fs->ctl_lock.
 */
enum fs_controller {
	FS_CTRL_IO = 1 << 0,
	FS_CTRL_MEMORY = 1 << 1,
};
#define FS_CTRL_ALL (FS_CTRL_IO | FS_CTRL_MEMORY)

struct fs_cgstate {
	atomic_uint subtree_control;	/* enum fs_controller bits */
	atomic_int max_depth;		/* INT_MAX = "max" */
	atomic_int max_descendants;	/* INT_MAX = "max" */
	atomic_bool freeze;
	atomic_bool oom_group;
	atomic_bool oom_kill_disable;	/* v1 */
	atomic_bool clone_children;	/* v1 */
	atomic_bool notify_on_release;	/* v1 */
	atomic_uint swappiness;		/* v1, non-root */
	atomic_uint move_charge;	/* v1 */
	atomic_ulong zswap_max;		/* pages */
	atomic_bool zswap_writeback;
};

/* chmod/chown of one entry of a directory. */
struct fs_attr {
	mode_t mode;	/* permission bits */
	uid_t uid;
	gid_t gid;
};

/* ---- Nodes ------------------------------------------------------------------
 *
 * One node per cgroup the file system knows: its directory and all its files
 * share it (see fs.c for the inode numbers and the lookup counts).
 */

/* --pagecache: what the kernel's page cache of one file holds (fs.c, "The
 * page cache"). */
struct fs_cached {
	unsigned opens;		/* live opens served from the page cache: 0 or 1 */
	unsigned size;		/* length of the text last stored: the file's size */
};

struct fs_node {
	struct mcg_cgroup *cg;		/* reference held for the node's life */
	uint64_t id;			/* mcg_cgroup_id(), immutable */
	bool is_root;			/* immutable */
	struct timespec btime;		/* creation, immutable */

	/* Inode lifetime: protected by fs->lock. */
	uint64_t nlookup;		/* kernel lookups of the dir and its files */
	bool removed;			/* rmdir done, out of fs->nodes */

	/* Attributes: protected by fs->lock. */
	struct timespec mtime;		/* dir: last child added, removed, renamed */
	struct fs_attr *attrs;		/* [nr_files + 1], index as above */
	struct fs_cached *cached;	/* likewise, --pagecache only, else NULL */

	struct fs_cgstate st;		/* atomics, see above */
} __attribute__((aligned(FS_IDX_LIMIT)));

#define FS_PEAK_UNSET ((unsigned long)-1)

/* An open file (fi->fh): the seq_file of a FUSE file. */
struct fs_open {
	struct fs_node *node;		/* pinned by the kernel's open dentry */
	const struct fs_file *file;
	pthread_mutex_t lock;		/* serialises reads and writes of this fd */
	GString *text;			/* rendered snapshot; protected by lock */
	off_t next;			/* offset after the last read; protected by lock */
	unsigned long peak;		/* memory.peak fd value, pages; protected by lock */
	bool psi_trigger;		/* memory.pressure trigger set; protected by lock */
	bool cached;			/* text rendered at open, in the page cache;
					 * immutable after open */
};

struct mcgfs {
	const struct mcgfs_options *opt;
	struct fuse_session *se;
	struct mcg_engine *e;		/* set by mcgfs_run() before serving */
	struct mcg_workload *wl;	/* likewise: mkdir, rmdir, limits, profiles */
	enum mcg_hierarchy hier;
	const struct fs_file *files;
	unsigned nr_files;
	GHashTable *file_index;		/* name -> row index + 1; immutable */
	uid_t uid;			/* owner of new entries: the daemon's */
	gid_t gid;
	bool mounted;
	bool signals;

	pthread_mutex_t lock;		/* nodes, lookup counts, attributes */
	GHashTable *nodes;		/* id -> online node; protected by lock */
	GHashTable *zombies;		/* removed nodes still counted; protected by lock */
	struct fs_node *root;		/* never freed before mcgfs_free() */
	char *release_agent;		/* v1 root; protected by lock */

	pthread_mutex_t ctl_lock;	/* subtree_control writes, mkdir limit checks */

	/* The daemon's own cost of rendering (memcgfs.read_stats): successful
	 * show() calls and the nanoseconds they took, per file, indexed by
	 * row of fs->files (idx - 1).  Atomic adds from any FUSE thread,
	 * once per render: the time relaxed, then the count with release. */
	_Atomic uint64_t renders[FS_IDX_LIMIT];
	_Atomic uint64_t render_ns[FS_IDX_LIMIT];

	atomic_uint vm_swappiness;	/* v1 root's memory.swappiness */
	atomic_int nr_limited;		/* nodes with a finite max.depth/descendants */
};

/* What a show() or write() handler is called with. */
struct fs_call {
	struct mcgfs *fs;
	struct fs_node *node;
	struct mcg_cgroup *cg;		/* node->cg */
	struct fs_open *of;
};

/* Initialises a node's control values, inherited from parent (or the
 * defaults when parent is NULL), as cgroup_create() and css_alloc() do. */
void fs_cgstate_init(struct fs_cgstate *st, const struct fs_cgstate *parent);
/* Is cg or an ancestor frozen?  Takes fs->lock. */
bool fs_node_frozen(struct mcgfs *fs, struct fs_node *node);
/* May a child be created under parent (max.depth, max.descendants of every
 * ancestor)?  Called with fs->ctl_lock held. */
bool fs_node_may_mkdir(struct mcgfs *fs, struct fs_node *parent);

/* ---- The kernel's parsers (parse.c) ----------------------------------------- */

/* strstrip(): trims leading and trailing white space in place. */
char *fs_strstrip(char *s);
/* kstrtoull()/kstrtoll()/kstrtoint(): the whole string (one trailing '\n'
 * allowed) is a number in base (0: 0x hex, 0 octal, else decimal).  0,
 * -EINVAL or -ERANGE. */
int fs_kstrtoull(const char *s, unsigned base, unsigned long long *res);
int fs_kstrtoll(const char *s, unsigned base, long long *res);
int fs_kstrtoint(const char *s, unsigned base, int *res);
/* memparse(): a number with an optional K/M/G/T/P/E suffix; *end after it. */
unsigned long long fs_memparse(const char *s, const char **end);
/* page_counter_memparse(): `max` or a byte count, in pages, capped at
 * MCG_PAGE_COUNTER_MAX.  0 or -EINVAL. */
int fs_page_counter_memparse(const char *buf, const char *max, unsigned long *nr_pages);

#endif
