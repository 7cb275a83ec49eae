/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The files of a cgroup directory: one table per hierarchy, one show() and
 * one write() per file, each the user-space twin of the kernel's handler
 * (mm/memcontrol.c, mm/memcontrol-v1.c, kernel/cgroup/cgroup.c and
 * cgroup-v1.c of Linux 6.12; the v1 file set as captured on 6.18), each row
 * gated by the kernel versions that have the file (see the tables).
 *
 * Output formats and accepted input are the kernel's, quirks included: a
 * limit reads "max" (v2) or 9223372036854771712 (v1) when unlimited; a byte
 * count is rounded down to pages; `-1` is v1's "unlimited"; files the kernel
 * parses with kstrtoull() reject surrounding blanks, files it parses with
 * page_counter_memparse() after strstrip() accept them.  A write either
 * applies whole or returns an error and changes nothing.
 *
 * Statistics come from the engine and the formatters (render/format.h);
 * settings the engine does not keep live in the node (struct fs_cgstate).
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fs/internal.h"
#include "render/format.h"

/* A page counter file's row argument: counter and field. */
#define CNT(counter, field) (((counter) << 8) | (field))
#define CNT_COUNTER(arg) ((enum mcg_counter)((arg) >> 8))
#define CNT_FIELD(arg) ((enum mcg_counter_field)((arg) & 0xff))

/* vm_swappiness default and MAX_SWAPPINESS. */
#define FS_DEFAULT_SWAPPINESS 60
#define FS_MAX_SWAPPINESS 200

static unsigned long long pages_to_bytes(unsigned long pages)
{
	return (unsigned long long)pages * MCG_PAGE_SIZE;
}

static int show_ull(GString *out, unsigned long long v)
{
	g_string_append_printf(out, "%llu\n", v);
	return 0;
}

/* seq_puts_memcg_tunable(): "max" for an unlimited page counter value. */
static int show_tunable(GString *out, unsigned long pages)
{
	if (pages == (unsigned long)MCG_PAGE_COUNTER_MAX)
		g_string_append(out, "max\n");
	else
		show_ull(out, pages_to_bytes(pages));
	return 0;
}

static int show_nothing(struct fs_call *c, GString *out)
{
	return 0;
}

static bool is_root(struct fs_call *c)
{
	return c->node->is_root;
}

/* ---- Statistics (every kernel layout, both hierarchies) ------------------ */

static int show_memory_stat(struct fs_call *c, GString *out)
{
	mcg_format_memory_stat(c->fs->e, c->memcg, out);
	return 0;
}

static int show_numa_stat(struct fs_call *c, GString *out)
{
	mcg_format_numa_stat(c->fs->e, c->memcg, out);
	return 0;
}

static int show_cpu_stat(struct fs_call *c, GString *out)
{
	mcg_format_cpu_stat(c->fs->e, c->cg, out);
	return 0;
}


/* ---- Task files --------------------------------------------------------------
 *
 * Emulated tasks.  A cgroup whose workload is busy runs one process with a
 * thread per emulated CPU (workload.h).  Their ids lie above PID_MAX_LIMIT
 * (4194304 on 64-bit, include/linux/threads.h), which no host pid reaches:
 * process PID_MAX_LIMIT + id * nr_cpus for the cgroup of id `id`, its
 * threads that and the next nr_cpus - 1.  Writing one of them to a
 * cgroup.procs finds no such process (ESRCH), as they are not host tasks.
 */
#define FS_PID_MAX_LIMIT (4 * 1024 * 1024)

static unsigned long long emulated_tgid(struct fs_call *c)
{
	return FS_PID_MAX_LIMIT + c->node->id * mcg_engine_config(c->fs->e)->nr_cpus;
}

/* The node of cg, NULL if it has none; caller holds fs->lock. */
static struct fs_node *node_of_cg(struct mcgfs *fs, const struct mcg_cgroup *cg)
{
	return g_hash_table_lookup(fs->nodes, &(uint64_t){ mcg_cgroup_id(cg) });
}

/*
 * Threaded mode (kernel/cgroup/cgroup.c, 7.3).  A cgroup made "threaded"
 * (cgroup.type) joins its parent's resource domain: its threads may sit
 * apart from their process, and what they charge goes to the domain, the
 * nearest ancestor that is not threaded (dom_cgrp).  Only threaded
 * controllers work below a thread root (cpu, cpuset, perf_event, pids);
 * memcgfs has none, io and memory being domain controllers, so a
 * threaded cgroup has no controller and its tasks charge the domain's
 * memory css.  The kernel keeps dom_cgrp and nr_threaded_children; here
 * they are read off the tree (fs->lock held for the node lookups).
 */
static bool cg_is_threaded(struct mcgfs *fs, const struct mcg_cgroup *cg)
{
	struct fs_node *n = node_of_cg(fs, cg);

	return n && atomic_load(&n->st.threaded);
}

/* cgroup_is_mixable(): the root holds domains and threads alike. */
static bool cg_is_mixable(const struct mcg_cgroup *cg)
{
	return !mcg_cgroup_parent(cg);
}

/* Whether any child of cg is threaded, or (domain) populated and not. */
static bool cg_any_child(struct mcgfs *fs, struct mcg_cgroup *cg, bool populated_domain)
{
	unsigned nr = 0;
	struct mcg_cgroup **kids = mcg_cgroup_children(fs->e, cg, &nr);
	bool any = false;

	for (unsigned i = 0; i < nr; i++) {
		bool threaded = cg_is_threaded(fs, kids[i]);

		if (populated_domain)
			any |= !threaded && mcg_workload_cgroup_populated(fs->wl, kids[i], NULL);
		else
			any |= threaded;
		mcg_cgroup_put(kids[i]);
	}
	g_free(kids);
	return any;
}

/* cgroup_is_thread_root(): a domain with threaded children (its other
 * case, tasks and a threaded controller enabled, cannot arise here). */
static bool cg_is_thread_root(struct mcgfs *fs, struct mcg_cgroup *cg)
{
	return !cg_is_threaded(fs, cg) && cg_any_child(fs, cg, false);
}

/* cgroup_is_valid_domain(): not threaded, and no ancestor threaded or a
 * thread root but the root. */
static bool cg_is_valid_domain(struct mcgfs *fs, struct mcg_cgroup *cg)
{
	if (cg_is_threaded(fs, cg))
		return false;
	for (cg = mcg_cgroup_parent(cg); cg; cg = mcg_cgroup_parent(cg))
		if ((!cg_is_mixable(cg) && cg_is_thread_root(fs, cg)) || cg_is_threaded(fs, cg))
			return false;
	return true;
}

/* cgroup_can_be_thread_root(): the root; else a domain without populated
 * domain children and without domain controllers enabled. */
static bool cg_can_be_thread_root(struct mcgfs *fs, struct mcg_cgroup *cg)
{
	struct fs_node *n = node_of_cg(fs, cg);

	if (cg_is_mixable(cg))
		return true;
	if (!n || atomic_load(&n->st.threaded) || cg_any_child(fs, cg, true))
		return false;
	return !atomic_load(&n->st.subtree_control);
}

/* cgrp->dom_cgrp: the nearest of cg and its ancestors not threaded. */
static struct mcg_cgroup *cg_dom(struct mcgfs *fs, struct mcg_cgroup *cg)
{
	while (cg_is_threaded(fs, cg))
		cg = mcg_cgroup_parent(cg);
	return cg;
}

static gint cmp_pid_t(gconstpointer a, gconstpointer b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Host tasks placed here (src/host), then the emulated ones, which lie
 * above every host pid: in ascending order, as v1's pidlists are sorted
 * (cgroup_pidlist_load()); v2 lists in css_set order, which no reader may
 * count on. */
static void show_host_tasks(struct fs_call *c, enum mcg_host_list kind, GString *out)
{
	g_autoptr(GArray) pids = g_array_new(FALSE, FALSE, sizeof(pid_t));

	mcg_host_list(c->fs->host, c->cg, kind, pids);
	for (unsigned i = 0; i < pids->len; i++)
		g_string_append_printf(out, "%d\n", (int)g_array_index(pids, pid_t, i));
}

/* The v2 leaders of cg's threaded descendants, which a thread root's
 * cgroup.procs lists (CSS_TASK_ITER_THREADED). */
static void threaded_leaders(struct mcgfs *fs, struct mcg_cgroup *cg, GArray *pids)
{
	unsigned nr = 0;
	struct mcg_cgroup **kids = mcg_cgroup_children(fs->e, cg, &nr);

	for (unsigned i = 0; i < nr; i++) {
		bool threaded;

		pthread_mutex_lock(&fs->lock);
		threaded = cg_is_threaded(fs, kids[i]);
		pthread_mutex_unlock(&fs->lock);
		if (threaded) {
			mcg_host_list(fs->host, kids[i], MCG_HOST_LIST_LEADERS, pids);
			threaded_leaders(fs, kids[i], pids);
		}
		mcg_cgroup_put(kids[i]);
	}
	g_free(kids);
}

/* cgroup.procs: v1 the processes with a thread here, v2 those whose
 * leader is, and a thread root's also those of its threaded subtree (a
 * threaded cgroup's read is EOPNOTSUPP: cgroup_procs_start()); and the
 * process of a busy cgroup. */
static int show_procs(struct fs_call *c, GString *out)
{
	if (atomic_load(&c->node->st.threaded))
		return -EOPNOTSUPP;
	if (c->fs->hier == MCG_HIERARCHY_V2) {
		g_autoptr(GArray) pids = g_array_new(FALSE, FALSE, sizeof(pid_t));

		mcg_host_list(c->fs->host, c->cg, MCG_HOST_LIST_LEADERS, pids);
		threaded_leaders(c->fs, c->cg, pids);
		g_array_sort(pids, cmp_pid_t);
		for (unsigned i = 0; i < pids->len; i++)
			if (i == 0 || g_array_index(pids, pid_t, i) != g_array_index(pids, pid_t, i - 1))
				g_string_append_printf(out, "%d\n", (int)g_array_index(pids, pid_t, i));
	} else {
		show_host_tasks(c, MCG_HOST_LIST_PROCESSES, out);
	}
	if (mcg_workload_cgroup_busy(c->fs->wl, c->cg))
		g_string_append_printf(out, "%llu\n", emulated_tgid(c));
	return 0;
}

/* cgroup.threads and v1 tasks: threads. */
static int show_threads(struct fs_call *c, GString *out)
{
	unsigned cpus = mcg_engine_config(c->fs->e)->nr_cpus;

	show_host_tasks(c, MCG_HOST_LIST_THREADS, out);
	if (mcg_workload_cgroup_busy(c->fs->wl, c->cg))
		for (unsigned t = 0; t < cpus; t++)
			g_string_append_printf(out, "%llu\n", emulated_tgid(c) + t);
	return 0;
}

/*
 * A pid written to cgroup.procs, cgroup.threads or tasks, checked in the
 * kernel's order, then placed (mcg_host_attach(), cgroup_attach_task()):
 *  - cgroup_procs_write_start(): a parse error is EINVAL, no such task
 *    ESRCH (emulated ids are no host tasks), 0 the writer itself; for
 *    cgroup.procs (row arg 1, threadgroup) its thread group leader; a
 *    task with PF_NO_SETAFFINITY (a kthread) or no_cgroup_migration
 *    (kthreadd) is EINVAL;
 *  - v1 (__cgroup1_procs_write()): an opener (of->file->f_cred) that is
 *    not root needs the task's uid or suid for its euid, else EACCES;
 *  - v2 (__cgroup_procs_write(), cgroup_attach_permissions()): the
 *    source is the cgroup the task is in; cgroup_procs_write_permission():
 *    the opener may write cgroup.procs of the common ancestor of source
 *    and destination, else EACCES; the check of cgroup namespaces
 *    (nsdelegate) does not apply, the daemon being in none of this
 *    hierarchy; then cgroup_migrate_vet_dst(): a destination whose
 *    domain is not a valid one ("domain invalid") is EOPNOTSUPP; one that
 *    is neither threaded nor could be a thread root and enables
 *    controllers for its children (memory and io are domain controllers)
 *    is EBUSY, the no-internal-process rule; a thread (not threadgroup)
 *    whose source and destination lie in different domains (dom_cgrp,
 *    "Threaded mode" above) is EOPNOTSUPP.
 * The destination removed meanwhile is ENODEV (cgroup_kn_lock_live()).
 */
static int write_pid(struct fs_call *c, char *buf)
{
	uid_t opener = c->of->opener_uid;
	unsigned long long uid, suid, ppid, flags;
	bool threadgroup = c->of->file->arg;
	pid_t tgid;
	int pid, err;

	if (fs_kstrtoint(fs_strstrip(buf), 0, &pid) || pid < 0)
		return -EINVAL;
	if (pid == 0)
		pid = (int)c->pid;
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return -ESRCH;
	tgid = fs_task_tgid(pid);
	if (threadgroup)
		pid = tgid;
	/* kthreadd keeps no_cgroup_migration (cgroup_init_kthreadd()); it
	 * is the kthread without a parent */
	if (fs_task_stat(pid, &ppid, &flags) == 0 &&
	    ((flags & FS_PF_NO_SETAFFINITY) || ((flags & FS_PF_KTHREAD) && ppid == 0)))
		return -EINVAL;
	if (c->fs->hier == MCG_HIERARCHY_V1) {
		/* its cred's uid and suid: the real and saved uids */
		if (fs_task_status(pid, "Uid", 0, 10, &uid) != 1 ||
		    fs_task_status(pid, "Uid", 2, 10, &suid) != 1)
			return -ESRCH;
		if (opener != 0 && opener != uid && opener != suid)
			return -EACCES;
	} else {
		struct mcg_cgroup *src;
		struct mcg_cgroup *common;

		/* cgroup_mutex in the kernel: the checks and the migration
		 * as one, against a subtree_control write (ctl_lock) */
		pthread_mutex_lock(&c->fs->ctl_lock);
		src = mcg_host_task_cgroup(c->fs->host, pid, tgid);
		common = src;

		while (!mcg_cgroup_is_descendant(c->cg, common))
			common = mcg_cgroup_parent(common);
		if (!fs_opener_may_write_procs(c->fs, c->of, common)) {
			err = -EACCES;
		} else {
			pthread_mutex_lock(&c->fs->lock);
			/* cgroup_migrate_vet_dst() */
			if (!cg_is_valid_domain(c->fs, cg_dom(c->fs, c->cg)))
				err = -EOPNOTSUPP;
			else if (!cg_can_be_thread_root(c->fs, c->cg) &&
				 !cg_is_threaded(c->fs, c->cg) &&
				 atomic_load(&c->node->st.subtree_control))
				err = -EBUSY;
			else if (!threadgroup && cg_dom(c->fs, src) != cg_dom(c->fs, c->cg))
				err = -EOPNOTSUPP;
			else
				err = 0;
			pthread_mutex_unlock(&c->fs->lock);
		}
		if (!err)
			err = mcg_host_attach(c->fs->host, pid, tgid, threadgroup, c->cg);
		mcg_cgroup_put(src);
		pthread_mutex_unlock(&c->fs->ctl_lock);
		return err;
	}
	return mcg_host_attach(c->fs->host, pid, tgid, threadgroup, c->cg);
}

/* ---- cgroup v1 core (kernel/cgroup/cgroup-v1.c) ------------------------------- */

static int show_clone_children(struct fs_call *c, GString *out)
{
	return show_ull(out, atomic_load(&c->node->st.clone_children));
}

static int write_clone_children(struct fs_call *c, char *buf)
{
	unsigned long long v;
	int err = fs_kstrtoull(buf, 0, &v);

	if (!err)
		atomic_store(&c->node->st.clone_children, v != 0);
	return err;
}

static int show_notify_on_release(struct fs_call *c, GString *out)
{
	return show_ull(out, atomic_load(&c->node->st.notify_on_release));
}

static int write_notify_on_release(struct fs_call *c, char *buf)
{
	unsigned long long v;
	int err = fs_kstrtoull(buf, 0, &v);

	if (!err)
		atomic_store(&c->node->st.notify_on_release, v != 0);
	return err;
}

static int show_sane_behavior(struct fs_call *c, GString *out)
{
	g_string_append(out, "0\n");
	return 0;
}

static int show_release_agent(struct fs_call *c, GString *out)
{
	pthread_mutex_lock(&c->fs->lock);
	g_string_append_printf(out, "%s\n", c->fs->release_agent ? c->fs->release_agent : "");
	pthread_mutex_unlock(&c->fs->lock);
	return 0;
}

static int write_release_agent(struct fs_call *c, char *buf)
{
	char *path = fs_strstrip(buf);

	if (strlen(path) >= PATH_MAX)
		return -EINVAL;
	pthread_mutex_lock(&c->fs->lock);
	g_free(c->fs->release_agent);
	c->fs->release_agent = g_strdup(path);
	pthread_mutex_unlock(&c->fs->lock);
	return 0;
}

/* cgroup.event_control: "<event_fd> <control_fd> [args]".  The fds are the
 * writer's, out of this daemon's reach: the shape is checked as
 * memcg_write_event_control() does, then the request is refused. */
static int write_event_control(struct fs_call *c, char *buf)
{
	char *end;
	unsigned long efd, cfd;

	/* memcg_write_event_control(): "<efd> <cfd>[ <args>]" */
	buf = fs_strstrip(buf);
	efd = fs_simple_strtoull(buf, 10, &end);
	if (*end != ' ')
		return -EINVAL;
	buf = end + 1;
	cfd = fs_simple_strtoull(buf, 10, &end);
	if (*end == '\0')
		buf = end;
	else if (*end == ' ')
		buf = end + 1;
	else
		return -EINVAL;
	return fs_event_control(c, efd, cfd, buf);
}
/* ---- memory v1 (mm/memcontrol-v1.c) ------------------------------------------ */

/* mem_cgroup_read_u64(): usage, limit, max usage in bytes, failcnt raw. */
static int show_v1_counter(struct fs_call *c, GString *out)
{
	enum mcg_counter counter = CNT_COUNTER(c->of->file->arg);
	enum mcg_counter_field field = CNT_FIELD(c->of->file->arg);
	unsigned long v = mcg_counter_read(c->memcg, counter, field);

	return show_ull(out, field == MCG_FIELD_FAILCNT ? v : pages_to_bytes(v));
}

/* mem_cgroup_reset(): any write resets max usage to the current usage, or
 * failcnt to 0. */
static int write_v1_reset(struct fs_call *c, char *buf)
{
	enum mcg_counter counter = CNT_COUNTER(c->of->file->arg);
	enum mcg_counter_field field = CNT_FIELD(c->of->file->arg);

	if (field == MCG_FIELD_WATERMARK)
		mcg_counter_set(c->memcg, counter, field,
				mcg_counter_read(c->memcg, counter, MCG_FIELD_USAGE));
	else
		mcg_counter_set(c->memcg, counter, field, 0);
	return 0;
}

/* mem_cgroup_write() for RES_LIMIT: "-1" or a byte count; never on the root.
 * The memory and memsw limits go through the workload layer, which reclaims
 * down to them as mem_cgroup_resize_max() does (EBUSY when it cannot) and
 * keeps memory <= memsw (EINVAL). */
static int parse_v1_limit(struct fs_call *c, char *buf, unsigned long *pages)
{
	int err = fs_page_counter_memparse(fs_strstrip(buf), "-1", pages);

	if (err)
		return err;
	if (is_root(c))
		return -EINVAL;
	return 0;
}

static int write_v1_limit(struct fs_call *c, char *buf)
{
	unsigned long max;
	int err = parse_v1_limit(c, buf, &max);

	if (err)
		return err;
	return mcg_workload_set_limit(c->fs->wl, c->memcg, MCG_COUNTER_MEMORY, MCG_FIELD_MAX, max,
				      true);
}

static int write_v1_memsw_limit(struct fs_call *c, char *buf)
{
	unsigned long max;
	int err = parse_v1_limit(c, buf, &max);

	if (err)
		return err;
	return mcg_workload_set_limit(c->fs->wl, c->memcg, MCG_COUNTER_MEMSW, MCG_FIELD_MAX, max, true);
}

/* kmem.limit_in_bytes is deprecated: parsed, then without effect. */
static int write_v1_kmem_limit(struct fs_call *c, char *buf)
{
	unsigned long max;

	return parse_v1_limit(c, buf, &max);
}

/* memcg_update_tcp_max() (7.3 mm/memcontrol-v1.c): page_counter_set_max()
 * (-EBUSY under the usage), and the first limit that takes turns socket
 * accounting on for the memcg's new sockets (tcpmem_active). */
static int write_v1_tcp_limit(struct fs_call *c, char *buf)
{
	unsigned long max;
	int err = parse_v1_limit(c, buf, &max);

	if (!err)
		err = mcg_counter_set_max(c->memcg, MCG_COUNTER_TCPMEM, max);
	if (!err)
		mcg_memcg_activate_tcpmem(c->memcg);
	return err;
}

/* memory.soft_limit_in_bytes.  Through 6.1 mem_cgroup_write() stores it
 * (RES_SOFT_LIMIT) and mem_cgroup_read_u64() reads it back; from 6.12's
 * source on (mm/memcontrol-v1.c) the write is parsed and has no effect and
 * the read is always "unlimited". */
static bool v1_soft_limit_stored(struct fs_call *c)
{
	return mcg_engine_layout(c->fs->e)->version < MCG_KVER(6, 12);
}

static int show_v1_soft_limit(struct fs_call *c, GString *out)
{
	unsigned long pages = MCG_PAGE_COUNTER_MAX;

	if (v1_soft_limit_stored(c))
		pages = atomic_load(&c->node->st.soft_limit);
	return show_ull(out, pages_to_bytes(pages));
}

static int write_v1_soft_limit(struct fs_call *c, char *buf)
{
	unsigned long pages;
	int err = fs_page_counter_memparse(fs_strstrip(buf), "-1", &pages);

	if (!err && v1_soft_limit_stored(c))
		atomic_store(&c->node->st.soft_limit, pages);
	return err;
}

/* The kernel's reclaim loops (memory.reclaim, force_empty) check
 * signal_pending() before each pass. */
static bool reclaim_interrupted(void *unused)
{
	return fs_write_interrupted();
}

static int write_v1_force_empty(struct fs_call *c, char *buf)
{
	return is_root(c) ? -EINVAL
			  : mcg_workload_force_empty(c->fs->wl, c->memcg, reclaim_interrupted, NULL);
}

static int show_v1_use_hierarchy(struct fs_call *c, GString *out)
{
	return show_ull(out, 1);
}

/* Non-hierarchical mode is gone: only 1 is accepted. */
static int write_v1_use_hierarchy(struct fs_call *c, char *buf)
{
	unsigned long long v;
	int err = fs_kstrtoull(buf, 0, &v);

	if (err)
		return err;
	return v == 1 ? 0 : -EINVAL;
}

/* The root's swappiness is the global vm_swappiness. */
static int show_v1_swappiness(struct fs_call *c, GString *out)
{
	if (is_root(c))
		return show_ull(out, atomic_load(&c->fs->vm_swappiness));
	return show_ull(out, atomic_load(&c->node->st.swappiness));
}

static int write_v1_swappiness(struct fs_call *c, char *buf)
{
	unsigned long long v;
	int err = fs_kstrtoull(buf, 0, &v);

	if (err)
		return err;
	if (v > FS_MAX_SWAPPINESS)
		return -EINVAL;
	if (is_root(c))
		atomic_store(&c->fs->vm_swappiness, (unsigned)v);
	else
		atomic_store(&c->node->st.swappiness, (unsigned)v);
	return 0;
}

/* memory.move_charge_at_immigrate (mem_cgroup_move_charge_write()):
 * through 6.12 the MOVE_MASK bits (anon, file) are stored and read back;
 * 7.3 (memcontrol-v1.c, charge moving removed) reads 0 and refuses any
 * value but 0. */
static bool v1_move_charge_removed(struct fs_call *c)
{
	return mcg_engine_layout(c->fs->e)->version > MCG_KVER(6, 12);
}

static int show_v1_move_charge(struct fs_call *c, GString *out)
{
	return show_ull(out, v1_move_charge_removed(c) ? 0 : atomic_load(&c->node->st.move_charge));
}

static int write_v1_move_charge(struct fs_call *c, char *buf)
{
	unsigned long long v;
	int err = fs_kstrtoull(buf, 0, &v);

	if (err)
		return err;
	if (v1_move_charge_removed(c))
		return v ? -EINVAL : 0;
	if (v & ~3ull)	/* MOVE_MASK: anon and file */
		return -EINVAL;
	atomic_store(&c->node->st.move_charge, (unsigned)v);
	return 0;
}

static int show_v1_oom_control(struct fs_call *c, GString *out)
{
	g_string_append_printf(out, "oom_kill_disable %d\nunder_oom 0\noom_kill %lu\n",
			       (int)atomic_load(&c->node->st.oom_kill_disable),
			       mcg_memory_event_read(c->memcg, MCG_MEMORY_OOM_KILL, false));
	return 0;
}

static int write_v1_oom_control(struct fs_call *c, char *buf)
{
	unsigned long long v;
	int err = fs_kstrtoull(buf, 0, &v);

	if (err)
		return err;
	if (is_root(c) || v > 1)
		return -EINVAL;
	atomic_store(&c->node->st.oom_kill_disable, v == 1);
	return 0;
}

/* memory.pressure_level is for eventfd registration only; its read handler
 * exists to make the file readable and fails. */
static int show_v1_pressure_level(struct fs_call *c, GString *out)
{
	return -EINVAL;
}

/* ---- cgroup v2 core (kernel/cgroup/cgroup.c) ------------------------------------ */

/* cgroup_print_ss_mask(): names in subsystem order (io before memory),
 * space separated; nothing at all, not even a newline, for an empty set. */
static void show_ctrl_mask(GString *out, unsigned mask)
{
	if (mask & FS_CTRL_IO)
		g_string_append(out, "io");
	if (mask & FS_CTRL_MEMORY)
		g_string_append(out, mask & FS_CTRL_IO ? " memory" : "memory");
	if (mask)
		g_string_append_c(out, '\n');
}

/* cgroup_controllers_show(): what the parent's subtree_control gives this
 * cgroup (cgroup_control()); the root has every controller. */
static int show_controllers(struct fs_call *c, GString *out)
{
	show_ctrl_mask(out, atomic_load(&c->node->st.controllers));
	return 0;
}

static int show_subtree_control(struct fs_call *c, GString *out)
{
	show_ctrl_mask(out, atomic_load(&c->node->st.subtree_control));
	return 0;
}

/*
 * A child's memory css comes and goes with its parent's subtree_control:
 * "-memory" kills it (kill_css()), "+memory" makes a new one
 * (mem_cgroup_css_alloc()), fresh in the engine (mcg_memcg_css_create():
 * no charges, events, peaks or limits of the old one).  Meanwhile the
 * child's tasks charge the nearest ancestor's css, and pages charged to
 * the old css stay with it, dying, until they are freed (7.3: reparented
 * at once) - the workload's mcg_workload_memory_css().  What of the css
 * the fs node keeps goes back to a new css's at the kill.
 */
static void memory_css_killed(struct fs_node *kid)
{
	atomic_store(&kid->st.zswap_max, (unsigned long)MCG_PAGE_COUNTER_MAX);
	atomic_store(&kid->st.zswap_writeback, true);
}

/* cgroup_subtree_control_write(): "+name" enables, "-name" disables, the
 * last word about a controller wins; an unknown word is EINVAL.  Enabling
 * what the cgroup itself lacks (cgroup.controllers) is ENOENT; disabling
 * what a child still enables in its own subtree_control is EBUSY; words
 * that change nothing are dropped first.  The children's files of an
 * enabled controller appear owned by the writer (css_populate_dir() ->
 * cgroup_add_file() with current_fsuid()), and go when it is disabled. */
/*
 * The cgroup2 controllers cgroup_subtree_control_write() knows by name
 * (kernel/cgroup/cgroup.c): those of include/linux/cgroup_subsys.h that
 * the kernel is built with and that have cgroup2 files or are implicit
 * there (not cgrp_dfl_inhibit_ss_mask: cpuacct, devices, freezer, net_cls
 * and net_prio are v1 only), in subsystem order.  Debian builds cpuset,
 * cpu, io, memory, perf_event, hugetlb, pids and rdma in every release
 * (CONFIG_CPUSETS, _CGROUP_SCHED, _BLK_CGROUP, _MEMCG, _CGROUP_PERF,
 * _CGROUP_HUGETLB, _CGROUP_PIDS, _CGROUP_RDMA), misc from its 6.1 on
 * (CONFIG_CGROUP_MISC, 5.13+; its 5.10 config predates it), and neither
 * dmem nor debug.  memcgfs has io and memory; a name of the others parses,
 * and enabling it is ENOENT (cgroup_control() never offers it here: the
 * root's cgroup.controllers lists io and memory), disabling it a no-op (it
 * is not in subtree_control).  Any other name is EINVAL.
 */
static const struct {
	const char *name;
	unsigned ctrl;		/* FS_CTRL_*, or 0: not emulated */
	unsigned since;		/* MCG_KVER() of Debian's first build with it */
} v2_controllers[] = {
	{ "cpuset", 0, 0 }, { "cpu", 0, 0 }, { "io", FS_CTRL_IO, 0 },
	{ "memory", FS_CTRL_MEMORY, 0 }, { "perf_event", 0, 0 }, { "hugetlb", 0, 0 },
	{ "pids", 0, 0 }, { "rdma", 0, 0 }, { "misc", 0, MCG_KVER(6, 1) },
};

static int write_subtree_control(struct fs_call *c, char *buf)
{
	struct mcgfs *fs = c->fs;
	unsigned enable = 0, disable = 0, have, changed = 0;
	/* The controllers not emulated that the write enables, by their
	 * place in v2_controllers[]. */
	unsigned other_enable = 0;
	unsigned version = mcg_engine_layout(fs->e)->version;
	char *tok, *save = NULL;
	struct mcg_cgroup **kids;
	unsigned nr = 0;
	int err = 0;

	buf = fs_strstrip(buf);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		unsigned k, bit;

		for (k = 0; k < G_N_ELEMENTS(v2_controllers); k++)
			if (version >= v2_controllers[k].since &&
			    strcmp(tok + 1, v2_controllers[k].name) == 0)
				break;
		if (k == G_N_ELEMENTS(v2_controllers) || (tok[0] != '+' && tok[0] != '-'))
			return -EINVAL;
		bit = v2_controllers[k].ctrl;
		if (!bit) {
			if (tok[0] == '+')
				other_enable |= 1u << k;
			else
				other_enable &= ~(1u << k);
		} else if (tok[0] == '+') {
			enable |= bit;
			disable &= ~bit;
		} else {
			disable |= bit;
			enable &= ~bit;
		}
	}

	pthread_mutex_lock(&fs->ctl_lock);
	have = atomic_load(&c->node->st.subtree_control);
	kids = mcg_cgroup_children(fs->e, c->cg, &nr);
	pthread_mutex_lock(&fs->lock);
	/* Each controller in subsystem order: one already so is dropped,
	 * enabling one the cgroup lacks is ENOENT (any not emulated),
	 * disabling one a child enables EBUSY, the first error wins. */
	for (unsigned k = 0; !err && k < G_N_ELEMENTS(v2_controllers); k++) {
		unsigned bit = v2_controllers[k].ctrl;

		if (!bit) {
			if (other_enable & (1u << k))
				err = -ENOENT;
			continue;
		}
		if (enable & bit) {
			if (have & bit)
				enable &= ~bit;
			else if (!(atomic_load(&c->node->st.controllers) & bit))
				err = -ENOENT;
		} else if (disable & bit) {
			if (!(have & bit))
				disable &= ~bit;
			for (unsigned i = 0; !err && (disable & bit) && i < nr; i++) {
				struct fs_node *kid = node_of_cg(fs, kids[i]);

				if (kid && (atomic_load(&kid->st.subtree_control) & bit))
					err = -EBUSY;
			}
		}
	}
	/* cgroup_vet_subtree_control_enable(), for domain controllers (all
	 * of memcgfs's): none where the domain is invalid, nor in a thread
	 * root or threaded cgroup but the root; then the no-internal-process
	 * rule, a non-root cgroup with tasks of its own cannot give its
	 * children domain controllers. */
	if (!err && enable && !cg_is_valid_domain(fs, cg_dom(fs, c->cg)))
		err = -EOPNOTSUPP;
	if (!err && enable && !c->node->is_root &&
	    (cg_is_thread_root(fs, c->cg) || atomic_load(&c->node->st.threaded)))
		err = -EOPNOTSUPP;
	if (!err && enable && !c->node->is_root &&
	    (mcg_workload_cgroup_busy(fs->wl, c->cg) ||
	     mcg_workload_cgroup_host_tasks(fs->wl, c->cg)))
		err = -EBUSY;
	/* cgroup_apply_control_enable(): a new memory css charges its
	 * objects to this cgroup (mem_cgroup_css_alloc()), which may reclaim;
	 * if one cannot, the write fails with ENOMEM and nothing changes.
	 * Outside fs->lock; ctl_lock keeps the children as they are. */
	if (!err && (enable & FS_CTRL_MEMORY)) {
		unsigned done = 0;

		g_autofree bool *threaded = g_new0(bool, nr);

		/* a threaded child takes no domain controller (cgroup_control()) */
		for (unsigned i = 0; i < nr; i++)
			threaded[i] = cg_is_threaded(fs, kids[i]);
		pthread_mutex_unlock(&fs->lock);
		for (; err != -ENOMEM && done < nr; done++)
			err = threaded[done] ? 0 : mcg_workload_memory_css(fs->wl, kids[done], true);
		if (err == -ENOMEM) {
			for (unsigned i = 0; i + 1 < done; i++)
				if (!threaded[i])
					mcg_workload_memory_css(fs->wl, kids[i], false);
		} else {
			err = 0;	/* a child on its way out (ENODEV) has no css to make */
		}
		pthread_mutex_lock(&fs->lock);
	}
	if (!err && (enable | disable)) {
		unsigned now = (have | enable) & ~disable;
		struct timespec born;	/* the new controller files' (kernfs_new_node()) */

		clock_gettime(CLOCK_REALTIME, &born);

		changed = enable | disable;
		atomic_store(&c->node->st.subtree_control, now);
		for (unsigned i = 0; i < nr; i++) {
			struct fs_node *kid = g_hash_table_lookup(fs->nodes,
							  &(uint64_t){ mcg_cgroup_id(kids[i]) });
			if (!kid || atomic_load(&kid->st.threaded))
				continue;	/* made later from the parent's state;
						 * no domain controller */
			atomic_store(&kid->st.controllers, now);
			if (disable & FS_CTRL_MEMORY)
				memory_css_killed(kid);
			for (unsigned f = 0; f < fs->nr_files; f++) {
				struct fs_attr *a = &kid->attrs[f + 1];

				if (!(fs->files[f].ctrl & enable))
					continue;
				/* the writer's, through iattrs if not root
				 * (__kernfs_new_node()), as at mkdir */
				fs_attr_init(a, fs->files[f].mode, c->uid, c->gid, &born);
				a->iattr = c->uid != 0 || c->gid != 0;
			}
		}
	}
	pthread_mutex_unlock(&fs->lock);
	/* cgroup_apply_control_disable(): the killed memory csses give their
	 * objects back (outside fs->lock, as they are charged). */
	if (!err && (disable & FS_CTRL_MEMORY))
		for (unsigned i = 0; i < nr; i++)
			mcg_workload_memory_css(fs->wl, kids[i], false);
	pthread_mutex_unlock(&fs->ctl_lock);
	for (unsigned i = 0; i < nr; i++) {
		if (changed)
			fs_files_changed(fs, mcg_cgroup_id(kids[i]), changed, false);
		mcg_cgroup_put(kids[i]);
	}
	g_free(kids);
	return err;
}

/* cgroup_type_show(). */
static int show_type(struct fs_call *c, GString *out)
{
	const char *type;

	pthread_mutex_lock(&c->fs->lock);
	if (cg_is_threaded(c->fs, c->cg))
		type = "threaded";
	else if (!cg_is_valid_domain(c->fs, c->cg))
		type = "domain invalid";
	else if (cg_is_thread_root(c->fs, c->cg))
		type = "domain threaded";
	else
		type = "domain";
	pthread_mutex_unlock(&c->fs->lock);
	g_string_append_printf(out, "%s\n", type);
	return 0;
}

/* cgroup_type_write() -> cgroup_enable_threaded(): only "threaded" is
 * valid input (EINVAL), a no-op where it is already; a cgroup populated or
 * enabling (domain) controllers for its children, or whose parent's domain
 * is invalid or cannot be a thread root, is EOPNOTSUPP.  It then has no
 * controller (cgroup_apply_control(): threaded cgroups have threaded ones
 * only): a memory css it had, a child of the root that enables memory,
 * is killed, and its tasks charge the domain's. */
static int write_type(struct fs_call *c, char *buf)
{
	struct mcgfs *fs = c->fs;
	unsigned had = 0;
	int err = 0;

	if (strcmp(fs_strstrip(buf), "threaded") != 0)
		return -EINVAL;
	pthread_mutex_lock(&fs->ctl_lock);
	pthread_mutex_lock(&fs->lock);
	if (atomic_load(&c->node->st.threaded)) {
		err = 0;
	} else if (mcg_workload_cgroup_populated(fs->wl, c->cg, NULL) ||
		   atomic_load(&c->node->st.subtree_control)) {
		err = -EOPNOTSUPP;
	} else {
		struct mcg_cgroup *dom = cg_dom(fs, mcg_cgroup_parent(c->cg));

		if (!cg_is_valid_domain(fs, dom) || !cg_can_be_thread_root(fs, dom))
			err = -EOPNOTSUPP;
		else {
			atomic_store(&c->node->st.threaded, true);
			had = atomic_exchange(&c->node->st.controllers, 0);
			if (had & FS_CTRL_MEMORY)
				memory_css_killed(c->node);
		}
	}
	pthread_mutex_unlock(&fs->lock);
	if (had & FS_CTRL_MEMORY)
		mcg_workload_memory_css(fs->wl, c->cg, false);
	pthread_mutex_unlock(&fs->ctl_lock);
	if (had)
		fs_files_changed(fs, mcg_cgroup_id(c->cg), had, false);
	return err;
}

/* cgroup.events.  cgroup_update_populated() and cgroup_propagate_frozen()
 * notify each change, so a cgroup that is populated and emptied again
 * between two polls still wakes its poller: the changes are counted. */
static int show_events(struct fs_call *c, GString *out)
{
	uint64_t populated_flips, frozen_flips = atomic_load(&c->node->st.frozen_flips);
	bool populated = mcg_workload_cgroup_populated(c->fs->wl, c->cg, &populated_flips);

	g_string_append_printf(out, "populated %d\nfrozen %d\n", (int)populated,
			       (int)fs_node_frozen(c->fs, c->node));
	c->changes = populated_flips + frozen_flips;
	return 0;
}
/* Live csses of io and memory in a subtree: the cgroups whose parent
 * enables the controller (cgroup.controllers), and the root. */
struct css_count {
	struct mcgfs *fs;
	unsigned io, memory;
};

static void count_css(struct mcg_cgroup *cg, void *arg)
{
	struct css_count *cc = arg;
	struct fs_node *n = node_of_cg(cc->fs, cg);
	unsigned ctrl;

	if (!n)
		return;		/* removed: its csses are the dying ones */
	ctrl = atomic_load(&n->st.controllers);
	cc->io += !!(ctrl & FS_CTRL_IO);
	cc->memory += !!(ctrl & FS_CTRL_MEMORY);
}

/* cgroup_stat_show() (kernel/cgroup/cgroup.c): the per-subsystem lines
 * (6.12 on; 5.10 and 6.1 print only the two counts) name the controllers
 * bound to the v2 hierarchy, here io and memory: "nr_subsys_<ss>" is the
 * live csses of the controller in the subtree, the cgroup's own included,
 * or 0 if the cgroup has none (css->nr_descendants + 1).
 * "nr_dying_subsys_<ss>" counts the killed csses of the subtree not yet
 * released (kill_css() up, css_release_work_fn() down).  A killed memory
 * css is pinned by the pages charged to it (mcg_cgroup_nr_dying_memcg()),
 * and a removed cgroup stays dying while its css does.  Its io css goes once the
 * memcg is offline: offlining kills the memcg's writeback contexts
 * (wb_memcg_offline(), cgwb_kill()), whose release unpins the blkcg
 * (blkcg_unpin_online()), which then destroys its blkgs and drops the
 * css; the model takes that as immediate, so the io count is 0. */
static int show_cgroup_stat(struct fs_call *c, GString *out)
{
	unsigned nr = mcg_cgroup_nr_descendants(c->fs->e, c->cg);
	unsigned dying = mcg_cgroup_nr_dying_descendants(c->fs->e, c->cg);
	unsigned dying_memcg = mcg_cgroup_nr_dying_memcg(c->fs->e, c->cg);
	struct css_count cc = { c->fs, 0, 0 };
	unsigned own;

	if (mcg_engine_layout(c->fs->e)->version < MCG_KVER(6, 12)) {
		g_string_append_printf(out, "nr_descendants %u\nnr_dying_descendants %u\n", nr,
				       dying);
		return 0;
	}
	pthread_mutex_lock(&c->fs->lock);
	own = atomic_load(&c->node->st.controllers);
	mcg_cgroup_walk(c->fs->e, c->cg, count_css, &cc);
	pthread_mutex_unlock(&c->fs->lock);
	g_string_append_printf(out,
			       "nr_descendants %u\n"
			       "nr_subsys_io %u\n"
			       "nr_subsys_memory %u\n"
			       "nr_dying_descendants %u\n"
			       "nr_dying_subsys_io %u\n"
			       "nr_dying_subsys_memory %u\n",
			       nr, own & FS_CTRL_IO ? cc.io : 0, own & FS_CTRL_MEMORY ? cc.memory : 0,
			       dying, 0u, dying_memcg);
	return 0;
}

/*
 * memcgfs.proc_cgroups (the root): /proc/cgroups as a host whose every
 * controller is on cgroup2 shows it (v2), or whose memory controller is
 * the v1 hierarchy mounted (v1), for the release and its build
 * (memcgfs-run(1) binds it over /proc/cgroups).  proc_cgroupstats_show(),
 * kernel/cgroup/cgroup-v1.c: a row per subsystem the kernel is built with,
 * in include/linux/cgroup_subsys.h order, by legacy name (io is blkio):
 * hierarchy 0 (cgrp_dfl_root), num_cgroups the default hierarchy's
 * nr_cgrps (the root, its descendants, and the dying ones until they are
 * freed: css_free_rwork_fn()), enabled 1.  Debian's amd64 configs build
 * cpuset, cpu, cpuacct, blkio, memory, devices, freezer, net_cls,
 * perf_event, net_prio, hugetlb, pids and rdma in 5.10, 6.1, 6.12 and 7.3,
 * misc from 6.1 (CONFIG_CGROUP_MISC; its 5.10 predates it), and neither
 * dmem nor debug (linux-config-VER, config.amd64_none_amd64).  From 6.15
 * (present in Debian's 7.2 and 7.3 sources, absent in 6.12's) a subsystem
 * with cgroup2 files and no v1 files is left out (cgroup1_subsys_absent()):
 * memory built without CONFIG_MEMCG_V1 (the layout's has_v1) and cpuset
 * without CONFIG_CPUSETS_V1, which Debian leaves off from 6.12 on.
 */
static const struct {
	const char *legacy_name;
	unsigned since;		/* MCG_KVER() of Debian's first build with it */
	enum { V1_FILES, V1_MEMCG, V1_NONE_FROM_6_12 } v1;
} proc_cgroups_subsys[] = {
	{ "cpuset", 0, V1_NONE_FROM_6_12 }, { "cpu", 0, V1_FILES }, { "cpuacct", 0, V1_FILES },
	{ "blkio", 0, V1_FILES }, { "memory", 0, V1_MEMCG }, { "devices", 0, V1_FILES },
	{ "freezer", 0, V1_FILES }, { "net_cls", 0, V1_FILES }, { "perf_event", 0, V1_FILES },
	{ "net_prio", 0, V1_FILES }, { "hugetlb", 0, V1_FILES }, { "pids", 0, V1_FILES },
	{ "rdma", 0, V1_FILES }, { "misc", MCG_KVER(6, 1), V1_FILES },
};

static int show_proc_cgroups(struct fs_call *c, GString *out)
{
	const struct mcg_layout *layout = mcg_engine_layout(c->fs->e);
	unsigned version = layout->version;
	bool v1 = c->fs->hier == MCG_HIERARCHY_V1;
	unsigned nr_cgrps = 1 + mcg_cgroup_nr_descendants(c->fs->e, c->cg) +
			    mcg_cgroup_nr_dying_descendants(c->fs->e, c->cg);

	g_string_append(out, "#subsys_name\thierarchy\tnum_cgroups\tenabled\n");
	for (unsigned i = 0; i < G_N_ELEMENTS(proc_cgroups_subsys); i++) {
		bool absent = false;

		if (version < proc_cgroups_subsys[i].since)
			continue;
		if (version >= MCG_KVER(6, 15)) {
			if (proc_cgroups_subsys[i].v1 == V1_MEMCG)
				absent = !layout->has_v1;
			else if (proc_cgroups_subsys[i].v1 == V1_NONE_FROM_6_12)
				absent = true;
		}
		if (absent)
			continue;
		/* v1: the emulated hierarchy is memory's, whose id the host
		 * that mounts it gives (memcgfs-run(1) fills in its own, and
		 * those of the other controllers it mounts); the others, not
		 * mounted, are on the default hierarchy, the root alone */
		g_string_append_printf(out, "%s\t0\t%u\t1\n", proc_cgroups_subsys[i].legacy_name,
				       v1 && proc_cgroups_subsys[i].v1 != V1_MEMCG ? 1 : nr_cgrps);
	}
	return 0;
}

static int show_limit_int(GString *out, int v)
{
	if (v == INT_MAX)
		g_string_append(out, "max\n");
	else
		g_string_append_printf(out, "%d\n", v);
	return 0;
}

static int parse_limit_int(char *buf, int *v)
{
	int err;

	buf = fs_strstrip(buf);
	if (strcmp(buf, "max") == 0) {
		*v = INT_MAX;
		return 0;
	}
	err = fs_kstrtoint(buf, 0, v);
	if (err)
		return err;
	return *v < 0 ? -ERANGE : 0;
}

static int show_max_depth(struct fs_call *c, GString *out)
{
	return show_limit_int(out, atomic_load(&c->node->st.max_depth));
}

static int show_max_descendants(struct fs_call *c, GString *out)
{
	return show_limit_int(out, atomic_load(&c->node->st.max_descendants));
}

/* A hierarchy limit changes what mkdir accepts: the count of finite limits
 * lets mkdir skip the ancestor walk while there is none. */
static void store_limit_int(struct fs_call *c, atomic_int *field, int v)
{
	pthread_mutex_lock(&c->fs->ctl_lock);
	int old = atomic_exchange(field, v);
	if (old == INT_MAX && v != INT_MAX)
		atomic_fetch_add(&c->fs->nr_limited, 1);
	else if (old != INT_MAX && v == INT_MAX)
		atomic_fetch_sub(&c->fs->nr_limited, 1);
	pthread_mutex_unlock(&c->fs->ctl_lock);
}

static int write_max_depth(struct fs_call *c, char *buf)
{
	int v;
	int err = parse_limit_int(buf, &v);

	if (!err)
		store_limit_int(c, &c->node->st.max_depth, v);
	return err;
}

static int write_max_descendants(struct fs_call *c, char *buf)
{
	int v;
	int err = parse_limit_int(buf, &v);

	if (!err)
		store_limit_int(c, &c->node->st.max_descendants, v);
	return err;
}

static int show_freeze(struct fs_call *c, GString *out)
{
	return show_ull(out, atomic_load(&c->node->st.freeze));
}

/* cgroup_freeze_write(), cgroup_pressure_write(): kstrtoint() of the
 * stripped text, 0 or 1, anything else ERANGE. */
static int parse_switch(char *buf, bool *v)
{
	int n;
	int err = fs_kstrtoint(fs_strstrip(buf), 0, &n);

	if (err)
		return err;
	if (n < 0 || n > 1)
		return -ERANGE;
	*v = n == 1;
	return 0;
}

/* cgroup_freeze() -> cgroup_do_freeze(): a cgroup is effectively frozen
 * when it or an ancestor is (e_freeze); each change of that starts or
 * closes the interval cgroup.stat.local counts.  Descends from cg with
 * fs->ctl_lock and fs->lock held (a node is freed under fs->lock only, and
 * e_freeze is read under either); a branch whose state does not change
 * stops, as the kernel's walk skips it.  The cgroups whose tasks stop or
 * go on are collected (referenced) in `changed`, for the workload to be
 * told once fs->lock is dropped. */
struct freeze_change {
	struct mcg_cgroup *cg;
	bool frozen;
};

static void freeze_propagate(struct mcgfs *fs, struct mcg_cgroup *cg, bool parent_frozen,
			     uint64_t now, GArray *changed)
{
	struct mcg_cgroup **kids;
	struct fs_node *n = node_of_cg(fs, cg);
	unsigned nr = 0;
	bool e;

	if (!n)
		return;
	e = atomic_load(&n->st.freeze) || parent_frozen;
	if (e == n->st.e_freeze)
		return;
	n->st.e_freeze = e;
	atomic_fetch_add(&n->st.frozen_flips, 1);
	if (e)
		n->st.freeze_start_ns = now;
	else
		n->st.frozen_ns += now - n->st.freeze_start_ns;
	g_array_append_val(changed, ((struct freeze_change){ mcg_cgroup_get(cg), e }));
	kids = mcg_cgroup_children(fs->e, cg, &nr);
	for (unsigned i = 0; i < nr; i++) {
		freeze_propagate(fs, kids[i], e, now, changed);
		mcg_cgroup_put(kids[i]);
	}
	g_free(kids);
}

static int write_freeze(struct fs_call *c, char *buf)
{
	struct mcgfs *fs = c->fs;
	struct mcg_cgroup *parent = mcg_cgroup_parent(c->cg);
	g_autoptr(GArray) changed = g_array_new(FALSE, FALSE, sizeof(struct freeze_change));
	bool parent_frozen = false, v;
	int err = parse_switch(buf, &v);

	if (err)
		return err;
	pthread_mutex_lock(&fs->ctl_lock);
	pthread_mutex_lock(&fs->lock);
	atomic_store(&c->node->st.freeze, v);
	if (parent) {
		struct fs_node *p = g_hash_table_lookup(fs->nodes,
							&(uint64_t){ mcg_cgroup_id(parent) });
		parent_frozen = p && p->st.e_freeze;
	}
	freeze_propagate(fs, c->cg, parent_frozen, fs_monotonic_ns(), changed);
	pthread_mutex_unlock(&fs->lock);
	/* The tasks stop or go on; still under ctl_lock, so that a later
	 * freeze write is applied after this one. */
	for (unsigned i = 0; i < changed->len; i++) {
		struct freeze_change *ch = &g_array_index(changed, struct freeze_change, i);

		mcg_workload_set_frozen(fs->wl, ch->cg, ch->frozen);
		mcg_host_freeze_changed(fs->host, ch->cg);
		mcg_cgroup_put(ch->cg);
	}
	pthread_mutex_unlock(&fs->ctl_lock);
	return 0;
}

/* cgroup_core_local_stat_show() (6.18 on): time spent frozen, open
 * interval included, in microseconds. */
static int show_cgroup_stat_local(struct fs_call *c, GString *out)
{
	uint64_t ns;

	pthread_mutex_lock(&c->fs->ctl_lock);
	ns = c->node->st.frozen_ns;
	if (c->node->st.e_freeze)
		ns += fs_monotonic_ns() - c->node->st.freeze_start_ns;
	pthread_mutex_unlock(&c->fs->ctl_lock);
	g_string_append_printf(out, "frozen_usec %llu\n", (unsigned long long)(ns / 1000));
	return 0;
}

/* cgroup.kill: every task of the subtree exits. */
static int write_kill(struct fs_call *c, char *buf)
{
	int v;
	int err = fs_kstrtoint(fs_strstrip(buf), 0, &v);

	if (err)
		return err;
	if (v != 1)
		return -ERANGE;
	/* cgroup_kill_write(): killing is process directed, so not in a
	 * threaded cgroup, as cgroup.procs */
	if (atomic_load(&c->node->st.threaded))
		return -EOPNOTSUPP;
	/* cgroup_kill(): every task of the subtree. */
	mcg_host_kill(c->fs->host, c->cg);
	return mcg_workload_kill(c->fs->wl, c->cg);
}

/* ---- memory v2 (mm/memcontrol.c) ------------------------------------------------- */

static int show_v2_usage(struct fs_call *c, GString *out)
{
	return show_ull(out, pages_to_bytes(mcg_counter_read(c->memcg, CNT_COUNTER(c->of->file->arg),
							      MCG_FIELD_USAGE)));
}

static int show_v2_tunable(struct fs_call *c, GString *out)
{
	return show_tunable(out, mcg_counter_read(c->memcg, CNT_COUNTER(c->of->file->arg),
						  CNT_FIELD(c->of->file->arg)));
}

/* The v2 limit writes: "max" or a byte count after strstrip.  The workload
 * layer stores them; for memory.max and memory.high it also reclaims down
 * to the new value (and memory.max OOM-kills), as the kernel does. */
static int write_v2_tunable(struct fs_call *c, char *buf, enum mcg_counter counter,
			    enum mcg_counter_field field)
{
	unsigned long pages;
	int err = fs_page_counter_memparse(fs_strstrip(buf), "max", &pages);

	if (err)
		return err;
	return mcg_workload_set_limit(c->fs->wl, c->memcg, counter, field, pages, false);
}

static int write_memory_min(struct fs_call *c, char *buf)
{
	return write_v2_tunable(c, buf, MCG_COUNTER_MEMORY, MCG_FIELD_MIN);
}

static int write_memory_low(struct fs_call *c, char *buf)
{
	return write_v2_tunable(c, buf, MCG_COUNTER_MEMORY, MCG_FIELD_LOW);
}

/* memory_high_write() reclaims down to the new mark before it returns;
 * the host processes' pages too, which the host cgroup holds. */
static int write_memory_high(struct fs_call *c, char *buf)
{
	int err = write_v2_tunable(c, buf, MCG_COUNTER_MEMORY, MCG_FIELD_HIGH);
	unsigned long usage, high;

	if (err)
		return err;
	usage = mcg_counter_read(c->memcg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE);
	high = mcg_counter_read(c->memcg, MCG_COUNTER_MEMORY, MCG_FIELD_HIGH);
	if (usage > high)
		(void)mcg_host_reclaim(c->fs->host, c->cg, usage - high);
	return 0;
}

static int write_memory_max(struct fs_call *c, char *buf)
{
	return write_v2_tunable(c, buf, MCG_COUNTER_MEMORY, MCG_FIELD_MAX);
}

static int write_swap_high(struct fs_call *c, char *buf)
{
	return write_v2_tunable(c, buf, MCG_COUNTER_SWAP, MCG_FIELD_HIGH);
}

static int write_swap_max(struct fs_call *c, char *buf)
{
	return write_v2_tunable(c, buf, MCG_COUNTER_SWAP, MCG_FIELD_MAX);
}

/* memory.peak and memory.swap.peak (6.12 and 7.3 mm/memcontrol.c
 * peak_show(), peak_write()): an fd that never wrote sees the counter's
 * watermark; a write starts the counter's local watermark again from the
 * usage, raises every other written fd of the file to that usage and sets
 * its own, and such an fd then sees the higher of its value and the local
 * watermark.  Before 6.12 the files are read-only. */
static int show_peak(struct fs_call *c, GString *out)
{
	enum mcg_counter counter = CNT_COUNTER(c->of->file->arg);
	unsigned long fd_peak = atomic_load(&c->of->peak), peak;

	if (fd_peak == FS_PEAK_UNSET)
		peak = mcg_counter_read(c->memcg, counter, MCG_FIELD_WATERMARK);
	else
		peak = MAX(fd_peak, mcg_counter_read(c->memcg, counter, MCG_FIELD_LOCAL_WATERMARK));
	return show_ull(out, pages_to_bytes(peak));
}

static int write_peak(struct fs_call *c, char *buf)
{
	enum mcg_counter counter = CNT_COUNTER(c->of->file->arg);
	struct fs_node *n = c->of->node;
	unsigned long usage;

	(void)buf;
	pthread_mutex_lock(&c->fs->lock);	/* memcg->peaks_lock */
	usage = mcg_counter_read(c->memcg, counter, MCG_FIELD_USAGE);
	mcg_counter_set(c->memcg, counter, MCG_FIELD_LOCAL_WATERMARK, usage);
	for (GList *l = n->peak_watchers; l; l = l->next) {
		struct fs_open *peer = l->data;

		if (peer->file == c->of->file && usage > atomic_load(&peer->peak))
			atomic_store(&peer->peak, usage);
	}
	if (atomic_load(&c->of->peak) == FS_PEAK_UNSET)
		n->peak_watchers = g_list_prepend(n->peak_watchers, c->of);
	atomic_store(&c->of->peak, usage);
	pthread_mutex_unlock(&c->fs->lock);
	return 0;
}

/* __memory_events_show(): arg is true for memory.events.local; the lines
 * are the engine's kernel's (render/format.c). */
static int show_memory_events(struct fs_call *c, GString *out)
{
	mcg_format_memory_events(c->fs->e, c->memcg, c->of->file->arg, out);
	return 0;
}

static int show_swap_events(struct fs_call *c, GString *out)
{
	mcg_format_swap_events(c->fs->e, c->memcg, out);
	return 0;
}

static int show_oom_group(struct fs_call *c, GString *out)
{
	return show_ull(out, mcg_memcg_oom_group(c->memcg));
}

/* A 0-or-1 file read with kstrtoint() in any base, as memory_oom_group_write()
 * and zswap_writeback_write() take it: anything else is EINVAL. */
static int parse_flag01(char *buf, bool *out)
{
	int v;
	int err = fs_kstrtoint(fs_strstrip(buf), 0, &v);

	if (err)
		return err;
	if (v != 0 && v != 1)
		return -EINVAL;
	*out = v == 1;
	return 0;
}

static int write_oom_group(struct fs_call *c, char *buf)
{
	bool on;
	int err = parse_flag01(buf, &on);

	if (!err)
		mcg_memcg_set_oom_group(c->memcg, on);
	return err;
}

/* memory.zswap.writeback (zswap_writeback_show()/_write(), 6.12 and 7.3
 * mm/memcontrol.c). */
static int show_zswap_writeback(struct fs_call *c, GString *out)
{
	return show_ull(out, atomic_load(&c->node->st.zswap_writeback));
}

static int write_zswap_writeback(struct fs_call *c, char *buf)
{
	bool on;
	int err = parse_flag01(buf, &on);

	if (!err)
		atomic_store(&c->node->st.zswap_writeback, on);
	return err;
}

/* memory.reclaim: "<bytes> [swappiness=<0..200>]".  Input is validated as
 * memory_reclaim() does, then the workload layer reclaims that much from the
 * subtree: EAGAIN when it cannot.  (The swappiness bias is accepted and not
 * modelled: reclaim follows each cgroup's profile on swap.) */
static int write_memory_reclaim(struct fs_call *c, char *buf)
{
	const char *end;
	char *rest, *tok, *save = NULL;
	unsigned long long bytes;
	unsigned long want, got;

	buf = fs_strstrip(buf);
	bytes = fs_memparse(buf, &end);
	if (end == buf)
		return -EINVAL;
	rest = fs_strstrip((char *)end);
	for (tok = strtok_r(rest, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int swappiness;
		char tail;

		if (sscanf(tok, "swappiness=%d%c", &swappiness, &tail) != 1)
			return -EINVAL;
		if (swappiness < 0 || swappiness > FS_MAX_SWAPPINESS)
			return -EINVAL;
	}
	want = (unsigned long)(bytes / MCG_PAGE_SIZE);
	if (!want)
		return 0;
	/* host processes' pages first, where the host reclaims them */
	got = mcg_host_reclaim(c->fs->host, c->cg, want);
	if (got >= want)
		return 0;
	return mcg_workload_reclaim(c->fs->wl, c->memcg, want - got, reclaim_interrupted, NULL);
}

/* A row of an emulator file of `key value` lines drawn from a struct of
 * uint64_t counters: the field's offset, and 1000 to show ns in us. */
struct u64_key {
	const char *key;
	size_t offset;
	unsigned divisor;
};

static void show_u64_keys(GString *out, const void *counters, const struct u64_key *keys,
			  size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		uint64_t v;

		memcpy(&v, (const char *)counters + keys[i].offset, sizeof(v));
		g_string_append_printf(out, "%s %" G_GUINT64_FORMAT "\n", keys[i].key,
				       v / keys[i].divisor);
	}
}

/* memcgfs.flush_stats (root only, emulator only): the engine's flush
 * counters, for measuring what the flush heuristics do under a workload.
 * Scripts parse it: new keys go at the end. */
#define FC(key, field, divisor) { key, offsetof(struct mcg_flush_counters, field), divisor }
static const struct u64_key flush_stats_keys[] = {
	FC("flushes", flushes, 1),
	FC("forced", forced, 1),
	FC("periodic", periodic, 1),
	FC("skipped", skipped, 1),
	FC("side_flushes", side_flushes, 1),
	FC("reclaim", reclaim, 1),
	FC("refault", refault, 1),
	FC("visited", visited, 1),
	FC("flush_usec", ns, 1000),
	FC("base_flushes", base_flushes, 1),
	FC("base_visited", base_visited, 1),
	FC("base_flush_usec", base_ns, 1000),
	FC("io_flushes", io_flushes, 1),
	FC("io_visited", io_visited, 1),
	FC("io_flush_usec", io_ns, 1000),
	FC("callback_nsec", callback_ns, 1),
	FC("aggregate_nsec", aggregate_ns, 1),
	FC("changed_items", changed_items, 1),
	FC("callbacks_untimed", callbacks_untimed, 1),
	FC("percpu_loads", percpu_loads, 1),
	FC("changed_hist_0", changed_hist[0], 1),
	FC("changed_hist_1", changed_hist[1], 1),
	FC("changed_hist_2", changed_hist[2], 1),
	FC("changed_hist_3", changed_hist[3], 1),
	FC("changed_hist_4", changed_hist[4], 1),
	FC("changed_hist_5", changed_hist[5], 1),
	FC("changed_hist_6", changed_hist[6], 1),
	FC("changed_hist_7", changed_hist[7], 1),
	FC("changed_hist_8", changed_hist[8], 1),
	FC("changed_hist_9", changed_hist[9], 1),
	FC("changed_hist_10", changed_hist[10], 1),
	FC("changed_hist_11", changed_hist[11], 1),
	FC("changed_hist_12", changed_hist[12], 1),
	FC("changed_hist_13", changed_hist[13], 1),
	FC("changed_hist_14", changed_hist[14], 1),
	FC("changed_hist_15", changed_hist[15], 1),
	FC("changed_hist_16_up", changed_hist[16], 1),
	FC("shadow_count", shadow_count, 1),
	FC("dirty_throttle", dirty_throttle, 1),
	FC("kernel_usec", trigger_ns[MCG_TRIGGER_KERNEL], 1000),
	FC("read_usec", trigger_ns[MCG_TRIGGER_READ], 1000),
	FC("periodic_usec", trigger_ns[MCG_TRIGGER_PERIODIC], 1000),
	FC("reclaim_usec", trigger_ns[MCG_TRIGGER_RECLAIM], 1000),
	FC("refault_usec", trigger_ns[MCG_TRIGGER_REFAULT], 1000),
	FC("shadow_count_usec", trigger_ns[MCG_TRIGGER_SHADOW_COUNT], 1000),
	FC("dirty_throttle_usec", trigger_ns[MCG_TRIGGER_DIRTY_THROTTLE], 1000),
	FC("side_usec", trigger_ns[MCG_TRIGGER_SIDE], 1000),
	FC("links", links, 1),
	FC("link_waits", link_waits, 1),
	FC("memory_links", memory_links, 1),
};
#undef FC

static int show_flush_stats(struct fs_call *c, GString *out)
{
	struct mcg_flush_counters fc;

	mcg_engine_flush_counters(c->fs->e, &fc);
	show_u64_keys(out, &fc, flush_stats_keys, G_N_ELEMENTS(flush_stats_keys));
	return 0;
}

/* memcgfs.accuracy (root only, emulator only): with --accuracy, the error
 * and age of the memory.stat reads since the last reset
 * (mcg_accuracy_summary(): percentiles of the last MCG_ACCURACY_SAMPLES
 * reads), "nan" where there is nothing to take one of; writing 0 resets.
 * Scripts parse it: new keys go at the end. */
static int show_accuracy(struct fs_call *c, GString *out)
{
	struct mcg_accuracy_summary a;

	mcg_accuracy_summary(c->fs->e, &a);
	g_string_append_printf(out, "reads %" G_GUINT64_FORMAT "\nsamples %" G_GUINT64_FORMAT "\n",
			       a.reads, a.samples);
	g_string_append_printf(out, "error_pages_p50 %.6g\nerror_pages_p99 %.6g\n"
				    "error_pages_max %.6g\n",
			       a.err_pages_p50, a.err_pages_p99, a.err_pages_max);
	g_string_append_printf(out, "error_pct_p50 %.6g\nerror_pct_p99 %.6g\nerror_pct_max %.6g\n",
			       a.err_pct_p50, a.err_pct_p99, a.err_pct_max);
	g_string_append_printf(out, "age_usec_p50 %.6g\nage_usec_p99 %.6g\nage_usec_max %.6g\n",
			       a.age_ns_p50 / 1e3, a.age_ns_p99 / 1e3, a.age_ns_max / 1e3);
	return 0;
}

static int write_accuracy(struct fs_call *c, char *buf)
{
	if (strcmp(fs_strstrip(buf), "0") != 0)
		return -EINVAL;
	mcg_accuracy_reset(c->fs->e);
	return 0;
}

/* memcgfs.trace (root only, emulator only): the flush trace
 * (mcg_trace_format(): one line per memcg flush request, flushed or
 * skipped, and why, and the rstat lock events); writing 1 clears it and
 * starts tracing, 2 the same with the updaters' lock events, 0 stops. */
static int show_trace(struct fs_call *c, GString *out)
{
	mcg_trace_format(c->fs->e, out);
	return 0;
}

/* 0, 1 or 2, as the kernel's switches take theirs (parse_switch()). */
static int write_trace(struct fs_call *c, char *buf)
{
	int n;
	int err = fs_kstrtoint(fs_strstrip(buf), 0, &n);

	if (err)
		return err;
	if (n < MCG_TRACE_OFF || n > MCG_TRACE_UPDATERS)
		return -ERANGE;
	mcg_trace_set(c->fs->e, (enum mcg_trace_level)n);
	return 0;
}

/* memcgfs.lock_stat (root only, emulator only): the lock statistics
 * (mcg_lock_stat_format()); writing 1 clears them and starts counting, 0
 * stops. */
static int show_lock_stat(struct fs_call *c, GString *out)
{
	mcg_lock_stat_format(c->fs->e, out);
	return 0;
}

static int write_lock_stat(struct fs_call *c, char *buf)
{
	bool on;
	int err = parse_switch(buf, &on);

	if (!err)
		mcg_lock_stat_set(c->fs->e, on);
	return err;
}

/* memcgfs.read_stats (root only, emulator only): what rendering costs the
 * daemon, per file name, for the files rendered at least once, in table
 * order: "<name> <renders> <nanoseconds>".  A render is one successful
 * show(), the flush and formatting a kernel read does, timed in fs_read();
 * one hierarchy per daemon, so a name counts every cgroup's file. */
static int show_read_stats(struct fs_call *c, GString *out)
{
	struct mcgfs *fs = c->fs;

	for (unsigned i = 0; i < fs->nr_files; i++) {
		uint64_t renders = atomic_load_explicit(&fs->renders[i], memory_order_acquire);

		if (renders)
			g_string_append_printf(out, "%s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
					       fs->files[i].name, renders,
					       atomic_load_explicit(&fs->render_ns[i],
								    memory_order_relaxed));
	}
	return 0;
}

/* memcgfs.audit (the root, root's only): the conservation audit of every
 * charge (mcg_workload_audit()), in pages; "lost 0" unless a charge was
 * lost.  Reading it pauses the workers for a moment: mode 0400. */
static int show_audit(struct fs_call *c, GString *out)
{
	struct mcg_workload_audit a;

	mcg_workload_audit(c->fs->wl, &a);
	g_string_append_printf(out,
			       "usage %lu\nstocked %lu\ncharged %" PRIu64 "\nuncharged %" PRIu64
			       "\nobjects %ld\nlost %" PRId64 "\n",
			       a.usage, a.stocked, a.charged, a.uncharged, a.objects, a.lost);
	return 0;
}

/* memcgfs.workload: the cgroup's workload profile (emulator only). */
static int show_workload(struct fs_call *c, GString *out)
{
	g_autofree char *text = mcg_workload_get_profile(c->fs->wl, c->cg);

	if (!text)
		return -ENODEV;
	g_string_append(out, text);
	return 0;
}

static int write_workload(struct fs_call *c, char *buf)
{
	return mcg_workload_set_profile(c->fs->wl, c->cg, buf);
}

/* memcgfs.workload_stat (every cgroup, emulator only): the workload's own
 * progress in this cgroup, not its subtree, summed over CPUs, so that a
 * script can measure the workload's throughput with and without readers.
 * Scripts parse it: new keys go at the end. */
#define WS(key, field, divisor) \
	{ key, offsetof(struct mcg_workload_cgroup_stat, field), divisor }
static const struct u64_key workload_stat_keys[] = {
	WS("page_events", page_events, 1),
	WS("pages_charged", pages_charged, 1),
	WS("pages_uncharged", pages_uncharged, 1),
	WS("stat_updates", stat_updates, 1),
	WS("reclaim_batches", reclaim_batches, 1),
	WS("charge_stall_usec", charge_stall_ns, 1000),
	WS("steps", steps, 1),
};
#undef WS

static int show_workload_stat(struct fs_call *c, GString *out)
{
	struct mcg_workload_cgroup_stat ws;
	int err = mcg_workload_cgroup_stat(c->fs->wl, c->cg, &ws);

	if (!err)
		show_u64_keys(out, &ws, workload_stat_keys, G_N_ELEMENTS(workload_stat_keys));
	return err;
}

/* zswap_current_read() flushes first, like the stat files. */
static int show_zswap_current(struct fs_call *c, GString *out)
{
	mcg_memcg_flush_stats(c->fs->e, c->memcg);
	return show_ull(out, mcg_stat_read(c->fs->e, c->memcg, MCG_MEMCG_ZSWAP_B, MCG_HIERARCHICAL));
}

static int show_zswap_max(struct fs_call *c, GString *out)
{
	return show_tunable(out, atomic_load(&c->node->st.zswap_max));
}

static int write_zswap_max(struct fs_call *c, char *buf)
{
	unsigned long pages;
	int err = fs_page_counter_memparse(fs_strstrip(buf), "max", &pages);

	if (!err)
		atomic_store(&c->node->st.zswap_max, pages);
	return err;
}

#define FS_PSI_CPU 1	/* row arguments of cpu.pressure, memory.pressure */
#define FS_PSI_MEMORY 2

/* psi_show(): "some" and "full" with the averages (LOAD_INT.LOAD_FRAC of
 * the FIXED_1 fixed point) and total= in microseconds.  Memory stalls are
 * the emulated tasks' (workload.h); there is no CPU or I/O contention, so
 * cpu.pressure and io.pressure read 0.  cpu.pressure had no "full" line
 * before 5.13 (e7fcd762282b added PSI_CPU_FULL). */
static int show_pressure(struct fs_call *c, GString *out)
{
	struct mcg_psi psi = { 0 };

	if (c->of->file->arg == FS_PSI_MEMORY && mcg_workload_psi(c->fs->wl, c->cg, &psi))
		return -ENODEV;
	for (int full = 0; full < 2; full++) {
		if (full && c->of->file->arg == FS_PSI_CPU &&
		    mcg_engine_layout(c->fs->e)->version < MCG_KVER(5, 13))
			break;
		g_string_append(out, full ? "full" : "some");
		for (int i = 0; i < 3; i++) {
			static const char *const names[3] = { "avg10", "avg60", "avg300" };
			unsigned long a = psi.avg[full][i];

			g_string_append_printf(out, " %s=%lu.%02lu", names[i], a >> 11,
					       ((a & 2047) * 100) >> 11);
		}
		g_string_append_printf(out, " total=%llu\n",
				       (unsigned long long)(psi.total_ns[full] / 1000));
	}
	return 0;
}

/* cgroup_pressure_show()/_write() (6.1 on): 1 or 0; writing 0 hides this
 * cgroup's {cpu,memory,io}.pressure files, 1 shows them again. */
static int show_cgroup_pressure(struct fs_call *c, GString *out)
{
	return show_ull(out, atomic_load(&c->node->st.psi_enabled));
}

static int write_cgroup_pressure(struct fs_call *c, char *buf)
{
	bool v;
	int err = parse_switch(buf, &v);

	if (err)
		return err;
	if (atomic_exchange(&c->node->st.psi_enabled, v) != v)
		fs_files_changed(c->fs, c->node->id, 0, true);
	return 0;
}

/* ---- io controller (block/blk-cgroup.c, blk-throttle.c, blk-iocost.c) ------- */

/* blkg_conf_open_bdev(): "MAJ:MIN" then white space; a malformed key is
 * EINVAL, a device the machine lacks ENODEV.  The emulated devices are
 * those io.stat reports.  Returns the device index and the body. */
static int io_conf_dev(char *buf, char **body)
{
	const char *p = buf;
	unsigned major, minor;

	/* sscanf(input, "%u:%u%n", ...) as the kernel's vsscanf() runs it */
	if (!fs_scan_u32(&p, &major) || *p++ != ':' || !fs_scan_u32(&p, &minor))
		return -EINVAL;
	if (!g_ascii_isspace(*p))
		return -EINVAL;
	*body = buf + (p - buf);
	for (unsigned d = 0; d < MCG_IO_NR_DEVS; d++)
		if (mcg_io_devs[d].major == major && mcg_io_devs[d].minor == minor)
			return (int)d;
	return -ENODEV;
}

/* tg_prfill_limit(): a line per device with any limit, "max" for none.
 * The limits are kept; the emulated writeback is not throttled by them. */
static int show_io_max(struct fs_call *c, GString *out)
{
	pthread_mutex_lock(&c->fs->ctl_lock);
	for (unsigned d = 0; d < MCG_IO_NR_DEVS; d++) {
		const uint64_t *bps = c->node->st.io_max[d].bps;
		const unsigned *iops = c->node->st.io_max[d].iops;
		static const char *const key[] = { "rbps", "wbps", "riops", "wiops" };

		if (bps[0] == UINT64_MAX && bps[1] == UINT64_MAX && iops[0] == UINT_MAX &&
		    iops[1] == UINT_MAX)
			continue;
		g_string_append_printf(out, "%u:%u", mcg_io_devs[d].major, mcg_io_devs[d].minor);
		for (unsigned k = 0; k < 4; k++) {
			uint64_t v = k < 2 ? bps[k] : iops[k - 2];
			bool max = k < 2 ? v == UINT64_MAX : v == UINT_MAX;

			if (max)
				g_string_append_printf(out, " %s=max", key[k]);
			else
				g_string_append_printf(out, " %s=%llu", key[k], (unsigned long long)v);
		}
		g_string_append_c(out, '\n');
	}
	pthread_mutex_unlock(&c->fs->ctl_lock);
	return 0;
}

/* tg_set_limit(): "MAJ:MIN key=value ..." with keys rbps wbps riops wiops,
 * values a number above 1 or "max"; 0 is ERANGE, anything else EINVAL, and
 * nothing changes unless every word is good. */
static int write_io_max(struct fs_call *c, char *buf)
{
	char *body;
	int dev = io_conf_dev(buf, &body);
	uint64_t v[4];

	if (dev < 0)
		return dev;
	pthread_mutex_lock(&c->fs->ctl_lock);
	v[0] = c->node->st.io_max[dev].bps[0];
	v[1] = c->node->st.io_max[dev].bps[1];
	v[2] = c->node->st.io_max[dev].iops[0];
	v[3] = c->node->st.io_max[dev].iops[1];
	pthread_mutex_unlock(&c->fs->ctl_lock);
	for (;;) {
		char tok[27], *p;
		const char *num;
		unsigned long long val = UINT64_MAX;
		int len;

		if (sscanf(body, "%26s%n", tok, &len) != 1 || tok[0] == '\0')
			break;
		body += len;
		p = strchr(tok, '=');
		if (!p)
			return -EINVAL;
		*p++ = '\0';
		/* sscanf(p, "%llu"), the kernel's: no sign, wraps */
		num = p;
		if (!fs_scan_ull(&num, &val) && strcmp(p, "max") != 0)
			return -EINVAL;
		if (!val)
			return -ERANGE;
		if (val <= 1)
			return -EINVAL;
		if (!strcmp(tok, "rbps"))
			v[0] = val;
		else if (!strcmp(tok, "wbps"))
			v[1] = val;
		else if (!strcmp(tok, "riops"))
			v[2] = MIN(val, UINT_MAX);
		else if (!strcmp(tok, "wiops"))
			v[3] = MIN(val, UINT_MAX);
		else
			return -EINVAL;
	}
	pthread_mutex_lock(&c->fs->ctl_lock);
	c->node->st.io_max[dev].bps[0] = v[0];
	c->node->st.io_max[dev].bps[1] = v[1];
	c->node->st.io_max[dev].iops[0] = (unsigned)v[2];
	c->node->st.io_max[dev].iops[1] = (unsigned)v[3];
	pthread_mutex_unlock(&c->fs->ctl_lock);
	return 0;
}

/* ---- iocost: io.cost.qos, io.cost.model, io.weight per device ----------
 *
 * block/blk-iocost.c.  Each emulated disk is taken as what ioc_autop_idx()
 * sees on a non-rotational queue (blk_queue_nonrot()) deeper than one
 * request (blk_queue_depth() > 1): AUTOP_SSD_DFL.  From there the kernel
 * steps to AUTOP_SSD_FAST only after the vrate stays at or above
 * too_fast_vrate_pct (500%) for AUTOP_CYCLE_NSEC; no device saturation is
 * modelled here, so the vrate stays at 100% and the ioc at AUTOP_SSD_DFL.
 */

#define FS_VTIME_PER_SEC (1ULL << 37)			/* VTIME_PER_SEC_SHIFT */
#define FS_VTIME_PER_USEC (FS_VTIME_PER_SEC / 1000000)	/* VTIME_PER_USEC */
#define FS_VRATE_MIN_PPM 10000				/* 1% */
#define FS_VRATE_MAX_PPM 100000000			/* 10000% */
#define FS_IOC_PAGE_SIZE 4096				/* IOC_PAGE_SIZE */
#define FS_CGROUP_WEIGHT_MIN 1
#define FS_CGROUP_WEIGHT_MAX 10000

/* autop[AUTOP_SSD_DFL] of block/blk-iocost.c (the same in 5.10, 6.1, 6.12
 * and 7.3): rlat/wlat 25 ms, rpct/wpct 0, min 1%, max 10000%. */
static const uint32_t autop_ssd_dfl_qos[FS_NR_QOS] = {
	[FS_QOS_RLAT] = 25000, [FS_QOS_WLAT] = 25000,
	[FS_QOS_MIN] = FS_VRATE_MIN_PPM, [FS_QOS_MAX] = FS_VRATE_MAX_PPM,
};
static const uint64_t autop_ssd_dfl_i_lcoefs[FS_NR_I_LCOEFS] = {
	[FS_I_LCOEF_RBPS] = 488636629, [FS_I_LCOEF_RSEQIOPS] = 8932,
	[FS_I_LCOEF_RRANDIOPS] = 8518, [FS_I_LCOEF_WBPS] = 427891549,
	[FS_I_LCOEF_WSEQIOPS] = 28755, [FS_I_LCOEF_WRANDIOPS] = 21940,
};

static uint64_t div_round_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* calc_lcoefs(): a page costs 1 s / (bps / 4096), a sequential or random
 * IO 1 s / iops less one page's cost (not below 0). */
static void calc_lcoefs(uint64_t bps, uint64_t seqiops, uint64_t randiops, uint64_t *page,
			uint64_t *seqio, uint64_t *randio)
{
	uint64_t v;

	*page = *seqio = *randio = 0;
	if (bps) {
		uint64_t bps_pages = div_round_up(bps, FS_IOC_PAGE_SIZE);

		*page = bps_pages ? div_round_up(FS_VTIME_PER_SEC, bps_pages) : 1;
	}
	if (seqiops) {
		v = div_round_up(FS_VTIME_PER_SEC, seqiops);
		if (v > *page)
			*seqio = v - *page;
	}
	if (randiops) {
		v = div_round_up(FS_VTIME_PER_SEC, randiops);
		if (v > *page)
			*randio = v - *page;
	}
}

/* ioc_refresh_params_disk() with force, as every write and
 * blk_iocost_init() call it: the autop values where the user set none,
 * then ioc_refresh_lcoefs().  With fs->ioc_lock held. */
static void ioc_refresh_params(struct fs_ioc *ioc)
{
	const uint64_t *u = ioc->i_lcoefs;
	uint64_t *c = ioc->lcoefs;

	if (!ioc->user_qos_params)
		memcpy(ioc->qos, autop_ssd_dfl_qos, sizeof(ioc->qos));
	if (!ioc->user_cost_model)
		memcpy(ioc->i_lcoefs, autop_ssd_dfl_i_lcoefs, sizeof(ioc->i_lcoefs));
	calc_lcoefs(u[FS_I_LCOEF_RBPS], u[FS_I_LCOEF_RSEQIOPS], u[FS_I_LCOEF_RRANDIOPS],
		    &c[FS_LCOEF_RPAGE], &c[FS_LCOEF_RSEQIO], &c[FS_LCOEF_RRANDIO]);
	calc_lcoefs(u[FS_I_LCOEF_WBPS], u[FS_I_LCOEF_WSEQIOPS], u[FS_I_LCOEF_WRANDIOPS],
		    &c[FS_LCOEF_WPAGE], &c[FS_LCOEF_WSEQIO], &c[FS_LCOEF_WRANDIO]);
}

/* blk_iocost_init(): a zeroed ioc, disabled, auto params.  The writers
 * call it before they parse the body, so a write that then fails with
 * EINVAL still leaves the device its ioc.  With fs->ioc_lock held. */
static void ioc_init_locked(struct fs_ioc *ioc)
{
	if (ioc->present)
		return;
	*ioc = (struct fs_ioc){ .present = true };
	ioc_refresh_params(ioc);
}

/* ---- iocost usage (ioc_pd_stat()'s cost.usage) ----
 *
 * The kernel charges each bio calc_vtime_cost_builtin(): a sequential or a
 * random IO's base cost (by the seek distance from the cgroup's last IO)
 * plus pages * page cost, adds it to the iocg's abs_vusage while the ioc is
 * enabled, and iocg_flush_stat() turns that into usage_us = vusage /
 * vtime_base_rate, summed up the hierarchy.  Here the cost comes from the
 * io.stat counters: every IO is a sequential one, as the emulated
 * writeback and readahead walk their files in order, and of whole pages
 * (ledger.c issues IO_CHUNK-page IOs), so a cgroup's cost is
 * ios * seqio + bytes / 4096 * page per direction; discards cost nothing
 * (calc_vtime_cost_builtin()'s default case).  The vrate stays at 100%
 * (vtime_base_rate = VTIME_PER_USEC), so usage_us = abs cost /
 * VTIME_PER_USEC.  The counters are hierarchical, as io.stat's, so the
 * root's include its own IO, which the kernel leaves uncharged
 * (ioc_rqos_throttle() skips level 0); the kernel's per-period rounding
 * of usage_us is not modelled either.
 *
 * Only IO while enabled, under the lcoefs of its time, counts: at every
 * io.cost.qos or io.cost.model write each cgroup's cost since the last one
 * is folded into fs_iocg.abs_vusage and its counters snapshot
 * (ioc_fold_usage()); a node made later starts from its counters then
 * (fs_ioc_node_init()).
 */
static uint64_t iocg_cost_since(const struct fs_ioc *ioc, const struct fs_iocg *g,
				const struct mcg_iostat *st)
{
	static const unsigned seqio[2] = { FS_LCOEF_RSEQIO, FS_LCOEF_WSEQIO };
	static const unsigned page[2] = { FS_LCOEF_RPAGE, FS_LCOEF_WPAGE };
	uint64_t cost = 0;

	if (!ioc->enabled)
		return 0;
	for (unsigned op = 0; op < 2; op++) {
		uint64_t ios = st->ios[op] - g->ios[op];
		uint64_t pages = (st->bytes[op] - g->bytes[op]) / FS_IOC_PAGE_SIZE;

		/* pages = max(bio_sectors >> 3, 1) per bio */
		cost += ios * ioc->lcoefs[seqio[op]] + MAX(pages, ios) * ioc->lcoefs[page[op]];
	}
	return cost;
}

static void iocg_snapshot(struct fs_iocg *g, const struct mcg_iostat *st)
{
	for (unsigned op = 0; op < 2; op++) {
		g->bytes[op] = st->bytes[op];
		g->ios[op] = st->ios[op];
	}
}

/* Closes every online cgroup's interval on device dev under the ioc's
 * present state (before a write changes it).  With fs->lock and
 * fs->ioc_lock held; the counters were flushed just before. */
static void ioc_fold_usage(struct mcgfs *fs, unsigned dev)
{
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, fs->nodes);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct fs_node *n = v;
		struct fs_iocg *g = &n->st.iocg[dev];
		struct mcg_iostat st;

		mcg_io_read_for_show(fs->e, n->cg, dev, &st);
		g->abs_vusage += iocg_cost_since(&fs->ioc[dev], g, &st);
		iocg_snapshot(g, &st);
	}
}

/* The counters as last flushed: no engine flush under fs->lock.  A cgroup
 * made by mkdir has none yet; one first looked up later may have some. */
void fs_ioc_node_init(struct mcgfs *fs, struct fs_node *n)
{
	pthread_mutex_lock(&fs->ioc_lock);
	for (unsigned d = 0; d < MCG_IO_NR_DEVS; d++) {
		struct mcg_iostat st;

		n->st.iocg[d] = (struct fs_iocg){ 0 };
		if (!fs->ioc[d].enabled)
			continue;
		mcg_io_read_for_show(fs->e, n->cg, d, &st);
		iocg_snapshot(&n->st.iocg[d], &st);
	}
	pthread_mutex_unlock(&fs->ioc_lock);
}

/* blkcg_print_stat() -> blkcg_print_one_stat(): the io.stat lines, each
 * device's ending in ioc_pd_stat()'s fields while its ioc is enabled:
 * " cost.vrate=%u.%02u" on the root (vp10k of vtime_base_rate, 100.00
 * here) and " cost.usage=%llu". */
static int show_io_stat(struct fs_call *c, GString *out)
{
	char tail[MCG_IO_NR_DEVS][64];
	const char *tails[MCG_IO_NR_DEVS];

	mcg_io_flush_for_read(c->fs->e, c->cg);
	pthread_mutex_lock(&c->fs->ioc_lock);
	for (unsigned d = 0; d < MCG_IO_NR_DEVS; d++) {
		const struct fs_ioc *ioc = &c->fs->ioc[d];
		const struct fs_iocg *g = &c->node->st.iocg[d];
		struct mcg_iostat st;
		unsigned long long usage;
		int len = 0;

		tails[d] = NULL;
		if (!ioc->enabled)
			continue;
		mcg_io_read_for_show(c->fs->e, c->cg, d, &st);
		usage = (g->abs_vusage + iocg_cost_since(ioc, g, &st)) / FS_VTIME_PER_USEC;
		if (c->node->is_root)
			len = snprintf(tail[d], sizeof(tail[d]), " cost.vrate=%u.%02u", 100u, 0u);
		snprintf(tail[d] + len, sizeof(tail[d]) - (size_t)len, " cost.usage=%llu", usage);
		tails[d] = tail[d];
	}
	pthread_mutex_unlock(&c->fs->ioc_lock);
	mcg_format_io_stat_flushed(c->fs->e, c->cg, tails, out);
	return 0;
}

/* ioc_qos_show() -> ioc_qos_prfill(): a line per device with an ioc. */
static int show_io_cost_qos(struct fs_call *c, GString *out)
{
	pthread_mutex_lock(&c->fs->ioc_lock);
	for (unsigned d = 0; d < MCG_IO_NR_DEVS; d++) {
		const struct fs_ioc *ioc = &c->fs->ioc[d];
		const uint32_t *q = ioc->qos;

		if (!ioc->present)
			continue;
		g_string_append_printf(out, "%u:%u enable=%d ctrl=%s rpct=%u.%02u rlat=%u "
				       "wpct=%u.%02u wlat=%u min=%u.%02u max=%u.%02u\n",
				       mcg_io_devs[d].major, mcg_io_devs[d].minor, ioc->enabled,
				       ioc->user_qos_params ? "user" : "auto",
				       q[FS_QOS_RPPM] / 10000, q[FS_QOS_RPPM] % 10000 / 100,
				       q[FS_QOS_RLAT],
				       q[FS_QOS_WPPM] / 10000, q[FS_QOS_WPPM] % 10000 / 100,
				       q[FS_QOS_WLAT],
				       q[FS_QOS_MIN] / 10000, q[FS_QOS_MIN] % 10000 / 100,
				       q[FS_QOS_MAX] / 10000, q[FS_QOS_MAX] % 10000 / 100);
	}
	pthread_mutex_unlock(&c->fs->ioc_lock);
	return 0;
}

/* ioc_cost_model_show() -> ioc_cost_model_prfill(). */
static int show_io_cost_model(struct fs_call *c, GString *out)
{
	pthread_mutex_lock(&c->fs->ioc_lock);
	for (unsigned d = 0; d < MCG_IO_NR_DEVS; d++) {
		const struct fs_ioc *ioc = &c->fs->ioc[d];
		const uint64_t *u = ioc->i_lcoefs;

		if (!ioc->present)
			continue;
		g_string_append_printf(out, "%u:%u ctrl=%s model=linear "
				       "rbps=%llu rseqiops=%llu rrandiops=%llu "
				       "wbps=%llu wseqiops=%llu wrandiops=%llu\n",
				       mcg_io_devs[d].major, mcg_io_devs[d].minor,
				       ioc->user_cost_model ? "user" : "auto",
				       (unsigned long long)u[FS_I_LCOEF_RBPS],
				       (unsigned long long)u[FS_I_LCOEF_RSEQIOPS],
				       (unsigned long long)u[FS_I_LCOEF_RRANDIOPS],
				       (unsigned long long)u[FS_I_LCOEF_WBPS],
				       (unsigned long long)u[FS_I_LCOEF_WSEQIOPS],
				       (unsigned long long)u[FS_I_LCOEF_WRANDIOPS]);
	}
	pthread_mutex_unlock(&c->fs->ioc_lock);
	return 0;
}

/* The first steps of ioc_qos_write()/ioc_cost_model_write():
 * blkg_conf_open_bdev() (EINVAL, ENODEV), then blk_iocost_init() if the
 * device has no ioc yet.  Returns the device, or a negative errno. */
static int ioc_conf_open(struct mcgfs *fs, char *buf, char **body)
{
	int dev = io_conf_dev(buf, body);

	if (dev < 0)
		return dev;
	*body = g_strchug(*body);	/* skip_spaces() */
	pthread_mutex_lock(&fs->ioc_lock);
	ioc_init_locked(&fs->ioc[dev]);
	pthread_mutex_unlock(&fs->ioc_lock);
	return dev;
}

/* Applies a parsed write (`next`, a copy of the ioc) to device dev: the
 * cost so far is folded under the old state first (see "iocost usage").
 * Takes fs->lock, then fs->ioc_lock. */
static void ioc_commit(struct mcgfs *fs, unsigned dev, const struct fs_ioc *next)
{
	mcg_io_flush(fs->e, fs->root->cg);
	pthread_mutex_lock(&fs->lock);
	pthread_mutex_lock(&fs->ioc_lock);
	ioc_fold_usage(fs, dev);
	fs->ioc[dev] = *next;
	ioc_refresh_params(&fs->ioc[dev]);
	pthread_mutex_unlock(&fs->ioc_lock);
	pthread_mutex_unlock(&fs->lock);
}

/* strsep(&body, " \t\n") of the writers: the next non-empty token, NUL
 * terminated in place, or NULL at the end. */
static char *ioc_next_token(char **body)
{
	char *p;

	do {
		p = *body;
		if (!p)
			return NULL;
		*body = p + strcspn(p, " \t\n");
		if (**body)
			*(*body)++ = '\0';
		else
			*body = NULL;
	} while (!*p);
	return p;
}

/* "ctrl=%s": auto or user (match_strlcpy() into 32 bytes), else EINVAL. */
static int ioc_parse_ctrl(const char *from, const char *to, bool *user)
{
	char buf[32];

	fs_match_strlcpy(buf, from, to, sizeof(buf));
	if (!strcmp(buf, "auto"))
		*user = false;
	else if (!strcmp(buf, "user"))
		*user = true;
	else
		return -EINVAL;
	return 0;
}

/* ioc_qos_write(): "MAJ:MIN" then tokens enable=%u ctrl=%s rpct=%s rlat=%u
 * wpct=%s wlat=%u min=%s max=%s (match_token() of qos_ctrl_tokens, then of
 * qos_tokens); any qos token sets ctrl=user.  rpct/wpct are percentages
 * with two decimals (cgroup_parse_float(), 0..100.00 else EINVAL) kept in
 * ppm; min/max likewise, >= 0 and clamped to VRATE_MIN_PPM..VRATE_MAX_PPM;
 * rlat/wlat match_u64().  The u32 qos[] truncates what it is given, as the
 * kernel's does.  min above max is EINVAL.  On EINVAL nothing changes but
 * the ioc's creation.  Before 6.12 enable= ignored match_u64()'s error
 * (an overflowing number, then v undefined): here it leaves enable as it
 * was in those kernels.  6.6, whose source is not at hand, is taken as 6.1. */
static int io_cost_qos_parse(struct fs_call *c, char *buf)
{
	static const char *const qos_pat[FS_NR_QOS] = {
		[FS_QOS_RPPM] = "rpct=%s", [FS_QOS_RLAT] = "rlat=%u",
		[FS_QOS_WPPM] = "wpct=%s", [FS_QOS_WLAT] = "wlat=%u",
		[FS_QOS_MIN] = "min=%s", [FS_QOS_MAX] = "max=%s",
	};
	bool checked = mcg_engine_layout(c->fs->e)->version >= MCG_KVER(6, 12);
	struct fs_ioc next;
	char *body, *p;
	int dev = ioc_conf_open(c->fs, buf, &body);
	bool user;

	if (dev < 0)
		return dev;
	pthread_mutex_lock(&c->fs->ioc_lock);
	next = c->fs->ioc[dev];
	pthread_mutex_unlock(&c->fs->ioc_lock);
	user = next.user_qos_params;

	while ((p = ioc_next_token(&body))) {
		const char *from, *to;
		unsigned long long u;
		long long v;
		char num[32];
		unsigned tok;

		if (fs_match_one(p, "enable=%u", &from, &to)) {
			int err = fs_match_u64(from, to, &u);

			if (err && checked)
				return -EINVAL;
			if (!err)
				next.enabled = u != 0;
			continue;
		}
		if (fs_match_one(p, "ctrl=%s", &from, &to)) {
			if (ioc_parse_ctrl(from, to, &user))
				return -EINVAL;
			continue;
		}
		for (tok = 0; tok < FS_NR_QOS; tok++)
			if (fs_match_one(p, qos_pat[tok], &from, &to))
				break;
		switch (tok) {
		case FS_QOS_RPPM:
		case FS_QOS_WPPM:
			if (fs_match_strlcpy(num, from, to, sizeof(num)) >= sizeof(num))
				return -EINVAL;
			if (fs_cgroup_parse_float(num, 2, &v))
				return -EINVAL;
			if (v < 0 || v > 10000)
				return -EINVAL;
			next.qos[tok] = (uint32_t)(v * 100);
			break;
		case FS_QOS_RLAT:
		case FS_QOS_WLAT:
			if (fs_match_u64(from, to, &u))
				return -EINVAL;
			next.qos[tok] = (uint32_t)u;
			break;
		case FS_QOS_MIN:
		case FS_QOS_MAX:
			if (fs_match_strlcpy(num, from, to, sizeof(num)) >= sizeof(num))
				return -EINVAL;
			if (fs_cgroup_parse_float(num, 2, &v))
				return -EINVAL;
			if (v < 0)
				return -EINVAL;
			/* clamp_t(s64, v * 100, ...): the product wraps */
			v = (long long)((unsigned long long)v * 100);
			next.qos[tok] = (uint32_t)CLAMP(v, FS_VRATE_MIN_PPM, FS_VRATE_MAX_PPM);
			break;
		default:
			return -EINVAL;
		}
		user = true;
	}
	if (next.qos[FS_QOS_MIN] > next.qos[FS_QOS_MAX])
		return -EINVAL;
	if (user) {
		next.user_qos_params = true;
	} else {
		/* the ioc's own qos stay; ioc_refresh_params() restores autop */
		pthread_mutex_lock(&c->fs->ioc_lock);
		memcpy(next.qos, c->fs->ioc[dev].qos, sizeof(next.qos));
		pthread_mutex_unlock(&c->fs->ioc_lock);
		next.user_qos_params = false;
	}
	ioc_commit(c->fs, (unsigned)dev, &next);
	return 0;
}

/* ioc_cost_model_write(): "MAJ:MIN" then ctrl=%s, model=%s (linear only)
 * and the i_lcoef tokens rbps rseqiops rrandiops wbps wseqiops wrandiops
 * (=%u, then match_u64()); any of those sets ctrl=user.  On EINVAL nothing
 * changes but the ioc's creation. */
static int io_cost_model_parse(struct fs_call *c, char *buf)
{
	static const char *const lcoef_pat[FS_NR_I_LCOEFS] = {
		[FS_I_LCOEF_RBPS] = "rbps=%u", [FS_I_LCOEF_RSEQIOPS] = "rseqiops=%u",
		[FS_I_LCOEF_RRANDIOPS] = "rrandiops=%u", [FS_I_LCOEF_WBPS] = "wbps=%u",
		[FS_I_LCOEF_WSEQIOPS] = "wseqiops=%u", [FS_I_LCOEF_WRANDIOPS] = "wrandiops=%u",
	};
	struct fs_ioc next;
	char *body, *p;
	int dev = ioc_conf_open(c->fs, buf, &body);
	bool user;

	if (dev < 0)
		return dev;
	pthread_mutex_lock(&c->fs->ioc_lock);
	next = c->fs->ioc[dev];
	pthread_mutex_unlock(&c->fs->ioc_lock);
	user = next.user_cost_model;

	while ((p = ioc_next_token(&body))) {
		const char *from, *to;
		unsigned long long u;
		char name[32];
		unsigned tok;

		if (fs_match_one(p, "ctrl=%s", &from, &to)) {
			if (ioc_parse_ctrl(from, to, &user))
				return -EINVAL;
			continue;
		}
		if (fs_match_one(p, "model=%s", &from, &to)) {
			fs_match_strlcpy(name, from, to, sizeof(name));
			if (strcmp(name, "linear"))
				return -EINVAL;
			continue;
		}
		for (tok = 0; tok < FS_NR_I_LCOEFS; tok++)
			if (fs_match_one(p, lcoef_pat[tok], &from, &to))
				break;
		if (tok == FS_NR_I_LCOEFS)
			return -EINVAL;
		if (fs_match_u64(from, to, &u))
			return -EINVAL;
		next.i_lcoefs[tok] = u;
		user = true;
	}
	if (!user) {
		pthread_mutex_lock(&c->fs->ioc_lock);
		memcpy(next.i_lcoefs, c->fs->ioc[dev].i_lcoefs, sizeof(next.i_lcoefs));
		pthread_mutex_unlock(&c->fs->ioc_lock);
	}
	next.user_cost_model = user;
	ioc_commit(c->fs, (unsigned)dev, &next);
	return 0;
}

/* The kernel parses under ioc->lock with the queue frozen, so two writes
 * do not interleave: here they serialise on fs->ctl_lock (taken before
 * fs->lock, as elsewhere). */
static int write_io_cost_qos(struct fs_call *c, char *buf)
{
	int err;

	pthread_mutex_lock(&c->fs->ctl_lock);
	err = io_cost_qos_parse(c, buf);
	pthread_mutex_unlock(&c->fs->ctl_lock);
	return err;
}

static int write_io_cost_model(struct fs_call *c, char *buf)
{
	int err;

	pthread_mutex_lock(&c->fs->ctl_lock);
	err = io_cost_model_parse(c, buf);
	pthread_mutex_unlock(&c->fs->ctl_lock);
	return err;
}

/* ioc_weight_show(): the cgroup's default weight, then ioc_weight_prfill():
 * "MAJ:MIN N" for each device this cgroup gave a weight (cfg_weight). */
static int show_io_weight(struct fs_call *c, GString *out)
{
	g_string_append_printf(out, "default %u\n", atomic_load(&c->node->st.io_weight));
	pthread_mutex_lock(&c->fs->ioc_lock);
	for (unsigned d = 0; d < MCG_IO_NR_DEVS; d++)
		if (c->node->st.iocg[d].cfg_weight)
			g_string_append_printf(out, "%u:%u %u\n", mcg_io_devs[d].major,
					       mcg_io_devs[d].minor, c->node->st.iocg[d].cfg_weight);
	pthread_mutex_unlock(&c->fs->ioc_lock);
	return 0;
}

/* ioc_weight_write(): "default N" or "N" sets the default, 1..10000 (else
 * EINVAL).  A "MAJ:MIN" line goes through blkg_conf_prep(): a malformed key
 * EINVAL, an unknown device ENODEV, a device without an ioc (iocost policy
 * not activated on its queue) EOPNOTSUPP; then the body, "default" (by its
 * first 7 characters, strncmp()) clears the device's weight, else sscanf()
 * "%u" in 1..10000 sets it, anything else EINVAL. */
static int write_io_weight(struct fs_call *c, char *buf)
{
	unsigned v;
	char *body;
	int dev;

	if (!strchr(buf, ':')) {
		/* sscanf(buf, "default %u") || sscanf(buf, "%u"): the format's
		 * blank matches any blanks, and %u skips them as well */
		const char *p = buf;

		if (g_str_has_prefix(p, "default"))
			p += strlen("default");
		if (!fs_scan_u32(&p, &v))
			return -EINVAL;
		if (v < FS_CGROUP_WEIGHT_MIN || v > FS_CGROUP_WEIGHT_MAX)
			return -EINVAL;
		atomic_store(&c->node->st.io_weight, v);
		return 0;
	}
	dev = io_conf_dev(buf, &body);
	if (dev < 0)
		return dev;
	body = g_strchug(body);
	pthread_mutex_lock(&c->fs->ioc_lock);
	if (!c->fs->ioc[dev].present) {
		pthread_mutex_unlock(&c->fs->ioc_lock);
		return -EOPNOTSUPP;
	}
	pthread_mutex_unlock(&c->fs->ioc_lock);
	if (!strncmp(body, "default", 7)) {
		v = 0;
	} else {
		const char *p = body;

		if (!fs_scan_u32(&p, &v))
			return -EINVAL;
		if (v < FS_CGROUP_WEIGHT_MIN || v > FS_CGROUP_WEIGHT_MAX)
			return -EINVAL;
	}
	pthread_mutex_lock(&c->fs->ioc_lock);
	c->node->st.iocg[dev].cfg_weight = v;
	pthread_mutex_unlock(&c->fs->ioc_lock);
	return 0;
}

#define FS_PSI_WINDOW_MAX_US (10 * 1000 * 1000)

/* A PSI trigger, "some|full <threshold us> <window us>", one per fd
 * (psi_trigger_create(), kernel/sched/psi.c): a window of at most 10 s, of
 * at least WINDOW_MIN_US (500 ms) before 6.12; from 6.1 a whole number of
 * 2 s windows without CAP_SYS_RESOURCE; a threshold within the window;
 * before 5.13 no "full" for cpu (no PSI_CPU_FULL); EBUSY for a second
 * trigger on the fd.  The notifier fires it (notify.c). */
static int write_pressure(struct fs_call *c, char *buf)
{
	unsigned version = mcg_engine_layout(c->fs->e)->version;
	unsigned threshold, window;
	bool full, privileged;
	const char *p;

	if (c->of->psi_trigger)
		return -EBUSY;
	/* sscanf(buf, "some %u %u") or "full %u %u", the kernel's: each
	 * blank of the format matches any blanks, and %u takes no sign */
	full = g_str_has_prefix(buf, "full");
	if (!full && !g_str_has_prefix(buf, "some"))
		return -EINVAL;
	p = buf + strlen("some");
	if (!fs_scan_u32(&p, &threshold) || !fs_scan_u32(&p, &window))
		return -EINVAL;
	if (full && c->of->file->arg == FS_PSI_CPU && version < MCG_KVER(5, 13))
		return -EINVAL;
	if (window == 0 || window > FS_PSI_WINDOW_MAX_US)
		return -EINVAL;
	if (version < MCG_KVER(6, 12) && window < 500000)
		return -EINVAL;
	privileged = c->of->opener_sys_resource;
	if (version >= MCG_KVER(6, 1) && !privileged && window % 2000000)
		return -EINVAL;
	if (threshold == 0 || threshold > window)
		return -EINVAL;
	c->of->psi_trigger = true;
	c->of->psi_full = full;
	c->of->psi_privileged = privileged || version < MCG_KVER(6, 1);
	c->of->psi_threshold_ns = (uint64_t)threshold * 1000;
	c->of->psi_window_ns = (uint64_t)window * 1000;
	fs_notify_psi_trigger(c->fs, c->of);
	return 0;
}

/* ---- The tables ---------------------------------------------------------------- */

#define RO 0444
#define RW 0644
#define WO 0200

/*
 * Which kernels have which file.  Every row carries the versions that have
 * it (since/until, MCG_KVER()); fs_files_of() drops the rows the selected
 * release lacks: the release itself, not its layout's, so --kernel=5.19 has
 * memory.reclaim though it prints 5.15's memory.stat.
 * Read from the cftype arrays of each modelled source (mem_cgroup_legacy_files[],
 * memsw_files[], memory_files[], swap_files[], zswap_files[] in
 * mm/memcontrol.c, or mm/memcontrol-v1.c for v1 in 6.12 and 7.3;
 * cgroup_base_files[] and cgroup_psi_files[] in kernel/cgroup/cgroup.c;
 * cgroup1_base_files[] in kernel/cgroup/cgroup-v1.c) of 5.10, 6.1, 6.12 and
 * 7.3, with the upstream release that added each:
 *
 *   memory.stat on the root     5.8 (54b512e96d8d "memcg: expose root cgroup's
 *                               memory.stat"): CFTYPE_NOT_ON_ROOT in 5.4
 *   memory.swap.high            5.8 (4b82ab4f2850 "mm: memcontrol: add
 *                               memory.swap.high"): not in 5.4
 *   memory.numa_stat (v2)       5.10 (5f9a4f4a7096): not in 5.4
 *   cgroup.kill                 5.14 (661ee6280931): not in 5.10, in 5.15
 *   memory.peak                 5.19 (8e20d4b33266): not in 5.15, in 6.1
 *   memory.reclaim              5.19 (94968384dde1): not in 5.15, in 6.1
 *   memory.zswap.current, .max  5.19 (f4840ccfca25): not in 5.15, in 6.1
 *   memory.swap.peak            6.5 (b6c1a8af5b1e): not in 6.1, in 6.6
 *   memory.peak, .swap.peak     writable (a reset per fd) from 6.12
 *                               (c6f53ed8f213): read-only in 6.1, not in 6.12
 *   memory.zswap.writeback      6.8 (501a06fe8e4c): not in 6.6, in 6.12
 *
 * 5.10, 6.1, 6.12 and 7.3 are read from their source; 5.4, 5.15 and 6.6
 * from the commits above (and 6.6's memory_files[] from a 6.6.14 copy).
 * The v1 memory files are the same in all four (kmem.slabinfo needs
 * CONFIG_SLUB_DEBUG, set by Debian), as are the v1 core files; every other v2
 * file here is in all four.  memory.pressure is in cgroup_base_files[] in
 * 5.10 and in cgroup_psi_files[] from 6.1 on, under CONFIG_PSI both times.
 */
/* Each also ends the row with its ctrl, which fs_files_of() fills in. */
#define ALL_KERNELS 0, 0, 0
#define SINCE(major, minor) MCG_KVER(major, minor), 0, 0
#define BEFORE(major, minor) 0, MCG_KVER(major, minor), 0
#define BETWEEN(major, minor, major2, minor2) MCG_KVER(major, minor), MCG_KVER(major2, minor2), 0

/* v1: ../shared/spec/golden/v1-memcg-dir-listing.txt (less the vendor file)
 * and the root's two extra files, modes from v1-memcg-files.tsv. */
static const struct fs_file v1_files[] = {
	{ "cgroup.clone_children", RW, 0, show_clone_children, write_clone_children, 0, ALL_KERNELS },
	/* CFTYPE_WORLD_WRITABLE up to the 6.12 source (0222, cgroup_file_mode());
	 * 0200 in 7.3's and on a 6.18 host: the release that dropped the flag
	 * is not known here, so the releases before 6.18 keep it. */
	{ "cgroup.event_control", 0222, 0, NULL, write_event_control, 0, BEFORE(6, 18) },
	{ "cgroup.event_control", WO, 0, NULL, write_event_control, 0, SINCE(6, 18) },
	{ "cgroup.procs", RW, FS_MIGRATE, show_procs, write_pid, 1, ALL_KERNELS },
	{ "cgroup.sane_behavior", RO, FS_ONLY_ON_ROOT, show_sane_behavior, NULL, 0, ALL_KERNELS },
	{ "memory.failcnt", RW, 0, show_v1_counter, write_v1_reset,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_FAILCNT), ALL_KERNELS },
	{ "memory.force_empty", WO, 0, NULL, write_v1_force_empty, 0, ALL_KERNELS },
	{ "memory.kmem.failcnt", RW, 0, show_v1_counter, write_v1_reset,
	  CNT(MCG_COUNTER_KMEM, MCG_FIELD_FAILCNT), ALL_KERNELS },
	{ "memory.kmem.limit_in_bytes", RW, 0, show_v1_counter, write_v1_kmem_limit,
	  CNT(MCG_COUNTER_KMEM, MCG_FIELD_MAX), ALL_KERNELS },
	{ "memory.kmem.max_usage_in_bytes", RW, 0, show_v1_counter, write_v1_reset,
	  CNT(MCG_COUNTER_KMEM, MCG_FIELD_WATERMARK), ALL_KERNELS },
	{ "memory.kmem.slabinfo", RO, 0, show_nothing, NULL, 0, ALL_KERNELS },
	{ "memory.kmem.tcp.failcnt", RW, 0, show_v1_counter, write_v1_reset,
	  CNT(MCG_COUNTER_TCPMEM, MCG_FIELD_FAILCNT), ALL_KERNELS },
	{ "memory.kmem.tcp.limit_in_bytes", RW, 0, show_v1_counter, write_v1_tcp_limit,
	  CNT(MCG_COUNTER_TCPMEM, MCG_FIELD_MAX), ALL_KERNELS },
	{ "memory.kmem.tcp.max_usage_in_bytes", RW, 0, show_v1_counter, write_v1_reset,
	  CNT(MCG_COUNTER_TCPMEM, MCG_FIELD_WATERMARK), ALL_KERNELS },
	{ "memory.kmem.tcp.usage_in_bytes", RO, 0, show_v1_counter, NULL,
	  CNT(MCG_COUNTER_TCPMEM, MCG_FIELD_USAGE), ALL_KERNELS },
	{ "memory.kmem.usage_in_bytes", RO, 0, show_v1_counter, NULL,
	  CNT(MCG_COUNTER_KMEM, MCG_FIELD_USAGE), ALL_KERNELS },
	{ "memory.limit_in_bytes", RW, 0, show_v1_counter, write_v1_limit,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_MAX), ALL_KERNELS },
	{ "memory.max_usage_in_bytes", RW, 0, show_v1_counter, write_v1_reset,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_WATERMARK), ALL_KERNELS },
	{ "memory.memsw.failcnt", RW, 0, show_v1_counter, write_v1_reset,
	  CNT(MCG_COUNTER_MEMSW, MCG_FIELD_FAILCNT), ALL_KERNELS },
	{ "memory.memsw.limit_in_bytes", RW, 0, show_v1_counter, write_v1_memsw_limit,
	  CNT(MCG_COUNTER_MEMSW, MCG_FIELD_MAX), ALL_KERNELS },
	{ "memory.memsw.max_usage_in_bytes", RW, 0, show_v1_counter, write_v1_reset,
	  CNT(MCG_COUNTER_MEMSW, MCG_FIELD_WATERMARK), ALL_KERNELS },
	{ "memory.memsw.usage_in_bytes", RO, 0, show_v1_counter, NULL,
	  CNT(MCG_COUNTER_MEMSW, MCG_FIELD_USAGE), ALL_KERNELS },
	{ "memory.move_charge_at_immigrate", RW, 0, show_v1_move_charge, write_v1_move_charge, 0, ALL_KERNELS },
	{ "memory.numa_stat", RO, 0, show_numa_stat, NULL, 0, ALL_KERNELS },
	{ "memory.oom_control", RW, 0, show_v1_oom_control, write_v1_oom_control, 0, ALL_KERNELS },
	/* No handler at all in 5.10's and 6.1's source: mode 0 (a read is
	 * still EINVAL, cgroup_seqfile_show()); 6.12's gives it a dummy
	 * seq_show for the read permission (mem_cgroup_dummy_seq_show()). */
	{ "memory.pressure_level", 0, 0, show_v1_pressure_level, NULL, 0, BEFORE(6, 12) },
	{ "memory.pressure_level", RO, 0, show_v1_pressure_level, NULL, 0, SINCE(6, 12) },
	{ "memory.soft_limit_in_bytes", RW, 0, show_v1_soft_limit, write_v1_soft_limit, 0, ALL_KERNELS },
	{ "memory.stat", RO, 0, show_memory_stat, NULL, 0, ALL_KERNELS },
	{ "memory.swappiness", RW, 0, show_v1_swappiness, write_v1_swappiness, 0, ALL_KERNELS },
	{ "memory.usage_in_bytes", RO, 0, show_v1_counter, NULL,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), ALL_KERNELS },
	{ "memory.use_hierarchy", RW, 0, show_v1_use_hierarchy, write_v1_use_hierarchy, 0, ALL_KERNELS },
	{ "notify_on_release", RW, 0, show_notify_on_release, write_notify_on_release, 0, ALL_KERNELS },
	{ "release_agent", RW, FS_ONLY_ON_ROOT, show_release_agent, write_release_agent, 0, ALL_KERNELS },
	{ "tasks", RW, FS_MIGRATE, show_threads, write_pid, 0, ALL_KERNELS },
	/* Emulator-only files follow. */
	{ "memcgfs.flush_stats", RO, FS_EMULATOR | FS_ONLY_ON_ROOT, show_flush_stats, NULL, 0, ALL_KERNELS },
	{ "memcgfs.accuracy", RW, FS_EMULATOR | FS_ONLY_ON_ROOT, show_accuracy, write_accuracy, 0, ALL_KERNELS },
	{ "memcgfs.trace", RW, FS_EMULATOR | FS_ONLY_ON_ROOT, show_trace, write_trace, 0, ALL_KERNELS },
	{ "memcgfs.lock_stat", RW, FS_EMULATOR | FS_ONLY_ON_ROOT, show_lock_stat, write_lock_stat, 0, ALL_KERNELS },
	{ "memcgfs.read_stats", RO, FS_EMULATOR | FS_ONLY_ON_ROOT, show_read_stats, NULL, 0, ALL_KERNELS },
	{ "memcgfs.audit", 0400, FS_EMULATOR | FS_ONLY_ON_ROOT, show_audit, NULL, 0, ALL_KERNELS },
	{ "memcgfs.workload", RW, FS_EMULATOR, show_workload, write_workload, 0, ALL_KERNELS },
	{ "memcgfs.workload_stat", RO, FS_EMULATOR, show_workload_stat, NULL, 0, ALL_KERNELS },
	{ "memcgfs.clock", RW, FS_EMULATOR | FS_ONLY_ON_ROOT, fs_show_clock, fs_write_clock, 0, ALL_KERNELS },
	{ "memcgfs.proc_cgroups", RO, FS_EMULATOR | FS_ONLY_ON_ROOT, show_proc_cgroups, NULL, 0,
	  ALL_KERNELS },
	{ "memcgfs.charge", WO, FS_EMULATOR, NULL, fs_write_charge, 0, ALL_KERNELS },
};

/* v2: the cgroup core files, cpu.stat and io.stat, the memory controller's
 * files; CFTYPE_NOT_ON_ROOT as in Linux 6.12. */
static const struct fs_file v2_files[] = {
	{ "cgroup.controllers", RO, 0, show_controllers, NULL, 0, ALL_KERNELS },
	{ "cgroup.events", RO, FS_NOT_ON_ROOT | FS_NOTIFY, show_events, NULL, 0, ALL_KERNELS },
	{ "cgroup.freeze", RW, FS_NOT_ON_ROOT, show_freeze, write_freeze, 0, ALL_KERNELS },
	{ "cgroup.kill", WO, FS_NOT_ON_ROOT, NULL, write_kill, 0, SINCE(5, 14) },
	{ "cgroup.max.depth", RW, 0, show_max_depth, write_max_depth, 0, ALL_KERNELS },
	{ "cgroup.max.descendants", RW, 0, show_max_descendants, write_max_descendants, 0, ALL_KERNELS },
	{ "cgroup.pressure", RW, 0, show_cgroup_pressure, write_cgroup_pressure, 0, SINCE(6, 1) },
	{ "cgroup.procs", RW, FS_MIGRATE, show_procs, write_pid, 1, ALL_KERNELS },
	{ "cgroup.stat", RO, 0, show_cgroup_stat, NULL, 0, ALL_KERNELS },
	{ "cgroup.stat.local", RO, FS_NOT_ON_ROOT, show_cgroup_stat_local, NULL, 0, SINCE(6, 18) },
	{ "cgroup.subtree_control", RW, 0, show_subtree_control, write_subtree_control, 0, ALL_KERNELS },
	{ "cgroup.threads", RW, FS_MIGRATE, show_threads, write_pid, 0, ALL_KERNELS },
	{ "cgroup.type", RW, FS_NOT_ON_ROOT, show_type, write_type, 0, ALL_KERNELS },
	{ "cpu.pressure", RW, FS_CORE | FS_PSI, show_pressure, write_pressure, FS_PSI_CPU,
	  ALL_KERNELS },
	{ "cpu.stat", RO, FS_CORE, show_cpu_stat, NULL, 0, ALL_KERNELS },
	/* cpu_local_stat_show(): the cpu controller's local stats; there is
	 * no emulated cpu controller, so the file is empty. */
	{ "cpu.stat.local", RO, FS_CORE, show_nothing, NULL, 0, SINCE(6, 8) },
	/* ioc_files[] (blk-iocost.c, CONFIG_BLK_CGROUP_IOCOST, in every
	 * tabulated release: iocost came in 5.4, 7caa47151ab2) */
	{ "io.cost.model", RW, FS_ONLY_ON_ROOT, show_io_cost_model, write_io_cost_model, 0,
	  ALL_KERNELS },
	{ "io.cost.qos", RW, FS_ONLY_ON_ROOT, show_io_cost_qos, write_io_cost_qos, 0, ALL_KERNELS },
	{ "io.max", RW, FS_NOT_ON_ROOT, show_io_max, write_io_max, 0, ALL_KERNELS },
	{ "io.pressure", RW, FS_CORE | FS_PSI, show_pressure, write_pressure, 0, ALL_KERNELS },
	{ "io.stat", RO, 0, show_io_stat, NULL, 0, ALL_KERNELS },
	{ "io.weight", RW, FS_NOT_ON_ROOT, show_io_weight, write_io_weight, 0, ALL_KERNELS },
	{ "memory.current", RO, FS_NOT_ON_ROOT, show_v2_usage, NULL,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_USAGE), ALL_KERNELS },
	{ "memory.events", RO, FS_NOT_ON_ROOT | FS_NOTIFY, show_memory_events, NULL, false, ALL_KERNELS },
	{ "memory.events.local", RO, FS_NOT_ON_ROOT | FS_NOTIFY, show_memory_events, NULL, true, ALL_KERNELS },
	{ "memory.high", RW, FS_NOT_ON_ROOT, show_v2_tunable, write_memory_high,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_HIGH), ALL_KERNELS },
	{ "memory.low", RW, FS_NOT_ON_ROOT, show_v2_tunable, write_memory_low,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_LOW), ALL_KERNELS },
	{ "memory.max", RW, FS_NOT_ON_ROOT, show_v2_tunable, write_memory_max,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_MAX), ALL_KERNELS },
	{ "memory.min", RW, FS_NOT_ON_ROOT, show_v2_tunable, write_memory_min,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_MIN), ALL_KERNELS },
	{ "memory.numa_stat", RO, 0, show_numa_stat, NULL, 0, SINCE(5, 10) },
	{ "memory.oom.group", RW, FS_NOT_ON_ROOT, show_oom_group, write_oom_group, 0, ALL_KERNELS },
	{ "memory.peak", RO, FS_NOT_ON_ROOT, show_peak, NULL,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_WATERMARK), BETWEEN(5, 19, 6, 12) },
	{ "memory.peak", RW, FS_NOT_ON_ROOT, show_peak, write_peak,
	  CNT(MCG_COUNTER_MEMORY, MCG_FIELD_WATERMARK), SINCE(6, 12) },
	{ "memory.pressure", RW, FS_CORE | FS_PSI, show_pressure, write_pressure, FS_PSI_MEMORY,
	  ALL_KERNELS },
	{ "memory.reclaim", WO, 0, NULL, write_memory_reclaim, 0, SINCE(5, 19) },
	{ "memory.stat", RO, FS_NOT_ON_ROOT, show_memory_stat, NULL, 0, BEFORE(5, 8) },
	{ "memory.stat", RO, 0, show_memory_stat, NULL, 0, SINCE(5, 8) },
	{ "memory.swap.current", RO, FS_NOT_ON_ROOT, show_v2_usage, NULL,
	  CNT(MCG_COUNTER_SWAP, MCG_FIELD_USAGE), ALL_KERNELS },
	{ "memory.swap.events", RO, FS_NOT_ON_ROOT | FS_NOTIFY, show_swap_events, NULL, 0, ALL_KERNELS },
	{ "memory.swap.high", RW, FS_NOT_ON_ROOT, show_v2_tunable, write_swap_high,
	  CNT(MCG_COUNTER_SWAP, MCG_FIELD_HIGH), SINCE(5, 8) },
	{ "memory.swap.max", RW, FS_NOT_ON_ROOT, show_v2_tunable, write_swap_max,
	  CNT(MCG_COUNTER_SWAP, MCG_FIELD_MAX), ALL_KERNELS },
	{ "memory.swap.peak", RO, FS_NOT_ON_ROOT, show_peak, NULL,
	  CNT(MCG_COUNTER_SWAP, MCG_FIELD_WATERMARK), BETWEEN(6, 5, 6, 12) },
	{ "memory.swap.peak", RW, FS_NOT_ON_ROOT, show_peak, write_peak,
	  CNT(MCG_COUNTER_SWAP, MCG_FIELD_WATERMARK), SINCE(6, 12) },
	{ "memory.zswap.current", RO, FS_NOT_ON_ROOT, show_zswap_current, NULL, 0, SINCE(5, 19) },
	{ "memory.zswap.max", RW, FS_NOT_ON_ROOT, show_zswap_max, write_zswap_max, 0, SINCE(5, 19) },
	/* In zswap_files[] since 6.8; on the root too. */
	{ "memory.zswap.writeback", RW, 0, show_zswap_writeback, write_zswap_writeback, 0,
	  SINCE(6, 8) },
	/* Emulator-only files follow. */
	{ "memcgfs.flush_stats", RO, FS_EMULATOR | FS_ONLY_ON_ROOT, show_flush_stats, NULL, 0, ALL_KERNELS },
	{ "memcgfs.accuracy", RW, FS_EMULATOR | FS_ONLY_ON_ROOT, show_accuracy, write_accuracy, 0, ALL_KERNELS },
	{ "memcgfs.trace", RW, FS_EMULATOR | FS_ONLY_ON_ROOT, show_trace, write_trace, 0, ALL_KERNELS },
	{ "memcgfs.lock_stat", RW, FS_EMULATOR | FS_ONLY_ON_ROOT, show_lock_stat, write_lock_stat, 0, ALL_KERNELS },
	{ "memcgfs.read_stats", RO, FS_EMULATOR | FS_ONLY_ON_ROOT, show_read_stats, NULL, 0, ALL_KERNELS },
	{ "memcgfs.audit", 0400, FS_EMULATOR | FS_ONLY_ON_ROOT, show_audit, NULL, 0, ALL_KERNELS },
	{ "memcgfs.workload", RW, FS_EMULATOR, show_workload, write_workload, 0, ALL_KERNELS },
	{ "memcgfs.workload_stat", RO, FS_EMULATOR, show_workload_stat, NULL, 0, ALL_KERNELS },
	{ "memcgfs.clock", RW, FS_EMULATOR | FS_ONLY_ON_ROOT, fs_show_clock, fs_write_clock, 0, ALL_KERNELS },
	{ "memcgfs.proc_cgroups", RO, FS_EMULATOR | FS_ONLY_ON_ROOT, show_proc_cgroups, NULL, 0,
	  ALL_KERNELS },
	{ "memcgfs.charge", WO, FS_EMULATOR, NULL, fs_write_charge, 0, ALL_KERNELS },
};

_Static_assert(G_N_ELEMENTS(v1_files) < FS_IDX_LIMIT, "v1 table too long for the inode bits");
_Static_assert(G_N_ELEMENTS(v2_files) < FS_IDX_LIMIT, "v2 table too long for the inode bits");

/* The v2 controller of a file: cgroup_file_name() names a controller's
 * cftype "<subsystem>.<name>"; core files (FS_CORE) only look alike. */
static unsigned short file_controller(const struct fs_file *f)
{
	if (f->flags & (FS_CORE | FS_EMULATOR))
		return 0;
	if (g_str_has_prefix(f->name, "memory."))
		return FS_CTRL_MEMORY;
	if (g_str_has_prefix(f->name, "io."))
		return FS_CTRL_IO;
	return 0;
}

static bool file_in_version(const struct fs_file *f, unsigned version)
{
	return (f->since == 0 || version >= f->since) && (f->until == 0 || version < f->until);
}

struct fs_file *fs_files_of(enum mcg_hierarchy h, unsigned release, unsigned *nr)
{
	const struct fs_file *all = h == MCG_HIERARCHY_V1 ? v1_files : v2_files;
	unsigned nr_all = h == MCG_HIERARCHY_V1 ? G_N_ELEMENTS(v1_files) : G_N_ELEMENTS(v2_files);
	struct fs_file *files = g_new(struct fs_file, nr_all);

	*nr = 0;
	for (unsigned i = 0; i < nr_all; i++) {
		if (!file_in_version(&all[i], release))
			continue;
		files[*nr] = all[i];
		files[*nr].ctrl = file_controller(&files[*nr]);
		(*nr)++;
	}
	return files;
}

void fs_cgstate_init(struct fs_cgstate *st, const struct fs_cgstate *parent)
{
	/* The root enables io and memory for its children, as systemd does
	 * at boot on a cgroup2 host; below it, cgroup_create() starts every
	 * subtree_control empty, so a grandchild has memory files only when
	 * its parent writes "+memory". */
	atomic_init(&st->subtree_control, parent ? 0 : FS_CTRL_ALL);
	atomic_init(&st->controllers,
		    parent ? atomic_load(&parent->subtree_control) : FS_CTRL_ALL);
	atomic_init(&st->psi_enabled, true);
	atomic_init(&st->io_weight, 100);	/* CGROUP_WEIGHT_DFL */
	for (unsigned d = 0; d < MCG_IO_NR_DEVS; d++)
		st->io_max[d] = (typeof(st->io_max[d])){ { UINT64_MAX, UINT64_MAX },
							 { UINT_MAX, UINT_MAX } };
	/* cgroup_create(): a child of a frozen cgroup starts frozen
	 * (CGRP_FREEZE from the parent's e_freeze), its clock running. */
	st->e_freeze = parent && parent->e_freeze;
	st->frozen_ns = 0;
	st->freeze_start_ns = st->e_freeze ? fs_monotonic_ns() : 0;
	atomic_init(&st->max_depth, INT_MAX);
	atomic_init(&st->max_descendants, INT_MAX);
	atomic_init(&st->freeze, false);
	atomic_init(&st->move_charge, 0);
	atomic_init(&st->soft_limit, MCG_PAGE_COUNTER_MAX);	/* mem_cgroup_alloc() */
	atomic_init(&st->zswap_max, (unsigned long)MCG_PAGE_COUNTER_MAX);
	/* mem_cgroup_css_alloc(): on in every new memcg, not inherited. */
	atomic_init(&st->zswap_writeback, true);
	/* cgroup_create() copies these flags from the parent; the v1 memcg
	 * inherits swappiness and oom_kill_disable (mem_cgroup_css_alloc()). */
	atomic_init(&st->clone_children, parent ? atomic_load(&parent->clone_children) : false);
	atomic_init(&st->notify_on_release,
		    parent ? atomic_load(&parent->notify_on_release) : false);
	atomic_init(&st->oom_kill_disable,
		    parent ? atomic_load(&parent->oom_kill_disable) : false);
	atomic_init(&st->swappiness,
		    parent ? atomic_load(&parent->swappiness) : FS_DEFAULT_SWAPPINESS);
}
