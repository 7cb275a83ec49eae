/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The memcgfs file system: a mountable cgroup v1 or v2 memory hierarchy over
 * FUSE, backed by the engine.  This header is the whole interface main()
 * uses; nothing outside src/fs sees libfuse.
 *
 * Life of a daemon, in the order main() calls it (and unwinds in reverse):
 *
 *   mcgfs_options_parse()   command line -> struct mcgfs_options
 *   mcgfs_new()             FUSE session (not mounted, no engine yet)
 *   mcgfs_mount()           signal handlers, mount; errors still reach the
 *                           terminal and the exit status
 *   mcgfs_daemonize()       fork into the background unless -f; threads are
 *                           started only after this (fork keeps one thread)
 *   mcg_engine_new()        (engine.h) the emulated hierarchy
 *   mcg_workload_new/start  (workload.h) the workers charging memory
 *   mcg_host_new/start      (host.h) host tasks placed in cgroups
 *   mcgfs_run()             serve requests until unmount or SIGINT/SIGTERM
 *   mcgfs_unmount()         leaves no mount behind
 *   mcg_host_free(), mcgfs_free(), mcg_workload_free(), mcg_engine_free(),
 *   mcgfs_options_free()
 */
#ifndef MEMCGFS_FS_FS_H
#define MEMCGFS_FS_FS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "host/host.h"
#include "workload/workload.h"

struct mcgfs;
struct fuse_args;

/* Defaults of the FUSE tuning options. */
#define MCGFS_DEFAULT_TIMEOUT 86400.0	/* s; every tree change goes through us */
#define MCGFS_DEFAULT_MAX_READ 4096	/* bytes per READ request, see fs.c */
#define MCGFS_DEFAULT_MAX_THREADS 8
/* cgroup.event_control registrations per uid (notify.c). */
#define MCGFS_DEFAULT_EVENT_LIMIT 1024

/* The default --max_cgroups: as many cgroups as a quarter of this
 * machine's memory holds at nr_cpus emulated CPUs, each some 8 KiB and
 * 3 KiB per CPU of the engine's, the workload's and the node's
 * (doc/benchmarks.md, "The engine"), between 1024 and 1000000.  In the kernel the
 * creator's memcg pays for a cgroup's memory; nothing pays here. */
unsigned mcgfs_default_max_cgroups(unsigned nr_cpus);

struct mcgfs_options {
	struct mcg_engine_config engine;	/* hierarchy, CPUs, nodes, kernel ... */
	char *kernel_version;			/* owned: --kernel as given, or NULL */
	char *patch;				/* owned: --patch (or --seed) as given, or NULL */
	struct mcg_kernel_config kconfig;	/* memcg_v1=, lru_gen= */
	char *workload;				/* owned: profile of new cgroups, or NULL */
	unsigned tick_ms;			/* the workers' pacing clock */
	bool has_random_seed;			/* --random_seed given ... */
	uint64_t random_seed;			/* ... and its value */
	char *mountpoint;			/* owned */
	char *source;				/* owned: fstab's first field, or NULL */
	bool foreground;			/* -f */
	bool debug;				/* -d: FUSE request trace, implies -f */
	double timeout;				/* entry and attribute cache, s */
	unsigned max_read;			/* bytes per READ request */
	bool pagecache;				/* read-only files via the page cache */
	bool accuracy;				/* sample each memory.stat read's error */
	unsigned event_limit;			/* event_control registrations per uid */
	unsigned max_cgroups;			/* live and dying cgroups, at most */
	char *host_cgroup;			/* owned: --host_cgroup, or NULL */
	unsigned max_threads;			/* worker threads, at most */
	unsigned max_idle_threads;		/* idle workers kept; UINT_MAX: all */
	bool single_thread;			/* -s: serve on one thread */
	bool clone_fd;				/* -o clone_fd: a device fd per thread */
	struct fuse_args *fuse_args;		/* owned: what libfuse parses */
};

/* Parses argv: options and `[SOURCE] MOUNTPOINT`, SOURCE being what
 * mount.fuse3 passes from an fstab line or `mount -t fuse.memcgfs SOURCE
 * MOUNTPOINT` (it names the mount, nothing else).  The mount point must be
 * a directory with no memcgfs mounted on it.  Returns 0 to go on, 1 when
 * --help or --version was printed (exit 0), -1 after printing a one-line
 * error to stderr (exit 2).  On 0 the caller owns *o and frees it with
 * mcgfs_options_free(); on 1 or -1 nothing is left to free. */
int mcgfs_options_parse(int argc, char *argv[], struct mcgfs_options *o);
void mcgfs_options_free(struct mcgfs_options *o);

/* A file system for these options (which must outlive it), with its FUSE
 * session.  NULL after a one-line error on stderr. */
struct mcgfs *mcgfs_new(const struct mcgfs_options *o);
/* Installs the SIGINT/SIGTERM/SIGHUP handlers (they end mcgfs_run()) and
 * mounts.  0, or -1 after an error on stderr. */
int mcgfs_mount(struct mcgfs *fs);
/* Forks into the background unless the options say foreground; the parent
 * exits 0 once the child runs.  Call with no thread started yet. */
void mcgfs_daemonize(struct mcgfs *fs);
/* Serves the hierarchy of engine e, whose cgroups the pool wl charges and
 * host places host tasks in, until the file system is unmounted or a
 * signal ends the session.  All three must outlive the call.  0 on a
 * clean end, -1 on a failure (printed). */
int mcgfs_run(struct mcgfs *fs, struct mcg_engine *e, struct mcg_workload *wl,
	      struct mcg_host *host);
/* Unmounts if still mounted and removes the signal handlers. */
void mcgfs_unmount(struct mcgfs *fs);
/* Frees the session and every inode.  The engine may be freed after. */
void mcgfs_free(struct mcgfs *fs);

#endif
