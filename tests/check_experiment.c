/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The experiments' statistics and verdict rule (src/experiment/stats.c,
 * report.c), on constructed inputs: a verdict that cannot fail is a defect
 * like a test that cannot fail. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "experiment/experiment.h"

/* The published effect inside the measured interval. */
START_TEST(test_judge_inside)
{
	ck_assert_int_eq(exp_judge(0.011, 0.061, 0.055, 0.055, 0.055, EXP_TOLERANCE, false),
			 EXP_REPRODUCED);
	/* A saving: 93 us inside [80, 100]. */
	ck_assert_int_eq(exp_judge(80, 100, 93, 92, 94, EXP_TOLERANCE, false), EXP_REPRODUCED);
}
END_TEST

/* Near: outside the interval by less than the tolerance of the published
 * effect, and just beyond it. */
START_TEST(test_judge_near)
{
	/* 0.10 published, interval [0.11, 0.14]: 0.01 away, slack 0.025. */
	ck_assert_int_eq(exp_judge(0.11, 0.14, 0.10, 0.10, 0.10, EXP_TOLERANCE, false), EXP_REPRODUCED);
	/* 0.10 published, interval [0.13, 0.14]: 0.03 away, slack 0.025. */
	ck_assert_int_eq(exp_judge(0.13, 0.14, 0.10, 0.10, 0.10, EXP_TOLERANCE, false),
			 EXP_SAME_DIRECTION);
	/* The same on the low side, and for a negative effect. */
	ck_assert_int_eq(exp_judge(-0.06, -0.05, -0.04, -0.04, -0.04, EXP_TOLERANCE, false),
			 EXP_REPRODUCED);
	ck_assert_int_eq(exp_judge(-0.07, -0.06, -0.04, -0.04, -0.04, EXP_TOLERANCE, false),
			 EXP_SAME_DIRECTION);
	/* Without tolerance, near is not inside. */
	ck_assert_int_eq(exp_judge(0.11, 0.14, 0.10, 0.10, 0.10, 0, false), EXP_SAME_DIRECTION);
}
END_TEST

/* Same sign, effect sizes far apart: 1.74x against 1.10x, the case the
 * old order-of-magnitude rule let through. */
START_TEST(test_judge_same_sign)
{
	ck_assert_int_eq(exp_judge(0.72, 0.76, 0.10, 0.10, 0.10, EXP_TOLERANCE, false),
			 EXP_SAME_DIRECTION);
	/* 47.6 us saved against 93 us. */
	ck_assert_int_eq(exp_judge(45, 50, 93, 92, 94, EXP_TOLERANCE, false), EXP_SAME_DIRECTION);
}
END_TEST

/* Opposite sign, or an interval that does not exclude zero. */
START_TEST(test_judge_opposite)
{
	ck_assert_int_eq(exp_judge(-0.05, -0.01, 0.055, 0.055, 0.055, EXP_TOLERANCE, false),
			 EXP_DIFFERS);
	ck_assert_int_eq(exp_judge(0.01, 0.05, -0.04, -0.04, -0.04, EXP_TOLERANCE, false), EXP_DIFFERS);
	/* Seed 001's callback: [-0.1%, +0.9%] against +2.3%. */
	ck_assert_int_eq(exp_judge(-0.001, 0.009, 0.0229, 0.0229, 0.0229, EXP_TOLERANCE, false),
			 EXP_DIFFERS);
	ck_assert_int_eq(exp_judge(NAN, NAN, 0.1, 0.1, 0.1, EXP_TOLERANCE, false), EXP_NO_FIGURE);
}
END_TEST

/* An interval that spans zero shows no effect: never reproduced, however
 * close the published figure; unless the figure claims no effect. */
START_TEST(test_judge_spans_zero)
{
	/* Seed 001 quick: [-13.7%, +2.8%] holds +2.3%, and 0. */
	ck_assert_int_eq(exp_judge(-0.137, 0.028, 0.0229, 0.0229, 0.0229, EXP_TOLERANCE, false),
			 EXP_DIFFERS);
	/* A claim of no effect, [-1%, +1%], met by [-0.5%, +1.2%]. */
	ck_assert_int_eq(exp_judge(-0.005, 0.012, 0, -0.01, 0.01, EXP_TOLERANCE, false),
			 EXP_REPRODUCED);
}
END_TEST

/* An interval that holds the published effect but is too wide to pin it
 * shows only the direction. */
START_TEST(test_judge_imprecise)
{
	/* [+1%, +40%] holds +5.5%, and +0.5%, and +30%. */
	ck_assert_int_eq(exp_judge(0.01, 0.40, 0.055, 0.055, 0.055, EXP_TOLERANCE, false),
			 EXP_SAME_DIRECTION);
	/* Twice the effect wide: still pinned. */
	ck_assert_int_eq(exp_judge(0.01, 0.11, 0.055, 0.055, 0.055, EXP_TOLERANCE, false),
			 EXP_REPRODUCED);
}
END_TEST

/* A level (a regime, not a change) is reproduced or differs. */
START_TEST(test_judge_level)
{
	/* 1.5 items against [1.2, 1.4]: 0.1 away, slack 0.375. */
	ck_assert_int_eq(exp_judge(1.2, 1.4, 1.5, 1.5, 1.5, EXP_TOLERANCE, true), EXP_REPRODUCED);
	/* 1.5 against [3, 3]: positive both, but a level has no direction. */
	ck_assert_int_eq(exp_judge(3, 3, 1.5, 1.5, 1.5, EXP_TOLERANCE, true), EXP_DIFFERS);
}
END_TEST

/* A published range (time(1)'s resolution) and a lower bound. */
START_TEST(test_judge_ranges)
{
	double p, lo, hi;

	/* 0.700 s -> 0.001 s: the after is 0.5 to 1.5 ms. */
	exp_published_ratio(0.700, 0.001, 0.0005, &p, &lo, &hi);
	ck_assert_double_eq_tol(p, 699, 1e-9);
	ck_assert_double_eq_tol(lo, 0.6995 / 0.0015 - 1, 1e-9);
	ck_assert_double_eq_tol(hi, 0.7005 / 0.0005 - 1, 1e-9);
	/* Measured 1942x [1357, 2602]: meets [465, 1400]. */
	ck_assert_int_eq(exp_judge(1356, 2601, p, lo, hi, EXP_TOLERANCE, false), EXP_REPRODUCED);
	/* Measured 5x: same direction only. */
	ck_assert_int_eq(exp_judge(3, 5, p, lo, hi, EXP_TOLERANCE, false), EXP_SAME_DIRECTION);
	/* A lower bound is met by anything above it. */
	ck_assert_int_eq(exp_judge(9000, 28000, 1392, 1392, INFINITY, EXP_TOLERANCE, false),
			 EXP_REPRODUCED);
	ck_assert_int_eq(exp_judge(100, 200, 1392, 1392, INFINITY, EXP_TOLERANCE, false),
			 EXP_SAME_DIRECTION);
	/* Only partly above the bound: not met. */
	ck_assert_int_eq(exp_judge(300, 2000, 1392, 1392, INFINITY, EXP_TOLERANCE, false),
			 EXP_SAME_DIRECTION);
	/* An after of 0 leaves no upper end. */
	exp_published_ratio(0.697, 0.0005, 0.0005, &p, &lo, &hi);
	ck_assert(isinf(hi));
}
END_TEST

/* Rows: the ratio and the saving come from the same pairs; a level has
 * no direction, so beside a figure it is reproduced or it differs. */
START_TEST(test_rows)
{
	static struct exp_report r;
	double b[9] = { 10, 11, 12, 13, 14, 15, 16, 17, 18 };
	double a[9] = { 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9 };
	double v[9] = { 16, 16, 16, 17, 17, 17, 18, 18, NAN };
	struct exp_result *row;

	row = exp_add_pairs(&r, "x", "us", b, a, 9);
	ck_assert_double_eq_tol(row->ratio, 2, 1e-12);
	ck_assert_double_eq_tol(row->lo, 2, 1e-12);
	ck_assert_double_eq_tol(row->diff, 7, 1e-12);
	ck_assert_uint_eq(row->n, 9);
	ck_assert_int_eq(row->effect, EXP_EFFECT_RATIO);
	row = exp_add_values(&r, "y", "items", v, 9);
	ck_assert_uint_eq(row->n, 8);
	ck_assert_double_eq_tol(row->diff, 17, 1e-12);
	ck_assert(isnan(row->before));
}
END_TEST

/* Daemon pairs: the effect is the mean of each daemon pair's median, the
 * interval Student's t over them, so a spread between daemon starts that
 * the pairs of any one of them do not show widens it.  Three daemon pairs
 * of three pairs, each tight around its own offset (+1%, +5%, +9%): one
 * pair's interval would be a point, theirs is 5% +- 4.303 * 4% / sqrt(3). */
START_TEST(test_daemon_pairs)
{
	static struct exp_report r;
	double b[9], a[9], v[9], m, lo, hi;
	const double offset[3] = { 1.01, 1.05, 1.09 };
	struct exp_result *row;

	for (int i = 0; i < 9; i++) {
		a[i] = 100;
		b[i] = 100 * offset[i / 3] + (i % 3 - 1) * 0.001;
		v[i] = offset[i / 3];
	}
	r.blocks = 3;
	row = exp_add_pairs(&r, "x", "ns", b, a, 9);
	ck_assert_uint_eq(row->blocks, 3);
	ck_assert_uint_eq(row->n, 9);
	ck_assert_double_eq_tol(row->ratio, 1.05, 1e-9);
	ck_assert_double_eq_tol(row->hi - row->ratio, 4.303 * 0.04 / sqrt(3), 1e-3);
	ck_assert_double_eq_tol(row->ratio - row->lo, 4.303 * 0.04 / sqrt(3), 1e-3);
	ck_assert_double_eq_tol(row->diff, 5, 1e-6);
	/* ... where one daemon pair's own interval excludes zero at +1%. */
	r.blocks = 1;
	row = exp_add_pairs(&r, "x", "ns", b, a, 3);
	ck_assert(row->lo > 1.0);
	/* Values too: a block's median each. */
	r.blocks = 3;
	row = exp_add_values(&r, "y", "items", v, 9);
	ck_assert_double_eq_tol(row->diff, 1.05, 1e-9);
	/* The t interval itself: two values have 1 degree of freedom. */
	exp_mean_interval((double[]){ 1, 3 }, 2, &m, &lo, &hi);
	ck_assert_double_eq(m, 2);
	ck_assert_double_eq_tol(hi - m, 12.706, 1e-9);
	exp_mean_interval((double[]){ 1 }, 1, &m, &lo, &hi);
	ck_assert(isnan(lo) && isnan(hi));
}
END_TEST

/* The exact order-statistic interval: for n = 30 the 10th and 21st. */
START_TEST(test_median_interval)
{
	double v[30], lo, hi;

	for (int i = 0; i < 30; i++)
		v[i] = 29 - i;
	exp_median_interval(v, 30, &lo, &hi);
	ck_assert_double_eq(lo, 9);
	ck_assert_double_eq(hi, 20);
	ck_assert_double_eq(exp_median(v, 30), 14.5);
}
END_TEST

static Suite *make_experiment_suite(void)
{
	Suite *s = suite_create("experiment");
	TCase *tc = tcase_create("verdict");

	tcase_add_test(tc, test_judge_inside);
	tcase_add_test(tc, test_judge_near);
	tcase_add_test(tc, test_judge_same_sign);
	tcase_add_test(tc, test_judge_opposite);
	tcase_add_test(tc, test_judge_spans_zero);
	tcase_add_test(tc, test_judge_imprecise);
	tcase_add_test(tc, test_daemon_pairs);
	tcase_add_test(tc, test_judge_level);
	tcase_add_test(tc, test_judge_ranges);
	tcase_add_test(tc, test_rows);
	tcase_add_test(tc, test_median_interval);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(make_experiment_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
