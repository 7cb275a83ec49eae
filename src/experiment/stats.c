/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Medians and their distribution-free intervals.
 *
 * Paired before/after figures on a shared, noisy machine are not normal:
 * one preempted sample can dwarf the rest.  So every figure is a median,
 * and its 95% interval comes from order statistics: for n samples, the
 * number below the true median is Binomial(n, 1/2), so the k-th smallest
 * and k-th largest bound it with probability at least 95% when
 * P(Binomial(n, 1/2) < k) <= 2.5%.  No resampling, no seed, exact. */
#include "experiment/experiment.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double *sorted_copy(const double *v, unsigned n)
{
	double *s = malloc(sizeof(double) * (n ? n : 1));

	if (!s)
		abort();
	memcpy(s, v, sizeof(double) * n);
	qsort(s, n, sizeof(double), cmp_double);
	return s;
}

double exp_median(const double *v, unsigned n)
{
	double *s, m;

	if (n == 0)
		return NAN;
	s = sorted_copy(v, n);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

void exp_median_interval(const double *v, unsigned n, double *lo, double *hi)
{
	double *s, cdf = 0, term;
	unsigned k = 0;

	if (n == 0) {
		*lo = *hi = NAN;
		return;
	}
	s = sorted_copy(v, n);
	/* P(B = 0) = 2^-n; P(B = j + 1) = P(B = j) (n - j) / (j + 1).  k is
	 * the largest rank with P(B < k) <= 0.025. */
	term = pow(0.5, n);
	for (unsigned j = 0; j < n; j++) {
		if (cdf + term > 0.025)
			break;
		cdf += term;
		k = j + 1;
		term = term * (double)(n - j) / (double)(j + 1);
	}
	if (k == 0) {
		*lo = s[0];
		*hi = s[n - 1];
	} else {
		*lo = s[k - 1];
		*hi = s[n - k];
	}
	free(s);
}

/* t(0.975, df) for df = 1 .. 30 (any table of Student's t); beyond, the
 * normal's 1.96 is within 2% of it. */
static const double t975[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201,	2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080,	2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

void exp_mean_interval(const double *v, unsigned n, double *mean, double *lo, double *hi)
{
	double sum = 0, ss = 0, half;

	if (n == 0) {
		*mean = *lo = *hi = NAN;
		return;
	}
	for (unsigned i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / n;
	if (n == 1) {
		*lo = *hi = NAN;
		return;
	}
	for (unsigned i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	half = (n - 1 <= G_N_ELEMENTS(t975) ? t975[n - 2] : 1.96) * sqrt(ss / (n - 1) / n);
	*lo = *mean - half;
	*hi = *mean + half;
}
