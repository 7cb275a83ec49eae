/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tasks in emulated cgroups: see host.h. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "host/internal.h"

/*
 * Placement
 * ---------
 * A process the module knows (struct host_proc) has been placed, or has a
 * thread placed, somewhere other than the root.  Its `cg` is its leader's
 * cgroup (NULL: the root), where every thread not in `threads` is; a
 * thread written alone elsewhere is in `threads` with its own cgroup
 * (NULL: the root), never the process's.  Each of these placements in an
 * emulated cgroup counts once in that cgroup's host tasks
 * (mcg_workload_host_tasks()), which keeps populated: a process and two of
 * its threads placed apart in three cgroups make all three populated, as
 * their three css_sets would.  A process with no placement left (back in
 * the root, every thread with it) is forgotten.
 *
 * Fork.  A child inherits the cgroup of the thread that forked it
 * (cgroup_post_fork() links it to its parent's css_set); children forked
 * before a move stay where they were.  /proc has no fork event, so the
 * watcher looks, every HOST_SAMPLE_MS and before a list, a read of memory
 * files or a kill, at the children of each thread placed in an emulated
 * cgroup (/proc/TGID/task/TID/children, CONFIG_PROC_CHILDREN, which
 * Debian's kernels have): one started since its parent's last look (its
 * start time, /proc/PID/stat field 22, in clock ticks since boot, with a
 * tick's margin: copy_process() takes it before it links the child to the
 * list) whose parent is still that process is placed whole where the
 * thread is, as if written to its cgroup.procs.  A look comes before
 * every placement too, so what a process forked before a move stays
 * where it was forked.  What this cannot see: a child that exits, or is
 * reparented, between two looks; and it places again one started within
 * a tick of the last look that was moved back to the root meanwhile.
 * With --host_cgroup the host kernel has put the child in the thread's
 * shadow already.
 *
 * Exit.  Each known process has a pidfd in the watcher's epoll set, keyed
 * by its tgid; it becomes readable once the whole thread group has exited
 * (pidfd_poll()), and the watcher then undoes its placements, as
 * cgroup_exit() unlinks the task from its css_set.  Signals go through
 * the pidfd too, so a reused pid never gets one meant for its
 * predecessor.
 */

/* The kinds of memory /proc shows of a process (host_sample()). */
enum host_kind {
	HOST_ANON,		/* RssAnon */
	HOST_FILE,		/* RssFile: page cache it maps */
	HOST_SHMEM,		/* RssShmem */
	HOST_PAGETABLES,	/* VmPTE */
	HOST_KERNEL_STACK,	/* Threads x THREAD_SIZE */
	HOST_NR_PAGE_KINDS,	/* the kinds above are pages charged as such */
	HOST_SWAP = HOST_NR_PAGE_KINDS,	/* VmSwap: anon swapped out (memory_swap()) */
	HOST_NR_KINDS
};

static const enum mcg_page_kind host_page_kind[HOST_NR_PAGE_KINDS] = {
	[HOST_ANON] = MCG_PAGES_ANON,
	[HOST_FILE] = MCG_PAGES_FILE,
	[HOST_SHMEM] = MCG_PAGES_SHMEM,
	[HOST_PAGETABLES] = MCG_PAGES_PAGETABLES,
	[HOST_KERNEL_STACK] = MCG_PAGES_KERNEL_STACK,
};

struct host_proc {
	pid_t tgid;
	int pidfd;
	struct mcg_cgroup *cg;		/* the leader's cgroup, held; NULL: the root */
	GHashTable *threads;		/* tid -> its cgroup (held; NULL: the root), or NULL */
	bool stopped;			/* a freeze sent it SIGSTOP */
	/* Stopped by memory.high until then (monotonic ns; 0: not): see
	 * "memory.high" below. */
	uint64_t throttled_until_ns;
	/* Its memory (see "Memory" below): the task group its pages are
	 * charged to (NULL until its first charge); pages of each kind as
	 * last seen and accounted for; of those, the ones it made in the
	 * root, which no emulated memcg holds; and whether the OOM killer
	 * chose it. */
	struct mcg_host_group *group;
	long held[HOST_NR_KINDS];
	long in_root[HOST_NR_KINDS];
	uint64_t image;			/* its mm as last seen (host_sample()); 0: unknown */
	uint64_t fresh_until_ns;	/* looked at often until then (monotonic) */
	bool oom_killed;
	bool moved;			/* its group holds pages of a cgroup it left */
	/* Children started at or after this boot-time clock tick are new to
	 * it (see "Fork"). */
	unsigned long long children_since;
};

/* ... and, once every this many looks, for exited threads placed apart. */
#define THREAD_REAP_SAMPLES 10

static bool is_root(const struct mcg_cgroup *cg)
{
	return !cg || !mcg_cgroup_parent(cg);
}

/* One placement of a host task in cg begins (delta 1) or ends (-1). */
static int placement(struct mcg_host *h, struct mcg_cgroup *cg, int delta)
{
	return cg ? mcg_workload_host_tasks(h->wl, cg, delta) : 0;
}

static struct mcg_cgroup *cg_get(struct mcg_cgroup *cg)
{
	return cg ? mcg_cgroup_get(cg) : NULL;
}

static void cg_put(struct mcg_cgroup *cg)
{
	if (cg)
		mcg_cgroup_put(cg);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- /proc ------------------------------------------------------------ */

/* The numeric entries of a /proc directory (tasks: pids or tids), in
 * ascending order. */
static GArray *proc_ids(const char *dir)
{
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(pid_t));
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return ids;
	while ((de = readdir(d))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);

		if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && !*end && v > 0) {
			pid_t id = (pid_t)v;
			g_array_append_val(ids, id);
		}
	}
	closedir(d);
	return ids;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static GArray *proc_threads(pid_t tgid)
{
	char dir[48];

	g_snprintf(dir, sizeof(dir), "/proc/%d/task", (int)tgid);
	return proc_ids(dir);
}

/* Now, and a process's start, in clock ticks since boot (the kernel's
 * start_boottime as /proc/PID/stat field 22 shows it: nsec_to_clock_t()). */
static unsigned long long boot_ticks_now(void)
{
	struct timespec ts;
	unsigned long long hz = (unsigned long long)sysconf(_SC_CLK_TCK);

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (unsigned long long)ts.tv_sec * hz +
	       (unsigned long long)ts.tv_nsec / (1000000000ull / hz);
}

/* The numeric fields of /proc/PID/stat that the module reads, counted
 * from 1 as in proc(5) (do_task_stat(), fs/proc/array.c), up to
 * task_cpu(), the 39th: v[field].  false if it cannot be read (the
 * process exited). */
#define PROC_STAT_LAST 39
static bool proc_stat(pid_t pid, unsigned long long v[PROC_STAT_LAST + 1])
{
	char path[48], line[1024];	/* the first 39 fields, each of up to 20 digits */
	unsigned field = 3;
	char *p = NULL;
	FILE *f;

	g_snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(line, sizeof(line), f))
		p = strrchr(line, ')');	/* comm may hold anything: after its ')' */
	fclose(f);
	for (; p && field <= PROC_STAT_LAST; field++) {
		p = strchr(p + 1, ' ');	/* the space before field */
		if (p)
			v[field] = strtoull(p + 1, NULL, 10);
	}
	return p != NULL;
}

/* A process's start in clock ticks since boot (field 22), 0 if it cannot
 * be read (it exited); its parent's tgid (field 4) in *ppid. */
static unsigned long long proc_start_ticks(pid_t pid, pid_t *ppid)
{
	unsigned long long v[PROC_STAT_LAST + 1];

	*ppid = 0;
	if (!proc_stat(pid, v))
		return 0;
	*ppid = (pid_t)v[4];
	return v[22];
}

/* Whether the OOM killer passes process pid by: its oom_score_adj is
 * OOM_SCORE_ADJ_MIN (oom_badness(), oom_kill_memcg_member(); mm/oom_kill.c). */
bool host_proc_oom_unkillable(pid_t pid)
{
	char path[48];
	g_autofree char *text = NULL;

	g_snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", (int)pid);
	return g_file_get_contents(path, &text, NULL, NULL) && atoi(text) == -1000;
}

/* Whether process pid is gone or on its way: exited (or a zombie), in
 * do_exit() (PF_EXITING, 0x4, in the flags of field 9), or with a SIGKILL
 * pending (the "ShdPnd" or "SigPnd" masks of /proc/PID/status, bit 8). */
bool host_proc_exiting(pid_t pid)
{
	static const char *const pending[] = { "\nShdPnd:", "\nSigPnd:" };
	unsigned long long v[PROC_STAT_LAST + 1];
	char path[48];
	g_autofree char *text = NULL;
	const char *l;

	g_snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!proc_stat(pid, v) || (v[9] & 0x4) || !g_file_get_contents(path, &text, NULL, NULL))
		return true;
	if ((l = strstr(text, "\nState:\t")) && (l[8] == 'Z' || l[8] == 'X'))
		return true;
	for (unsigned i = 0; i < G_N_ELEMENTS(pending); i++)
		if ((l = strstr(text, pending[i])) &&
		    (g_ascii_strtoull(l + 8, NULL, 16) & (1ull << (SIGKILL - 1))))
			return true;
	return false;
}

static bool thread_alive(pid_t tgid, pid_t tid)
{
	char path[64];

	g_snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)tgid, (int)tid);
	return access(path, F_OK) == 0;
}

/* ---- memory --------------------------------------------------------------
 *
 * Memory.  What a process placed in an emulated cgroup uses is charged
 * to its memcg as the kernel charges a task's pages: at the moment it
 * makes them, to the memcg of its mm's owner (the leader), where they
 * stay until freed, whatever moves come later (v2; v1 without
 * move_charge_at_immigrate).  The source here is /proc: every
 * HOST_SAMPLE_MS the watcher reads /proc/TGID/status, and what grew since
 * the last look is charged page by page through the workload
 * (mcg_workload_host_group_charge(): the CPU's stock, the page counters,
 * reclaim, the OOM killer; and the statistics of the kernel path that
 * makes such a page), on the emulated CPU of the same number as the host
 * CPU it last ran on (modulo the emulated count), on that CPU's node;
 * what shrank is freed (mcg_workload_host_group_free()).  So the era's
 * flush rules, thresholds and staleness apply to a host process's pages
 * as to emulated tasks'.
 *
 * The counts (the fields of proc_pid_status(), fs/proc/task_mmu.c
 * task_mem(), which read the mm's RSS counters): RssAnon as anon,
 * RssFile (file pages it maps) as page cache, RssShmem as shmem, VmPTE as
 * page tables, Threads x THREAD_SIZE (16 KiB on x86-64) as kernel stacks,
 * and VmSwap as anon swapped out (memory_swap()).  What this source cannot
 * see: page cache the process reads or writes without mapping it, shmem
 * swapped out, slab and socket memory it makes the kernel allocate; and
 * the pages of a moment between two looks.
 *
 * Fresh processes.  What joins a cgroup is most often a child just made
 * to run there (a runtime's, a test's: fork, write its pid, allocate),
 * which may make its memory and exit within one HOST_SAMPLE_MS look and
 * then is never charged at all.  So for HOST_FRESH_MS after a placement
 * the watcher looks at that process every HOST_FRESH_SAMPLE_MS (the
 * kernel charges every page as it is made; a look more often is only
 * closer to that), a /proc read each, for the few processes placed
 * lately.
 *
 * A process's memory when it joins was made in the root, which charges
 * no memcg: it stays uncharged (in_root) and its frees take from there
 * first.  An execve() between two looks (a runtime's child joins, then
 * execs the container's program) replaces the mm: the old image's anon,
 * shmem and page tables are freed where they were (exec_mmap() drops the
 * old mm), and everything the new image has is its own, made in its
 * cgroup; the page cache the old image mapped stays charged, so RssFile
 * goes on counting from where it stood.  An exec is seen as a change of
 * the mm's layout in /proc/PID/stat (start_code, end_code, start_stack:
 * do_task_stat(), fs/proc/array.c), which address-space
 * randomisation makes differ from one image to the next; without it (or
 * without ptrace access, where the fields read 0 or 1) an exec of the
 * same layout passes as an ordinary change.  Its exit frees its anon, shmem, stacks and page tables, and
 * leaves its page cache charged (mcg_workload_host_group_exit()).  If the
 * OOM killer chooses it (its charge, or another's, could not be made),
 * the workload sends it SIGKILL and nothing more is charged for it.
 */


/* The host CPU the process last ran on and its image, a digest of its
 * mm's layout (0: no mm, hidden, or unreadable), from /proc/PID/stat:
 * fields counted from 1 as in proc(5), start_code 26, end_code 27,
 * start_stack 28, task_cpu() 39.  Only exec sets those three (and
 * CRIU's prctl(PR_SET_MM_MAP)); arg_start and env_end also move when a
 * process renames itself (systemd's rename_process()). */
static uint64_t host_stat(pid_t tgid, unsigned *cpu)
{
	unsigned long long v[PROC_STAT_LAST + 1];
	uint64_t digest = 0;

	*cpu = 0;
	if (!proc_stat(tgid, v))
		return 0;
	*cpu = (unsigned)v[39];
	if (v[28] == 0)
		return 0;	/* start_stack: no mm, or no ptrace access */
	for (unsigned field = 26; field <= 28; field++)
		digest = digest * 1000003u ^ v[field];
	return digest;
}

/* The process's pages of each kind now, the emulated CPU it last ran on
 * and its image (host_stat()): 0, or -1 if it cannot be read (it is
 * exiting, or it execed while it was read: the counts could be of
 * either mm). */
static int host_sample(pid_t tgid, long pages[HOST_NR_KINDS], unsigned *cpu, uint64_t *image)
{
	static const char *const key[] = { "RssAnon:", "RssFile:", "RssShmem:", "VmPTE:",
					   "Threads:",	"VmSwap:" };
	char path[48], line[256];
	unsigned found = 0;
	FILE *f;

	*image = host_stat(tgid, cpu);
	g_snprintf(path, sizeof(path), "/proc/%d/status", (int)tgid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		for (unsigned k = 0; k < HOST_NR_KINDS; k++) {
			size_t n = strlen(key[k]);
			long v;

			if (strncmp(line, key[k], n) || sscanf(line + n, "%ld", &v) != 1)
				continue;
			/* kB, but Threads: a count */
			pages[k] = k == HOST_KERNEL_STACK ? v * HOST_THREAD_STACK_PAGES
							 : v / (4096 / 1024);
			found |= 1u << k;
		}
	}
	fclose(f);
	/* An exiting process (exit_mm() has let its mm go) or a zombie has no
	 * Rss lines: what it held goes at its exit (proc_forget()), where its
	 * page cache stays charged, not as frees now. */
	if (!(found & (1u << HOST_ANON)))
		return -1;
	for (unsigned k = 0; k < HOST_NR_KINDS; k++)
		if (!(found & (1u << k)))
			pages[k] = 0;
	return host_stat(tgid, cpu) == *image ? 0 : -1;
}

/* Takes the process's memory now as made in the root: where a process
 * first seen stands. */
static void memory_baseline(struct mcg_host *h, struct host_proc *p)
{
	unsigned cpu;

	if (h->shadows)
		return;	/* the host kernel accounts it (shadow.c) */
	if (host_sample(p->tgid, p->held, &cpu, &p->image) != 0)
		memset(p->held, 0, sizeof(p->held));
	memcpy(p->in_root, p->held, sizeof(p->held));
}

/* p execed: the old image's anon, shmem and page tables are gone,
 * wherever they were charged; its page cache and its one thread's stack
 * stay, and the new image's own pages count from 0 (see "Memory").
 * Caller holds h->lock. */
static void memory_exec(struct mcg_host *h, struct host_proc *p)
{
	static const enum host_kind mm_kinds[] = { HOST_ANON, HOST_SHMEM, HOST_PAGETABLES,
						   HOST_SWAP };

	for (unsigned i = 0; i < G_N_ELEMENTS(mm_kinds); i++) {
		enum host_kind k = mm_kinds[i];
		long charged = p->held[k] - p->in_root[k];

		if (charged > 0 && p->group && k == HOST_SWAP)
			mcg_workload_host_group_swap(h->wl, p->group, -charged);
		else if (charged > 0 && p->group)
			mcg_workload_host_group_free(h->wl, p->group, host_page_kind[k], charged);
		p->held[k] = 0;
		p->in_root[k] = 0;
	}
}

static void throttle_proc(struct mcg_host *h, struct host_proc *p, uint64_t ns);

/* Swap (VmSwap, the mm's MM_SWAPENTS).  Anon pages the host swapped out
 * leave anon for swap as reclaim moves them (mcg_workload_host_group_swap()):
 * charged ones first, then those made in the root, which stay the root's.
 * A charged page the emulation will not swap (v2 swap.max: the group is
 * not the host's mirror, so its swap counter limits it) left memory all
 * the same: it is freed, and its entry counts as the root's.  Entries
 * freed go from the root's first: a swap-in charges the memcg the entry
 * was charged to (mem_cgroup_swapin_charge_folio()), so the root's
 * swapped in come back as the root's anon, which the look at RssAnon
 * takes from the returned count (*to_root).  Pages swapped out between two
 * looks before RssAnon ever showed them were never charged: they are the
 * root's too, as the pages of a moment are.  Caller holds h->lock. */
static void memory_swap(struct mcg_host *h, struct host_proc *p, long now, long *to_root)
{
	long d = now - p->held[HOST_SWAP];

	*to_root = 0;
	if (d > 0) {
		long charged = p->held[HOST_ANON] - p->in_root[HOST_ANON];
		long want = p->group ? MIN(d, MAX(charged, 0)) : 0, got = 0, rooted;

		if (want > 0)
			got = MAX(mcg_workload_host_group_swap(h->wl, p->group, want), 0);
		if (want > got)
			mcg_workload_host_group_free(h->wl, p->group, MCG_PAGES_ANON, want - got);
		rooted = MIN(d - want, p->in_root[HOST_ANON]);
		p->in_root[HOST_ANON] -= rooted;
		p->held[HOST_ANON] -= want + rooted;
		p->in_root[HOST_SWAP] += d - got;
	} else if (d < 0) {
		long from_root = MIN(-d, p->in_root[HOST_SWAP]);

		p->in_root[HOST_SWAP] -= from_root;
		*to_root = from_root;
		if (-d > from_root && p->group)
			mcg_workload_host_group_swap(h->wl, p->group, d + from_root);
	}
	p->held[HOST_SWAP] = now;
}

/* Charges what p made since the last look, frees what it gave back.
 * Growth waits while p serves a memory.high sleep, and stops at the
 * charge that earns one, unless `whole` (a move: what p made so far is
 * its old cgroup's, all of it).  Caller holds h->lock. */
static void memory_update(struct mcg_host *h, struct host_proc *p, bool whole)
{
	long now[HOST_NR_KINDS], swapped_in_root;
	uint64_t image;
	bool throttled;
	unsigned cpu;
	int nid;

	if (h->shadows || host_sample(p->tgid, now, &cpu, &image) != 0)
		return;
	if (image && p->image && image != p->image)
		memory_exec(h, p);
	if (image)
		p->image = image;
	cpu %= h->nr_cpus;
	nid = (int)((unsigned long)cpu * h->nr_nodes / h->nr_cpus);
	throttled = !whole && p->throttled_until_ns > monotonic_ns();
	if (p->group)
		mcg_workload_host_group_set_unkillable(p->group, host_proc_oom_unkillable(p->tgid));
	memory_swap(h, p, now[HOST_SWAP], &swapped_in_root);
	for (unsigned k = 0; k < HOST_NR_PAGE_KINDS; k++) {
		long d = now[k] - p->held[k];

		/* the root's entries swapped in: the root's anon again */
		if (k == HOST_ANON && d > 0 && swapped_in_root > 0) {
			long back = MIN(d, swapped_in_root);

			p->in_root[k] += back;
			p->held[k] += back;
			d -= back;
		}

		if (d < 0) {
			long from_root = MIN(-d, p->in_root[k]);

			p->in_root[k] -= from_root;
			if (-d > from_root && p->group)
				mcg_workload_host_group_free(h->wl, p->group, host_page_kind[k],
							     -d - from_root);
			p->held[k] = now[k];
		} else if (d > 0 && (!p->cg || p->oom_killed)) {
			p->in_root[k] += d;	/* made in the root: no memcg's */
			p->held[k] = now[k];
		} else if (d > 0 && !throttled) {
			uint64_t sleep = 0;
			long got;

			if (!p->group) {
				if (mcg_workload_host_group_new(h->wl, p->cg, p->pidfd, &p->group))
					return;
				mcg_workload_host_group_set_unkillable(
					p->group, host_proc_oom_unkillable(p->tgid));
			}
			got = mcg_workload_host_group_charge(h->wl, p->group, host_page_kind[k],
							     cpu, nid, d, whole ? NULL : &sleep);
			if (got == -ESRCH) {
				p->oom_killed = true;
				return;
			}
			/* what could not be charged is tried again next time */
			if (got > 0)
				p->held[k] += got;
			if (sleep) {
				throttle_proc(h, p, sleep);
				throttled = true;	/* the rest after the sleep */
			}
		}
	}
}

/* ---- processes ---------------------------------------------------------- */

static void signal_proc(const struct host_proc *p, int sig)
{
	/* ESRCH: it exited; the watcher will see it. */
	(void)syscall(SYS_pidfd_send_signal, p->pidfd, sig, NULL, 0);
}

/* Stops or continues p as the freezer state of its cgroup says (a thaw
 * leaves a process memory.high stopped to its throttle's end). */
static void freeze_sync(struct mcg_host *h, struct host_proc *p)
{
	bool frozen = p->cg && mcg_workload_cgroup_frozen(h->wl, p->cg);

	if (frozen != p->stopped) {
		if (frozen || !p->throttled_until_ns)
			signal_proc(p, frozen ? SIGSTOP : SIGCONT);
		p->stopped = frozen;
	}
}

/*
 * memory.high.  A charge that leaves a level over its high mark is
 * reclaimed back and the charging task sleeps a penalty that grows with
 * the square of the overage before it returns to user space
 * (mem_cgroup_handle_over_high(), calculate_high_delay(); at most 2 s, and
 * none under 10 ms).  The workload's charge path computes it
 * (charge_over_high()); a host process serves it stopped: SIGSTOP, and
 * SIGCONT when it is over, unless a freeze holds it.  Its charging stops
 * at the charge that earned the sleep and goes on at the next look after
 * it, so a process over its high mark advances by steps, as a throttled
 * task does.  What differs: the process made its pages before the
 * daemon saw them (up to HOST_SAMPLE_MS earlier), so it is throttled for
 * pages it already has, and its parent sees it stopped (waitpid
 * WUNTRACED), as with a freeze.
 */
static void throttle_proc(struct mcg_host *h, struct host_proc *p, uint64_t ns)
{
	uint64_t until = monotonic_ns() + ns;

	if (!p->throttled_until_ns && !p->stopped)
		signal_proc(p, SIGSTOP);
	p->throttled_until_ns = MAX(p->throttled_until_ns, until);
	/* the watcher continues it: it may be waiting for its next look */
	(void)eventfd_write(h->wakefd, 1);
}

/* Continues the processes whose sleep is over; the earliest end still to
 * come (UINT64_MAX: none).  Caller holds h->lock. */
static uint64_t throttles_expire(struct mcg_host *h, uint64_t now)
{
	uint64_t next = UINT64_MAX;
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, h->procs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct host_proc *p = v;

		if (!p->throttled_until_ns)
			continue;
		if (p->throttled_until_ns > now) {
			next = MIN(next, p->throttled_until_ns);
			continue;
		}
		p->throttled_until_ns = 0;
		if (!p->stopped)
			signal_proc(p, SIGCONT);
	}
	return next;
}

void host_throttle_cgroup(struct mcg_host *h, struct mcg_cgroup *cg, uint64_t ns)
{
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, h->procs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct host_proc *p = v;

		if (p->cg == cg)
			throttle_proc(h, p, ns);
	}
}

static struct mcg_cgroup *thread_cg(const struct host_proc *p, pid_t tid, bool *apart)
{
	gpointer cg;

	if (p->threads && g_hash_table_lookup_extended(p->threads, GINT_TO_POINTER(tid), NULL, &cg)) {
		if (apart)
			*apart = true;
		return cg;
	}
	if (apart)
		*apart = false;
	return p->cg;
}

/* Takes a thread out of p's threads, its placement ending. */
static void thread_unplace(struct mcg_host *h, struct host_proc *p, pid_t tid)
{
	gpointer cg;

	if (!p->threads || !g_hash_table_lookup_extended(p->threads, GINT_TO_POINTER(tid), NULL, &cg))
		return;
	g_hash_table_remove(p->threads, GINT_TO_POINTER(tid));
	placement(h, cg, -1);
	cg_put(cg);
}

/* Records tid in cg apart from its process (its placement counted by the
 * caller). */
static void thread_place(struct host_proc *p, pid_t tid, struct mcg_cgroup *cg)
{
	if (!p->threads)
		p->threads = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_hash_table_insert(p->threads, GINT_TO_POINTER(tid), cg_get(cg));
}

static void threads_unplace_all(struct mcg_host *h, struct host_proc *p)
{
	GHashTableIter it;
	gpointer cg;

	if (!p->threads)
		return;
	g_hash_table_iter_init(&it, p->threads);
	while (g_hash_table_iter_next(&it, NULL, &cg)) {
		placement(h, cg, -1);
		cg_put(cg);
		g_hash_table_iter_remove(&it);
	}
}

/* Drops threads of p that exited.  Caller holds h->lock. */
static void threads_reap(struct mcg_host *h, struct host_proc *p)
{
	g_autoptr(GArray) dead = g_array_new(FALSE, FALSE, sizeof(pid_t));
	GHashTableIter it;
	gpointer tid;

	if (!p->threads)
		return;
	g_hash_table_iter_init(&it, p->threads);
	while (g_hash_table_iter_next(&it, &tid, NULL)) {
		pid_t t = GPOINTER_TO_INT(tid);

		if (!thread_alive(p->tgid, t))
			g_array_append_val(dead, t);
	}
	for (unsigned i = 0; i < dead->len; i++)
		thread_unplace(h, p, g_array_index(dead, pid_t, i));
}

static struct host_proc *proc_new(struct mcg_host *h, pid_t tgid)
{
	struct host_proc *p;
	struct epoll_event ev = { .events = EPOLLIN };
	int fd = (int)syscall(SYS_pidfd_open, tgid, 0);

	if (fd < 0)
		return NULL;
	ev.data.u64 = (uint64_t)tgid;
	if (epoll_ctl(h->epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
		int err = errno;

		close(fd);
		errno = err;
		return NULL;
	}
	p = g_new0(struct host_proc, 1);
	p->tgid = tgid;
	p->pidfd = fd;
	p->children_since = boot_ticks_now();
	memory_baseline(h, p);
	g_hash_table_insert(h->procs, GINT_TO_POINTER(tgid), p);
	/* the watcher waits without a timeout while it knows no process */
	(void)eventfd_write(h->wakefd, 1);
	return p;
}

/* Forgets p, undoing its placements: it exited, or every task of it is
 * in the root.  Continues it if a freeze stopped it. */
static void proc_forget(struct mcg_host *h, struct host_proc *p)
{
	if (p->stopped || p->throttled_until_ns)
		signal_proc(p, SIGCONT);
	/* before the pidfd goes: the OOM killer may signal it until then */
	if (p->group)
		mcg_workload_host_group_exit(h->wl, p->group);
	threads_unplace_all(h, p);
	placement(h, p->cg, -1);
	cg_put(p->cg);
	if (p->threads)
		g_hash_table_destroy(p->threads);
	close(p->pidfd);		/* leaves the epoll set */
	g_hash_table_remove(h->procs, GINT_TO_POINTER(p->tgid));
	g_free(p);
}

/* A process in the root with every thread is forgotten, unless emulated
 * memcgs still hold pages it made, which its frees and exit give back. */
static void proc_forget_if_unplaced(struct mcg_host *h, struct host_proc *p)
{
	if (!p->cg && (!p->threads || g_hash_table_size(p->threads) == 0) && !p->group)
		proc_forget(h, p);
}

/* p moves to dst (NULL: the root): what it made so far is charged where
 * it was, its later pages go to dst. */
static void memory_move(struct mcg_host *h, struct host_proc *p, struct mcg_cgroup *dst)
{
	memory_update(h, p, true);
	if (p->group) {
		mcg_workload_host_group_move(h->wl, p->group,
					     dst ? dst : mcg_engine_root(h->e));
		p->moved = true;
	}
}

/* ---- the watcher ---------------------------------------------------------- */

/* Has p's thread group exited?  Asked again under the lock: an event
 * returned before it was taken may be of a process forgotten meanwhile,
 * whose tgid a new process now has. */
static bool proc_exited(const struct host_proc *p)
{
	struct pollfd pfd = { .fd = p->pidfd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1;
}

/* Every HOST_SAMPLE_MS while it knows a process: each one's memory, and
 * now and then its threads placed apart that exited. */
static void adopt_children(struct mcg_host *h);

static void watcher_sample(struct mcg_host *h, unsigned round)
{
	adopt_children(h);
	g_autoptr(GList) procs = g_hash_table_get_values(h->procs);

	host_shadows_sample(h, NULL);
	for (GList *l = procs; l; l = l->next) {
		struct host_proc *p = l->data;

		memory_update(h, p, false);
		if (round % THREAD_REAP_SAMPLES == 0 && p->threads) {
			threads_reap(h, p);
			proc_forget_if_unplaced(h, p);
		}
	}
}

/* Looks at the fresh processes' memory: those placed within
 * HOST_FRESH_MS.  Caller holds h->lock. */
static void watcher_sample_fresh(struct mcg_host *h, uint64_t now)
{
	g_autoptr(GList) procs = g_hash_table_get_values(h->procs);
	bool any = false;

	for (GList *l = procs; l; l = l->next) {
		struct host_proc *p = l->data;

		if (p->fresh_until_ns <= now)
			continue;
		memory_update(h, p, false);
		any = true;
	}
	h->next_fresh_ns = any ? now + HOST_FRESH_SAMPLE_MS * 1000000ull : UINT64_MAX;
}

/* A process just placed: fresh (see "Fresh processes").  Caller holds
 * h->lock. */
static void proc_fresh(struct mcg_host *h, struct host_proc *p)
{
	uint64_t now = monotonic_ns();

	if (h->shadows)
		return;	/* the host kernel charges it as it goes */
	p->fresh_until_ns = now + HOST_FRESH_MS * 1000000ull;
	if (h->next_fresh_ns > now + HOST_FRESH_SAMPLE_MS * 1000000ull) {
		h->next_fresh_ns = now + HOST_FRESH_SAMPLE_MS * 1000000ull;
		(void)eventfd_write(h->wakefd, 1);
	}
}

static void *watcher_main(void *arg)
{
	struct mcg_host *h = arg;
	unsigned round = 0;

	while (!atomic_load(&h->stop)) {
		struct epoll_event evs[32];
		uint64_t now = monotonic_ns(), wake;
		int timeout = -1, n;

		pthread_mutex_lock(&h->lock);
		wake = throttles_expire(h, now);
		if (g_hash_table_size(h->procs) || h->shadows)
			wake = MIN(wake, MIN(h->next_sample_ns, h->next_fresh_ns));
		if (wake != UINT64_MAX)
			timeout = wake > now ? (int)((wake - now + 999999) / 1000000) : 0;
		pthread_mutex_unlock(&h->lock);
		n = epoll_wait(h->epfd, evs, G_N_ELEMENTS(evs), timeout);
		pthread_mutex_lock(&h->lock);
		for (int i = 0; i < n; i++) {
			pid_t tgid = (pid_t)evs[i].data.u64;
			struct host_proc *p;

			if (evs[i].data.u64 == UINT64_MAX) {
				eventfd_t v;

				(void)eventfd_read(h->wakefd, &v);
				continue;	/* the loop looks at stop */
			}
			p = g_hash_table_lookup(h->procs, GINT_TO_POINTER(tgid));
			if (p && proc_exited(p))
				proc_forget(h, p);
		}
		now = monotonic_ns();
		if (now >= h->next_sample_ns) {
			watcher_sample(h, round++);
			h->next_sample_ns = now + HOST_SAMPLE_MS * 1000000ull;
			/* the fresh were looked at too */
			if (h->next_fresh_ns <= now)
				h->next_fresh_ns = now + HOST_FRESH_SAMPLE_MS * 1000000ull;
		} else if (now >= h->next_fresh_ns) {
			watcher_sample_fresh(h, now);
		}
		pthread_mutex_unlock(&h->lock);
	}
	return NULL;
}

struct mcg_host *mcg_host_new(struct mcg_engine *e, struct mcg_workload *wl,
			      const char *host_cgroup)
{
	struct mcg_host *h = g_new0(struct mcg_host, 1);
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = UINT64_MAX };

	h->e = e;
	h->wl = wl;
	h->nr_cpus = mcg_engine_config(e)->nr_cpus;
	h->nr_nodes = mcg_engine_config(e)->nr_nodes;
	h->next_fresh_ns = UINT64_MAX;
	pthread_mutex_init(&h->lock, NULL);
	h->procs = g_hash_table_new(g_direct_hash, g_direct_equal);
	h->epfd = epoll_create1(EPOLL_CLOEXEC);
	h->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (h->epfd < 0 || h->wakefd < 0 || epoll_ctl(h->epfd, EPOLL_CTL_ADD, h->wakefd, &ev)) {
		int err = errno;

		mcg_host_free(h);
		errno = err;
		return NULL;
	}
	if (host_cgroup) {
		int err = host_shadows_open(h, host_cgroup);

		if (err) {
			mcg_host_free(h);
			errno = -err;
			return NULL;
		}
	}
	return h;
}

int mcg_host_start(struct mcg_host *h)
{
	int err = pthread_create(&h->watcher, NULL, watcher_main, h);

	if (err)
		return -err;
	h->started = true;
	return 0;
}

void mcg_host_free(struct mcg_host *h)
{
	if (!h)
		return;
	if (h->started) {
		atomic_store(&h->stop, true);
		if (eventfd_write(h->wakefd, 1) == 0)
			pthread_join(h->watcher, NULL);
	}
	for (;;) {
		GHashTableIter it;
		gpointer p;

		g_hash_table_iter_init(&it, h->procs);
		if (!g_hash_table_iter_next(&it, NULL, &p))
			break;
		proc_forget(h, p);
	}
	host_shadows_close(h);
	g_hash_table_destroy(h->procs);
	if (h->epfd >= 0)
		close(h->epfd);
	if (h->wakefd >= 0)
		close(h->wakefd);
	pthread_mutex_destroy(&h->lock);
	g_free(h);
}

/* ---- placing ---------------------------------------------------------------- */

/* cgroup.procs: the whole process into dst (NULL: the root), every thread
 * with it (cgroup_migrate_add_task() of each thread of the group). */
static int attach_process(struct mcg_host *h, struct host_proc *p, pid_t tgid,
			  struct mcg_cgroup *dst)
{
	int err;

	if (p && p->cg == dst && (!p->threads || !g_hash_table_size(p->threads)))
		return 0;
	if (!p && !dst)
		return 0;
	err = placement(h, dst, 1);
	if (err)
		return err;
	if (!p && !(p = proc_new(h, tgid))) {
		err = errno == ESRCH ? -ESRCH : -ENOMEM;
		placement(h, dst, -1);
		return err;
	}
	/* on the host first: what it refuses changes nothing here */
	if (h->shadows && (err = host_shadows_place(h, tgid, true, dst)) != 0) {
		placement(h, dst, -1);
		proc_forget_if_unplaced(h, p);
		return err;
	}
	threads_unplace_all(h, p);
	if (p->cg != dst)
		memory_move(h, p, dst);
	placement(h, p->cg, -1);
	cg_put(p->cg);
	p->cg = cg_get(dst);
	if (dst)
		proc_fresh(h, p);
	/* From /proc, its task group now, charged or not: an OOM kill of
	 * its memcg's oom.group takes every task there (the workload's
	 * oom_kill()), not only those that charged since they came. */
	if (!h->shadows && dst && !p->group &&
	    mcg_workload_host_group_new(h->wl, dst, p->pidfd, &p->group) == 0)
		mcg_workload_host_group_set_unkillable(p->group, host_proc_oom_unkillable(p->tgid));
	freeze_sync(h, p);
	proc_forget_if_unplaced(h, p);
	return 0;
}

/* v1 tasks, cgroup.threads: one thread into dst.  Moving the leader moves
 * the process's cgroup, so its other threads, placed nowhere apart until
 * now, are placed apart where they were. */
static int attach_thread(struct mcg_host *h, struct host_proc *p, pid_t tid, pid_t tgid,
			 struct mcg_cgroup *dst)
{
	struct mcg_cgroup *cur = p ? thread_cg(p, tid, NULL) : NULL;
	int err;

	if (cur == dst)
		return 0;
	err = placement(h, dst, 1);
	if (err)
		return err;
	if (!p && !(p = proc_new(h, tgid))) {
		err = errno == ESRCH ? -ESRCH : -ENOMEM;
		placement(h, dst, -1);
		return err;
	}
	if (tid == tgid) {
		g_autoptr(GArray) tids = NULL;
		struct mcg_cgroup *old = p->cg;

		/* the leader is the mm's owner, whose cgroup the host charges */
		if (h->shadows && (err = host_shadows_place(h, tid, false, dst)) != 0) {
			placement(h, dst, -1);
			proc_forget_if_unplaced(h, p);
			return err;
		}
		tids = proc_threads(tgid);
		for (unsigned i = 0; i < tids->len; i++) {
			pid_t t = g_array_index(tids, pid_t, i);
			bool apart;

			thread_cg(p, t, &apart);
			if (t != tgid && !apart && placement(h, old, 1) == 0)
				thread_place(p, t, old);
		}
		memory_move(h, p, dst);
		p->cg = cg_get(dst);
		placement(h, old, -1);
		cg_put(old);
		if (dst)
			proc_fresh(h, p);
		freeze_sync(h, p);
	} else {
		thread_unplace(h, p, tid);
		if (dst != p->cg)
			thread_place(p, tid, dst);
		else
			placement(h, dst, -1);	/* counted in the process's */
	}
	/* a thread placed apart where its process now is, is with it */
	if (p->threads) {
		g_autoptr(GArray) same = g_array_new(FALSE, FALSE, sizeof(pid_t));
		GHashTableIter it;
		gpointer t, cg;

		g_hash_table_iter_init(&it, p->threads);
		while (g_hash_table_iter_next(&it, &t, &cg))
			if (cg == p->cg) {
				pid_t x = GPOINTER_TO_INT(t);
				g_array_append_val(same, x);
			}
		for (unsigned i = 0; i < same->len; i++)
			thread_unplace(h, p, g_array_index(same, pid_t, i));
	}
	proc_forget_if_unplaced(h, p);
	return 0;
}

int mcg_host_attach(struct mcg_host *h, pid_t tid, pid_t tgid, bool threadgroup,
		    struct mcg_cgroup *cg)
{
	struct mcg_cgroup *dst = is_root(cg) ? NULL : cg;
	struct host_proc *p;
	int err;

	pthread_mutex_lock(&h->lock);
	/* what it forked so far stays where it was forked */
	adopt_children(h);
	p = g_hash_table_lookup(h->procs, GINT_TO_POINTER(tgid));
	/* an entry of a process that exited, whose pid a new one has now */
	if (p && proc_exited(p)) {
		proc_forget(h, p);
		p = NULL;
	}
	if (threadgroup)
		err = attach_process(h, p, tgid, dst);
	else
		err = attach_thread(h, p, tid, tgid, dst);
	pthread_mutex_unlock(&h->lock);
	return err;
}

struct mcg_cgroup *mcg_host_task_cgroup(struct mcg_host *h, pid_t tid, pid_t tgid)
{
	struct mcg_cgroup *cg = NULL;
	struct host_proc *p;

	pthread_mutex_lock(&h->lock);
	p = g_hash_table_lookup(h->procs, GINT_TO_POINTER(tgid));
	if (p)
		cg = cg_get(thread_cg(p, tid, NULL));
	pthread_mutex_unlock(&h->lock);
	return cg ? cg : mcg_cgroup_get(mcg_engine_root(h->e));
}

/* ---- forks ------------------------------------------------------------------ */

/* Places the children that placed threads forked since their process's
 * last look where the forking thread is (see "Fork"), and theirs in
 * turn.  Caller holds h->lock. */
static void adopt_children(struct mcg_host *h)
{
	g_autoptr(GPtrArray) work = g_ptr_array_new();
	unsigned long long now = boot_ticks_now();
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, h->procs);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(work, v);
	for (unsigned w = 0; w < work->len; w++) {
		struct host_proc *p = g_ptr_array_index(work, w);
		unsigned long long since = p->children_since;
		g_autoptr(GArray) tids = NULL;

		p->children_since = now;
		if (!p->cg && !(p->threads && g_hash_table_size(p->threads)))
			continue;	/* nothing of it placed: its children are the root's */
		tids = proc_threads(p->tgid);
		for (unsigned i = 0; i < tids->len; i++) {
			pid_t t = g_array_index(tids, pid_t, i), child, ppid;
			struct mcg_cgroup *cg = thread_cg(p, t, NULL);
			char path[64];
			FILE *f;

			if (!cg)
				continue;
			g_snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)p->tgid,
				   (int)t);
			f = fopen(path, "re");
			if (!f)
				continue;
			while (fscanf(f, "%d", &child) == 1) {
				unsigned long long start;
				struct host_proc *c;

				if (g_hash_table_contains(h->procs, GINT_TO_POINTER(child)))
					continue;
				/* copy_process() stamps the start before it links
				 * the child to its parent's list: a tick's margin;
				 * and the pid still the child (not reused) */
				start = proc_start_ticks(child, &ppid);
				if (!start || start + 1 < since || ppid != p->tgid ||
				    attach_process(h, NULL, child, cg))
					continue;
				c = g_hash_table_lookup(h->procs, GINT_TO_POINTER(child));
				if (c) {
					c->children_since = start;
					g_ptr_array_add(work, c);
				}
			}
			fclose(f);
		}
	}
}

/* ---- lists ------------------------------------------------------------------ */

/* Appends p's tasks in cg (NULL: the root) of that kind. */
static void list_proc(const struct host_proc *p, struct mcg_cgroup *cg, enum mcg_host_list kind,
		      GArray *pids)
{
	if (kind == MCG_HOST_LIST_LEADERS) {
		if (p->cg == cg)
			g_array_append_val(pids, p->tgid);
		return;
	}
	/* the threads of a process placed whole are all with it */
	if (p->cg == cg && kind == MCG_HOST_LIST_PROCESSES) {
		g_array_append_val(pids, p->tgid);
		return;
	}
	if (p->cg == cg || (p->threads && g_hash_table_size(p->threads))) {
		g_autoptr(GArray) tids = proc_threads(p->tgid);

		for (unsigned i = 0; i < tids->len; i++) {
			pid_t t = g_array_index(tids, pid_t, i);

			if (thread_cg(p, t, NULL) != cg)
				continue;
			if (kind == MCG_HOST_LIST_THREADS) {
				g_array_append_val(pids, t);
			} else {
				g_array_append_val(pids, p->tgid);
				break;
			}
		}
	}
}

/* Forgets the processes that exited and the watcher has not handled yet:
 * in the kernel cgroup_exit() runs in do_exit(), before the parent's
 * waitpid() returns, so a cgroup is empty and its files say so by then.
 * Caller holds h->lock. */
static void reap_exited(struct mcg_host *h)
{
	g_autoptr(GList) procs = g_hash_table_get_values(h->procs);

	for (GList *l = procs; l; l = l->next)
		if (proc_exited(l->data))
			proc_forget(h, l->data);
}

void mcg_host_reap(struct mcg_host *h)
{
	pthread_mutex_lock(&h->lock);
	reap_exited(h);
	pthread_mutex_unlock(&h->lock);
}

void mcg_host_list(struct mcg_host *h, struct mcg_cgroup *cg, enum mcg_host_list kind,
		   GArray *pids)
{
	struct mcg_cgroup *where = is_root(cg) ? NULL : cg;
	unsigned first = pids->len;

	pthread_mutex_lock(&h->lock);
	reap_exited(h);
	adopt_children(h);
	if (!where) {
		g_autoptr(GArray) tgids = proc_ids("/proc");

		for (unsigned i = 0; i < tgids->len; i++) {
			pid_t tgid = g_array_index(tgids, pid_t, i);
			struct host_proc *p = g_hash_table_lookup(h->procs, GINT_TO_POINTER(tgid));

			if (p) {
				list_proc(p, NULL, kind, pids);
			} else if (kind != MCG_HOST_LIST_THREADS) {
				g_array_append_val(pids, tgid);
			} else {
				g_autoptr(GArray) tids = proc_threads(tgid);

				g_array_append_vals(pids, tids->data, tids->len);
			}
		}
	} else {
		GHashTableIter it;
		gpointer p;

		g_hash_table_iter_init(&it, h->procs);
		while (g_hash_table_iter_next(&it, NULL, &p)) {
			threads_reap(h, p);
			list_proc(p, where, kind, pids);
		}
	}
	pthread_mutex_unlock(&h->lock);
	if (pids->len > first)
		qsort(&g_array_index(pids, pid_t, first), pids->len - first, sizeof(pid_t),
		      cmp_pid);
}

/* ---- reads ---------------------------------------------------------------------- */

void mcg_host_sync(struct mcg_host *h, struct mcg_cgroup *cg)
{
	GHashTableIter it;
	gpointer v;

	pthread_mutex_lock(&h->lock);
	adopt_children(h);
	host_shadows_sample(h, cg);
	g_hash_table_iter_init(&it, h->procs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct host_proc *p = v;

		if (p->moved || (p->cg && (is_root(cg) || mcg_cgroup_is_descendant(p->cg, cg))))
			memory_update(h, p, false);
	}
	pthread_mutex_unlock(&h->lock);
}

unsigned long mcg_host_reclaim(struct mcg_host *h, struct mcg_cgroup *cg, unsigned long pages)
{
	unsigned long got;

	pthread_mutex_lock(&h->lock);
	got = host_shadows_reclaim(h, cg, pages);
	if (got)
		host_shadows_sample(h, cg);
	pthread_mutex_unlock(&h->lock);
	return got;
}

void mcg_host_cgroup_removed(struct mcg_host *h, struct mcg_cgroup *cg)
{
	pthread_mutex_lock(&h->lock);
	host_shadows_removed(h, cg);
	pthread_mutex_unlock(&h->lock);
}

/* ---- kill and freeze ----------------------------------------------------------- */

void mcg_host_kill(struct mcg_host *h, struct mcg_cgroup *cg)
{
	GHashTableIter it;
	gpointer v;

	pthread_mutex_lock(&h->lock);
	adopt_children(h);
	g_hash_table_iter_init(&it, h->procs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct host_proc *p = v;

		if (p->cg && (is_root(cg) || mcg_cgroup_is_descendant(p->cg, cg)))
			signal_proc(p, SIGKILL);
	}
	pthread_mutex_unlock(&h->lock);
}

void mcg_host_freeze_changed(struct mcg_host *h, struct mcg_cgroup *cg)
{
	GHashTableIter it;
	gpointer v;

	pthread_mutex_lock(&h->lock);
	adopt_children(h);
	g_hash_table_iter_init(&it, h->procs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct host_proc *p = v;

		if (p->cg == cg)
			freeze_sync(h, p);
	}
	pthread_mutex_unlock(&h->lock);
}
