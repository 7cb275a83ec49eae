/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Check suite of the host module (src/host): real child processes placed
 * in emulated cgroups, their memory charged from /proc, their exit seen by
 * the watcher, cgroup.kill and cgroup.freeze acting on them.  Links no
 * FUSE, so it runs under TSan with the watcher thread beside the calls. */
#include <check.h>
#include <errno.h>
#include <glib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "host/host.h"
#include "kernel/kernel.h"
#include "patches/patches.h"
#include "workload/workload.h"

struct rig {
	struct mcg_engine *e;
	struct mcg_workload *wl;
	struct mcg_host *h;
	struct mcg_cgroup *a, *b;
};

static void rig_up(struct rig *r)
{
	struct mcg_engine_config cfg;
	const char *why = NULL;
	int err = 0;

	mcg_engine_config_init(&cfg);
	cfg.nr_cpus = 2;
	cfg.flush_period_ms = 0;
	ck_assert_int_eq(mcg_patch_resolve("7.3", NULL, &cfg.kernel, &why), 0);
	r->e = mcg_engine_new(&cfg);
	ck_assert_ptr_nonnull(r->e);
	r->wl = mcg_workload_new(r->e, NULL, &err);
	ck_assert_ptr_nonnull(r->wl);
	ck_assert_int_eq(mcg_workload_start(r->wl), 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(r->wl, mcg_engine_root(r->e), "a", true, &r->a),
			 0);
	ck_assert_int_eq(mcg_workload_cgroup_create(r->wl, mcg_engine_root(r->e), "b", true, &r->b),
			 0);
	r->h = mcg_host_new(r->e, r->wl, NULL);
	ck_assert_ptr_nonnull(r->h);
	ck_assert_int_eq(mcg_host_start(r->h), 0);
}

static void rig_down(struct rig *r)
{
	struct mcg_workload_audit audit;

	mcg_host_free(r->h);
	mcg_workload_audit(r->wl, &audit);
	ck_assert_int_eq(audit.lost, 0);
	mcg_workload_free(r->wl);
	mcg_engine_free(r->e);
}

/* A child that, for each byte read from its pipe, maps and touches 8 MiB
 * more of anonymous memory, and sleeps otherwise.  *go: the pipe's end. */
static pid_t child(int *go)
{
	int fds[2];
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char c;

		close(fds[1]);
		while (read(fds[0], &c, 1) == 1) {
			char *p = mmap(NULL, 8 << 20, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				_exit(1);
			for (size_t off = 0; off < (8 << 20); off += 4096)
				p[off] = 1;
		}
		for (;;)
			pause();
	}
	close(fds[0]);
	*go = fds[1];
	return pid;
}

static unsigned long pages_of(struct rig *r, struct mcg_cgroup *cg)
{
	return mcg_counter_read(cg, MCG_COUNTER_MEMORY, MCG_FIELD_USAGE) -
	       mcg_memcg_stocked(r->e, cg, false);
}

/* Waits up to 3 s for cond(r, cg, arg). */
static bool wait_for(bool (*cond)(struct rig *, struct mcg_cgroup *, unsigned long),
		     struct rig *r, struct mcg_cgroup *cg, unsigned long arg)
{
	for (int i = 0; i < 300; i++) {
		if (cond(r, cg, arg))
			return true;
		g_usleep(10 * 1000);
	}
	return cond(r, cg, arg);
}

static bool has_at_least(struct rig *r, struct mcg_cgroup *cg, unsigned long pages)
{
	return pages_of(r, cg) >= pages;
}

/* cg's anon (memory.stat anon, in pages) after a flush is below n */
static bool anon_below(struct rig *r, struct mcg_cgroup *cg, unsigned long n)
{
	__mcg_memcg_flush_stats(r->e, cg, true);
	return mcg_stat_read(r->e, cg, MCG_ANON_MAPPED, MCG_HIERARCHICAL) < n;
}

static bool is_populated(struct rig *r, struct mcg_cgroup *cg, unsigned long want)
{
	return mcg_workload_cgroup_populated(r->wl, cg, NULL) == (want != 0);
}

static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;

	g_snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	return p ? p[2] : '?';
}

static bool wait_state(pid_t pid, char state)
{
	for (int i = 0; i < 300 && proc_state(pid) != state; i++)
		g_usleep(10 * 1000);
	return proc_state(pid) == state;
}

/* Placement, listing, memory charged where it is made and kept across a
 * move, kill, and the exit seen: the cgroups empty, the anon freed. */
START_TEST(test_place_charge_kill)
{
	struct rig r;
	g_autoptr(GArray) pids = g_array_new(FALSE, FALSE, sizeof(pid_t));
	int go, status;
	pid_t pid;

	rig_up(&r);
	pid = child(&go);
	ck_assert_int_eq(mcg_host_attach(r.h, pid, pid, true, r.a), 0);
	ck_assert(mcg_workload_cgroup_populated(r.wl, r.a, NULL));
	ck_assert_uint_eq(mcg_workload_cgroup_host_tasks(r.wl, r.a), 1);
	mcg_host_list(r.h, r.a, MCG_HOST_LIST_LEADERS, pids);
	ck_assert_uint_eq(pids->len, 1);
	ck_assert_int_eq(g_array_index(pids, pid_t, 0), pid);
	/* where it is: no change */
	ck_assert_int_eq(mcg_host_attach(r.h, pid, pid, true, r.a), 0);
	ck_assert_uint_eq(mcg_workload_cgroup_host_tasks(r.wl, r.a), 1);
	/* 8 MiB in a */
	ck_assert_int_eq(write(go, "x", 1), 1);
	ck_assert(wait_for(has_at_least, &r, r.a, 2048));
	/* moved: a keeps them, b gets the next 8 MiB */
	ck_assert_int_eq(mcg_host_attach(r.h, pid, pid, true, r.b), 0);
	ck_assert(wait_for(is_populated, &r, r.a, 0));
	ck_assert_int_eq(write(go, "x", 1), 1);
	ck_assert(wait_for(has_at_least, &r, r.b, 2048));
	ck_assert_uint_ge(pages_of(&r, r.a), 2048);
	/* frozen: stopped; thawed: sleeping */
	ck_assert_int_eq(mcg_workload_set_frozen(r.wl, r.b, true), 0);
	mcg_host_freeze_changed(r.h, r.b);
	ck_assert(wait_state(pid, 'T'));
	ck_assert_int_eq(mcg_workload_set_frozen(r.wl, r.b, false), 0);
	mcg_host_freeze_changed(r.h, r.b);
	ck_assert(wait_state(pid, 'S'));
	/* cgroup.kill of b */
	mcg_host_kill(r.h, r.b);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	ck_assert(wait_for(is_populated, &r, r.b, 0));
	/* its anon went with it; page cache it faulted in may stay */
	ck_assert(wait_for(anon_below, &r, r.a, 64));
	ck_assert(wait_for(anon_below, &r, r.b, 64));
	close(go);
	rig_down(&r);
}
END_TEST

/* A process placed nowhere is in the root; one gone is ESRCH; a removed
 * cgroup is ENODEV and changes nothing. */
START_TEST(test_root_and_errors)
{
	struct rig r;
	g_autoptr(GArray) pids = g_array_new(FALSE, FALSE, sizeof(pid_t));
	struct mcg_cgroup *c = NULL, *where;
	bool found = false;
	int go, status;
	pid_t pid;

	rig_up(&r);
	pid = child(&go);
	mcg_host_list(r.h, mcg_engine_root(r.e), MCG_HOST_LIST_LEADERS, pids);
	for (unsigned i = 0; i < pids->len; i++)
		found = found || g_array_index(pids, pid_t, i) == pid;
	ck_assert(found);
	where = mcg_host_task_cgroup(r.h, pid, pid);
	ck_assert_ptr_eq(where, mcg_engine_root(r.e));
	mcg_cgroup_put(where);
	ck_assert_int_eq(mcg_workload_cgroup_create(r.wl, r.a, "c", true, &c), 0);
	ck_assert_int_eq(mcg_workload_cgroup_rmdir(r.wl, c), 0);
	ck_assert_int_eq(mcg_host_attach(r.h, pid, pid, true, c), -ENODEV);
	mcg_cgroup_put(c);
	where = mcg_host_task_cgroup(r.h, pid, pid);
	ck_assert_ptr_eq(where, mcg_engine_root(r.e));
	mcg_cgroup_put(where);
	/* back to the root from a: the cgroup empties */
	ck_assert_int_eq(mcg_host_attach(r.h, pid, pid, true, r.a), 0);
	ck_assert_int_eq(mcg_workload_cgroup_rmdir(r.wl, r.a), -EBUSY);
	ck_assert_int_eq(mcg_host_attach(r.h, pid, pid, true, mcg_engine_root(r.e)), 0);
	ck_assert(!mcg_workload_cgroup_populated(r.wl, r.a, NULL));
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(mcg_host_attach(r.h, pid, pid, true, r.a), -ESRCH);
	ck_assert(!mcg_workload_cgroup_populated(r.wl, r.a, NULL));
	close(go);
	rig_down(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("host");
	TCase *tc = tcase_create("processes");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_place_charge_kill);
	tcase_add_test(tc, test_root_and_errors);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
