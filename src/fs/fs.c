/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FUSE operations of memcgfs: the cgroup tree as directories, the file
 * tables of files.c as their files, seq_file reads, and the daemon's life.
 * The only file of the project that speaks libfuse's low-level API, with
 * options.c.
 */
#define FUSE_USE_VERSION 314
#include <config.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fs/internal.h"

/*
 * Inodes and their lifetime
 * -------------------------
 * A FUSE inode number (nodeid) must name the same object for as long as the
 * kernel holds a lookup count on it, and is otherwise free-form.  memcgfs
 * keeps one node per cgroup (struct fs_node, 64-byte aligned) and encodes
 *
 *     nodeid = node address | index      index 0: the cgroup's directory
 *                                        index i: row i - 1 of the file table
 *
 * so every request finds its object without a table lookup, as
 * passthrough_ll.c does with its inode pointers.  The root directory is
 * FUSE_ROOT_ID; its files use the root node's address like any other.
 *
 * Lookup counts follow passthrough_ll.c: every reply that hands the kernel an
 * entry (lookup, mkdir, each non-dot READDIRPLUS entry) adds one to the
 * node's count, FORGET subtracts what the kernel says.  The directory and
 * the files of a cgroup share one count, since they share one node.
 *
 * A node lives while its cgroup is online or the kernel still counts it:
 *
 *   mkdir / first lookup ----> online, in fs->nodes (id -> node)
 *   rmdir -------------------> removed: out of fs->nodes; freed now if the
 *                              count is 0, else moved to fs->zombies and
 *                              freed by the FORGET that takes it to 0
 *
 * Online nodes stay even at count 0 because they hold the cgroup's control
 * values (struct fs_cgstate).  Each node holds a reference on its cgroup
 * while it is active, and rmdir deactivates it (see "Active references"):
 * a removed node's files answer ENODEV, as kernfs's do for a deactivated
 * node, and keep nothing of the cgroup.
 *
 * Locks: fs->lock (nodes, counts, attributes) may be held while calling the
 * engine, never the other way round; an open file's lock is taken without
 * fs->lock held.
 */

/*
 * Round trips
 * -----------
 * `cat dir/memory.stat` costs, per file, OPEN, READ (the text) and READ (the
 * 0 at the end: cgroup files have size 0, so reads go to the daemon with
 * direct I/O and the kernel cannot answer EOF itself).  Everything else is
 * trimmed:
 *  - entry and attribute timeouts are long: every change of the tree goes
 *    through this daemon and the kernel updates its caches on the way (it
 *    invalidates a directory's attributes on mkdir/rmdir/rename in it);
 *    lookups of missing names are cached as negative entries, which mkdir
 *    replaces;
 *  - no FLUSH on close (noflush), READDIRPLUS always, so `ls -l` and shell
 *    globs need no LOOKUP per entry;
 *  - max_read is small (4 KiB by default): for a direct I/O read the kernel
 *    pins the caller's whole buffer, up to max_read, and cat reads into a
 *    fresh 128 KiB buffer per file, whose pinning (page faults, zeroing,
 *    dirtying) costs more than the round trip.  Longer texts take more READs
 *    of one read() call, served from the same rendering.
 * RELEASE follows the close without the reader waiting for it.  With
 * --pagecache, OPEN is the only request a reader waits for, at the price
 * of the differences from cgroupfs listed under "The page cache" below;
 * doc/read-path.md has the figures of each mode and of what did not help.
 */

static struct mcgfs *fs_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static fuse_ino_t node_ino(struct mcgfs *fs, struct fs_node *n, unsigned idx)
{
	if (n == fs->root && idx == 0)
		return FUSE_ROOT_ID;
	return (fuse_ino_t)(uintptr_t)n | idx;
}

static struct fs_node *ino_node(struct mcgfs *fs, fuse_ino_t ino, unsigned *idx)
{
	if (ino == FUSE_ROOT_ID) {
		*idx = 0;
		return fs->root;
	}
	*idx = (unsigned)(ino & (FS_IDX_LIMIT - 1));
	return (struct fs_node *)(uintptr_t)(ino & ~(fuse_ino_t)(FS_IDX_LIMIT - 1));
}

bool fs_file_visible(struct mcgfs *fs, struct fs_node *n, const struct fs_file *f)
{
	if (!fs_file_present(f, n->is_root))
		return false;
	if (fs->hier != MCG_HIERARCHY_V2)
		return true;
	if (f->ctrl && !(atomic_load(&n->st.controllers) & f->ctrl))
		return false;
	return !(f->flags & FS_PSI) || atomic_load(&n->st.psi_enabled);
}

/* Index of file `name` in directory n, 0 if none is there now. */
static unsigned file_idx(struct mcgfs *fs, const char *name, struct fs_node *n)
{
	unsigned idx = GPOINTER_TO_UINT(g_hash_table_lookup(fs->file_index, name));

	if (idx && !fs_file_visible(fs, n, &fs->files[idx - 1]))
		return 0;
	return idx;
}

static void assert_locked(pthread_mutex_t *m)
{
#ifndef NDEBUG
	/* An error-checking-free way to catch a missing lock in debug builds:
	 * trylock on a held mutex fails. */
	int r = pthread_mutex_trylock(m);
	assert(r != 0);
	if (r == 0)
		pthread_mutex_unlock(m);
#else
	(void)m;
#endif
}

/* ---- Nodes ------------------------------------------------------------------ */

static struct fs_node *node_new(struct mcgfs *fs, struct mcg_cgroup *cg, struct fs_node *parent)
{
	struct fs_node *n = g_aligned_alloc0(1, sizeof(*n), FS_IDX_LIMIT);

	n->cg = mcg_cgroup_get(cg);
	n->id = mcg_cgroup_id(cg);
	n->is_root = mcg_cgroup_is_root(cg);
	clock_gettime(CLOCK_REALTIME, &n->btime);
	n->attrs = g_new(struct fs_attr, fs->nr_files + 1);
	/* The root of either hierarchy is dr-xr-xr-x (observed on Linux
	 * 6.18); a new cgroup takes mkdir's mode (below). */
	fs_attr_init(&n->attrs[0], n->is_root ? 0555 : 0755, fs->uid, fs->gid, &n->btime);
	for (unsigned i = 0; i < fs->nr_files; i++)
		fs_attr_init(&n->attrs[i + 1], fs->files[i].mode, fs->uid, fs->gid, &n->btime);
	if (fs->opt->pagecache)
		n->cached = g_new0(struct fs_cached, fs->nr_files + 1);
	fs_cgstate_init(&n->st, parent ? &parent->st : NULL);
	fs_ioc_node_init(fs, n);
	/* A child of the root starts from vm_swappiness (mem_cgroup_swappiness()). */
	if (parent && parent->is_root)
		atomic_store(&n->st.swappiness, atomic_load(&fs->vm_swappiness));
	return n;
}

/*
 * Active references
 * -----------------
 * The kernel keeps a removed cgroup's inodes for as long as anything holds
 * them (an open fd, a working directory, a dentry still cached), and FUSE
 * keeps this daemon's nodes as long (FORGET).  But an inode of kernfs pins
 * its kernfs_node, not the cgroup: a file's ops reach the cgroup only
 * between kernfs_get_active() and kernfs_put_active(), which fail once
 * kernfs_remove() deactivated the node, so a removed cgroup is released
 * (and leaves nr_dying_descendants) as soon as its css references go,
 * whatever is open.  Here, likewise:
 *
 *  - a node's own reference on its cgroup lasts while the node is active;
 *  - every call that uses n->cg holds an active reference for its length:
 *    fs_node_get_active() adds one unless the count is negative, as
 *    kernfs's atomic_inc_unless_negative(&kn->active);
 *  - rmdir deactivates the node by adding FS_NODE_DEACTIVATED_BIAS
 *    (kernfs_deactivate()'s KN_DEACTIVATED_BIAS), after which none is
 *    granted.  kernfs_drain() then waits for the calls in flight; here the
 *    last of rmdir and those calls puts the cgroup instead, so that rmdir
 *    never waits for a call a user can stall (a write of cgroup.freeze, a
 *    memory.high step).
 *
 * Code that finds a node under fs->lock in fs->nodes (or sees !removed
 * there) may use n->cg until it drops the lock: rmdir marks the node
 * removed under fs->lock before it deactivates it.
 */
#define FS_NODE_DEACTIVATED_BIAS (INT_MIN + 1)

bool fs_node_get_active(struct fs_node *n)
{
	int v = atomic_load_explicit(&n->active, memory_order_relaxed);

	do {
		if (v < 0)
			return false;
	} while (!atomic_compare_exchange_weak_explicit(&n->active, &v, v + 1,
							memory_order_acquire,
							memory_order_relaxed));
	return true;
}

void fs_node_put_active(struct fs_node *n)
{
	if (atomic_fetch_sub_explicit(&n->active, 1, memory_order_acq_rel) - 1 ==
	    FS_NODE_DEACTIVATED_BIAS)
		mcg_cgroup_put(n->cg);	/* the last call out after rmdir */
}

bool fs_node_online(struct fs_node *n)
{
	bool online;

	if (!fs_node_get_active(n))
		return false;
	online = mcg_cgroup_online(n->cg);
	fs_node_put_active(n);
	return online;
}

/* rmdir's half (kernfs_deactivate()): no call may start on n any more.
 * True if none is in flight, and the caller puts n->cg (after dropping
 * fs->lock); else the last call out does.  Once, with fs->lock held (a
 * FORGET may free n as soon as it is dropped), as n is marked removed. */
static bool node_deactivate_locked(struct mcgfs *fs, struct fs_node *n)
{
	assert_locked(&fs->lock);
	n->removed = true;
	return atomic_fetch_add_explicit(&n->active, FS_NODE_DEACTIVATED_BIAS,
					 memory_order_acq_rel) == 0;
}

static void node_free(struct mcgfs *fs, struct fs_node *n)
{
	if (atomic_load(&n->st.max_depth) != INT_MAX ||
	    atomic_load(&n->st.max_descendants) != INT_MAX)
		atomic_fetch_sub(&fs->nr_limited, 1);
	/* A removed node's reference went with its deactivation. */
	assert(!n->removed || atomic_load(&n->active) == FS_NODE_DEACTIVATED_BIAS);
	if (!n->removed)
		mcg_cgroup_put(n->cg);
	g_free(n->attrs);
	if (n->xattrs)
		g_hash_table_destroy(n->xattrs);
	g_free(n->cached);
	g_aligned_free(n);
}

/* The node of online cgroup cg, made if missing (with its parent's, for
 * inheritance).  NULL if cg is offline.  Called with fs->lock held. */
static struct fs_node *node_get_locked(struct mcgfs *fs, struct mcg_cgroup *cg)
{
	uint64_t id = mcg_cgroup_id(cg);
	struct fs_node *n, *parent = NULL;
	struct mcg_cgroup *pcg;

	assert_locked(&fs->lock);
	if (!mcg_cgroup_online(cg))
		return NULL;
	n = g_hash_table_lookup(fs->nodes, &id);
	if (n)
		return n;
	pcg = mcg_cgroup_parent(cg);
	if (pcg) {
		parent = node_get_locked(fs, pcg);
		if (!parent)
			return NULL;
	}
	n = node_new(fs, cg, parent);
	g_hash_table_insert(fs->nodes, &n->id, n);
	return n;
}

static struct fs_node *node_find_locked(struct mcgfs *fs, uint64_t id)
{
	assert_locked(&fs->lock);
	return g_hash_table_lookup(fs->nodes, &id);
}

static void node_forget(struct mcgfs *fs, struct fs_node *n, uint64_t nlookup)
{
	bool dead = false;

	pthread_mutex_lock(&fs->lock);
	assert(n->nlookup >= nlookup);
	n->nlookup -= nlookup;
	if (n->nlookup == 0 && n->removed) {
		g_hash_table_remove(fs->zombies, n);
		dead = true;
	}
	pthread_mutex_unlock(&fs->lock);
	if (dead)
		node_free(fs, n);
}

bool fs_node_frozen(struct mcgfs *fs, struct fs_node *node)
{
	bool frozen = atomic_load(&node->st.freeze);
	struct mcg_cgroup *cg = node->cg;

	pthread_mutex_lock(&fs->lock);
	while (!frozen && (cg = mcg_cgroup_parent(cg))) {
		struct fs_node *a = node_find_locked(fs, mcg_cgroup_id(cg));
		frozen = a && atomic_load(&a->st.freeze);
	}
	pthread_mutex_unlock(&fs->lock);
	return frozen;
}

/*
 * cgroup_procs_write_permission() (kernel/cgroup/cgroup.c): a migration
 * needs write permission on cgroup.procs of the common ancestor of the
 * task's cgroup and the destination (cgroup_may_write():
 * inode_permission(MAY_WRITE), under the opener's credentials since
 * 5.16 and stable 5.10.y).  A host task placed nowhere is in the
 * emulated hierarchy's root, as every task is in a newly mounted
 * hierarchy's (src/host).  generic_permission(): the owner's bits, else
 * the group's if the owning group is the fsgid or a supplementary group,
 * else the others' (acl_permission_check()); failing those,
 * CAP_DAC_OVERRIDE (capable_wrt_inode_uidgid()).
 */
bool fs_opener_may_write_procs(struct mcgfs *fs, const struct fs_open *of,
			       struct mcg_cgroup *cg)
{
	unsigned idx = GPOINTER_TO_UINT(g_hash_table_lookup(fs->file_index, "cgroup.procs"));
	struct fs_node *n;
	struct fs_attr a;
	bool in_group;
	mode_t bits;

	if (of->opener_dac_override || !idx)
		return true;
	pthread_mutex_lock(&fs->lock);
	n = node_find_locked(fs, mcg_cgroup_id(cg));
	a = (n ? n : fs->root)->attrs[idx];
	pthread_mutex_unlock(&fs->lock);
	in_group = of->opener_gid == a.gid;
	for (int i = 0; i < of->nr_opener_groups && !in_group; i++)
		in_group = of->opener_groups[i] == a.gid;
	bits = of->opener_uid == a.uid ? a.mode >> 6 : in_group ? a.mode >> 3 : a.mode;
	return bits & 2;
}

bool fs_node_may_mkdir(struct mcgfs *fs, struct fs_node *parent)
{
	unsigned depth = mcg_cgroup_depth(parent->cg) + 1;
	struct mcg_cgroup *cg = parent->cg;
	bool ok = true;

	pthread_mutex_lock(&fs->lock);
	for (; ok && cg; cg = mcg_cgroup_parent(cg)) {
		struct fs_node *a = node_find_locked(fs, mcg_cgroup_id(cg));
		int max_depth, max_desc;

		if (!a)
			continue;
		max_depth = atomic_load(&a->st.max_depth);
		max_desc = atomic_load(&a->st.max_descendants);
		if (max_depth != INT_MAX &&
		    depth - mcg_cgroup_depth(cg) > (unsigned)max_depth)
			ok = false;
		if (max_desc != INT_MAX &&
		    mcg_cgroup_nr_descendants(fs->e, cg) >= (unsigned)max_desc)
			ok = false;
	}
	pthread_mutex_unlock(&fs->lock);
	return ok;
}

/* ---- Attributes ---------------------------------------------------------------- */

static void node_stat_locked(struct mcgfs *fs, struct fs_node *n, unsigned idx, struct stat *st)
{
	const struct fs_attr *a = &n->attrs[idx];

	assert_locked(&fs->lock);
	memset(st, 0, sizeof(*st));
	st->st_ino = (n->id << FS_IDX_BITS) | idx;
	st->st_uid = a->uid;
	st->st_gid = a->gid;
	st->st_blksize = 4096;
	st->st_atim = a->atime;
	st->st_mtim = a->mtime;
	st->st_ctim = a->ctime;
	if (idx == 0) {
		st->st_mode = S_IFDIR | a->mode;
		st->st_nlink = 2 + (n->removed ? 0 : mcg_cgroup_nr_children(fs->e, n->cg));
	} else {
		st->st_mode = S_IFREG | a->mode;
		st->st_nlink = 1;
		/* cgroup files have size 0 (kernfs sets no size); with
		 * --pagecache, the kernel reads up to the size it is told. */
		if (n->cached)
			st->st_size = n->cached[idx].size;
	}
}

/* Fills an entry for (n, idx) and counts the lookup.  fs->lock held. */
static void node_entry_locked(struct mcgfs *fs, struct fs_node *n, unsigned idx,
			      struct fuse_entry_param *e)
{
	memset(e, 0, sizeof(*e));
	e->ino = node_ino(fs, n, idx);
	e->attr_timeout = fs->opt->timeout;
	e->entry_timeout = fs->opt->timeout;
	node_stat_locked(fs, n, idx, &e->attr);
}

/* A child added, removed or renamed: kernfs_add_one() and
 * __kernfs_remove() update the parent's times only if it has iattrs
 * (fs/kernfs/dir.c: allocated by a setattr, an xattr, or a creator other
 * than root); a directory without them keeps its times. */
static void touch_dir_locked(struct mcgfs *fs, struct fs_node *dir)
{
	assert_locked(&fs->lock);
	if (dir->attrs[0].iattr) {
		clock_gettime(CLOCK_REALTIME, &dir->attrs[0].mtime);
		dir->attrs[0].ctime = dir->attrs[0].mtime;
	}
}

/* The directory node of a request, or NULL after replying the error. */
static struct fs_node *dir_of(fuse_req_t req, fuse_ino_t ino)
{
	unsigned idx;
	struct fs_node *n = ino_node(fs_of(req), ino, &idx);

	if (idx != 0) {
		fuse_reply_err(req, ENOTDIR);
		return NULL;
	}
	return n;
}

void fs_files_changed(struct mcgfs *fs, uint64_t id, unsigned ctrl, bool psi)
{
	struct fs_node *n;
	fuse_ino_t dir;

	pthread_mutex_lock(&fs->lock);
	n = node_find_locked(fs, id);
	dir = n ? node_ino(fs, n, 0) : 0;
	/* A controller's files added or removed (css_populate_dir(),
	 * css_clear_dir()) are children of the directory for its times;
	 * PSI files shown or hidden (kernfs_show()) are not. */
	if (n && ctrl)
		touch_dir_locked(fs, n);
	pthread_mutex_unlock(&fs->lock);
	if (!dir || !fs->mounted)
		return;
	/* A name not in the kernel's cache is ENOENT here: nothing to drop.
	 * Lookups of a hidden file's name are answered with ENOENT, which
	 * the kernel does not cache, so a file that appears is found. */
	for (unsigned i = 0; i < fs->nr_files; i++) {
		const struct fs_file *f = &fs->files[i];

		if ((f->ctrl & ctrl) || (psi && (f->flags & FS_PSI)))
			fuse_lowlevel_notify_inval_entry(fs->se, dir, f->name, strlen(f->name));
	}
}

/* A removed cgroup's files keep their dentries while in use, and after:
 * FUSE keeps a dentry until its entry times out (fuse_dentry_delete()),
 * and ours last long, so the kernel would hold the inode, and this daemon
 * the node, until memory pressure shrinks the dcache.  A deleted entry
 * (fuse_reverse_inval_entry() with the child: d_invalidate(), its nlink
 * cleared, d_delete()) is unhashed at once, so its inode goes, and FORGET
 * comes, with its last user; and with its link count cleared, as
 * kernfs_clear_inode_nlink() clears a removed node's, an inotify watch on
 * the file hears IN_DELETE_SELF once the dentry goes (dentry_unlink_inode()).
 * Only for a dentry still in use: vfs_rmdir() prunes the unused ones
 * (shrink_dcache_parent()) before this runs, their inodes' link counts
 * still 1, and FUSE has no way to clear those. */
void fs_drop_removed_entries(struct mcgfs *fs, struct fs_node *n, uint64_t dir)
{
	bool zombie;

	pthread_mutex_lock(&fs->lock);
	zombie = g_hash_table_contains(fs->zombies, n);
	pthread_mutex_unlock(&fs->lock);
	if (!zombie || !fs->mounted)
		return;
	/* Each invalidation waits for dir's inode lock, which a request on
	 * dir in flight holds until it is answered: none is once the session
	 * has ended (SIGTERM), so stop asking then. */
	for (unsigned i = 0; i < fs->nr_files && !fuse_session_exited(fs->se); i++) {
		const struct fs_file *f = &fs->files[i];

		if (fs_file_present(f, false))
			fuse_lowlevel_notify_delete(fs->se, dir, node_ino(fs, n, i + 1), f->name,
						    strlen(f->name));
	}
}

/* ---- Open handles ---------------------------------------------------------- */

static void handle_add(struct mcgfs *fs, struct fs_handle *h, void (*free_fn)(struct fs_handle *))
{
	h->free = free_fn;
	pthread_mutex_lock(&fs->handles_lock);
	h->next = fs->handles.next;
	h->prev = &fs->handles;
	h->next->prev = h;
	fs->handles.next = h;
	pthread_mutex_unlock(&fs->handles_lock);
}

static void handle_del(struct mcgfs *fs, struct fs_handle *h)
{
	pthread_mutex_lock(&fs->handles_lock);
	h->prev->next = h->next;
	h->next->prev = h->prev;
	pthread_mutex_unlock(&fs->handles_lock);
}

/* The handles the kernel never released, once the session is over. */
static void free_handles(struct mcgfs *fs)
{
	while (fs->handles.next != &fs->handles) {
		struct fs_handle *h = fs->handles.next;

		handle_del(fs, h);
		h->free(h);
	}
}

/* ---- Tree operations -------------------------------------------------------- */

static void fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct mcgfs *fs = fs_of(req);
	struct fs_node *p = dir_of(req, parent), *n;
	struct fuse_entry_param e;
	struct mcg_cgroup *cg;
	unsigned idx;

	if (!p)
		return;
	if (!fs_node_online(p)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	idx = file_idx(fs, name, p);
	if (idx) {
		pthread_mutex_lock(&fs->lock);
		node_entry_locked(fs, p, idx, &e);
		p->nlookup++;
		fs_inotify_looked_up(fs, p, idx);
		pthread_mutex_unlock(&fs->lock);
		fuse_reply_entry(req, &e);
		return;
	}
	if (!fs_node_get_active(p)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	cg = mcg_cgroup_lookup_child(fs->e, p->cg, name);
	fs_node_put_active(p);
	if (!cg && g_hash_table_contains(fs->file_index, name)) {
		/* A file hidden now (controller or PSI off): not cached, so
		 * it is found as soon as it appears. */
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (!cg) {
		/* A negative entry: cached until mkdir replaces it. */
		memset(&e, 0, sizeof(e));
		e.entry_timeout = fs->opt->timeout;
		fuse_reply_entry(req, &e);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	n = node_get_locked(fs, cg);
	if (n) {
		node_entry_locked(fs, n, 0, &e);
		n->nlookup++;
	}
	pthread_mutex_unlock(&fs->lock);
	mcg_cgroup_put(cg);
	if (n)
		fuse_reply_entry(req, &e);
	else
		fuse_reply_err(req, ENOENT);
}

static void fs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	struct mcgfs *fs = fs_of(req);
	unsigned idx;

	if (ino != FUSE_ROOT_ID)
		node_forget(fs, ino_node(fs, ino, &idx), nlookup);
	fuse_reply_none(req);
}

static void fs_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *forgets)
{
	struct mcgfs *fs = fs_of(req);
	unsigned idx;

	for (size_t i = 0; i < count; i++)
		if (forgets[i].ino != FUSE_ROOT_ID)
			node_forget(fs, ino_node(fs, forgets[i].ino, &idx), forgets[i].nlookup);
	fuse_reply_none(req);
}

static void fs_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct mcgfs *fs = fs_of(req);
	unsigned idx;
	struct fs_node *n = ino_node(fs, ino, &idx);
	struct stat st;

	pthread_mutex_lock(&fs->lock);
	node_stat_locked(fs, n, idx, &st);
	pthread_mutex_unlock(&fs->lock);
	fuse_reply_attr(req, &st, fs->opt->timeout);
}

/*
 * kernfs_iop_setattr() -> __kernfs_setattr() (fs/kernfs/inode.c) keeps
 * what notify_change() asks: the owner and mode (cgroup delegation relies
 * on them) and the times, and ignores a size.  chmod, chown and utimensat
 * ask for the ctime (chmod_common(), chown_common(), vfs_utimes()), the
 * last for its times or "now"; a truncation through a file (ftruncate(),
 * an O_TRUNC open: do_truncate() with ATTR_MTIME | ATTR_CTIME) for mtime
 * and ctime, truncate(2) (vfs_truncate()) for no time at all.  FUSE
 * leaves those ctimes and the truncation's mtime to the daemon
 * (fuse_do_setattr() sends neither), and tells a truncation through a
 * file by its handle (fi).  An O_TRUNC open comes with the open here:
 * see fs_open().
 */
static void fs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		       struct fuse_file_info *fi)
{
	struct mcgfs *fs = fs_of(req);
	unsigned idx;
	struct fs_node *n = ino_node(fs, ino, &idx);
	struct fs_attr *a = &n->attrs[idx];
	bool truncate_by_fd = (to_set & FUSE_SET_ATTR_SIZE) && fi;
	struct timespec now;
	struct stat st;

	clock_gettime(CLOCK_REALTIME, &now);
	pthread_mutex_lock(&fs->lock);
	if (to_set)
		fs_attr_iattrs(a, &now);	/* __kernfs_setattr() */
	if (to_set & FUSE_SET_ATTR_MODE)
		a->mode = attr->st_mode & 07777;
	if (to_set & FUSE_SET_ATTR_UID)
		a->uid = attr->st_uid;
	if (to_set & FUSE_SET_ATTR_GID)
		a->gid = attr->st_gid;
	if (to_set & FUSE_SET_ATTR_ATIME)
		a->atime = to_set & FUSE_SET_ATTR_ATIME_NOW ? now : attr->st_atim;
	if (to_set & FUSE_SET_ATTR_MTIME)
		a->mtime = to_set & FUSE_SET_ATTR_MTIME_NOW ? now : attr->st_mtim;
	else if (truncate_by_fd)
		a->mtime = now;
	if (to_set & FUSE_SET_ATTR_CTIME)
		a->ctime = attr->st_ctim;
	else if ((to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID |
			    FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)) || truncate_by_fd)
		a->ctime = now;
	node_stat_locked(fs, n, idx, &st);
	pthread_mutex_unlock(&fs->lock);
	fuse_reply_attr(req, &st, fs->opt->timeout);
}

unsigned mcgfs_default_max_cgroups(unsigned nr_cpus)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t bytes = (uint64_t)(8 + 3 * (uint64_t)nr_cpus) * 1024;
	uint64_t n = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 4 / bytes : 0;

	return (unsigned)MIN(MAX(n, 1024), 1000000);
}

/* Room for one more cgroup under the daemon's bound (--max_cgroups): the
 * live ones, the dying ones, which hold their memory too, and the removed
 * ones whose nodes an open file or a working directory keeps (fs->zombies,
 * some 4 KiB each): the kernel charges those kernfs nodes to the memcg of
 * whoever holds them, here nothing would bound them.  Caller holds
 * ctl_lock, which every mkdir takes. */
static bool may_grow(struct mcgfs *fs)
{
	struct mcg_cgroup *root = fs->root->cg;
	unsigned zombies;

	pthread_mutex_lock(&fs->lock);
	zombies = g_hash_table_size(fs->zombies);
	pthread_mutex_unlock(&fs->lock);
	return mcg_cgroup_nr_descendants(fs->e, root) +
		       mcg_cgroup_nr_dying_descendants(fs->e, root) + zombies <
	       fs->opt->max_cgroups;
}

static void fs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	struct mcgfs *fs = fs_of(req);
	struct fs_node *p = dir_of(req, parent), *n;
	struct fuse_entry_param e;
	struct mcg_cgroup *cg;
	bool frozen;
	int err;

	if (!p)
		return;
	if (!fs_node_get_active(p)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	pthread_mutex_lock(&fs->ctl_lock);
	if (!mcg_cgroup_online(p->cg))
		err = -ENOENT;
	/* A newline would make /proc/PID/cgroup unparsable (cgroup_mkdir()). */
	else if (strchr(name, '\n'))
		err = -EINVAL;
	else if (file_idx(fs, name, p))
		err = -EEXIST;
	else if (atomic_load(&fs->nr_limited) && !fs_node_may_mkdir(fs, p))
		err = -EAGAIN;
	else if (!may_grow(fs))
		err = -ENOMEM;
	else	/* a memory css if the parent enables memory (always on v1) */
		err = mcg_workload_cgroup_create(
			fs->wl, p->cg, name,
			fs->hier == MCG_HIERARCHY_V1 ||
				(atomic_load(&p->st.subtree_control) & FS_CTRL_MEMORY),
			&cg);
	pthread_mutex_unlock(&fs->ctl_lock);
	fs_node_put_active(p);
	if (err) {
		fuse_reply_err(req, -err);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	n = node_get_locked(fs, cg);
	/* Born frozen under a frozen parent (fs_cgstate_init()). */
	frozen = n && n->st.e_freeze;
	if (n) {
		/* The directory and its files belong to the creator's fsuid
		 * and fsgid (cgroup_create() -> kernfs_create_dir_ns(),
		 * cgroup_add_file() -> __kernfs_create_file()): delegation. */
		const struct fuse_ctx *ctx = fuse_req_ctx(req);

		/* ... through iattrs unless it is root (__kernfs_new_node() ->
		 * __kernfs_setattr()), made now: at the node's creation. */
		for (unsigned i = 0; i <= fs->nr_files; i++) {
			n->attrs[i].uid = ctx->uid;
			n->attrs[i].gid = ctx->gid;
			n->attrs[i].iattr = ctx->uid != 0 || ctx->gid != 0;
		}
		n->attrs[0].mode = mode & 07777;
		node_entry_locked(fs, n, 0, &e);
		n->nlookup++;
		touch_dir_locked(fs, p);
	}
	pthread_mutex_unlock(&fs->lock);
	if (frozen)
		mcg_workload_set_frozen(fs->wl, cg, true);
	mcg_cgroup_put(cg);
	if (n)
		fuse_reply_entry(req, &e);
	else
		fuse_reply_err(req, ENOENT);	/* removed by a racing rmdir */
}

static void fs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct mcgfs *fs = fs_of(req);
	struct fs_node *p = dir_of(req, parent), *n;
	struct mcg_cgroup *cg;
	bool dead = false, put_node_ref = false;
	struct fs_node *zombie = NULL;
	fuse_ino_t zombie_dir = 0;
	int err;

	if (!p)
		return;
	if (file_idx(fs, name, p)) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	if (!fs_node_get_active(p)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	cg = mcg_cgroup_lookup_child(fs->e, p->cg, name);
	fs_node_put_active(p);
	if (!cg) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	/* cgroup_destroy_locked(): a cgroup with tasks, here or below, stays;
	 * host processes that exited are gone by now in the kernel. */
	mcg_host_reap(fs->host);
	err = mcg_workload_cgroup_rmdir(fs->wl, cg);
	if (!err) {
		g_autoptr(GArray) live = g_array_new(FALSE, FALSE, sizeof(fuse_ino_t));

		pthread_mutex_lock(&fs->lock);
		n = node_find_locked(fs, mcg_cgroup_id(cg));
		if (n) {
			g_hash_table_remove(fs->nodes, &n->id);
			if (node_deactivate_locked(fs, n))
				put_node_ref = true;
			if (n->nlookup == 0) {
				dead = true;
			} else {
				g_hash_table_add(fs->zombies, n);
				zombie = n;
				zombie_dir = node_ino(fs, n, 0);
			}
			for (unsigned i = 1; n->cached && i <= fs->nr_files; i++) {
				if (n->cached[i].opens) {
					fuse_ino_t ino = node_ino(fs, n, i);
					g_array_append_val(live, ino);
				}
			}
		}
		touch_dir_locked(fs, p);
		pthread_mutex_unlock(&fs->lock);
		mcg_host_cgroup_removed(fs->host, cg);
		if (put_node_ref)
			mcg_cgroup_put(cg);	/* n->cg: cg, which we still hold */
		if (dead)
			node_free(fs, n);
		/* --pagecache: an fd opened before reads ENODEV from now on,
		 * as from kernfs: its pages go, and its READs find the cgroup
		 * offline. */
		for (unsigned i = 0; i < live->len; i++)
			fuse_lowlevel_notify_inval_inode(fs->se, g_array_index(live, fuse_ino_t, i),
							 0, 0);
	}
	mcg_cgroup_put(cg);
	fuse_reply_err(req, -err);
	if (zombie)
		fs_notify_removed(fs, zombie, zombie_dir);
}

/* v1 renames a cgroup within its parent (cgroup1_rename(): a file is
 * ENOTDIR, another parent EIO); v2 has no rename at all (EPERM from kernfs);
 * renameat2() flags are EINVAL (kernfs_iop_rename()). */
static void fs_rename(fuse_req_t req, fuse_ino_t parent, const char *name, fuse_ino_t newparent,
		      const char *newname, unsigned int flags)
{
	struct mcgfs *fs = fs_of(req);
	struct fs_node *p = dir_of(req, parent);
	struct mcg_cgroup *cg;
	int err;

	if (!p)
		return;
	/* kernfs_iop_rename() refuses flags before it asks the hierarchy. */
	if (flags) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (fs->hier == MCG_HIERARCHY_V2) {
		fuse_reply_err(req, EPERM);
		return;
	}
	if (file_idx(fs, name, p)) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	if (newparent != parent) {
		fuse_reply_err(req, EIO);
		return;
	}
	if (strchr(newname, '\n')) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (file_idx(fs, newname, p)) {
		fuse_reply_err(req, EEXIST);
		return;
	}
	cg = NULL;
	if (fs_node_get_active(p)) {
		cg = mcg_cgroup_lookup_child(fs->e, p->cg, name);
		fs_node_put_active(p);
	}
	if (!cg) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	err = mcg_cgroup_rename(fs->e, cg, newname);
	mcg_cgroup_put(cg);
	if (!err) {
		pthread_mutex_lock(&fs->lock);
		touch_dir_locked(fs, p);
		pthread_mutex_unlock(&fs->lock);
	}
	fuse_reply_err(req, -err);
}

/* What the VFS answers for operations kernfs does not have. */
static void fs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, EPERM);
}

static void fs_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
		      struct fuse_file_info *fi)
{
	fuse_reply_err(req, EACCES);
}

/* kernfs directories have neither ->create nor ->mknod: a regular file
 * fails in vfs_create() with EACCES, anything else in vfs_mknod() with
 * EPERM. */
static void fs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
		     dev_t rdev)
{
	fuse_reply_err(req, S_ISREG(mode) || (mode & S_IFMT) == 0 ? EACCES : EPERM);
}

/* kernfs_dir_fops has no ->fsync: vfs_fsync() of a directory is EINVAL.
 * A file's is noop_fsync(), which FUSE gives when .fsync is unset. */
static void fs_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	fuse_reply_err(req, EINVAL);
}

static void fs_symlink(fuse_req_t req, const char *link, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, EPERM);
}

static void fs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent, const char *newname)
{
	fuse_reply_err(req, EPERM);
}

static void fs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs st = { .f_bsize = 4096, .f_frsize = 4096, .f_namemax = NAME_MAX };

	fuse_reply_statfs(req, &st);
}

/* ---- Extended attributes ----------------------------------------------------------
 *
 * kernfs keeps trusted.*, security.* and, as cgroup sets
 * KERNFS_ROOT_SUPPORT_USER_XATTR, user.* attributes on every node
 * (kernfs_xattr_handlers[], fs/kernfs/inode.c); systemd and oomd keep
 * their marks on cgroup directories this way.  The VFS checks permission
 * first (xattr_permission(): trusted.* needs CAP_SYS_ADMIN).  user.* is
 * limited to KERNFS_MAX_USER_XATTRS (128) names and
 * KERNFS_USER_XATTR_SIZE_LIMIT (128 KiB) of values per node: ENOSPC
 * beyond, counted as simple_xattr_limits_inc() counts (a replace adds a
 * name and its whole value before the old one goes).  Other namespaces are
 * EOPNOTSUPP.
 */
#define FS_MAX_USER_XATTRS 128
#define FS_USER_XATTR_SIZE_LIMIT (128 << 10)

static bool xattr_namespace_ok(const char *name)
{
	return g_str_has_prefix(name, "user.") || g_str_has_prefix(name, "trusted.") ||
	       g_str_has_prefix(name, "security.");
}

static char *xattr_key(unsigned idx, const char *name)
{
	return g_strdup_printf("%u:%s", idx, name);
}

/* The user.* names of entry idx and the bytes of their values. */
static void xattr_user_usage(struct fs_node *n, unsigned idx, unsigned *nr, size_t *bytes)
{
	g_autofree char *prefix = xattr_key(idx, "user.");
	GHashTableIter it;
	gpointer key, value;

	*nr = 0;
	*bytes = 0;
	if (!n->xattrs)
		return;
	g_hash_table_iter_init(&it, n->xattrs);
	while (g_hash_table_iter_next(&it, &key, &value))
		if (g_str_has_prefix(key, prefix)) {
			(*nr)++;
			*bytes += g_bytes_get_size(value);
		}
}

static void fs_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name, const char *value,
			size_t size, int flags)
{
	struct mcgfs *fs = fs_of(req);
	unsigned idx;
	struct fs_node *n = ino_node(fs, ino, &idx);
	g_autofree char *key = xattr_key(idx, name);
	GBytes *old;
	int err = 0;

	if (!xattr_namespace_ok(name)) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	if (!n->xattrs)
		n->xattrs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						  (GDestroyNotify)g_bytes_unref);
	old = g_hash_table_lookup(n->xattrs, key);
	/* simple_xattr_set_limited() counts the new name and value in before
	 * it looks at the old one (simple_xattr_limits_inc()): the limits are
	 * checked first, and a replace at the limit is refused too. */
	if (g_str_has_prefix(name, "user.")) {
		unsigned nr;
		size_t bytes;

		xattr_user_usage(n, idx, &nr, &bytes);
		if (nr + 1 > FS_MAX_USER_XATTRS || bytes + size > FS_USER_XATTR_SIZE_LIMIT)
			err = ENOSPC;
	}
	if (!err && (flags & XATTR_CREATE) && old)
		err = EEXIST;
	else if (!err && (flags & XATTR_REPLACE) && !old)
		err = ENODATA;
	if (!err) {
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		g_hash_table_replace(n->xattrs, g_steal_pointer(&key), g_bytes_new(value, size));
		fs_attr_iattrs(&n->attrs[idx], &now);	/* kernfs_xattr_set() */
	}
	pthread_mutex_unlock(&fs->lock);
	fuse_reply_err(req, err);
}

static void fs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name, size_t size)
{
	struct mcgfs *fs = fs_of(req);
	unsigned idx;
	struct fs_node *n = ino_node(fs, ino, &idx);
	g_autofree char *key = xattr_key(idx, name);
	g_autoptr(GBytes) v = NULL;

	pthread_mutex_lock(&fs->lock);
	if (n->xattrs && g_hash_table_lookup(n->xattrs, key))
		v = g_bytes_ref(g_hash_table_lookup(n->xattrs, key));
	pthread_mutex_unlock(&fs->lock);
	if (!v)
		fuse_reply_err(req, xattr_namespace_ok(name) ? ENODATA : EOPNOTSUPP);
	else if (size == 0)
		fuse_reply_xattr(req, g_bytes_get_size(v));
	else if (size < g_bytes_get_size(v))
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, g_bytes_get_data(v, NULL), g_bytes_get_size(v));
}

static void fs_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	struct mcgfs *fs = fs_of(req);
	unsigned idx;
	struct fs_node *n = ino_node(fs, ino, &idx);
	g_autofree char *prefix = xattr_key(idx, "");
	g_autoptr(GString) names = g_string_new(NULL);

	/* simple_xattr_list(): trusted.* only for CAP_SYS_ADMIN (here: root) */
	bool trusted = fuse_req_ctx(req)->uid == 0;

	pthread_mutex_lock(&fs->lock);
	if (n->xattrs) {
		GHashTableIter it;
		gpointer key;

		g_hash_table_iter_init(&it, n->xattrs);
		while (g_hash_table_iter_next(&it, &key, NULL))
			if (g_str_has_prefix(key, prefix) &&
			    (trusted || !g_str_has_prefix((const char *)key + strlen(prefix),
							  "trusted.")))
				g_string_append_len(names, (const char *)key + strlen(prefix),
						    (gssize)(strlen(key) - strlen(prefix) + 1));
	}
	pthread_mutex_unlock(&fs->lock);
	if (size == 0)
		fuse_reply_xattr(req, names->len);
	else if (size < names->len)
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, names->str, names->len);
}

static void fs_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	struct mcgfs *fs = fs_of(req);
	unsigned idx;
	struct fs_node *n = ino_node(fs, ino, &idx);
	g_autofree char *key = xattr_key(idx, name);
	bool removed;

	if (!xattr_namespace_ok(name)) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	removed = n->xattrs && g_hash_table_remove(n->xattrs, key);
	pthread_mutex_unlock(&fs->lock);
	fuse_reply_err(req, removed ? 0 : ENODATA);
}

/* ---- Files: open, read, write --------------------------------------------------
 *
 * seq_file semantics.  The text of a file is rendered whole into the open
 * file's buffer and reads are served from it, so a reader sees one
 * consistent snapshot whatever its buffer size, and nothing is truncated.
 * As seq_read_iter() does, a read renders afresh when it starts at offset 0
 * (a new read, or lseek(fd, 0) then read: how monitoring daemons poll) or
 * at an offset other than where the previous read ended (a pread elsewhere,
 * including a first pread at N); a read that continues where the last one
 * stopped is served from the same rendering, and past its end reads 0.
 *
 * The page cache (--pagecache)
 * ----------------------------
 * A direct I/O `cat` waits for three requests: OPEN, READ and the READ that
 * finds the end.  With --pagecache, an open for reading of a file that
 * cannot be written (memory.stat, numa_stat, usage files: what monitors
 * read by the thousand) renders at OPEN and pushes the text into the
 * kernel's page cache before replying (fuse_lowlevel_notify_store(), the
 * kernel's fuse_notify_store()), with FOPEN_KEEP_CACHE so that fuse_open()
 * keeps it.  The reads and the read at the end are then answered by the
 * kernel from the page cache (fuse_cache_read_iter()): OPEN is the only
 * request the reader waits for; RELEASE follows without a wait.
 *
 * The kernel reads a cached file up to i_size, so the size is the text's:
 *  - the store extends i_size to a longer text itself, and marks the size
 *    stale (fuse_write_update_attr()): the first read asks GETATTR, which
 *    answers the same length;
 *  - a shorter text cannot shrink it that way: the attributes are
 *    invalidated (notify_inval_inode() with a negative offset), the first
 *    read asks GETATTR, and fuse_change_attributes() cuts the page cache to
 *    the new length.  FUSE_CAP_EXPLICIT_INVAL_DATA (not AUTO_INVAL_DATA)
 *    keeps it from also dropping the pages just stored;
 *  - every reply with attributes (LOOKUP, GETATTR, READDIRPLUS) carries the
 *    length last stored (node->cached), so none can cut a text short, and a
 *    reply computed before a store is dropped by the kernel's attr_version
 *    check.  So stat reports that length, not the kernel's 0.
 *
 * The page cache is one per file, not per open: two readers would share
 * one text.  So one open at a time is served from it (node->cached->opens,
 * counted at OPEN and RELEASE, RELEASE coming after the last READ of the
 * file); an open while another is live, an open for writing, with O_TRUNC,
 * or of a writable file (whose write or truncation would cut a reader's
 * text) gets direct I/O as without the option, and FOPEN_KEEP_CACHE so
 * its open does not drop the other reader's pages.  A page the kernel
 * evicts is read back with READ from the open's own text.  Each reader thus
 * sees one whole rendering, made at its OPEN.  What differs from seq_file:
 * the text is rendered at open rather than at the first read; lseek(0) and
 * reading again on the same fd gives the same text (re-open to see new
 * values); stat shows the size of the last text.  rmdir drops the pages
 * of the removed cgroup's files still open, so their next read gets ENODEV
 * from READ, as from kernfs.
 */

uint64_t fs_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One successful render of f that took ns (memcgfs.read_stats). */
static void fs_count_render(struct mcgfs *fs, const struct fs_file *f, uint64_t ns)
{
	size_t row = (size_t)(f - fs->files);

	g_assert(row < fs->nr_files);
	/* Time first, count released after: a reader that sees the count
	 * sees at least the time of every render counted. */
	atomic_fetch_add_explicit(&fs->render_ns[row], ns, memory_order_relaxed);
	atomic_fetch_add_explicit(&fs->renders[row], 1, memory_order_release);
}

/* Renders of's file afresh into of->text, timed for memcgfs.read_stats (the
 * flush and rendering a kernel read would do, nothing of FUSE's).  0 or a
 * negative errno, the text then empty.  of->lock held, or of not shared. */
static int open_render(struct mcgfs *fs, struct fs_open *of)
{
	struct fs_call call = { .fs = fs, .node = of->node, .of = of };
	uint64_t start, end;
	int err;

	if (!of->text)
		of->text = g_string_sized_new(1024);
	g_string_truncate(of->text, 0);
	/* Host processes' memory up to date, outside the timing: the
	 * kernel's charges are made at the fault, not at the read. */
	if (fs->host && strncmp(of->file->name, "memory.", 7) == 0 && fs_node_get_active(of->node)) {
		mcg_host_sync(fs->host, of->node->cg);
		fs_node_put_active(of->node);
	}
	start = fs_monotonic_ns();
	err = fs_call_begin(fs, &call);
	/* The flush trace names the file its flushes are for. */
	mcg_trace_reader(of->file->name);
	if (!err)
		err = of->file->show(&call, of->text);
	mcg_trace_reader(NULL);
	end = fs_monotonic_ns();
	/* --accuracy: the read's error and age, outside its timing. */
	if (!err && fs->opt->accuracy && call.memcg && strcmp(of->file->name, "memory.stat") == 0)
		mcg_accuracy_record(fs->e, call.memcg);
	fs_call_done(&call);
	if (err) {
		g_string_truncate(of->text, 0);
		return err;
	}
	fs_count_render(fs, of->file, end - start);
	fs_notify_read(of, call.changes);
	return 0;
}

/* --pagecache: serves this open from the page cache if it may (see "The
 * page cache" above): renders, counts the open and stores the text.  True
 * if the open is served from the page cache, false for direct I/O. */
static bool open_cached(struct mcgfs *fs, fuse_ino_t ino, struct fs_node *n, unsigned idx,
			struct fs_open *of, int flags)
{
	struct fs_cached *c = &n->cached[idx];
	struct fuse_bufvec buf = FUSE_BUFVEC_INIT(0);
	unsigned busy, old;

	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC) || !of->file->show ||
	    of->file->write)
		return false;
	pthread_mutex_lock(&fs->lock);
	busy = c->opens;
	c->opens = 1;
	pthread_mutex_unlock(&fs->lock);
	if (busy)
		return false;
	if (open_render(fs, of) != 0) {
		pthread_mutex_lock(&fs->lock);
		c->opens = 0;
		pthread_mutex_unlock(&fs->lock);
		return false;	/* the read renders again and fails */
	}
	pthread_mutex_lock(&fs->lock);
	old = c->size;
	c->size = (unsigned)of->text->len;
	pthread_mutex_unlock(&fs->lock);

	if (of->text->len < old)
		fuse_lowlevel_notify_inval_inode(fs->se, ino, -1, 0);
	buf.buf[0].mem = of->text->str;
	buf.buf[0].size = of->text->len;
	if (of->text->len && fuse_lowlevel_notify_store(fs->se, ino, 0, &buf, 0) != 0) {
		/* Maybe stored in part: drop the pages and the size; this
		 * open reads directly, and the next cached one stores anew. */
		fuse_lowlevel_notify_inval_inode(fs->se, ino, 0, 0);
		pthread_mutex_lock(&fs->lock);
		c->opens = 0;
		pthread_mutex_unlock(&fs->lock);
		g_string_truncate(of->text, 0);
		return false;
	}
	return true;
}

/* Frees an open file: at RELEASE, or at unmount for one the kernel never
 * released (free_handles(), before the nodes go). */
static void open_free(struct fs_handle *h)
{
	struct fs_open *of = (struct fs_open *)h;
	struct mcgfs *fs = of->fs;

	if (of->cached) {
		pthread_mutex_lock(&fs->lock);
		of->node->cached[of->file - fs->files + 1].opens = 0;
		pthread_mutex_unlock(&fs->lock);
	}
	/* peak_release(): off the memcg's watchers */
	if (atomic_load(&of->peak) != FS_PEAK_UNSET) {
		pthread_mutex_lock(&fs->lock);
		of->node->peak_watchers = g_list_remove(of->node->peak_watchers, of);
		pthread_mutex_unlock(&fs->lock);
	}
	if (of->text)
		g_string_free(of->text, TRUE);
	pthread_mutex_destroy(&of->lock);
	g_free(of->opener_groups);
	g_free(of);
}

static void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct mcgfs *fs = fs_of(req);
	unsigned idx;
	struct fs_node *n = ino_node(fs, ino, &idx);
	const struct fs_file *f;
	struct fs_open *of;
	bool online;

	if (idx == 0) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if (!fs_node_get_active(n)) {
		fuse_reply_err(req, ENODEV);
		return;
	}
	/* kernfs_fop_open() fails on a removed cgroup; then kernfs files
	 * cannot do direct I/O: do_dentry_open() refuses O_DIRECT without
	 * FMODE_CAN_ODIRECT. */
	online = mcg_cgroup_online(n->cg);
	if (!online || (fi->flags & O_DIRECT)) {
		fs_node_put_active(n);
		fuse_reply_err(req, online ? EINVAL : ENODEV);
		return;
	}
	f = &fs->files[idx - 1];
	/* kernfs_fop_open() refuses a mode the file has no handler for only
	 * under KERNFS_ROOT_EXTRA_OPEN_PERM_CHECK, which sysfs sets and
	 * cgroup does not: the open succeeds, and the read or write fails
	 * with EINVAL (cgroup_seqfile_show(), cgroup_file_write()).  The
	 * mode bits still stop other users (default_permissions). */
	of = g_new0(struct fs_open, 1);
	of->fs = fs;
	of->node = n;
	of->file = f;
	atomic_init(&of->peak, FS_PEAK_UNSET);
	/* the memory css the file is of: a new css brings new files */
	if (f->ctrl & FS_CTRL_MEMORY) {
		struct mcg_cgroup *css = mcg_cgroup_memcg(fs->e, n->cg);

		of->memcg_id = css ? mcg_cgroup_id(css) : 0;
		mcg_cgroup_put(css);
	}
	/* The kernel checks the opener's credentials (f_cred), not the
	 * writer's: taken here, where FUSE names the opener. */
	{
		const struct fuse_ctx *ctx = fuse_req_ctx(req);

		of->opener_uid = ctx->uid;
		of->inotify_writer = fs_inotify_is_writer(fs, ctx->pid);
		if ((f->flags & FS_PSI) && (fi->flags & O_ACCMODE) != O_RDONLY)
			of->opener_sys_resource =
				fs_task_capable(ctx->pid, ctx->uid, FS_CAP_SYS_RESOURCE);
		if ((f->flags & FS_MIGRATE) && (fi->flags & O_ACCMODE) != O_RDONLY) {
			/* fuse_req_getgroups() tells how many there are */
			int nr = fuse_req_getgroups(req, 0, NULL);

			of->opener_gid = ctx->gid;
			if (nr > 0) {
				int got;

				of->opener_groups = g_new(gid_t, nr);
				/* the count, which may have grown since */
				got = fuse_req_getgroups(req, nr, of->opener_groups);
				of->nr_opener_groups = CLAMP(got, 0, nr);
			}
			of->opener_dac_override =
				fs_task_capable(ctx->pid, ctx->uid, FS_CAP_DAC_OVERRIDE);
		}
	}
	pthread_mutex_init(&of->lock, NULL);
	if (!of->inotify_writer)
		fs_notify_opened(fs, of);
	handle_add(fs, &of->h, open_free);
	/* O_TRUNC, which comes with the open (atomic_o_trunc): the kernel's
	 * handle_truncate() -> do_truncate() asks for mtime and ctime "now"
	 * (fs_setattr()). */
	if (fi->flags & O_TRUNC) {
		struct fs_attr *a = &n->attrs[idx];
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		pthread_mutex_lock(&fs->lock);
		fs_attr_iattrs(a, &now);
		a->mtime = a->ctime = now;
		pthread_mutex_unlock(&fs->lock);
	}
	fi->fh = (uintptr_t)of;
	fi->noflush = 1;
	if (n->cached) {
		fi->keep_cache = 1;
		of->cached = open_cached(fs, ino, n, idx, of, fi->flags);
	}
	fi->direct_io = !of->cached;
	fs_node_put_active(n);
	if (fuse_reply_open(req, fi) != 0) {
		handle_del(fs, &of->h);
		open_free(&of->h);
	}
}

static struct fs_open *open_of(struct fuse_file_info *fi)
{
	return (struct fs_open *)(uintptr_t)fi->fh;
}

int fs_call_begin(struct mcgfs *fs, struct fs_call *c)
{
	if (!fs_node_get_active(c->node))
		return -ENODEV;
	c->cg = c->node->cg;
	if (!(c->of->file->ctrl & FS_CTRL_MEMORY))
		return 0;	/* only the memory files act on it */
	c->memcg = mcg_cgroup_memcg(fs->e, c->cg);
	/* A memory file of a css that went (-memory, and maybe +memory
	 * since): kernfs removed that node, whose fds read ENODEV. */
	if (!c->memcg || mcg_cgroup_id(c->memcg) != c->of->memcg_id)
		return -ENODEV;
	return 0;
}

void fs_call_done(struct fs_call *c)
{
	mcg_cgroup_put(c->memcg);
	c->memcg = NULL;
	if (c->cg)
		fs_node_put_active(c->node);
	c->cg = NULL;
}

/* The handler call of a request on open file of, before fs_call_begin(). */
static struct fs_call call_of(fuse_req_t req, struct fs_open *of)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);

	return (struct fs_call){
		.fs = fs_of(req), .node = of->node, .of = of,
		.uid = ctx->uid, .gid = ctx->gid, .pid = ctx->pid,
	};
}

/* Is the file of `of` still there?  Its cgroup was removed, or its
 * controller disabled or PSI files hidden since the open: kernfs answers
 * a deactivated node's reads and writes with ENODEV. */
static bool open_live(struct mcgfs *fs, struct fs_open *of)
{
	return fs_node_online(of->node) && fs_file_visible(fs, of->node, of->file);
}

static void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct mcgfs *fs = fs_of(req);
	struct fs_open *of = open_of(fi);
	size_t len;

	pthread_mutex_lock(&of->lock);
	/* seq_read_iter() serves what its buffer still holds before it asks
	 * kernfs_seq_start(), which fails with ENODEV once the file went
	 * (rmdir, controller disabled): a read that continues a rendering
	 * gets the rest of it. */
	if (!open_live(fs, of) &&
	    !(!of->cached && of->text && off == of->next && (size_t)off < of->text->len)) {
		pthread_mutex_unlock(&of->lock);
		fuse_reply_err(req, ENODEV);
		return;
	}
	/* cgroup_seqfile_show() of a file with no read handler. */
	if (!of->file->show) {
		pthread_mutex_unlock(&of->lock);
		fuse_reply_err(req, EINVAL);
		return;
	}
	/* A page the kernel lacks, of a text rendered at open (--pagecache),
	 * is read from that text, whatever the offset. */
	if (!of->cached && (!of->text || off == 0 || off != of->next)) {
		int err = open_render(fs, of);

		if (err) {
			of->next = 0;
			pthread_mutex_unlock(&of->lock);
			fuse_reply_err(req, -err);
			return;
		}
	}
	len = (size_t)off < of->text->len ? MIN(size, of->text->len - (size_t)off) : 0;
	of->next = off + (off_t)len;
	/* Reply from a copy made under the lock: once the kernel has the
	 * reply, the reader may close the file and a RELEASE on another
	 * thread frees `of`, so nothing here may touch it after the reply. */
	char small[MCGFS_DEFAULT_MAX_READ];
	g_autofree char *big = len > sizeof(small) ? g_malloc(len) : NULL;
	char *copy = big ? big : small;
	if (len)
		memcpy(copy, of->text->str + off, len);
	pthread_mutex_unlock(&of->lock);
	fuse_reply_buf(req, copy, len);
}

/* The write request this thread serves, as the kernel's `current`. */
static __thread fuse_req_t write_req;

bool fs_write_interrupted(void)
{
	return write_req && fuse_req_interrupted(write_req);
}

static void fs_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct mcgfs *fs = fs_of(req);
	struct fs_open *of = open_of(fi);
	struct fs_call call = call_of(req, of);
	char copy[FS_WRITE_MAX + 1];
	size_t len = size;
	int err;

	/* kernfs takes a cgroup file's write whole or not at all. */
	if (size > FS_WRITE_MAX) {
		fuse_reply_err(req, E2BIG);
		return;
	}
	if (!open_live(fs, of)) {
		fuse_reply_err(req, ENODEV);
		return;
	}
	/* the daemon's own write, for the IN_MODIFY it raises (inotify.c) */
	if (of->inotify_writer && fs_file_notifies(of->file)) {
		fuse_reply_write(req, size);
		return;
	}
	/* cgroup_file_write() of a file with no write handler. */
	if (!of->file->write) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	memcpy(copy, buf, len);
	copy[len] = '\0';
	pthread_mutex_lock(&of->lock);
	write_req = req;
	err = fs_call_begin(fs, &call);
	if (!err)
		err = of->file->write(&call, copy);
	/* A limit written is a limit on the host's shadow cgroup at once,
	 * as the kernel's write reclaims before it returns. */
	if (!err && call.cg && strncmp(of->file->name, "memory.", 7) == 0)
		mcg_host_sync(fs->host, call.cg);
	fs_call_done(&call);
	write_req = NULL;
	pthread_mutex_unlock(&of->lock);
	if (err)
		fuse_reply_err(req, -err);
	else
		fuse_reply_write(req, len);
}

static void fs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct fs_open *of = open_of(fi);

	fs_notify_released(fs_of(req), of);
	handle_del(fs_of(req), &of->h);
	open_free(&of->h);
	fuse_reply_err(req, 0);
}

static void fs_poll(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
		    struct fuse_pollhandle *ph)
{
	fuse_reply_poll(req, fs_notify_poll(fs_of(req), open_of(fi), ph));
}

/* ---- Directories ---------------------------------------------------------------- */

/* One entry of a directory snapshot: a file (idx > 0), a child cgroup (id
 * set), or "." / ".." (neither).  A child is named, not referenced: as
 * kernfs's readdir position pins no cgroup, an open directory keeps no
 * child from being released. */
struct fs_dirent {
	char *name;
	unsigned idx;
	uint64_t id;
};

struct fs_dir {
	struct fs_handle h;	/* on fs->handles; first: dir_free() casts */
	pthread_mutex_t lock;
	GArray *ents;		/* struct fs_dirent; protected by lock */
};

static void dirent_clear(gpointer p)
{
	struct fs_dirent *d = p;

	g_free(d->name);
}

/* Snapshot of a directory at offset 0: dots, files, then child cgroups in
 * creation order.  A removed directory lists only the dots.  With n's
 * active reference held if `active`. */
static void dir_snapshot(struct mcgfs *fs, struct fs_node *n, bool active, struct fs_dir *d)
{
	struct fs_dirent ent = { 0 };

	if (d->ents)
		g_array_free(d->ents, TRUE);
	d->ents = g_array_new(FALSE, FALSE, sizeof(struct fs_dirent));
	g_array_set_clear_func(d->ents, dirent_clear);
	ent.name = g_strdup(".");
	g_array_append_val(d->ents, ent);
	ent.name = g_strdup("..");
	g_array_append_val(d->ents, ent);
	if (!active || !mcg_cgroup_online(n->cg))
		return;
	for (unsigned i = 0; i < fs->nr_files; i++) {
		if (!fs_file_visible(fs, n, &fs->files[i]))
			continue;
		ent.name = g_strdup(fs->files[i].name);
		ent.idx = i + 1;
		g_array_append_val(d->ents, ent);
	}
	ent.idx = 0;
	unsigned nr = 0;
	struct mcg_cgroup **kids = mcg_cgroup_children(fs->e, n->cg, &nr);
	for (unsigned i = 0; i < nr; i++) {
		ent.name = mcg_cgroup_name(fs->e, kids[i]);
		ent.id = mcg_cgroup_id(kids[i]);
		g_array_append_val(d->ents, ent);
		mcg_cgroup_put(kids[i]);
	}
	g_free(kids);
}

static void dir_free(struct fs_handle *h)
{
	struct fs_dir *d = (struct fs_dir *)h;

	if (d->ents)
		g_array_free(d->ents, TRUE);
	pthread_mutex_destroy(&d->lock);
	g_free(d);
}

static void fs_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct mcgfs *fs = fs_of(req);
	struct fs_dir *d;

	if (!dir_of(req, ino))
		return;
	d = g_new0(struct fs_dir, 1);
	pthread_mutex_init(&d->lock, NULL);
	handle_add(fs, &d->h, dir_free);
	fi->fh = (uintptr_t)d;
	if (fuse_reply_open(req, fi) != 0) {
		handle_del(fs, &d->h);
		dir_free(&d->h);
	}
}

static void fs_readdir_common(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			      struct fuse_file_info *fi, bool plus)
{
	struct mcgfs *fs = fs_of(req);
	struct fs_dir *d = (struct fs_dir *)(uintptr_t)fi->fh;
	unsigned idx;
	struct fs_node *n = ino_node(fs, ino, &idx);
	g_autofree char *buf = g_malloc(size);
	bool active = fs_node_get_active(n);
	size_t pos = 0;

	pthread_mutex_lock(&d->lock);
	if (off == 0 || !d->ents)
		dir_snapshot(fs, n, active, d);
	for (size_t i = (size_t)off; i < d->ents->len; i++) {
		struct fs_dirent *ent = &g_array_index(d->ents, struct fs_dirent, i);
		struct fuse_entry_param e = { 0 };
		struct fs_node *target = n;
		struct mcg_cgroup *cg = NULL;
		size_t len;

		if (ent->id) {
			/* The child named, unless it was removed (or renamed,
			 * and another took its name) since the snapshot. */
			cg = active ? mcg_cgroup_lookup_child(fs->e, n->cg, ent->name) : NULL;
			if (!cg || mcg_cgroup_id(cg) != ent->id) {
				mcg_cgroup_put(cg);
				continue;
			}
		}
		pthread_mutex_lock(&fs->lock);
		if (cg)
			target = node_get_locked(fs, cg);
		if (!target) {
			pthread_mutex_unlock(&fs->lock);
			mcg_cgroup_put(cg);
			continue;
		}
		node_entry_locked(fs, target, ent->idx, &e);
		if (i < 2) {
			/* Dots carry no entry (the kernel would ignore it):
			 * no lookup is counted for them. */
			e.ino = 0;
		}
		if (plus)
			len = fuse_add_direntry_plus(req, buf + pos, size - pos, ent->name, &e,
						     (off_t)i + 1);
		else
			len = fuse_add_direntry(req, buf + pos, size - pos, ent->name, &e.attr,
						(off_t)i + 1);
		if (plus && e.ino && len <= size - pos) {
			target->nlookup++;
			if (ent->idx)
				fs_inotify_looked_up(fs, target, ent->idx);
		}
		pthread_mutex_unlock(&fs->lock);
		mcg_cgroup_put(cg);
		if (len > size - pos)
			break;
		pos += len;
	}
	pthread_mutex_unlock(&d->lock);
	if (active)
		fs_node_put_active(n);
	fuse_reply_buf(req, buf, pos);
}

static void fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	fs_readdir_common(req, ino, size, off, fi, false);
}

static void fs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			   struct fuse_file_info *fi)
{
	fs_readdir_common(req, ino, size, off, fi, true);
}

static void fs_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct fs_dir *d = (struct fs_dir *)(uintptr_t)fi->fh;

	handle_del(fs_of(req), &d->h);
	dir_free(&d->h);
	fuse_reply_err(req, 0);
}

/* ---- Session ---------------------------------------------------------------------- */

static void fs_init(void *userdata, struct fuse_conn_info *conn)
{
	struct mcgfs *fs = userdata;

	if (conn->capable & FUSE_CAP_READDIRPLUS)
		conn->want |= FUSE_CAP_READDIRPLUS;
	conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
	if (conn->capable & FUSE_CAP_PARALLEL_DIROPS)
		conn->want |= FUSE_CAP_PARALLEL_DIROPS;
	/* O_TRUNC comes with OPEN: `echo 1 > file` needs no SETATTR. */
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	conn->want &= ~(FUSE_CAP_SPLICE_READ | FUSE_CAP_SPLICE_WRITE | FUSE_CAP_SPLICE_MOVE);
	/* --pagecache: a size change cuts the page cache to the new size and
	 * keeps the text stored before it (fuse_change_attributes()). */
	if (fs->opt->pagecache) {
		conn->want &= ~FUSE_CAP_AUTO_INVAL_DATA;
		if (conn->capable & FUSE_CAP_EXPLICIT_INVAL_DATA)
			conn->want |= FUSE_CAP_EXPLICIT_INVAL_DATA;
	}
	conn->max_read = fs->opt->max_read;
	conn->time_gran = 1;
}

static const struct fuse_lowlevel_ops fs_ops = {
	.init = fs_init,
	.lookup = fs_lookup,
	.forget = fs_forget,
	.forget_multi = fs_forget_multi,
	.getattr = fs_getattr,
	.setattr = fs_setattr,
	.mkdir = fs_mkdir,
	.rmdir = fs_rmdir,
	.rename = fs_rename,
	.unlink = fs_unlink,
	.create = fs_create,
	.mknod = fs_mknod,
	.symlink = fs_symlink,
	.link = fs_link,
	.statfs = fs_statfs,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.release = fs_release,
	.poll = fs_poll,
	.opendir = fs_opendir,
	.readdir = fs_readdir,
	.readdirplus = fs_readdirplus,
	.releasedir = fs_releasedir,
	.fsyncdir = fs_fsyncdir,
	.setxattr = fs_setxattr,
	.getxattr = fs_getxattr,
	.listxattr = fs_listxattr,
	.removexattr = fs_removexattr,
};

struct mcgfs *mcgfs_new(const struct mcgfs_options *o)
{
	struct mcgfs *fs = g_new0(struct mcgfs, 1);
	g_autofree char *max_read = g_strdup_printf("-omax_read=%u", o->max_read);

	fs->opt = o;
	fs->hier = o->engine.hierarchy;
	fs->files = fs_files_of(fs->hier, mcg_kernel_release(&o->engine.kernel), &fs->nr_files);
	fs->file_index = g_hash_table_new(g_str_hash, g_str_equal);
	for (unsigned i = 0; i < fs->nr_files; i++)
		g_hash_table_insert(fs->file_index, (gpointer)fs->files[i].name,
				    GUINT_TO_POINTER(i + 1));
	fs->uid = getuid();
	fs->gid = getgid();
	pthread_mutex_init(&fs->lock, NULL);
	pthread_mutex_init(&fs->ctl_lock, NULL);
	pthread_mutex_init(&fs->ioc_lock, NULL);
	fs_notify_init(fs);
	pthread_mutex_init(&fs->handles_lock, NULL);
	fs->handles.next = fs->handles.prev = &fs->handles;
	fs->nodes = g_hash_table_new(g_int64_hash, g_int64_equal);
	fs->zombies = g_hash_table_new(g_direct_hash, g_direct_equal);
	atomic_init(&fs->vm_swappiness, 60);
	atomic_init(&fs->nr_limited, 0);
	for (unsigned i = 0; i < FS_IDX_LIMIT; i++) {
		atomic_init(&fs->renders[i], 0);
		atomic_init(&fs->render_ns[i], 0);
	}

	/* The kernel checks modes (default_permissions) as it does on cgroupfs;
	 * everyone may look, as on cgroupfs, when root mounts. */
	if (fuse_opt_add_arg(o->fuse_args, max_read) != 0 ||
	    fuse_opt_add_arg(o->fuse_args, "-odefault_permissions") != 0 ||
	    (getuid() == 0 && fuse_opt_add_arg(o->fuse_args, "-oallow_other") != 0))
		goto fail;
	fs->se = fuse_session_new(o->fuse_args, &fs_ops, sizeof(fs_ops), fs);
	if (!fs->se)
		goto fail;
	return fs;
fail:
	mcgfs_free(fs);
	return NULL;
}

/* The device number of the memcgfs mount at mnt (canonical, as libfuse
 * made it): the last fuse.memcgfs line of /proc/self/mountinfo there, the
 * one just mounted over any older.  Read from the table, not by stat(),
 * which would ask this daemon before it serves.  0 if not found. */
static dev_t mount_device(const char *mnt)
{
	char line[4096];
	dev_t dev = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned major, minor;
		char point[PATH_MAX], *sep;

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &major, &minor, point) != 3)
			continue;
		sep = strstr(line, " - ");
		if (strcmp(point, mnt) == 0 && sep && g_str_has_prefix(sep, " - fuse.memcgfs "))
			dev = makedev(major, minor);
	}
	fclose(f);
	return dev;
}

int mcgfs_mount(struct mcgfs *fs)
{
	/* libfuse leaves an ignored signal ignored, and a shell starts
	 * background jobs with SIGINT ignored: SIGINT and SIGTERM always end
	 * memcgfs cleanly.  SIGHUP keeps an inherited ignore (nohup). */
	static const int sigs[] = { SIGINT, SIGTERM };
	for (unsigned i = 0; i < G_N_ELEMENTS(sigs); i++) {
		struct sigaction sa;

		if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			signal(sigs[i], SIG_DFL);
	}
	if (fuse_set_signal_handlers(fs->se) != 0)
		return -1;
	fs->signals = true;
	if (fuse_session_mount(fs->se, fs->opt->mountpoint) != 0)
		return -1;
	fs->mounted = true;
	fs->dev = mount_device(fs->opt->mountpoint);
	/* On stdout, which a daemon's starter may send away (memcgfs-bench
	 * does); errors stay on stderr. */
	if (fs->opt->foreground) {
		printf("memcgfs: mounted at %s (cgroup %s); fusermount3 -u %s or Ctrl-C unmounts\n",
		       fs->opt->mountpoint, fs->hier == MCG_HIERARCHY_V1 ? "v1" : "v2",
		       fs->opt->mountpoint);
		fflush(stdout);
	}
	return 0;
}

void mcgfs_daemonize(struct mcgfs *fs)
{
	sigset_t set;

	fuse_daemonize(fs->opt->foreground);
	/* Only the thread in the session loop may take the signals that end
	 * it: a handler run on another thread (the engine's flusher) would set
	 * the exit flag without waking the loop.  Threads started from here on
	 * inherit the mask; mcgfs_run() unblocks them in its own thread. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void free_nodes(struct mcgfs *fs)
{
	GHashTableIter it;
	gpointer key, value;

	g_hash_table_iter_init(&it, fs->nodes);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		g_hash_table_iter_steal(&it);
		node_free(fs, value);
	}
	g_hash_table_iter_init(&it, fs->zombies);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		g_hash_table_iter_steal(&it);
		node_free(fs, key);
	}
	fs->root = NULL;
}

int mcgfs_run(struct mcgfs *fs, struct mcg_engine *e, struct mcg_workload *wl,
	      struct mcg_host *host)
{
	struct fuse_loop_config *loop;
	sigset_t set;
	int ret;

	fs->e = e;
	fs->wl = wl;
	fs->host = host;
	pthread_mutex_lock(&fs->lock);
	fs->root = node_get_locked(fs, mcg_engine_root(e));
	pthread_mutex_unlock(&fs->lock);

	loop = fuse_loop_cfg_create();
	if (!loop) {
		free_nodes(fs);
		return -1;
	}
	fuse_loop_cfg_set_clone_fd(loop, fs->opt->clone_fd);
	fuse_loop_cfg_set_max_threads(loop, fs->opt->max_threads);
	if (fs->opt->max_idle_threads != UINT_MAX)
		fuse_loop_cfg_set_idle_threads(loop, fs->opt->max_idle_threads);

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	if (fs_notify_start(fs) != 0 || fs_inotify_start(fs) != 0) {
		fs_notify_stop(fs);
		fuse_loop_cfg_destroy(loop);
		free_nodes(fs);
		return -1;
	}
	/* Several threads by default: a slow request (memory.reclaim) must not
	 * hold up the others, and RELEASE, which a reader does not wait for,
	 * runs beside the next OPEN.  One thread was slower with direct I/O
	 * and faster with --pagecache; 4 or 8 threads the same
	 * (doc/read-path.md has the figures). */
	if (fs->opt->single_thread)
		ret = fuse_session_loop(fs->se);
	else
		ret = fuse_session_loop_mt(fs->se, loop);
	fuse_loop_cfg_destroy(loop);
	fs_notify_stop(fs);
	fs_inotify_stop(fs);

	/* No request is served any more: drop what is still open, every node
	 * and their cgroup references while the engine is still there. */
	free_handles(fs);
	free_nodes(fs);
	fs->e = NULL;
	fs->wl = NULL;
	fs->host = NULL;
	return ret < 0 ? -1 : 0;
}

void mcgfs_unmount(struct mcgfs *fs)
{
	if (fs->mounted)
		fuse_session_unmount(fs->se);
	fs->mounted = false;
	if (fs->signals)
		fuse_remove_signal_handlers(fs->se);
	fs->signals = false;
}

void mcgfs_free(struct mcgfs *fs)
{
	if (!fs)
		return;
	mcgfs_unmount(fs);
	if (fs->se)
		fuse_session_destroy(fs->se);
	/* its last write, if any, failed once the connection went */
	fs_inotify_join(fs);
	free_nodes(fs);
	g_hash_table_destroy(fs->zombies);
	g_hash_table_destroy(fs->nodes);
	g_hash_table_destroy(fs->file_index);
	pthread_mutex_destroy(&fs->handles_lock);
	fs_notify_free(fs);
	pthread_mutex_destroy(&fs->ioc_lock);
	pthread_mutex_destroy(&fs->ctl_lock);
	pthread_mutex_destroy(&fs->lock);
	g_free(fs->release_agent);
	g_free(fs->files);
	g_free(fs);
}
