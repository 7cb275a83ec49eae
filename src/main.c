/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memcgfs: mounts an emulated cgroup memory hierarchy (see memcgfs(8)).
 * main() acquires in order and unwinds in reverse, one label a resource. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "engine/engine.h"
#include "fs/fs.h"
#include "host/host.h"
#include "workload/workload.h"

/* Every fd the hard limit allows: each cgroup.event_control registration
 * holds one (notify.c), bounded per user by --event_limit, and a daemon
 * serving many users should not run out at the soft 1024. */
static void raise_nofile_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char *argv[])
{
	struct mcgfs_options opts;
	struct mcg_engine *engine;
	struct mcg_workload *wl;
	struct mcg_host *host;
	struct mcgfs *fs;
	int ret = 2;	/* bad options */
	int err;

	switch (mcgfs_options_parse(argc, argv, &opts)) {
	case 0:
		break;
	case 1:
		return 0;	/* --help, --version */
	default:
		return 2;
	}

	raise_nofile_limit();
	fs = mcgfs_new(&opts);
	if (!fs)
		goto out_opts;
	ret = 1;
	if (mcgfs_mount(fs) != 0)
		goto out_fs;
	/* Threads only after the fork of daemonizing: the engine's flusher and
	 * the workers. */
	mcgfs_daemonize(fs);
	engine = mcg_engine_new(&opts.engine);
	if (!engine) {
		fprintf(stderr, "memcgfs: cannot start the engine: %s\n", strerror(errno));
		goto out_mount;
	}

	wl = mcg_workload_new(engine, opts.workload, &err);
	if (!wl) {
		fprintf(stderr, "memcgfs: bad workload profile: %s\n", strerror(-err));
		goto out_engine;
	}
	if (opts.has_random_seed)
		mcg_workload_set_seed(wl, opts.random_seed);
	err = mcg_workload_set_tick_ms(wl, opts.tick_ms);
	if (!err)
		err = mcg_workload_start(wl);
	if (err) {
		fprintf(stderr, "memcgfs: cannot start the workers: %s\n", strerror(-err));
		goto out_workload;
	}

	host = mcg_host_new(engine, wl, opts.host_cgroup);
	if (!host) {
		if (!opts.host_cgroup)	/* printed then */
			fprintf(stderr, "memcgfs: cannot watch host tasks: %s\n", strerror(errno));
		goto out_workload;
	}
	err = mcg_host_start(host);
	if (err) {
		fprintf(stderr, "memcgfs: cannot watch host tasks: %s\n", strerror(-err));
		goto out_host;
	}

	ret = mcgfs_run(fs, engine, wl, host) == 0 ? 0 : 1;

out_host:
	/* every host task back in the root, thawed, before the cgroups go */
	mcg_host_free(host);
out_workload:
	mcg_workload_free(wl);
out_engine:
	mcg_engine_free(engine);
out_mount:
	mcgfs_unmount(fs);
out_fs:
	mcgfs_free(fs);
out_opts:
	mcgfs_options_free(&opts);
	return ret;
}
