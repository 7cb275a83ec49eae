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
struct fuse_pollhandle;

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
	/* A cgroup core file named like a controller's (memory.pressure,
	 * io.pressure, cpu.stat): there whatever the parent enables. */
	FS_CORE = 1 << 3,
	/* {cpu,memory,io}.pressure: hidden while cgroup.pressure is 0
	 * (cgroup_pressure_write() -> cgroup_file_show()). */
	FS_PSI = 1 << 4,
	/* cgroup_file_notify() raises poll on it when it changes. */
	FS_NOTIFY = 1 << 5,
	/* cgroup.procs, cgroup.threads, tasks: a write migrates a task, with
	 * permission checks on the opener's groups, kept at open. */
	FS_MIGRATE = 1 << 6,
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
	/* The v2 controller whose file this is (enum fs_controller), 0 for
	 * core and emulator files: set by fs_files_of() from the name, as
	 * cgroup_file_name() prefixes a cftype with its subsystem's. */
	unsigned short ctrl;
};

/* cgroup files set atomic_write_len = PAGE_SIZE: kernfs takes a write of
 * up to a page whole, and refuses a longer one with E2BIG. */
#define FS_WRITE_MAX 4096

/* Index 0 is a cgroup's directory, 1..nr its files (table row + 1).  Tables
 * stay below FS_IDX_LIMIT rows so an index fits in a node pointer's low
 * bits (see fs.c). */
#define FS_IDX_BITS 7
#define FS_IDX_LIMIT (1u << FS_IDX_BITS)

/* The files of hierarchy h as kernel release `release` (MCG_KVER()) has
 * them, in table order, and their number in *nr; allocated (g_free()). */
struct fs_file *fs_files_of(enum mcg_hierarchy h, unsigned release, unsigned *nr);
/* Does this row exist in a cgroup directory (root or not), before the
 * controllers and cgroup.pressure are considered (fs_file_visible())? */
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
	atomic_bool threaded;		/* cgroup.type "threaded": ctl_lock to write */
	atomic_bool oom_kill_disable;	/* v1 */
	atomic_bool clone_children;	/* v1 */
	atomic_bool notify_on_release;	/* v1 */
	atomic_uint swappiness;		/* v1, non-root */
	atomic_uint move_charge;	/* v1 */
	atomic_ulong soft_limit;	/* v1, pages */
	atomic_ulong zswap_max;		/* pages */
	atomic_bool zswap_writeback;
	atomic_bool psi_enabled;	/* cgroup.pressure */
	atomic_uint io_weight;		/* io.weight "default", 1..10000 */

	/* Written with fs->ctl_lock and fs->lock held, read under either. */
	bool e_freeze;			/* frozen here or by an ancestor */
	uint64_t frozen_ns;		/* closed frozen intervals (cgroup.stat.local) */
	uint64_t freeze_start_ns;	/* CLOCK_MONOTONIC start of the open one */
	/* Changes of e_freeze, cgroup.events' frozen (read by anyone). */
	_Atomic uint64_t frozen_flips;
	/* io.max per emulated device: read/write bytes and ios per second,
	 * UINT64_MAX / UINT_MAX for "max" (struct throtl_grp bps[], iops[]). */
	struct { uint64_t bps[2]; unsigned iops[2]; } io_max[MCG_IO_NR_DEVS];
	/* v2: the controllers this cgroup has, its cgroup.controllers: the
	 * parent's subtree_control (cgroup_control()), all on the root.
	 * Written under fs->ctl_lock and fs->lock. */
	atomic_uint controllers;
	/* iocost per emulated device, protected by fs->ioc_lock: the weight
	 * io.weight gave the device (struct ioc_gq cfg_weight, 0 for none),
	 * and what cost.usage is made of (files.c, "iocost usage"): the
	 * absolute vtime charged in closed intervals, and the hierarchical
	 * io.stat counters when the open interval began. */
	struct fs_iocg {
		unsigned cfg_weight;
		uint64_t abs_vusage;
		uint64_t bytes[2], ios[2];	/* MCG_IO_READ, MCG_IO_WRITE */
	} iocg[MCG_IO_NR_DEVS];
};

/* ---- iocost (block/blk-iocost.c) ---------------------------------------------
 *
 * The io controller's cost model per emulated device, the kernel's struct
 * ioc: made by the first io.cost.qos or io.cost.model write naming the
 * device (blk_iocost_init()), then kept for the mount's life.  One per
 * mount per device in struct mcgfs, protected by fs->ioc_lock (ioc->lock).
 */
enum fs_ioc_qos {	/* ioc_params.qos[] */
	FS_QOS_RPPM, FS_QOS_RLAT, FS_QOS_WPPM, FS_QOS_WLAT, FS_QOS_MIN, FS_QOS_MAX,
	FS_NR_QOS,
};
enum fs_ioc_i_lcoef {	/* ioc_params.i_lcoefs[] */
	FS_I_LCOEF_RBPS, FS_I_LCOEF_RSEQIOPS, FS_I_LCOEF_RRANDIOPS,
	FS_I_LCOEF_WBPS, FS_I_LCOEF_WSEQIOPS, FS_I_LCOEF_WRANDIOPS,
	FS_NR_I_LCOEFS,
};
enum fs_ioc_lcoef {	/* ioc_params.lcoefs[], vtime per page / per IO */
	FS_LCOEF_RPAGE, FS_LCOEF_RSEQIO, FS_LCOEF_RRANDIO,
	FS_LCOEF_WPAGE, FS_LCOEF_WSEQIO, FS_LCOEF_WRANDIO,
	FS_NR_LCOEFS,
};

struct fs_ioc {
	bool present;			/* blk_iocost_init() ran */
	bool enabled;
	bool user_qos_params;
	bool user_cost_model;
	uint32_t qos[FS_NR_QOS];
	uint64_t i_lcoefs[FS_NR_I_LCOEFS];
	uint64_t lcoefs[FS_NR_LCOEFS];	/* ioc_refresh_lcoefs() of i_lcoefs */
};

/* chmod/chown of one entry of a directory. */
/* A kernfs node's owner, mode and times.  The times are the node's
 * creation until it has iattrs (struct kernfs_iattrs), which a setattr,
 * an xattr or a creator other than root gives it; kernfs_iattrs() stamps
 * all three "now" when it allocates them, then setattrs and, for a
 * directory, child changes move them (fs_setattr(), touch_dir_locked()). */
struct fs_attr {
	mode_t mode;	/* permission bits */
	uid_t uid;
	gid_t gid;
	bool iattr;	/* has kernfs iattrs */
	struct timespec atime, mtime, ctime;
};

/* A node's attributes as kernfs makes them: no iattrs, times all t. */
static inline void fs_attr_init(struct fs_attr *a, mode_t mode, uid_t uid, gid_t gid,
				const struct timespec *t)
{
	*a = (struct fs_attr){ mode, uid, gid, false, *t, *t, *t };
}

/* kernfs_iattrs(): the node's iattrs, made with all times now. */
static inline void fs_attr_iattrs(struct fs_attr *a, const struct timespec *now)
{
	if (!a->iattr) {
		a->iattr = true;
		a->atime = a->mtime = a->ctime = *now;
	}
}

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
	/* Immutable; the node's reference on it is held while the node is
	 * active: a removed node's is put by the last of rmdir and the calls
	 * then in flight, so dereference it only under an active reference
	 * (fs_node_get_active()) or with fs->lock held and !removed. */
	struct mcg_cgroup *cg;
	uint64_t id;			/* mcg_cgroup_id(), immutable */
	bool is_root;			/* immutable */
	struct timespec btime;		/* creation, immutable */

	/* Inode lifetime: protected by fs->lock. */
	uint64_t nlookup;		/* kernel lookups of the dir and its files */
	bool removed;			/* rmdir done, out of fs->nodes */
	/* Calls using cg now, plus FS_NODE_DEACTIVATED_BIAS once rmdir
	 * deactivated the node (fs.c, "Active references"). */
	atomic_int active;

	/* Attributes: protected by fs->lock. */
	struct fs_attr *attrs;		/* [nr_files + 1], index as above */
	/* Extended attributes of the directory and its files: "idx:name" ->
	 * GBytes value; NULL until the first is set. */
	GHashTable *xattrs;
	struct fs_cached *cached;	/* likewise, --pagecache only, else NULL */
	/* The open memory.peak and memory.swap.peak files written at least
	 * once (memcg->memory_peaks, swap_peaks): protected by fs->lock. */
	GList *peak_watchers;

	struct fs_cgstate st;		/* atomics, see above */
} __attribute__((aligned(FS_IDX_LIMIT)));

#define FS_PEAK_UNSET ((unsigned long)-1)

/* Every open file and directory is on fs->handles until its RELEASE.  The
 * kernel sends no RELEASE for what is still open when the file system goes
 * (SIGTERM, fusermount3 -u with open files): mcgfs_run() frees what is left
 * on the list once no request is served any more. */
struct fs_handle {
	struct fs_handle *prev, *next;	/* protected by fs->handles_lock */
	void (*free)(struct fs_handle *h);
};

/* An open file (fi->fh): the seq_file of a FUSE file. */
struct fs_open {
	struct fs_handle h;		/* on fs->handles; first: open_free() casts */
	struct mcgfs *fs;		/* immutable */
	struct fs_node *node;		/* pinned by the kernel's open dentry */
	const struct fs_file *file;
	pthread_mutex_t lock;		/* serialises reads and writes of this fd */
	GString *text;			/* rendered snapshot; protected by lock */
	off_t next;			/* offset after the last read; protected by lock */
	/* memory.peak fd value, pages: written with fs->lock held (one fd's
	 * write raises its peers', peak_write()); atomic. */
	_Atomic unsigned long peak;
	/* A memory file's css at the open (its engine id; 0: none), which
	 * every call must still find.  Immutable. */
	uint64_t memcg_id;
	bool psi_trigger;		/* a PSI trigger set; protected by lock */
	bool inotify_writer;		/* opened by the inotify thread; immutable */
	/* The opener's credentials (file->f_cred), which the kernel asks
	 * rather than the writer's: its fsuid (__cgroup1_procs_write()),
	 * and whether it had CAP_SYS_RESOURCE (psi_trigger_create(); PSI
	 * files opened for writing only).  Immutable. */
	uid_t opener_uid;
	bool opener_sys_resource;
	/* FS_MIGRATE files opened for writing: the opener's fsgid and
	 * supplementary groups (g_free()d with of), and whether it had
	 * CAP_DAC_OVERRIDE.  Immutable. */
	gid_t opener_gid;
	gid_t *opener_groups;
	int nr_opener_groups;
	bool opener_dac_override;
	bool cached;			/* text rendered at open, in the page cache;
					 * immutable after open */
	/* The trigger (psi_trigger_create()): what it watches, set once with
	 * psi_trigger under lock; its window and event, protected by
	 * fs->notify_lock (notify.c). */
	bool psi_full;
	bool psi_privileged;		/* CAP_SYS_RESOURCE: checked every tick (PSI_POLL),
					 * else with the 2 s averages (PSI_AVGS) */
	uint64_t psi_threshold_ns, psi_window_ns;
	/* struct psi_window and the trigger's state (kernel/sched/psi.c) */
	uint64_t psi_win_start_ns, psi_win_start_value, psi_win_prev_growth;
	uint64_t psi_seen_total, psi_last_event_ns, psi_next_check_ns;
	bool psi_pending, psi_event;
	/* Poll (notify.c): the text this fd last read or opened, hashed,
	 * and a waiting poll's handle, protected by fs->notify_lock. */
	_Atomic uint64_t seen;
	struct fuse_pollhandle *ph;
};

struct mcgfs {
	const struct mcgfs_options *opt;
	struct fuse_session *se;
	struct mcg_engine *e;		/* set by mcgfs_run() before serving */
	struct mcg_workload *wl;	/* likewise: mkdir, rmdir, limits, profiles */
	struct mcg_host *host;		/* likewise: host tasks in cgroups */
	enum mcg_hierarchy hier;
	struct fs_file *files;	/* fs_files_of(), immutable once mounted */
	unsigned nr_files;
	GHashTable *file_index;		/* name -> row index + 1; immutable */
	uid_t uid;			/* owner of new entries: the daemon's */
	gid_t gid;
	bool mounted;
	bool signals;
	dev_t dev;			/* the mount's device, set once mounted */

	pthread_mutex_t lock;		/* nodes, lookup counts, attributes */
	GHashTable *nodes;		/* id -> online node; protected by lock */
	GHashTable *zombies;		/* removed nodes still counted; protected by lock */
	struct fs_node *root;		/* never freed before mcgfs_free() */
	char *release_agent;		/* v1 root; protected by lock */

	pthread_mutex_t ctl_lock;	/* subtree_control writes, mkdir limit checks */

	/* iocost: taken after fs->lock when both are held. */
	pthread_mutex_t ioc_lock;
	struct fs_ioc ioc[MCG_IO_NR_DEVS];	/* protected by ioc_lock */

	pthread_mutex_t handles_lock;
	struct fs_handle handles;	/* list head; protected by handles_lock */

	/* The daemon's own cost of rendering (memcgfs.read_stats): successful
	 * show() calls and the nanoseconds they took, per file, indexed by
	 * row of fs->files (idx - 1).  Atomic adds from any FUSE thread,
	 * once per render: the time relaxed, then the count with release. */
	_Atomic uint64_t renders[FS_IDX_LIMIT];
	_Atomic uint64_t render_ns[FS_IDX_LIMIT];

	/* Notification (notify.c): the notifier thread, the open files with
	 * a waiting poll, the cgroup.event_control registrations. */
	pthread_mutex_t notify_lock;
	pthread_cond_t notify_cond;	/* with notify_lock: wakes the thread to stop */
	pthread_t notify_thread;
	bool notify_running;
	bool notify_stop;		/* protected by notify_lock */
	GPtrArray *pollers;		/* struct fs_open *; protected by notify_lock */
	GArray *events;			/* struct fs_event; protected by notify_lock */
	GHashTable *writers;		/* tgid -> struct fs_writer; notify_lock */
	GPtrArray *psi_triggers;	/* struct fs_open * with a trigger; notify_lock */
	/* Removed directories whose nodes the kernel still held at rmdir
	 * (struct fs_removed): their entries to drop; notify_lock. */
	GArray *removed_dirs;

	/* Inotify (inotify.c): the cgroups whose notifying files the kernel
	 * looked up (id -> struct fs_watch; fs->lock; NULL while the thread
	 * does not run), the thread that writes to those that changed, its
	 * thread id, which the write handler knows it by, whether it is
	 * between the references it takes (fs->lock, with inotify_cond). */
	GHashTable *watches;
	pthread_t inotify_thread;
	bool inotify_running;
	atomic_bool inotify_stop;
	_Atomic pid_t inotify_tid;
	bool inotify_scanning;
	pthread_cond_t inotify_cond;

	atomic_uint vm_swappiness;	/* v1 root's memory.swappiness */
	atomic_int nr_limited;		/* nodes with a finite max.depth/descendants */
};

/* What a show() or write() handler is called with. */
struct fs_call {
	struct mcgfs *fs;
	struct fs_node *node;
	/* node->cg, under the node's active reference from fs_call_begin()
	 * to fs_call_done() (NULL outside) */
	struct mcg_cgroup *cg;
	/* The cgroup's memory css at the call of a memory file
	 * (fs_call_begin(), a reference): what those files act on.  NULL
	 * for the other files. */
	struct mcg_cgroup *memcg;
	struct fs_open *of;
	/* The caller (fuse_req_ctx()): files a write makes appear are owned
	 * by its fsuid/fsgid, as cgroup_add_file() makes them. */
	uid_t uid;
	gid_t gid;
	pid_t pid;
	/* Set by the show function of a file whose content can change and
	 * change back (cgroup.events): how many times it changed, which
	 * poll compares besides the text, as kernfs compares its event
	 * count (kernfs_generic_poll()). */
	uint64_t changes;
};

/* Begins the call of c->of's file on c->node (kernfs_get_active() before
 * a kernfs file's ops): takes the node's active reference, setting c->cg,
 * and for a memory file its memory css (c->memcg).  0, or -ENODEV: the
 * cgroup was removed, or the file is a memory file whose css is not the
 * one it was opened on (the controller went, and maybe came back, since
 * the open).  fs_call_done() ends the call, whatever this returned. */
int fs_call_begin(struct mcgfs *fs, struct fs_call *c);
void fs_call_done(struct fs_call *c);

/* kernfs_get_active(): true, and n->cg may be used until the matching
 * fs_node_put_active(); false once rmdir deactivated n (the cgroup is
 * gone: the caller answers as for an offline cgroup). */
bool fs_node_get_active(struct fs_node *n);
void fs_node_put_active(struct fs_node *n);
/* Is n's cgroup online (neither removed nor being removed)? */
bool fs_node_online(struct fs_node *n);

/* Is file row f of node n there now: present on this level, its controller
 * enabled by the parent (v2), its PSI files not hidden? */
bool fs_file_visible(struct mcgfs *fs, struct fs_node *n, const struct fs_file *f);
/* Drops the kernel's cached entries of the files of cgroup `id` that
 * belong to controllers `ctrl` (a subtree_control change) or are its PSI
 * files (psi): they appeared or went.  Takes fs->lock; call with no lock
 * held, as the kernel may wait on requests while it drops them. */
void fs_files_changed(struct mcgfs *fs, uint64_t id, unsigned ctrl, bool psi);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t fs_monotonic_ns(void);

/* Has the write this thread is serving been interrupted (the process that
 * made it got a signal: the kernel sent FUSE_INTERRUPT)?  The analogue of
 * signal_pending(current) for a write() handler that loops. */
bool fs_write_interrupted(void);

/* Initialises a node's control values, inherited from parent (or the
 * defaults when parent is NULL), as cgroup_create() and css_alloc() do. */
void fs_cgstate_init(struct fs_cgstate *st, const struct fs_cgstate *parent);
/* A node was made for cg (fs->lock held): starts its iocost usage at the
 * cgroup's io.stat counters now. */
void fs_ioc_node_init(struct mcgfs *fs, struct fs_node *n);
/* Is cg or an ancestor frozen?  Takes fs->lock. */
bool fs_node_frozen(struct mcgfs *fs, struct fs_node *node);
/* May of's opener write cg's cgroup.procs (generic_permission(),
 * MAY_WRITE, with the opener's credentials)? */
bool fs_opener_may_write_procs(struct mcgfs *fs, const struct fs_open *of,
			       struct mcg_cgroup *cg);
/* May a child be created under parent (max.depth, max.descendants of every
 * ancestor)?  Called with fs->ctl_lock held. */
bool fs_node_may_mkdir(struct mcgfs *fs, struct fs_node *parent);

/* ---- Notification (notify.c) --------------------------------------------------- */

/* Does the kernel notify this file (FS_NOTIFY)? */
bool fs_file_notifies(const struct fs_file *f);
/* An fd was opened, read (of->text rendered), or is being released: what
 * it has seen, and its waiting poll.  opened/read are called with of->lock
 * held or before of is shared; released with no lock held. */
void fs_notify_opened(struct mcgfs *fs, struct fs_open *of);
void fs_notify_read(struct fs_open *of, uint64_t changes);
void fs_notify_released(struct mcgfs *fs, struct fs_open *of);
/* The poll mask of of now; takes ph (may be NULL) to wake it later. */
unsigned fs_notify_poll(struct mcgfs *fs, struct fs_open *of, struct fuse_pollhandle *ph);
/* The nth number (from 0) of a field ("Tgid", "CapEff", "Uid" ...) of
 * /proc/PID/status, in base: 1 and *val, 0 if the field or number is
 * missing, -1 if the task's file cannot be read. */
int fs_task_status(pid_t pid, const char *key, unsigned nth, unsigned base,
		   unsigned long long *val);
/* The parent and flags of task pid (task_struct flags: the 4th and 9th
 * fields of /proc/PID/stat): 0, or -1 if its stat cannot be read. */
int fs_task_stat(pid_t pid, unsigned long long *ppid, unsigned long long *flags);
#define FS_PF_KTHREAD 0x00200000ULL		/* include/linux/sched.h */
#define FS_PF_NO_SETAFFINITY 0x04000000ULL
/* The thread group (process) of task tid, tid itself if unknown. */
pid_t fs_task_tgid(pid_t tid);
/* Has task pid capability cap in its effective set (CapEff)?  If its
 * status cannot be read, whether uid is root. */
bool fs_task_capable(pid_t pid, uid_t uid, unsigned cap);
#define FS_CAP_DAC_OVERRIDE 1
#define FS_CAP_SYS_RESOURCE 24
/* rmdir removed n, whose node the kernel still held (a dentry cached or in
 * use, dir its directory's inode): after rmdir's reply, the notifier drops
 * the entries of its files from the kernel's cache (fs_drop_removed_entries()),
 * so that the kernel forgets each inode once nothing uses it.  n is only
 * compared, never dereferenced, until found among the zombies. */
void fs_notify_removed(struct mcgfs *fs, struct fs_node *n, uint64_t dir);
/* The notifier's half: if n is still a zombie, invalidates the entries of
 * its files in dir.  No lock held (the kernel takes dir's inode lock). */
void fs_drop_removed_entries(struct mcgfs *fs, struct fs_node *n, uint64_t dir);
/* A PSI trigger was set on of (files.c, of->lock held): the notifier
 * watches it until released. */
void fs_notify_psi_trigger(struct mcgfs *fs, struct fs_open *of);
/* cgroup.event_control: binds the writer's eventfd efd to its control
 * file fd cfd with args.  0 or the kernel's negative errno. */
int fs_event_control(struct fs_call *c, unsigned long efd, unsigned long cfd, const char *args);
/* The notifier's state, made with fs and freed with it (stopping the
 * thread if it runs); the thread is started once the tree is served and
 * stopped, every listener signalled and released, before it goes. */
void fs_notify_init(struct mcgfs *fs);
void fs_notify_free(struct mcgfs *fs);
int fs_notify_start(struct mcgfs *fs);
void fs_notify_stop(struct mcgfs *fs);

/* ---- Inotify (inotify.c) ------------------------------------------------------
 *
 * IN_MODIFY on cgroup.events and memory.events as cgroup_file_notify()
 * raises it, by a write of the daemon's own (see inotify.c).  Started once
 * the tree is served; stopped (no reference of the engine
 * held any more) before the tree goes; joined once the session is
 * destroyed, which fails its last write. */
int fs_inotify_start(struct mcgfs *fs);
void fs_inotify_stop(struct mcgfs *fs);
void fs_inotify_join(struct mcgfs *fs);
/* The kernel looked up file idx of n (fs->lock held): watched if it
 * notifies. */
void fs_inotify_looked_up(struct mcgfs *fs, struct fs_node *n, unsigned idx);
/* Is tid the inotify thread (a request's pid: FUSE passes the thread's)? */
bool fs_inotify_is_writer(struct mcgfs *fs, pid_t tid);

/* ---- Repeatable states (state.c): memcgfs.clock and memcgfs.charge ---------- */

int fs_show_clock(struct fs_call *c, GString *out);
int fs_write_clock(struct fs_call *c, char *buf);
int fs_write_charge(struct fs_call *c, char *buf);

/* ---- The kernel's parsers (parse.c) ----------------------------------------- */

/* strstrip(): trims leading and trailing white space in place. */
char *fs_strstrip(char *s);
/* kstrtoull()/kstrtoll()/kstrtoint(): the whole string (one trailing '\n'
 * allowed) is a number in base (0: 0x hex, 0 octal, else decimal).  0,
 * -EINVAL or -ERANGE. */
int fs_kstrtoull(const char *s, unsigned base, unsigned long long *res);
int fs_kstrtoll(const char *s, unsigned base, long long *res);
int fs_kstrtoint(const char *s, unsigned base, int *res);
/* simple_strtoull(): the digits of base at s (no blank, no sign; 0: 0x hex,
 * 0 octal, else decimal), *end after them (s itself if there are none);
 * an overflow wraps, as the kernel's does. */
unsigned long long fs_simple_strtoull(const char *s, unsigned base, char **end);
/* The kernel's vsscanf() "%llu" (lib/vsprintf.c) at *s: blanks skipped,
 * then a decimal digit or no conversion (glibc's sscanf() would also take
 * a sign), the digits by simple_strntoull(), wrapping on overflow where
 * glibc saturates.  True with *s after the number.  fs_scan_u32() is "%u":
 * the same, cut to 32 bits. */
bool fs_scan_ull(const char **s, unsigned long long *v);
bool fs_scan_u32(const char **s, unsigned *v);
/* memparse(): a number with an optional K/M/G/T/P/E suffix; *end after it. */
unsigned long long fs_memparse(const char *s, const char **end);
/* cgroup_parse_float() (kernel/cgroup/cgroup.c): "W[.F]" into W * 10^dec_shift
 * + F rounded to dec_shift digits, with the kernel's sscanf() and its
 * wrapping arithmetic.  0 or -EINVAL. */
int fs_cgroup_parse_float(const char *input, unsigned dec_shift, long long *v);
/* match_one() (lib/parser.c) of token s against pattern p holding at most
 * one conversion: %u (simple_strtoul() base 0, which must end the token) or
 * %s (the rest, not empty).  True on a match, with the argument's bounds. */
bool fs_match_one(const char *s, const char *p, const char **from, const char **to);
/* match_u64(): the argument copied to 24 bytes (longer is -ERANGE), then
 * kstrtoull() base 0.  0, -EINVAL or -ERANGE. */
int fs_match_u64(const char *from, const char *to, unsigned long long *v);
/* match_strlcpy(): copies at most size - 1 bytes; returns the full length. */
size_t fs_match_strlcpy(char *dest, const char *from, const char *to, size_t size);
/* page_counter_memparse(): `max` or a byte count, in pages, capped at
 * MCG_PAGE_COUNTER_MAX.  0 or -EINVAL. */
int fs_page_counter_memparse(const char *buf, const char *max, unsigned long *nr_pages);

#endif
