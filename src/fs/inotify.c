/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inotify: IN_MODIFY on the files the kernel notifies (see internal.h). */
#define _GNU_SOURCE	/* gettid() */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fs/internal.h"
#include "workload/workload.h"

/*
 * Inotify
 * -------
 * cgroup_file_notify() (kernel/cgroup/cgroup.c) wakes pollers and also
 * raises IN_MODIFY on the file (kernfs_notify() -> fsnotify on the kernfs
 * inode), which is what inotify clients of cgroup.events and memory.events
 * wait for: systemd's unit population tracking, containerd's OOM events,
 * the kernel's own selftests (cg_wait_for()).  A FUSE server has no way to
 * raise an fsnotify event, but the VFS raises IN_MODIFY on every
 * successful write(2) to a file, whoever writes it (vfs_write() ->
 * fsnotify_modify()).  So a thread of the daemon writes a byte to each
 * such file that changed, through the mount, and the write handler takes
 * that thread's write (known by its thread id, which FUSE passes as the
 * request's pid) as a no-op.
 *
 * Which files: those of the notifying kind (FS_NOTIFY: cgroup.events,
 * memory.events, memory.events.local, memory.swap.events) that the kernel
 * looked up, cgroup by cgroup; a watch resolves the path, which reaches
 * the daemon the first time.  Every NOTIFY_INTERVAL (10 ms,
 * CGROUP_FILE_NOTIFY_MIN_INTV, the kernel's own rate per file) the thread
 * takes a cheap stamp of each: the sum of the event counts the file shows
 * (memcg_memory_event() notifies events_file up the tree and
 * events_local_file on the memcg itself; swap events the swap_events_file),
 * and for cgroup.events the flips of populated and frozen.  A stamp that
 * moved gets one write.  No rendering, so watching costs a few loads per
 * file a tick, and writes only when something changed.
 *
 * What differs from the kernel: the write comes with the daemon's open
 * and close, so a watcher that asks for IN_OPEN or IN_CLOSE_WRITE sees
 * those too (an IN_MODIFY watcher, as the clients above are, sees only
 * the modify); a change is told up to a tick late, so one made up to a
 * tick before a watch was set may be told to it too; it needs the daemon
 * to be root (the files are 0444, which only CAP_DAC_OVERRIDE opens for
 * writing: a user's daemon raises nothing); the daemon's writes keep its
 * mount busy for a moment, so an unmount without -z (lazy) that meets one
 * fails with EBUSY; and a cgroup whose files were looked up is stamped
 * every tick until it is removed or the kernel forgets its inodes
 * (FUSE_FORGET: its node's nlookup falls to 0), which it does not while
 * an inotify watch holds one of them.
 */

#define INOTIFY_INTERVAL_NS (10 * 1000 * 1000)	/* CGROUP_FILE_NOTIFY_MIN_INTV */

enum watch_kind { W_CGROUP_EVENTS, W_EVENTS, W_EVENTS_LOCAL, W_SWAP_EVENTS, W_NR };

/* A cgroup whose notifying files the kernel looked up: fs->lock. */
struct fs_watch {
	unsigned idx[W_NR];		/* the file's index (node ino), 0: not looked up */
	uint64_t stamp[W_NR];
	bool primed[W_NR];		/* stamp taken */
};

/* A file to stamp this tick, with what it needs outside fs->lock. */
struct watch_look {
	uint64_t id;
	struct mcg_cgroup *cg;		/* a reference */
	uint64_t flips;			/* cgroup.events' frozen flips */
	uint64_t stamp[W_NR];
	unsigned idx[W_NR];		/* then: the files to write to */
	bool moved;
	char *path;			/* the cgroup's, from the mount point */
};

static int watch_kind_of(const struct fs_file *f)
{
	static const char *const names[W_NR] = { "cgroup.events", "memory.events",
						 "memory.events.local", "memory.swap.events" };

	for (int k = 0; k < W_NR; k++)
		if (!strcmp(f->name, names[k]))
			return k;
	return -1;
}

static uint64_t events_sum(const struct mcg_cgroup *memcg, bool local, bool swap)
{
	uint64_t sum = 0;

	for (int ev = swap ? MCG_MEMORY_SWAP_HIGH : MCG_MEMORY_LOW;
	     ev < (swap ? MCG_NR_MEMORY_EVENTS : MCG_MEMORY_SWAP_HIGH); ev++)
		sum += mcg_memory_event_read(memcg, ev, local);
	return sum;
}

/* The stamp of file kind k of cgroup cg now; frozen_flips the node's. */
static uint64_t stamp_of(struct mcgfs *fs, struct mcg_cgroup *cg, int k, uint64_t frozen_flips)
{
	struct mcg_cgroup *memcg;
	uint64_t stamp = 0;

	if (k == W_CGROUP_EVENTS) {
		mcg_workload_cgroup_populated(fs->wl, cg, &stamp);
		return stamp + frozen_flips;
	}
	memcg = mcg_cgroup_memcg(fs->e, cg);
	if (memcg) {
		stamp = events_sum(memcg, k == W_EVENTS_LOCAL, k == W_SWAP_EVENTS);
		mcg_cgroup_put(memcg);
	}
	return stamp;
}

void fs_inotify_looked_up(struct mcgfs *fs, struct fs_node *n, unsigned idx)
{
	const struct fs_file *f = &fs->files[idx - 1];
	struct fs_watch *w;
	int k;

	/* caller holds fs->lock */
	if (!fs->watches || !(f->flags & FS_NOTIFY) || (k = watch_kind_of(f)) < 0)
		return;
	w = g_hash_table_lookup(fs->watches, &n->id);
	if (!w) {
		uint64_t *key = g_new(uint64_t, 1);

		*key = n->id;
		w = g_new0(struct fs_watch, 1);
		g_hash_table_insert(fs->watches, key, w);
	}
	w->idx[k] = idx;
	/* a watch set now hears the next change: stamped at once, not at
	 * the next tick (n->cg is valid: fs->lock, a node looked up) */
	if (!w->primed[k] && !n->removed) {
		w->stamp[k] = stamp_of(fs, n->cg, k, atomic_load(&n->st.frozen_flips));
		w->primed[k] = true;
	}
}

bool fs_inotify_is_writer(struct mcgfs *fs, pid_t tid)
{
	return tid && tid == atomic_load(&fs->inotify_tid);
}

/* The cgroup's path below the mount point, "" for the root. */
static char *cgroup_path(struct mcg_engine *e, struct mcg_cgroup *cg)
{
	GString *path = g_string_new(NULL);

	for (; !mcg_cgroup_is_root(cg); cg = mcg_cgroup_parent(cg)) {
		g_autofree char *name = mcg_cgroup_name(e, cg);

		g_string_prepend(path, name);
		g_string_prepend_c(path, '/');
	}
	return g_string_free(path, FALSE);
}

/* One tick: stamps every watched file, writes to those that moved.
 * Returns false once the thread is to stop. */
static bool inotify_tick(struct mcgfs *fs)
{
	g_autoptr(GArray) looks = g_array_new(FALSE, TRUE, sizeof(struct watch_look));
	GHashTableIter it;
	gpointer key, value;

	pthread_mutex_lock(&fs->lock);
	if (atomic_load(&fs->inotify_stop)) {
		pthread_mutex_unlock(&fs->lock);
		return false;
	}
	g_hash_table_iter_init(&it, fs->watches);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		struct fs_node *n = g_hash_table_lookup(fs->nodes, key);
		struct fs_watch *w = value;
		struct watch_look l = { 0 };

		/* nlookup 0: the kernel forgot every inode of the cgroup, and
		 * an inotify watch pins its inode, so none watches it now */
		if (!n || n->removed || n->nlookup == 0) {
			g_hash_table_iter_remove(&it);
			continue;
		}
		l.id = n->id;
		l.cg = mcg_cgroup_get(n->cg);	/* valid: fs->lock, !removed */
		l.flips = atomic_load(&n->st.frozen_flips);
		memcpy(l.idx, w->idx, sizeof(l.idx));
		g_array_append_val(looks, l);
	}
	fs->inotify_scanning = true;
	pthread_mutex_unlock(&fs->lock);

	for (unsigned i = 0; i < looks->len; i++) {
		struct watch_look *l = &g_array_index(looks, struct watch_look, i);

		for (int k = 0; k < W_NR; k++)
			if (l->idx[k])
				l->stamp[k] = stamp_of(fs, l->cg, k, l->flips);
	}

	/* Which moved */
	pthread_mutex_lock(&fs->lock);
	for (unsigned i = 0; i < looks->len; i++) {
		struct watch_look *l = &g_array_index(looks, struct watch_look, i);
		struct fs_watch *w = g_hash_table_lookup(fs->watches, &l->id);

		for (int k = 0; k < W_NR; k++) {
			if (!l->idx[k])
				continue;
			if (!w || !w->primed[k] || w->stamp[k] == l->stamp[k])
				l->idx[k] = 0;	/* nothing to write */
			else
				l->moved = true;
			if (w) {
				w->stamp[k] = l->stamp[k];
				w->primed[k] = true;
			}
		}
	}
	pthread_mutex_unlock(&fs->lock);
	/* ... their paths; and every reference goes before any write, which
	 * waits on this daemon, which may be stopping (fs_inotify_stop()) */
	for (unsigned i = 0; i < looks->len; i++) {
		struct watch_look *l = &g_array_index(looks, struct watch_look, i);

		if (l->moved)
			l->path = cgroup_path(fs->e, l->cg);
		mcg_cgroup_put(l->cg);
	}
	pthread_mutex_lock(&fs->lock);
	fs->inotify_scanning = false;
	pthread_cond_broadcast(&fs->inotify_cond);
	pthread_mutex_unlock(&fs->lock);

	for (unsigned i = 0; i < looks->len; i++) {
		struct watch_look *l = &g_array_index(looks, struct watch_look, i);

		for (int k = 0; l->path && k < W_NR; k++) {
			g_autofree char *file = NULL;
			int fd;

			if (!l->idx[k] || atomic_load(&fs->inotify_stop))
				continue;
			file = g_strdup_printf("%s%s/%s", fs->opt->mountpoint, l->path,
					       fs->files[l->idx[k] - 1].name);
			fd = open(file, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
			if (fd < 0)
				continue;	/* gone, or not root */
			(void)!write(fd, "\n", 1);
			close(fd);
		}
		g_free(l->path);
	}
	return true;
}

static void *inotify_main(void *arg)
{
	struct mcgfs *fs = arg;
	struct timespec next;

	atomic_store(&fs->inotify_tid, gettid());
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (inotify_tick(fs)) {
		next.tv_nsec += INOTIFY_INTERVAL_NS;
		if (next.tv_nsec >= 1000000000) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		clock_gettime(CLOCK_MONOTONIC, &next);
	}
	return NULL;
}

int fs_inotify_start(struct mcgfs *fs)
{
	int err;

	if (!fs->opt->mountpoint)
		return 0;
	fs->watches = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
	pthread_cond_init(&fs->inotify_cond, NULL);
	atomic_store(&fs->inotify_stop, false);
	err = pthread_create(&fs->inotify_thread, NULL, inotify_main, fs);
	if (err) {
		g_hash_table_destroy(fs->watches);
		fs->watches = NULL;
		pthread_cond_destroy(&fs->inotify_cond);
		return -err;
	}
	pthread_setname_np(fs->inotify_thread, "inotify");
	fs->inotify_running = true;
	return 0;
}

void fs_inotify_stop(struct mcgfs *fs)
{
	if (!fs->inotify_running)
		return;
	pthread_mutex_lock(&fs->lock);
	atomic_store(&fs->inotify_stop, true);
	while (fs->inotify_scanning)
		pthread_cond_wait(&fs->inotify_cond, &fs->lock);
	pthread_mutex_unlock(&fs->lock);
}

void fs_inotify_join(struct mcgfs *fs)
{
	if (!fs->inotify_running)
		return;
	pthread_join(fs->inotify_thread, NULL);
	fs->inotify_running = false;
	pthread_cond_destroy(&fs->inotify_cond);
	g_hash_table_destroy(fs->watches);
	fs->watches = NULL;
}
