/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's parsers of control-file writes, so memcgfs accepts exactly
 * what a real cgroupfs accepts (lib/kstrtox.c, lib/cmdline.c memparse,
 * mm/page_counter.c page_counter_memparse).
 *
 * Their quirks are kept on purpose: memparse() reads the number with
 * simple_strtoull(), so an empty string is 0 (`echo > memory.max` sets 0),
 * octal and hex prefixes work, overflow wraps; kstrtox() wants the whole
 * string, allows one trailing newline, rejects overflow with ERANGE.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "fs/internal.h"

char *fs_strstrip(char *s)
{
	size_t len = strlen(s);

	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

/* _parse_integer_fixup_radix(): base 0 becomes 16 after "0x" followed by a
 * hex digit, 8 after a leading 0, else 10; "0x" is skipped for base 16. */
static const char *fixup_radix(const char *s, unsigned *base)
{
	if (*base == 0) {
		if (s[0] == '0') {
			if (tolower((unsigned char)s[1]) == 'x' && isxdigit((unsigned char)s[2]))
				*base = 16;
			else
				*base = 8;
		} else {
			*base = 10;
		}
	}
	if (*base == 16 && s[0] == '0' && tolower((unsigned char)s[1]) == 'x')
		s += 2;
	return s;
}

static int digit_value(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = (char)tolower((unsigned char)ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return 99;
}

/* _parse_integer(): digits of base from s into *res; returns the number of
 * characters used; *overflow set if the value does not fit (the result then
 * wraps, as simple_strtoull's does). */
static size_t parse_integer(const char *s, unsigned base, unsigned long long *res,
			    bool *overflow)
{
	unsigned long long v = 0;
	size_t n = 0;

	*overflow = false;
	for (;; n++) {
		int d = digit_value(s[n]);
		if (d >= (int)base)
			break;
		if (v > (ULLONG_MAX - (unsigned)d) / base)
			*overflow = true;
		v = v * base + (unsigned)d;
	}
	*res = v;
	return n;
}

/* _kstrtoull(): no sign at all. */
static int kstrtoull_unsigned(const char *s, unsigned base, unsigned long long *res)
{
	unsigned long long v;
	bool overflow;
	size_t n;

	s = fixup_radix(s, &base);
	n = parse_integer(s, base, &v, &overflow);
	if (n == 0)
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	s += n;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

unsigned long long fs_simple_strtoull(const char *s, unsigned base, char **end)
{
	unsigned long long v;
	bool overflow;

	s = fixup_radix(s, &base);
	s += parse_integer(s, base, &v, &overflow);
	*end = (char *)s;
	return v;
}

/* kstrtoull(): one leading '+' is allowed. */
int fs_kstrtoull(const char *s, unsigned base, unsigned long long *res)
{
	if (s[0] == '+')
		s++;
	return kstrtoull_unsigned(s, base, res);
}

/* kstrtoll(): after a '-' comes _kstrtoull(), which takes no second sign,
 * so "-+1" is EINVAL. */
int fs_kstrtoll(const char *s, unsigned base, long long *res)
{
	unsigned long long v;
	int err;

	if (s[0] == '-') {
		err = kstrtoull_unsigned(s + 1, base, &v);
		if (err)
			return err;
		if (v > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v;
		return 0;
	}
	err = fs_kstrtoull(s, base, &v);
	if (err)
		return err;
	if (v > LLONG_MAX)
		return -ERANGE;
	*res = (long long)v;
	return 0;
}

int fs_kstrtoint(const char *s, unsigned base, int *res)
{
	long long v;
	int err = fs_kstrtoll(s, base, &v);

	if (err)
		return err;
	if (v < INT_MIN || v > INT_MAX)
		return -ERANGE;
	*res = (int)v;
	return 0;
}

unsigned long long fs_memparse(const char *s, const char **end)
{
	unsigned base = 0;
	unsigned long long v;
	bool overflow;
	const char *p = fixup_radix(s, &base);
	size_t n = parse_integer(p, base, &v, &overflow);
	unsigned shift = 0;

	/* simple_strtoull() leaves *end at s when no digit was read, but a
	 * consumed "0x" prefix counts as read. */
	p = n ? p + n : (p != s ? p : s);
	switch (*p) {
	case 'E': case 'e': shift += 10; /* fall through */
	case 'P': case 'p': shift += 10; /* fall through */
	case 'T': case 't': shift += 10; /* fall through */
	case 'G': case 'g': shift += 10; /* fall through */
	case 'M': case 'm': shift += 10; /* fall through */
	case 'K': case 'k': shift += 10;
		p++;
		break;
	default:
		break;
	}
	if (end)
		*end = p;
	return shift >= 64 ? 0 : v << shift;
}

int fs_page_counter_memparse(const char *buf, const char *max, unsigned long *nr_pages)
{
	const char *end;
	unsigned long long bytes;

	if (strcmp(buf, max) == 0) {
		*nr_pages = MCG_PAGE_COUNTER_MAX;
		return 0;
	}
	bytes = fs_memparse(buf, &end);
	if (*end != '\0')
		return -EINVAL;
	bytes /= MCG_PAGE_SIZE;
	*nr_pages = bytes > (unsigned long long)MCG_PAGE_COUNTER_MAX ?
		    (unsigned long)MCG_PAGE_COUNTER_MAX : (unsigned long)bytes;
	return 0;
}
