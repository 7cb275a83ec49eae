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

bool fs_scan_ull(const char **s, unsigned long long *v)
{
	const char *p = *s;
	char *end;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	*v = fs_simple_strtoull(p, 10, &end);
	*s = end;
	return true;
}

bool fs_scan_u32(const char **s, unsigned *v)
{
	unsigned long long ull;

	if (!fs_scan_ull(s, &ull))
		return false;
	*v = (unsigned)ull;
	return true;
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

/* The kernel's vsscanf() "%lld" (lib/vsprintf.c): no blank to skip here
 * (callers pass one token), an optional '-' then a decimal digit, else no
 * conversion; the digits by simple_strntoll(), wrapping on overflow.
 * Returns the characters used, 0 for no conversion. */
static size_t kernel_scan_lld(const char *s, long long *v)
{
	const char *p = s;
	unsigned long long u;
	char *end;
	bool neg = false;

	if (*p == '-') {
		neg = true;
		p++;
	}
	if (!isdigit((unsigned char)*p))
		return 0;
	u = fs_simple_strtoull(p, 10, &end);
	*v = (long long)(neg ? 0 - u : u);
	return (size_t)(end - s);
}

/* power_of_ten() of kernel/cgroup/cgroup.c: a u64 product that wraps. */
static unsigned long long power_of_ten(int power)
{
	unsigned long long v = 1;

	while (power--)
		v *= 10;
	return v;
}

/* cgroup_parse_float(): sscanf(input, "%lld.%n%lld%n") as the kernel's
 * vsscanf() runs it (the first %n is set once the '.' matched; the second
 * %lld ends the scan at the end of the string), then
 * whole * 10^dec_shift + frac scaled to dec_shift digits, the fraction
 * rounded with DIV_ROUND_CLOSEST_ULL; s64 arithmetic wraps as the kernel's
 * (-fno-strict-overflow), so it is done in unsigned. */
int fs_cgroup_parse_float(const char *input, unsigned dec_shift, long long *v)
{
	long long whole, frac = 0;
	int fstart = 0, fend = 0, flen;
	size_t n = kernel_scan_lld(input, &whole);
	unsigned long long f;

	if (!n)
		return -EINVAL;
	if (input[n] == '.') {
		const char *p = input + n + 1;
		size_t m;

		fstart = (int)(n + 1);
		m = *p ? kernel_scan_lld(p, &frac) : 0;
		if (m)
			fend = (int)(n + 1 + m);
	}
	if (frac < 0)
		return -EINVAL;
	flen = fend > fstart ? fend - fstart : 0;
	f = (unsigned long long)frac;
	if (flen < (int)dec_shift) {
		f *= power_of_ten((int)dec_shift - flen);
	} else {
		unsigned long long d = power_of_ten(flen - (int)dec_shift);

		f = (f + d / 2) / d;
	}
	*v = (long long)((unsigned long long)whole * power_of_ten((int)dec_shift) + f);
	return 0;
}

/* match_one() of lib/parser.c for the iocost patterns: literal text, then
 * one %u or %s.  %u is simple_strtoul(s, &to, 0), which needs a digit and
 * then the pattern's end (strcmp() of "" and the rest) needs the token to
 * end there; %s takes the whole rest and fails on an empty one. */
bool fs_match_one(const char *s, const char *p, const char **from, const char **to)
{
	const char *meta = strchr(p, '%');
	char *end;

	if (!meta)
		return strcmp(p, s) == 0;
	if (strncmp(p, s, (size_t)(meta - p)))
		return false;
	s += meta - p;
	*from = s;
	switch (meta[1]) {
	case 's':
		if (!*s)
			return false;
		*to = s + strlen(s);
		return true;
	case 'u':
		fs_simple_strtoull(s, 0, &end);
		if (end == s)
			return false;
		*to = end;
		return strcmp(meta + 2, end) == 0;
	default:
		return false;
	}
}

size_t fs_match_strlcpy(char *dest, const char *from, const char *to, size_t size)
{
	size_t ret = (size_t)(to - from);

	if (size) {
		size_t len = ret >= size ? size - 1 : ret;

		memcpy(dest, from, len);
		dest[len] = '\0';
	}
	return ret;
}

/* match_u64() -> match_u64int(): NUMBER_BUF_LEN (24) bytes, kstrtoull(). */
int fs_match_u64(const char *from, const char *to, unsigned long long *v)
{
	char buf[24];

	if (fs_match_strlcpy(buf, from, to, sizeof(buf)) >= sizeof(buf))
		return -ERANGE;
	return fs_kstrtoull(buf, 0, v);
}
