/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host module's parts: host.c places processes and reads their memory
 * from /proc; shadow.c runs them in shadow cgroups of a host memory
 * hierarchy instead (--host_cgroup), whose counters it mirrors. */
#ifndef MEMCGFS_HOST_INTERNAL_H
#define MEMCGFS_HOST_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "host/host.h"

struct host_shadows;

struct mcg_host {
	struct mcg_engine *e;		/* immutable */
	struct mcg_workload *wl;	/* immutable */
	unsigned nr_cpus, nr_nodes;	/* immutable: the engine's */
	uint64_t next_sample_ns;	/* watcher only: monotonic */
	pthread_mutex_t lock;
	uint64_t next_fresh_ns;		/* lock: the next look at fresh processes;
					 * UINT64_MAX: none is fresh */
	GHashTable *procs;		/* lock: tgid -> struct host_proc */
	struct host_shadows *shadows;	/* lock; NULL: the /proc source */
	int epfd, wakefd;		/* immutable: the watcher's */
	pthread_t watcher;
	bool started;
	atomic_bool stop;
};

/* host.c: the processes placed in cg sleep ns for memory.high (a
 * shadow's charges earned it).  Caller holds h->lock. */
void host_throttle_cgroup(struct mcg_host *h, struct mcg_cgroup *cg, uint64_t ns);
bool host_proc_oom_unkillable(pid_t pid);
bool host_proc_exiting(pid_t pid);

/* How often the watcher looks at the placed processes' memory; and, for
 * HOST_FRESH_MS after a process is placed, at that process's (host.c,
 * "Fresh processes"). */
#define HOST_SAMPLE_MS 100
#define HOST_FRESH_SAMPLE_MS 10
#define HOST_FRESH_MS 500
/* A thread's kernel stack: THREAD_SIZE, 16 KiB on x86_64, in pages. */
#define HOST_THREAD_STACK_PAGES 4

/* shadow.c.  All with h->lock held, but open (before any other call).
 *
 * Opens the host directory dir (a v1 memory hierarchy's): removes what a
 * daemon killed before left there, makes this daemon's own directory.
 * 0, or -errno after a line on stderr. */
int host_shadows_open(struct mcg_host *h, const char *dir);
/* Every process back in dir, every shadow cgroup removed. */
void host_shadows_close(struct mcg_host *h);
/* Runs task tid (its whole process: whole) in cg's shadow (NULL: dir),
 * made if need be.  0 or -errno (nothing moved). */
int host_shadows_place(struct mcg_host *h, pid_t tid, bool whole, struct mcg_cgroup *cg);
/* Mirrors the shadows of top's subtree (NULL: all): their limits from the
 * emulated memcgs, their pages and events into them. */
void host_shadows_sample(struct mcg_host *h, struct mcg_cgroup *top);
/* cg was removed: its shadow goes. */
void host_shadows_removed(struct mcg_host *h, struct mcg_cgroup *cg);
unsigned long host_shadows_reclaim(struct mcg_host *h, struct mcg_cgroup *cg, unsigned long pages);

#endif
