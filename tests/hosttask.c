/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper for tests/fs-host-tasks.sh: a host process whose memory and
 * threads the test drives, one command per line on stdin, each answered
 * "ok" (or "error ...") on stdout once done:
 *
 *   anon MIB         maps MIB MiB of anonymous memory and touches each page
 *   free             unmaps it
 *   file PATH MIB    makes PATH MIB MiB long, maps it shared and reads each
 *                    page (page cache it maps: RssFile)
 *   unmap            unmaps the file
 *   write PATH MIB   writes MIB MiB to PATH with write(2): page cache it
 *                    does not map
 *   threads N        starts N threads that sleep until the process ends
 *   sock             connects two TCP sockets over the loopback and sends
 *                    until the buffers are full (socket memory, which the
 *                    process's cgroup is charged for)
 *   unsock           closes them
 *   exec             executes itself afresh (a new mm, the same pid); the
 *                    new image answers
 *   exit             exits 0 (as does the end of stdin)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define PAGE 4096

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void *map_anon(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	return p;
}

static void *map_file(const char *path, size_t len)
{
	volatile char sum = 0;
	char *p;
	int fd = open(path, O_RDWR | O_CREAT, 0600);

	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)len) != 0) {
		close(fd);
		return NULL;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	for (size_t off = 0; off < len; off += PAGE)
		sum += p[off];
	(void)sum;
	return p;
}

/* A loopback TCP connection, both ends this process's, and as much sent
 * as the send and receive buffers hold: fd[0] sends, fd[1] never reads. */
static const char *fill_sockets(int fd[2])
{
	static char chunk[1 << 16];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		return strerror(errno);
	fd[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fd[0] < 0 || connect(fd[0], (struct sockaddr *)&a, sizeof(a)))
		return strerror(errno);
	fd[1] = accept(l, NULL, NULL);
	close(l);
	if (fd[1] < 0)
		return strerror(errno);
	while (send(fd[0], chunk, sizeof(chunk), MSG_DONTWAIT) > 0)
		;
	return errno == EAGAIN ? NULL : strerror(errno);
}

int main(int argc, char **argv)
{
	char line[512], path[400];
	void *anon = NULL, *file = NULL;
	size_t anon_len = 0, file_len = 0;
	int sk[2] = { -1, -1 };
	unsigned long n;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1 && !strcmp(argv[1], "--execed"))
		printf("ok\n");
	while (fgets(line, sizeof(line), stdin)) {
		const char *err = NULL;

		if (sscanf(line, "anon %lu", &n) == 1) {
			if (anon)
				munmap(anon, anon_len);
			anon_len = n << 20;
			anon = map_anon(anon_len);
			if (!anon)
				err = strerror(errno);
		} else if (!strcmp(line, "free\n")) {
			if (anon)
				munmap(anon, anon_len);
			anon = NULL;
		} else if (sscanf(line, "file %399s %lu", path, &n) == 2) {
			if (file)
				munmap(file, file_len);
			file_len = n << 20;
			file = map_file(path, file_len);
			if (!file)
				err = strerror(errno);
		} else if (!strcmp(line, "unmap\n")) {
			if (file)
				munmap(file, file_len);
			file = NULL;
		} else if (sscanf(line, "write %399s %lu", path, &n) == 2) {
			static char chunk[1 << 20];
			int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

			memset(chunk, 1, sizeof(chunk));
			for (unsigned long i = 0; fd >= 0 && i < n && !err; i++)
				if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
					err = strerror(errno);
			if (fd < 0)
				err = strerror(errno);
			else
				close(fd);
		} else if (sscanf(line, "threads %lu", &n) == 1) {
			for (unsigned long i = 0; i < n && !err; i++) {
				pthread_t t;

				if (pthread_create(&t, NULL, sleeper, NULL))
					err = "pthread_create";
			}
		} else if (!strcmp(line, "sock\n")) {
			err = fill_sockets(sk);
		} else if (!strcmp(line, "unsock\n")) {
			for (int i = 0; i < 2; i++) {
				if (sk[i] >= 0)
					close(sk[i]);
				sk[i] = -1;
			}
		} else if (!strcmp(line, "exec\n")) {
			/* stdin is read a line at a time and the test waits for
			 * each answer: nothing buffered is lost */
			execl("/proc/self/exe", "hosttask", "--execed", (char *)NULL);
			err = strerror(errno);
		} else if (!strcmp(line, "exit\n")) {
			break;
		} else {
			err = "unknown command";
		}
		if (err)
			printf("error %s\n", err);
		else
			printf("ok\n");
	}
	return 0;
}
