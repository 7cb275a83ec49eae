/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Notification: poll(2) on the files the kernel notifies, and v1
 * cgroup.event_control with the caller's own eventfds (see internal.h). */
#define FUSE_USE_VERSION 314
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fs/internal.h"

/*
 * Notification
 * ------------
 * The kernel tells a reader that a cgroup file changed in two ways.
 *
 * poll(2).  cgroup_file_notify() (kernel/cgroup/cgroup.c) bumps the file's
 * kernfs event count when cgroup.events, memory.events, memory.events.local
 * or memory.swap.events change, at most once per CGROUP_FILE_NOTIFY_MIN_INTV
 * (10 ms).  kernfs_generic_poll() (fs/kernfs/file.c) answers POLLERR|POLLPRI
 * on top of the default mask when the count moved since the fd last read
 * the file (or opened it), and waits otherwise.  Here a file's count is its
 * text, and for cgroup.events, whose populated and frozen can change and
 * change back, the changes its show function counted too (fs_call
 * changes): an fd remembers a hash of what it last read (of->seen), poll
 * compares it with a fresh rendering, and a notifier thread, every 10 ms,
 * re-renders the files that have a waiting poll and wakes the waiter
 * (fuse_lowlevel_notify_poll()) when the text differs.  Only files with a
 * waiter are rendered, so the thread costs nothing without pollers.  PSI
 * files poll as psi_trigger_poll() does: without a trigger POLLERR|POLLPRI
 * at once; with one, POLLPRI once it fired.  The thread watches every
 * trigger as update_triggers() (kernel/sched/psi.c) does: the stall time
 * (some or full) that grew since its window started; at the threshold an
 * event, at most one per window, wakes the poll.  It also runs the
 * groups' periodic PSI collection (mcg_workload_psi_update()).  Every other
 * file polls ready, as a file whose count never moves.
 *
 * cgroup.event_control (v1, memcg_write_event_control() in
 * mm/memcontrol-v1.c): "<eventfd> <fd of a control file> [args]" binds an
 * eventfd to memory.usage_in_bytes or memory.memsw.usage_in_bytes
 * (a usage threshold), memory.oom_control (OOM in this memcg or an
 * ancestor) or memory.pressure_level (vmpressure).  The numbers are the
 * writer's fds: the daemon takes its own copies with pidfd_getfd(2), checks
 * them as the kernel does (EBADF, an eventfd, read permission on the
 * control file, a regular file of this mount in the same cgroup), and the
 * notifier thread signals the eventfd (writes 1) as the kernel would:
 *  - a threshold, when usage crosses it either way (__mem_cgroup_threshold());
 *  - oom_control, at each OOM of the memcg or an ancestor
 *    (mem_cgroup_oom_notify());
 *  - pressure_level, when vmpressure's work for a reclaim target runs
 *    (mcg_workload_vmpressure_work(), each notifier tick): the target's
 *    listeners of that level or lower, then each ancestor's, where "local"
 *    ones hear only their own memcg's reclaim and "default" ones only what
 *    no listener below heard (vmpressure_work_fn(), vmpressure_event());
 *  - and once more when the cgroup goes (memcg_event_remove()).
 * The kernel unbinds an event when the writer closes its eventfd, which
 * the daemon's copy hides; the daemon keeps a pidfd of the writer and
 * drops its events when it exits, or when the cgroup goes.
 */

#define NOTIFY_INTERVAL_NS (10 * 1000 * 1000)	/* CGROUP_FILE_NOTIFY_MIN_INTV */
#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

enum fs_event_kind { EVENT_USAGE, EVENT_MEMSW, EVENT_OOM, EVENT_PRESSURE };
enum vmpressure_mode { VMP_DEFAULT, VMP_HIERARCHY, VMP_LOCAL };

/* One cgroup.event_control registration.  Protected by fs->notify_lock. */
struct fs_event {
	uint64_t id;			/* the memcg's cgroup id */
	int efd;			/* the daemon's copy of the eventfd */
	int pidfd;			/* the registering process, to see it exit */
	enum fs_event_kind kind;
	unsigned long threshold;	/* pages: EVENT_USAGE, EVENT_MEMSW */
	unsigned long last_usage;	/* pages, at the last check */
	uint64_t last_count;		/* OOMs seen */
	unsigned level;			/* vmpressure: 0 low, 1 medium, 2 critical */
	enum vmpressure_mode mode;
};

/* What an fd saw: its text and the changes its show function counted. */
static uint64_t text_hash(const GString *s, uint64_t changes)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (size_t i = 0; i < s->len; i++)
		h = (h ^ (unsigned char)s->str[i]) * 1099511628211ull;
	for (unsigned i = 0; i < 8; i++)
		h = (h ^ (unsigned char)(changes >> (8 * i))) * 1099511628211ull;
	return h;
}

bool fs_file_notifies(const struct fs_file *f)
{
	return f->flags & FS_NOTIFY;
}

/* The hash of a fresh rendering of of's file, or 0 if it cannot be
 * rendered (the cgroup or the file went). */
static uint64_t render_hash(struct mcgfs *fs, struct fs_open *of)
{
	struct fs_call call = { .fs = fs, .node = of->node, .cg = of->node->cg, .of = of };
	g_autoptr(GString) text = g_string_sized_new(256);

	int err;

	if (!mcg_cgroup_online(of->node->cg) || !fs_file_visible(fs, of->node, of->file))
		return 0;
	err = fs_call_memcg(fs, &call, of->file);
	if (!err)
		err = of->file->show(&call, text);
	fs_call_done(&call);
	return err ? 0 : text_hash(text, call.changes);
}

void fs_notify_opened(struct mcgfs *fs, struct fs_open *of)
{
	if (fs_file_notifies(of->file))
		atomic_store(&of->seen, render_hash(fs, of));
}

void fs_notify_read(struct fs_open *of, uint64_t changes)
{
	if (fs_file_notifies(of->file))
		atomic_store(&of->seen, text_hash(of->text, changes));
}

/* The stall total a trigger watches, in ns, in *total, as the last
 * collection left it: false if there is none to watch (cpu and io: no
 * stalls emulated; the cgroup went). */
static bool psi_trigger_total(struct mcgfs *fs, struct fs_open *of, uint64_t *total)
{
	struct mcg_psi psi;

	if (strcmp(of->file->name, "memory.pressure") ||
	    mcg_workload_psi_read(fs->wl, of->node->cg, &psi))
		return false;
	*total = psi.total_ns[of->psi_full];
	return true;
}

void fs_notify_psi_trigger(struct mcgfs *fs, struct fs_open *of)
{
	uint64_t total = 0;

	mcg_workload_psi_collect(fs->wl);
	psi_trigger_total(fs, of, &total);
	pthread_mutex_lock(&fs->notify_lock);
	/* psi_trigger_create(): window_reset(now, total, 0) */
	of->psi_win_start_ns = mcg_engine_clock_ns(fs->e);
	of->psi_win_start_value = total;
	of->psi_win_prev_growth = 0;
	of->psi_seen_total = total;
	of->psi_last_event_ns = 0;
	of->psi_next_check_ns = 0;
	of->psi_pending = of->psi_event = false;
	g_ptr_array_add(fs->psi_triggers, of);
	pthread_mutex_unlock(&fs->notify_lock);
}

/* window_update(): the growth in the window, the last window's carried
 * over pro rata while the new one fills. */
static uint64_t psi_window_update(struct fs_open *of, uint64_t now, uint64_t value)
{
	uint64_t elapsed = now - of->psi_win_start_ns;
	uint64_t growth = value - of->psi_win_start_value;

	if (elapsed > of->psi_window_ns) {
		of->psi_win_start_ns = now;
		of->psi_win_start_value = value;
		of->psi_win_prev_growth = growth;
	} else {
		growth += of->psi_win_prev_growth * (of->psi_window_ns - elapsed) /
			  of->psi_window_ns;
	}
	return growth;
}

/* update_triggers() for one trigger: on new stall, the window's growth; at
 * the threshold an event is pending, delivered once the last is a window
 * old.  A privileged trigger is looked at every tick (the rtpoll
 * aggregator), another with the 2 s averages (PSI_AVGS).  Returns whether
 * one was delivered.  notify_lock held. */
static bool psi_trigger_check(struct mcgfs *fs, struct fs_open *of, uint64_t now)
{
	uint64_t total;
	bool new_stall;

	if (!of->psi_privileged) {
		if (now < of->psi_next_check_ns)
			return false;
		of->psi_next_check_ns = now + 2000000000ull;
	}
	if (!psi_trigger_total(fs, of, &total))
		return false;
	new_stall = total != of->psi_seen_total;
	of->psi_seen_total = total;
	if (!new_stall && !of->psi_pending)
		return false;
	if (new_stall) {
		uint64_t growth = psi_window_update(of, now, total);

		if (!of->psi_pending) {
			if (growth < of->psi_threshold_ns)
				return false;
			of->psi_pending = true;
		}
	}
	if (now < of->psi_last_event_ns + of->psi_window_ns)
		return false;
	of->psi_event = true;
	of->psi_last_event_ns = now;
	of->psi_pending = false;
	return true;
}

void fs_notify_released(struct mcgfs *fs, struct fs_open *of)
{
	pthread_mutex_lock(&fs->notify_lock);
	g_ptr_array_remove_fast(fs->psi_triggers, of);
	if (of->ph) {
		g_ptr_array_remove_fast(fs->pollers, of);
		fuse_pollhandle_destroy(of->ph);
		of->ph = NULL;
	}
	pthread_mutex_unlock(&fs->notify_lock);
}

unsigned fs_notify_poll(struct mcgfs *fs, struct fs_open *of, struct fuse_pollhandle *ph)
{
	unsigned revents = DEFAULT_POLLMASK;

	/* kernfs_generic_poll(): a deactivated node is always ready. */
	if (!mcg_cgroup_online(of->node->cg) || !fs_file_visible(fs, of->node, of->file)) {
		revents |= POLLERR | POLLPRI;
	} else if (of->file->flags & FS_PSI) {
		/* psi_trigger_poll(): a trigger reports its event once. */
		bool trigger;

		pthread_mutex_lock(&of->lock);
		trigger = of->psi_trigger;
		pthread_mutex_unlock(&of->lock);
		if (!trigger) {
			revents |= POLLERR | POLLPRI;
		} else {
			/* the default mask, POLLPRI once for each event */
			pthread_mutex_lock(&fs->notify_lock);
			if (of->psi_event)
				revents |= POLLPRI;
			of->psi_event = false;
			pthread_mutex_unlock(&fs->notify_lock);
		}
	} else if (fs_file_notifies(of->file)) {
		pthread_mutex_lock(&fs->notify_lock);
		if (render_hash(fs, of) != atomic_load(&of->seen))
			revents |= POLLERR | POLLPRI;
		pthread_mutex_unlock(&fs->notify_lock);
	}
	if (ph && !(revents & POLLPRI) && (of->file->flags & (FS_PSI | FS_NOTIFY))) {
		pthread_mutex_lock(&fs->notify_lock);
		if (of->ph)
			fuse_pollhandle_destroy(of->ph);
		else
			g_ptr_array_add(fs->pollers, of);
		of->ph = ph;
		ph = NULL;
		pthread_mutex_unlock(&fs->notify_lock);
	}
	if (ph)
		fuse_pollhandle_destroy(ph);
	return revents;
}

/* ---- cgroup.event_control -------------------------------------------------- */

static void eventfd_signal_one(int efd)
{
	uint64_t one = 1;

	/* eventfd_signal(): a full counter drops the signal, as the kernel's. */
	if (write(efd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		g_debug("eventfd write: %s", g_strerror(errno));
}

int fs_task_status(pid_t pid, const char *key, unsigned nth, unsigned base,
		   unsigned long long *val)
{
	char path[64], line[256];
	size_t len = strlen(key);
	int found = 0;
	FILE *f;

	g_snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + len + 1, *end;

		if (strncmp(line, key, len) || line[len] != ':')
			continue;
		for (unsigned i = 0;; i++, p = end) {
			while (*p == ' ' || *p == '\t')
				p++;
			*val = fs_simple_strtoull(p, base, &end);
			if (end == p || i == nth) {
				found = end != p;
				break;
			}
		}
		break;
	}
	fclose(f);
	return found;
}

bool fs_task_capable(pid_t pid, uid_t uid, unsigned cap)
{
	unsigned long long eff = 0;
	int found = fs_task_status(pid, "CapEff", 0, 16, &eff);

	if (found < 0)
		return uid == 0;
	return found && (eff >> cap) & 1;
}

/* FUSE reports the writing thread, and pidfd_open() before Linux 6.9
 * takes only a thread group leader. */
pid_t fs_task_tgid(pid_t tid)
{
	unsigned long long tgid;

	return fs_task_status(tid, "Tgid", 0, 10, &tgid) == 1 ? (pid_t)tgid : tid;
}

int fs_task_stat(pid_t pid, unsigned long long *ppid, unsigned long long *flags)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	g_snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: the fields follow the last
	 * ')': state, ppid, pgrp, session, tty_nr, tpgid, flags (fields 3
	 * to 9 of proc_pid_stat(5)). */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %llu %*d %*d %*d %*d %llu", ppid, flags) != 2)
		return -1;
	return 0;
}

/* A copy of the writer's fd, or a negative errno (EBADF: not open there). */
static int take_fd(int pidfd, unsigned long fd)
{
	int r;

	if (fd > INT_MAX)
		return -EBADF;
	r = (int)syscall(SYS_pidfd_getfd, pidfd, (int)fd, 0);
	return r < 0 ? -errno : r;
}

static bool is_eventfd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	g_snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	return strcmp(target, "anon_inode:[eventfd]") == 0;
}

/* file_permission(cfile, MAY_READ) for the writer, from the file's mode
 * and owner (supplementary groups are not known here). */
static bool may_read(mode_t mode, uid_t uid, gid_t gid, const struct fs_call *c)
{
	if (c->uid == 0)
		return true;
	if (c->uid == uid)
		return mode & 0400;
	if (c->gid == gid)
		return mode & 0040;
	return mode & 0004;
}

static unsigned long usage_pages(struct mcg_cgroup *cg, bool memsw)
{
	return mcg_counter_read(cg, memsw ? MCG_COUNTER_MEMSW : MCG_COUNTER_MEMORY,
				MCG_FIELD_USAGE);
}

/* OOMs of cg and its ancestors: mem_cgroup_oom_notify() signals a memcg's
 * listeners and those of every memcg below it. */
static uint64_t ooms_above(struct mcg_cgroup *cg)
{
	uint64_t n = 0;

	for (; cg; cg = mcg_cgroup_parent(cg))
		n += mcg_memory_event_read(cg, MCG_MEMORY_OOM, true);
	return n;
}

/* vmpressure_register_event(): "level[,mode]". */
static int parse_vmpressure(const char *args, struct fs_event *ev)
{
	static const char *const levels[] = { "low", "medium", "critical" };
	static const char *const modes[] = { "default", "hierarchy", "local" };
	/* MAX_VMPRESSURE_ARGS_LEN: kstrndup() keeps that much. */
	g_autofree char *spec = g_strndup(args, strlen("critical") + strlen("hierarchy") + 2);
	char *rest = spec, *tok = strsep(&rest, ",");
	unsigned i;

	for (i = 0; i < G_N_ELEMENTS(levels) && strcmp(tok, levels[i]); i++)
		;
	if (i == G_N_ELEMENTS(levels))
		return -EINVAL;
	ev->level = i;
	ev->mode = VMP_DEFAULT;
	tok = strsep(&rest, ",");
	if (tok) {
		for (i = 0; i < G_N_ELEMENTS(modes) && strcmp(tok, modes[i]); i++)
			;
		if (i == G_N_ELEMENTS(modes))
			return -EINVAL;
		ev->mode = (enum vmpressure_mode)i;
	}
	return 0;
}

int fs_event_control(struct fs_call *c, unsigned long efd, unsigned long cfd, const char *args)
{
	struct mcgfs *fs = c->fs;
	struct fs_event ev = { .id = c->node->id, .efd = -1 };
	struct statx stx;
	const char *name;
	unsigned idx;
	int pidfd, cfile = -1, err;

	pidfd = (int)syscall(SYS_pidfd_open, fs_task_tgid(c->pid), 0);
	if (pidfd < 0)
		return -ESRCH;
	err = take_fd(pidfd, efd);
	if (err < 0)
		goto out;
	ev.efd = err;
	/* eventfd_ctx_fileget() of another kind of file */
	err = -EINVAL;
	if (!is_eventfd(ev.efd))
		goto out;
	err = cfile = take_fd(pidfd, cfd);
	if (err < 0)
		goto out;
	/* file_permission(cfile, MAY_READ) first, whatever the file; the
	 * cached attributes are enough, and asking the daemon about one of
	 * its own files would wait on itself. */
	if (statx(cfile, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC,
		  STATX_TYPE | STATX_MODE | STATX_INO | STATX_UID | STATX_GID, &stx) != 0) {
		err = -EBADF;
		goto out;
	}
	err = -EACCES;
	if (!may_read(stx.stx_mode, stx.stx_uid, stx.stx_gid, c))
		goto out;
	/* A regular file of this mount (the kernel: of cgroup_fs_type). */
	err = -EINVAL;
	if (!S_ISREG(stx.stx_mode) || makedev(stx.stx_dev_major, stx.stx_dev_minor) != fs->dev)
		goto out;
	idx = (unsigned)(stx.stx_ino & (FS_IDX_LIMIT - 1));
	if (idx == 0 || idx > fs->nr_files)
		goto out;
	name = fs->files[idx - 1].name;
	if (!strcmp(name, "memory.usage_in_bytes") || !strcmp(name, "memory.memsw.usage_in_bytes")) {
		ev.kind = strstr(name, "memsw") ? EVENT_MEMSW : EVENT_USAGE;
	} else if (!strcmp(name, "memory.oom_control")) {
		ev.kind = EVENT_OOM;
	} else if (!strcmp(name, "memory.pressure_level")) {
		ev.kind = EVENT_PRESSURE;
	} else {
		goto out;
	}
	/* css_tryget_online_from_dir(): the control file's own cgroup. */
	if ((stx.stx_ino >> FS_IDX_BITS) != c->node->id)
		goto out;
	switch (ev.kind) {
	case EVENT_USAGE:
	case EVENT_MEMSW:
		/* __mem_cgroup_usage_register_event() */
		err = fs_page_counter_memparse(args, "-1", &ev.threshold);
		if (err)
			goto out;
		ev.last_usage = usage_pages(c->cg, ev.kind == EVENT_MEMSW);
		break;
	case EVENT_OOM:
		/* mem_cgroup_oom_register_event() signals at once a memcg
		 * under OOM; the emulated OOM killer acts at once, so none is
		 * (memory.oom_control reads under_oom 0). */
		ev.last_count = ooms_above(c->cg);
		break;
	case EVENT_PRESSURE:
		err = parse_vmpressure(args, &ev);
		if (err)
			goto out;
		break;
	}
	ev.pidfd = pidfd;
	pthread_mutex_lock(&fs->notify_lock);
	g_array_append_val(fs->events, ev);
	pthread_mutex_unlock(&fs->notify_lock);
	ev.efd = pidfd = -1;	/* owned by the list */
	err = 0;
out:
	if (cfile >= 0)
		close(cfile);
	if (ev.efd >= 0)
		close(ev.efd);
	if (pidfd >= 0)
		close(pidfd);
	return err;
}

/* One event's check; false when its cgroup went (signalled, to drop). */
static bool event_check(struct mcgfs *fs, struct fs_event *ev)
{
	struct pollfd exited = { .fd = ev->pidfd, .events = POLLIN };
	struct mcg_cgroup *cg;
	struct fs_node *n;

	/* The kernel drops an event when its eventfd is closed
	 * (memcg_event_wake() on EPOLLHUP), which the daemon's copy hides;
	 * the registering process exiting closes it, and that shows. */
	if (poll(&exited, 1, 0) == 1)
		return false;

	pthread_mutex_lock(&fs->lock);
	n = g_hash_table_lookup(fs->nodes, &ev->id);
	cg = n ? mcg_cgroup_get(n->cg) : NULL;
	pthread_mutex_unlock(&fs->lock);
	if (!cg || !mcg_cgroup_online(cg)) {
		eventfd_signal_one(ev->efd);	/* memcg_event_remove() */
		if (cg)
			mcg_cgroup_put(cg);
		return false;
	}
	switch (ev->kind) {
	case EVENT_USAGE:
	case EVENT_MEMSW: {
		unsigned long usage = usage_pages(cg, ev->kind == EVENT_MEMSW);

		if ((ev->threshold <= usage) != (ev->threshold <= ev->last_usage))
			eventfd_signal_one(ev->efd);
		ev->last_usage = usage;
		break;
	}
	case EVENT_OOM: {
		uint64_t ooms = ooms_above(cg);

		if (ooms != ev->last_count)
			eventfd_signal_one(ev->efd);
		ev->last_count = ooms;
		break;
	}
	case EVENT_PRESSURE:		/* vmpressure_dispatch() */
		break;
	}
	mcg_cgroup_put(cg);
	return true;
}

/* vmpressure_work_fn() after the level is known: vmpressure_event() for the
 * target, then for each ancestor, skipping an ancestor's "local" listeners,
 * and its "default" ones once a listener below was signalled.  Called with
 * notify_lock held. */
static void vmpressure_dispatch(struct mcg_cgroup *target, enum mcg_vmpressure_level level,
				void *arg)
{
	struct mcgfs *fs = arg;
	bool ancestor = false, signalled = false;

	for (struct mcg_cgroup *c = target; c; c = mcg_cgroup_parent(c)) {
		uint64_t id = mcg_cgroup_id(c);
		bool ret = false;

		for (unsigned i = 0; i < fs->events->len; i++) {
			struct fs_event *ev = &g_array_index(fs->events, struct fs_event, i);

			if (ev->kind != EVENT_PRESSURE || ev->id != id ||
			    (ancestor && ev->mode == VMP_LOCAL) ||
			    (signalled && ev->mode == VMP_DEFAULT) || level < ev->level)
				continue;
			eventfd_signal_one(ev->efd);
			ret = true;
		}
		signalled = signalled || ret;
		ancestor = true;
	}
}

/* ---- The notifier thread ------------------------------------------------------ */

static void *notifier(void *arg)
{
	struct mcgfs *fs = arg;
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&fs->notify_lock);
	while (!fs->notify_stop) {
		next.tv_nsec += NOTIFY_INTERVAL_NS;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		pthread_cond_timedwait(&fs->notify_cond, &fs->notify_lock, &next);
		if (fs->notify_stop)
			break;
		uint64_t now = mcg_engine_clock_ns(fs->e);

		/* The periodic averaging, and for triggers one collection a
		 * tick that every trigger reads. */
		mcg_workload_psi_update(fs->wl);
		if (fs->psi_triggers->len)
			mcg_workload_psi_collect(fs->wl);
		for (unsigned i = 0; i < fs->psi_triggers->len; i++)
			psi_trigger_check(fs, g_ptr_array_index(fs->psi_triggers, i), now);
		for (unsigned i = 0; i < fs->pollers->len;) {
			struct fs_open *of = g_ptr_array_index(fs->pollers, i);
			bool woken = fs_file_notifies(of->file)
					     ? render_hash(fs, of) != atomic_load(&of->seen)
					     : of->psi_event;

			if (!woken) {
				i++;
				continue;
			}
			fuse_lowlevel_notify_poll(of->ph);
			fuse_pollhandle_destroy(of->ph);
			of->ph = NULL;
			g_ptr_array_remove_index_fast(fs->pollers, i);
		}
		mcg_workload_vmpressure_work(fs->wl, vmpressure_dispatch, fs);
		for (unsigned i = 0; i < fs->events->len;) {
			struct fs_event *ev = &g_array_index(fs->events, struct fs_event, i);

			if (event_check(fs, ev)) {
				i++;
				continue;
			}
			close(ev->efd);
			close(ev->pidfd);
			g_array_remove_index_fast(fs->events, i);
		}
	}
	pthread_mutex_unlock(&fs->notify_lock);
	return NULL;
}

void fs_notify_init(struct mcgfs *fs)
{
	pthread_mutex_init(&fs->notify_lock, NULL);
	fs->pollers = g_ptr_array_new();
	fs->events = g_array_new(FALSE, FALSE, sizeof(struct fs_event));
	fs->psi_triggers = g_ptr_array_new();
}

void fs_notify_free(struct mcgfs *fs)
{
	fs_notify_stop(fs);
	g_ptr_array_free(fs->pollers, TRUE);
	g_array_free(fs->events, TRUE);
	g_ptr_array_free(fs->psi_triggers, TRUE);
	pthread_mutex_destroy(&fs->notify_lock);
}

int fs_notify_start(struct mcgfs *fs)
{
	pthread_condattr_t attr;
	int err;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&fs->notify_cond, &attr);
	pthread_condattr_destroy(&attr);
	fs->notify_stop = false;
	err = pthread_create(&fs->notify_thread, NULL, notifier, fs);
	if (err)
		return -err;
	pthread_setname_np(fs->notify_thread, "notify");
	fs->notify_running = true;
	return 0;
}

void fs_notify_stop(struct mcgfs *fs)
{
	if (!fs->notify_running)
		return;
	pthread_mutex_lock(&fs->notify_lock);
	fs->notify_stop = true;
	pthread_cond_signal(&fs->notify_cond);
	pthread_mutex_unlock(&fs->notify_lock);
	pthread_join(fs->notify_thread, NULL);
	fs->notify_running = false;
	pthread_cond_destroy(&fs->notify_cond);
	/* Listeners hear that their events go, as on cgroup removal. */
	for (unsigned i = 0; i < fs->events->len; i++) {
		struct fs_event *ev = &g_array_index(fs->events, struct fs_event, i);

		eventfd_signal_one(ev->efd);
		close(ev->efd);
		close(ev->pidfd);
	}
	g_array_set_size(fs->events, 0);
	for (unsigned i = 0; i < fs->pollers->len; i++) {
		struct fs_open *of = g_ptr_array_index(fs->pollers, i);

		fuse_pollhandle_destroy(of->ph);
		of->ph = NULL;
	}
	g_ptr_array_set_size(fs->pollers, 0);
	g_ptr_array_set_size(fs->psi_triggers, 0);
}
