/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tasks: real processes of this machine placed in emulated cgroups.
 *
 * Runtimes, OOM agents and the kernel's selftests begin by writing a pid
 * into cgroup.procs.  The file system checks such a write as the kernel
 * does (src/fs/files.c, write_pid()) and then places the task here: it is
 * listed in the cgroup's cgroup.procs, tasks and cgroup.threads, makes
 * the cgroup and its ancestors populated (mcg_workload_host_tasks()), so
 * that rmdir is EBUSY while it lives, and leaves when it exits, which a
 * pidfd per process tells a watcher thread at once.  cgroup.kill sends it
 * SIGKILL; cgroup.freeze stops it with SIGSTOP and thaws it with SIGCONT
 * (the one difference a task can see from the kernel's freezer, which
 * sends no signal: its parent's waitpid(WUNTRACED) reports the stop).
 *
 * Every host task not placed in an emulated cgroup is in the root, as
 * every task of a real hierarchy is until moved: the root's files list
 * them from /proc.  The memory a placed process makes is charged to its
 * cgroup's memcg through the workload, as it appears in /proc (host.c,
 * "Memory"), and the OOM killer may kill it.
 *
 * Granularity.  The kernel places threads; this module places processes,
 * and threads apart from their process where one was written alone to v1
 * `tasks` (or to cgroup.threads).  A thread it has not seen placed is in
 * its process's cgroup, the leader's, as a thread clone()d by a thread of
 * that cgroup would be: the one thing of the kernel's it cannot see is a
 * thread made by a thread placed elsewhere.  A thread's exit is seen when
 * a list or the watcher (once a second, while any thread is placed alone)
 * finds its /proc entry gone.  cgroup.kill and cgroup.freeze act on the
 * processes whose leader is in the subtree or cgroup (__cgroup_kill()
 * signals every thread; a signal kills or stops a whole process).
 *
 * Not seen: a child a placed process forks stays in the root here (the
 * kernel's cgroup_post_fork() puts it in its parent's cgroup); with
 * --host_cgroup it runs in the shadow on the host, whose memory is then
 * charged, but it is not listed, killed or counted here.
 *
 * Locking: the module's lock, then the workload's hier_mutex (taken by
 * mcg_workload_host_tasks()); callers may hold locks of the file system
 * above, none of the engine's or the workload's.
 */
#ifndef MEMCGFS_HOST_HOST_H
#define MEMCGFS_HOST_HOST_H

#include <glib.h>
#include <stdbool.h>
#include <sys/types.h>

#include "engine/engine.h"
#include "workload/workload.h"

struct mcg_host;

/* The host tasks of engine e's hierarchy, whose cgroups' populated state
 * the pool wl keeps.  host_cgroup: a directory of a host v1 memory
 * hierarchy in which placed processes run (shadow.c), or NULL for the
 * /proc source.  NULL and errno on failure (printed for host_cgroup). */
struct mcg_host *mcg_host_new(struct mcg_engine *e, struct mcg_workload *wl,
			      const char *host_cgroup);
/* Starts the exit watcher: 0 or -errno. */
int mcg_host_start(struct mcg_host *h);
/* Stops the watcher; every host task goes back to the root (thawed if a
 * freeze stopped it).  Before the workload and engine are freed. */
void mcg_host_free(struct mcg_host *h);

/* Places task tid of process tgid (its whole process when threadgroup) in
 * cg, the root taking it out of every emulated cgroup, as
 * cgroup_attach_task() does after the caller's checks.  Placing a task
 * where it is succeeds and changes nothing.  A process placed in a frozen
 * cgroup stops; one leaving every frozen cgroup goes on.  0; -ESRCH if
 * the process is gone; -ENODEV if cg is removed; -ENOMEM.  Nothing
 * changes on failure. */
int mcg_host_attach(struct mcg_host *h, pid_t tid, pid_t tgid, bool threadgroup,
		    struct mcg_cgroup *cg);
/* The cgroup task tid of process tgid is in: a new reference, the root's
 * for a task placed nowhere. */
struct mcg_cgroup *mcg_host_task_cgroup(struct mcg_host *h, pid_t tid, pid_t tgid);

enum mcg_host_list {
	/* v2 cgroup.procs: processes whose leader is in the cgroup
	 * (css_task_iter with CSS_TASK_ITER_PROCS) */
	MCG_HOST_LIST_LEADERS,
	/* v1 cgroup.procs: processes with any thread in the cgroup
	 * (cgroup_pidlist_load() takes the tgid of each task) */
	MCG_HOST_LIST_PROCESSES,
	/* tasks, cgroup.threads: threads */
	MCG_HOST_LIST_THREADS,
};
/* Appends cg's host tasks of that kind to pids (a GArray of pid_t), in
 * ascending order, each once.  The root's are every task of /proc not
 * placed elsewhere. */
void mcg_host_list(struct mcg_host *h, struct mcg_cgroup *cg, enum mcg_host_list kind,
		   GArray *pids);

/* A read of cg's memory files is about to render: the memory of the
 * processes in cg's subtree (and of those that left a cgroup with pages
 * there) is brought up to date first, so that a read after a process's
 * allocation sees it charged, as the kernel's charge at fault time
 * would show it, without waiting for the watcher's next look. */
void mcg_host_sync(struct mcg_host *h, struct mcg_cgroup *cg);

/* Reclaims up to `pages` of the host processes' memory in cg's subtree,
 * where the host kernel holds it (a host cgroup: page cache, slab, anon
 * with swap), and brings the emulated charges up to date: the pages
 * reclaimed (0 from /proc, which cannot reclaim). */
unsigned long mcg_host_reclaim(struct mcg_host *h, struct mcg_cgroup *cg, unsigned long pages);

/* Forgets at once the processes that exited (the watcher would, a moment
 * later): before an rmdir's check, as the kernel's exit empties a cgroup
 * before the parent's wait returns. */
void mcg_host_reap(struct mcg_host *h);
/* cg was removed (rmdir): what the host module kept of it goes. */
void mcg_host_cgroup_removed(struct mcg_host *h, struct mcg_cgroup *cg);

/* cgroup.kill: SIGKILL to every process whose leader is in cg's subtree.
 * Their exit then empties the cgroups. */
void mcg_host_kill(struct mcg_host *h, struct mcg_cgroup *cg);
/* cg's effective freezer state changed (mcg_workload_set_frozen(), which
 * the caller made first, keeps it): its processes stop or go on. */
void mcg_host_freeze_changed(struct mcg_host *h, struct mcg_cgroup *cg);

#endif
