/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper for the shell tests: exact system calls and their errno.
 *
 *   seqread FILE OP...      opens FILE (O_RDONLY, or O_RDWR if an OP writes)
 *                           and runs the OPs on that one fd, printing each
 *                           result on its own line:
 *     r:N          read(fd, N)          -> "[text]" or "E<errno name>"
 *     a:N          read(fd, N) until 0  -> "[all text]" (one line)
 *     p:N:OFF      pread(fd, N, OFF)    -> "[text]"
 *     s:OFF        lseek(fd, OFF, SEEK_SET) -> "=OFF"
 *     w:TEXT       write(fd, TEXT)      -> "+N" or "E<errno name>"
 *     x:COMMAND    system(COMMAND), for changes between reads -> nothing
 *     P:MS         poll(fd, POLLPRI, MS) -> "PRI ERR", "PRI" or "timeout"
 *   seqread -E CONTROL EVENT_CONTROL ARGS MS [COMMAND]
 *                           v1 event: makes an eventfd, opens CONTROL and
 *                           writes "<efd> <cfd> ARGS" to EVENT_CONTROL
 *                           ("OK" or its errno), runs COMMAND, then waits
 *                           up to MS for the eventfd: "signalled" or
 *                           "timeout" ("+MS": stays registered all of MS,
 *                           then tells).  CONTROL "-" passes fd 999 (closed),
 *                           ARGS "-" none.
 *   seqread -F CONTROL EVENT_CONTROL ARGS MS
 *                           the same with /dev/null, not an eventfd, as
 *                           <efd>.
 *   seqread -G FILE COMMAND CONTROL EVENT_CONTROL ARGS
 *                           opens FILE as <efd> ("eventfd": an eventfd)
 *                           and CONTROL (any files: of a FUSE server that
 *                           is stopped meanwhile), runs COMMAND, writes
 *                           the registration: "OK" or its errno.
 *   seqread -N COUNT CONTROL EVENT_CONTROL ARGS MS
 *                           COUNT registrations, each with an eventfd
 *                           closed right after it: "OK", or the first
 *                           errno and "at I"; then lives on for MS.
 *   seqread -I FILE MS [COMMAND]
 *                           inotify: watches FILE for IN_MODIFY, runs
 *                           COMMAND, then waits up to MS for an event:
 *                           "modified" or "timeout" (or the errno of
 *                           inotify_add_watch).
 *   seqread -e OP ARGS...   one system call, prints "OK" or its errno name:
 *     mkdir DIR | rmdir DIR | rename OLD NEW | unlink PATH | creat PATH |
 *     openr PATH | openw PATH | read PATH | write PATH TEXT | mknod PATH |
 *     mkreg PATH | symlink TARGET PATH | link OLD NEW | odirect PATH |
 *     fsyncdir DIR | noreplace OLD NEW (renameat2 RENAME_NOREPLACE) |
 *     setx PATH NAME VALUE [create|replace] | getx PATH NAME ("OK" becomes
 *     the value) | rmx PATH NAME | listx PATH ("OK" becomes the names, one
 *     per line, sorted)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

static void print_errno(int err)
{
	const char *name = strerrorname_np(err);

	printf("%s\n", name ? name : "E?");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int one_call(int argc, char *argv[])
{
	const char *op = argv[0];
	char buf[65536];
	int r = -1, fd;

	if (argc < 2)
		return 2;
	if (!strcmp(op, "mkdir"))
		r = mkdir(argv[1], 0755);
	else if (!strcmp(op, "rmdir"))
		r = rmdir(argv[1]);
	else if (!strcmp(op, "rename") && argc > 2)
		r = rename(argv[1], argv[2]);
	else if (!strcmp(op, "unlink"))
		r = unlink(argv[1]);
	else if (!strcmp(op, "creat"))
		r = (fd = open(argv[1], O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0 ? -1 : close(fd);
	else if (!strcmp(op, "openr"))
		r = (fd = open(argv[1], O_RDONLY)) < 0 ? -1 : close(fd);
	else if (!strcmp(op, "openw"))
		r = (fd = open(argv[1], O_WRONLY)) < 0 ? -1 : close(fd);
	else if (!strcmp(op, "read")) {
		fd = open(argv[1], O_RDONLY);
		if (fd >= 0) {
			r = read(fd, buf, sizeof(buf)) < 0 ? -1 : 0;
			int e = errno;
			close(fd);
			errno = e;
		}
	} else if (!strcmp(op, "write") && argc > 2) {
		fd = open(argv[1], O_WRONLY);
		if (fd >= 0) {
			ssize_t n = write(fd, argv[2], strlen(argv[2]));
			int e = errno;
			r = n < 0 ? -1 : 0;
			close(fd);
			errno = e;
		}
	} else if (!strcmp(op, "mknod"))
		r = mknod(argv[1], S_IFIFO | 0644, 0);
	else if (!strcmp(op, "mkreg"))
		r = mknod(argv[1], S_IFREG | 0644, 0);
	else if (!strcmp(op, "odirect"))
		r = (fd = open(argv[1], O_RDONLY | O_DIRECT)) < 0 ? -1 : close(fd);
	else if (!strcmp(op, "fsyncdir")) {
		fd = open(argv[1], O_RDONLY | O_DIRECTORY);
		if (fd >= 0) {
			r = fsync(fd);
			int e = errno;
			close(fd);
			errno = e;
		}
	} else if (!strcmp(op, "setx") && argc > 3) {
		int f = argc > 4 ? (!strcmp(argv[4], "create") ? XATTR_CREATE : XATTR_REPLACE) : 0;

		r = setxattr(argv[1], argv[2], argv[3], strlen(argv[3]), f);
	} else if (!strcmp(op, "getx") && argc > 2) {
		ssize_t n = getxattr(argv[1], argv[2], buf, sizeof(buf) - 1);

		if (n >= 0) {
			printf("%.*s\n", (int)n, buf);
			return 0;
		}
	} else if (!strcmp(op, "rmx") && argc > 2) {
		r = removexattr(argv[1], argv[2]);
	} else if (!strcmp(op, "listx")) {
		ssize_t n = listxattr(argv[1], buf, sizeof(buf));

		if (n >= 0) {
			char *names[1024];
			size_t k = 0;

			for (char *p = buf; p < buf + n && k < 1024; p += strlen(p) + 1)
				names[k++] = p;
			qsort(names, k, sizeof(names[0]), cmp_str);
			for (size_t i = 0; i < k; i++)
				printf("%s\n", names[i]);
			return 0;
		}
	} else if (!strcmp(op, "noreplace") && argc > 2)
		r = renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_NOREPLACE);
	else if (!strcmp(op, "symlink") && argc > 2)
		r = symlink(argv[1], argv[2]);
	else if (!strcmp(op, "link") && argc > 2)
		r = link(argv[1], argv[2]);
	else
		return 2;
	if (r == 0)
		printf("OK\n");
	else
		print_errno(errno);
	return 0;
}

static int event_control(int argc, char *argv[], bool not_eventfd)
{
	const char *control = argv[0], *args = argv[2];
	int efd = not_eventfd ? open("/dev/null", O_RDONLY | O_CLOEXEC) : eventfd(0, EFD_CLOEXEC);
	int cfd = 999, ecfd;
	char line[256];
	struct pollfd p;

	if (argc < 4 || efd < 0)
		return 2;
	if (strcmp(control, "-") && (cfd = open(control, O_RDONLY)) < 0) {
		print_errno(errno);
		return 1;
	}
	ecfd = open(argv[1], O_WRONLY);
	if (ecfd < 0) {
		print_errno(errno);
		return 1;
	}
	snprintf(line, sizeof(line), "%d %d%s%s", efd, cfd, strcmp(args, "-") ? " " : "",
		 strcmp(args, "-") ? args : "");
	if (write(ecfd, line, strlen(line)) < 0) {
		print_errno(errno);
		return 0;
	}
	printf("OK\n");
	fflush(stdout);
	if (argc > 4 && system(argv[4]) != 0)
		fprintf(stderr, "seqread: command failed: %s\n", argv[4]);
	p = (struct pollfd){ .fd = efd, .events = POLLIN };
	/* "+MS": stay registered the whole time, then tell. */
	if (argv[3][0] == '+') {
		usleep((useconds_t)atoi(argv[3] + 1) * 1000);
		printf("%s\n", poll(&p, 1, 0) == 1 ? "signalled" : "timeout");
		return 0;
	}
	printf("%s\n", poll(&p, 1, atoi(argv[3])) == 1 ? "signalled" : "timeout");
	return 0;
}

/* Writes "<efd> <cfd> ARGS" to event_control: 0, or an errno. */
static int register_event(int efd, int cfd, const char *event_control, const char *args)
{
	char line[256];
	int ecfd = open(event_control, O_WRONLY | O_CLOEXEC), err = 0;

	if (ecfd < 0)
		return errno;
	snprintf(line, sizeof(line), "%d %d%s%s", efd, cfd, strcmp(args, "-") ? " " : "",
		 strcmp(args, "-") ? args : "");
	if (write(ecfd, line, strlen(line)) < 0)
		err = errno;
	close(ecfd);
	return err;
}

/* -G FILE COMMAND CONTROL EVENT_CONTROL ARGS */
static int event_control_file(int argc, char *argv[])
{
	int efd, cfd, err;

	if (argc < 5)
		return 2;
	efd = strcmp(argv[0], "eventfd") ? open(argv[0], O_RDONLY | O_CLOEXEC)
					 : eventfd(0, EFD_CLOEXEC);
	cfd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (efd < 0 || cfd < 0) {
		print_errno(errno);
		return 1;
	}
	if (system(argv[1]) != 0)
		fprintf(stderr, "seqread: command failed: %s\n", argv[1]);
	err = register_event(efd, cfd, argv[3], argv[4]);
	if (err)
		print_errno(err);
	else
		printf("OK\n");
	return 0;
}

/* -N COUNT CONTROL EVENT_CONTROL ARGS MS */
static int event_control_churn(int argc, char *argv[])
{
	int count, cfd;

	if (argc < 5)
		return 2;
	count = atoi(argv[0]);
	cfd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (cfd < 0) {
		print_errno(errno);
		return 1;
	}
	for (int i = 0; i < count; i++) {
		int efd = eventfd(0, EFD_CLOEXEC), err;

		if (efd < 0)
			return 2;
		err = register_event(efd, cfd, argv[2], argv[3]);
		close(efd);
		if (err) {
			print_errno(err);
			printf("at %d\n", i);
			return 0;
		}
	}
	printf("OK\n");
	fflush(stdout);
	usleep((useconds_t)atoi(argv[4]) * 1000);
	return 0;
}

/* -I FILE MS [COMMAND] */
static int inotify_wait(int argc, char **argv)
{
	int fd = inotify_init1(IN_CLOEXEC);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r;

	if (argc < 2 || fd < 0)
		return 2;
	if (inotify_add_watch(fd, argv[0], IN_MODIFY) < 0) {
		print_errno(errno);
		return 0;
	}
	fflush(stdout);
	if (argc > 2 && system(argv[2]) != 0)
		fprintf(stderr, "seqread: command failed: %s\n", argv[2]);
	r = poll(&p, 1, atoi(argv[1]));
	printf("%s\n", r > 0 ? "modified" : "timeout");
	return 0;
}

static void print_text(const char *buf, ssize_t n)
{
	putchar('[');
	fwrite(buf, 1, (size_t)n, stdout);
	printf("]\n");
}

int main(int argc, char *argv[])
{
	static char buf[1 << 20];
	int fd, flags = O_RDONLY;

	if (argc > 2 && !strcmp(argv[1], "-e"))
		return one_call(argc - 2, argv + 2);
	if (argc > 2 && (!strcmp(argv[1], "-E") || !strcmp(argv[1], "-F")))
		return event_control(argc - 2, argv + 2, argv[1][1] == 'F');
	if (argc > 2 && !strcmp(argv[1], "-G"))
		return event_control_file(argc - 2, argv + 2);
	if (argc > 2 && !strcmp(argv[1], "-N"))
		return event_control_churn(argc - 2, argv + 2);
	if (argc > 2 && !strcmp(argv[1], "-I"))
		return inotify_wait(argc - 2, argv + 2);
	if (argc < 2) {
		fprintf(stderr, "usage: seqread FILE OP... | seqread -e OP ARGS...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++)
		if (argv[i][0] == 'w')
			flags = O_RDWR;
	fd = open(argv[1], flags);
	if (fd < 0 && flags == O_RDWR && errno == EACCES)
		fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		print_errno(errno);
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		const char *op = argv[i];
		long a = 0, b = 0;
		ssize_t n;

		switch (op[0]) {
		case 'r':
			a = atol(op + 2);
			n = read(fd, buf, (size_t)a);
			if (n < 0)
				print_errno(errno);
			else
				print_text(buf, n);
			break;
		case 'a': {
			size_t total = 0;

			a = atol(op + 2);
			while ((n = read(fd, buf + total, (size_t)a)) > 0 && total + (size_t)n < sizeof(buf) - (size_t)a)
				total += (size_t)n;
			if (n < 0)
				print_errno(errno);
			else
				print_text(buf, (ssize_t)(total + (size_t)(n > 0 ? n : 0)));
			break;
		}
		case 'p':
			if (sscanf(op + 2, "%ld:%ld", &a, &b) != 2)
				return 2;
			n = pread(fd, buf, (size_t)a, b);
			if (n < 0)
				print_errno(errno);
			else
				print_text(buf, n);
			break;
		case 's':
			printf("=%lld\n", (long long)lseek(fd, atol(op + 2), SEEK_SET));
			break;
		case 'w':
			n = write(fd, op + 2, strlen(op + 2));
			if (n < 0)
				print_errno(errno);
			else
				printf("+%zd\n", n);
			break;
		case 'P': {
			struct pollfd p = { .fd = fd, .events = POLLPRI };
			int r = poll(&p, 1, atoi(op + 2));

			if (r < 0)
				print_errno(errno);
			else if (r == 0)
				printf("timeout\n");
			else
				printf("%s%s\n", p.revents & POLLPRI ? "PRI" : "",
				       p.revents & POLLERR ? " ERR" : "");
			break;
		}
		case 'x':
			fflush(stdout);
			if (system(op + 2) != 0)
				fprintf(stderr, "seqread: command failed: %s\n", op + 2);
			break;
		default:
			return 2;
		}
		fflush(stdout);
	}
	close(fd);
	return 0;
}
