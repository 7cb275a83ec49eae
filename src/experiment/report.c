/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Results: the table on the terminal, DIR/NAME.tsv and DIR/NAME.png,
 * and each row's verdict against the published figure (experiment.h says
 * the rule). */
#include "experiment/experiment.h"

#include <errno.h>
#include <glib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh row of r; finished by row_done() with the samples kept. */
static struct exp_result *row_new(struct exp_report *r, const char *measure, const char *unit,
				  unsigned n)
{
	struct exp_result *row = &r->rows[r->nr++];

	g_assert(r->nr <= G_N_ELEMENTS(r->rows) && n <= 256);
	memset(row, 0, sizeof(*row));
	g_strlcpy(row->measure, measure, sizeof(row->measure));
	g_strlcpy(row->unit, unit, sizeof(row->unit));
	g_strlcpy(row->published, "-", sizeof(row->published));
	return row;
}

static struct exp_result *row_done(struct exp_result *row, unsigned kept, unsigned n)
{
	row->n = kept;
	if (kept < n)
		g_snprintf(row->verdict, sizeof(row->verdict), "%u of %u pairs without a figure",
			   n - kept, n);
	return row;
}

/* The samples of one daemon pair: block k of r->blocks equal ones. */
static void block_range(const struct exp_report *r, unsigned n, unsigned k, unsigned *from,
			unsigned *to)
{
	unsigned blocks = r->blocks ? r->blocks : 1;

	g_assert(n % blocks == 0);
	*from = k * (n / blocks);
	*to = (k + 1) * (n / blocks);
}

/* The row's effect (ratio, diff) over several daemon pairs: the mean of
 * each pair's median, with Student's t interval (experiment.h). */
static void blocks_effect(const double *ratio_b, const double *diff_b, unsigned nb,
			  struct exp_result *row)
{
	if (ratio_b)
		exp_mean_interval(ratio_b, nb, &row->ratio, &row->lo, &row->hi);
	exp_mean_interval(diff_b, nb, &row->diff, &row->diff_lo, &row->diff_hi);
}

/* The rows of paired samples; saving: a count that may be 0 on either
 * side, whose effect is before - after (its ratio over the pairs with an
 * after, where there are some). */
static struct exp_result *add_pairs(struct exp_report *r, const char *measure, const char *unit,
				    const double *b, const double *a, unsigned n, bool saving)
{
	struct exp_result *row = row_new(r, measure, unit, n);
	double ratio[256], diff[256], kb[256], ka[256], ratio_b[256], diff_b[256];
	unsigned kept = 0, nb = 0, nr = 0, nrb = 0;

	row->blocks = r->blocks > 1 ? r->blocks : 1;
	for (unsigned k = 0; k < row->blocks; k++) {
		unsigned from, to, first = kept, first_r = nr;

		block_range(r, n, k, &from, &to);
		for (unsigned i = from; i < to; i++) {
			if (!isfinite(b[i]) || !isfinite(a[i]) || a[i] < 0 || b[i] < 0 ||
			    (!saving && a[i] == 0))
				continue;
			kb[kept] = b[i];
			ka[kept] = a[i];
			diff[kept++] = b[i] - a[i];
			if (a[i] > 0)
				ratio[nr++] = b[i] / a[i];
		}
		if (kept > first)
			diff_b[nb++] = exp_median(diff + first, kept - first);
		if (nr > first_r)
			ratio_b[nrb++] = exp_median(ratio + first_r, nr - first_r);
	}
	row->before = exp_median(kb, kept);
	row->after = exp_median(ka, kept);
	if (row->blocks > 1) {
		/* A daemon pair with no after to divide by leaves no ratio. */
		blocks_effect(nrb == nb ? ratio_b : NULL, diff_b, nb, row);
		if (nrb != nb)
			row->ratio = row->lo = row->hi = NAN;
	} else {
		row->ratio = exp_median(ratio, nr);
		exp_median_interval(ratio, nr, &row->lo, &row->hi);
		row->diff = exp_median(diff, kept);
		exp_median_interval(diff, kept, &row->diff_lo, &row->diff_hi);
	}
	row->effect = saving ? EXP_EFFECT_SAVING : EXP_EFFECT_RATIO;
	return row_done(row, kept, n);
}

struct exp_result *exp_add_pairs(struct exp_report *r, const char *measure, const char *unit,
				 const double *b, const double *a, unsigned n)
{
	return add_pairs(r, measure, unit, b, a, n, false);
}

struct exp_result *exp_add_pair_savings(struct exp_report *r, const char *measure,
					const char *unit, const double *b, const double *a, unsigned n)
{
	return add_pairs(r, measure, unit, b, a, n, true);
}

struct exp_result *exp_add_values(struct exp_report *r, const char *measure, const char *unit,
				  const double *v, unsigned n)
{
	struct exp_result *row = row_new(r, measure, unit, n);
	double kept_v[256], v_b[256];
	unsigned kept = 0, nb = 0;

	row->blocks = r->blocks > 1 ? r->blocks : 1;
	for (unsigned k = 0; k < row->blocks; k++) {
		unsigned first = kept, from, to;

		block_range(r, n, k, &from, &to);

		for (unsigned i = from; i < to; i++)
			if (isfinite(v[i]))
				kept_v[kept++] = v[i];
		if (kept > first)
			v_b[nb++] = exp_median(kept_v + first, kept - first);
	}
	row->before = row->after = row->ratio = row->lo = row->hi = NAN;
	if (row->blocks > 1) {
		blocks_effect(NULL, v_b, nb, row);
	} else {
		row->diff = exp_median(kept_v, kept);
		exp_median_interval(kept_v, kept, &row->diff_lo, &row->diff_hi);
	}
	row->effect = EXP_EFFECT_SAVING;
	return row_done(row, kept, n);
}

void exp_publish(struct exp_result *row, enum exp_effect effect, double p, double p_lo,
		 double p_hi, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_vsnprintf(row->published, sizeof(row->published), fmt, ap);
	va_end(ap);
	row->effect = effect;
	row->has_published = true;
	row->pub = p;
	row->pub_lo = p_lo;
	row->pub_hi = p_hi;
}

void exp_published_ratio(double before, double after, double res, double *p, double *p_lo,
			 double *p_hi)
{
	*p = before / after - 1;
	*p_lo = (before - res) / (after + res) - 1;
	*p_hi = after - res > 0 ? (before + res) / (after - res) - 1 : INFINITY;
}

enum exp_verdict exp_judge(double lo, double hi, double p, double p_lo, double p_hi, double tol,
			   bool level)
{
	double slack = tol * fabs(p);
	bool null_claim = p_lo <= 0 && p_hi >= 0;
	/* The interval shows an effect: it excludes zero, or the published
	 * figure claims none (its range holds zero). */
	bool shown = lo > 0 || hi < 0 || null_claim;
	/* ... and pins its size: no wider than twice the published effect
	 * (for a claim of none, its range's half-width). */
	double scale = null_claim ? fmax(fabs(p_lo), fabs(p_hi)) : fabs(p);
	bool precise = hi - lo <= 2 * scale;

	if (isnan(lo) || isnan(hi) || isnan(p))
		return EXP_NO_FIGURE;
	/* A lower bound is met by an interval wholly above it. */
	if (isinf(p_hi)) {
		if (lo >= p_lo - slack)
			return EXP_REPRODUCED;
	} else if (p_lo <= hi + slack && p_hi >= lo - slack && (level || shown) && precise) {
		/* The published range meets the widened measured interval. */
		return EXP_REPRODUCED;
	}
	if (!level && ((p > 0 && lo > 0) || (p < 0 && hi < 0)))
		return EXP_SAME_DIRECTION;
	return EXP_DIFFERS;
}

const char *exp_verdict_name(enum exp_verdict v)
{
	switch (v) {
	case EXP_REPRODUCED:
		return "reproduced";
	case EXP_SAME_DIRECTION:
		return "same direction";
	case EXP_DIFFERS:
		return "differs";
	case EXP_NO_FIGURE:
		break;
	}
	return "no published figure";
}

/* A row's effect interval, in its kind. */
static void effect_of(const struct exp_result *row, double *e, double *lo, double *hi)
{
	if (row->effect != EXP_EFFECT_RATIO) {
		*e = row->diff;
		*lo = row->diff_lo;
		*hi = row->diff_hi;
	} else {
		*e = row->ratio - 1;
		*lo = row->lo - 1;
		*hi = row->hi - 1;
	}
}

/* An effect as text: a ratio's in percent, a saving in its unit. */
static void fmt_effect(char *buf, size_t size, const struct exp_result *row, double e)
{
	if (isinf(e))
		g_strlcpy(buf, e > 0 ? "inf" : "-inf", size);
	else if (row->effect == EXP_EFFECT_SAVING)
		g_snprintf(buf, size, "%+.3g %s", e, row->unit);
	else if (row->effect == EXP_EFFECT_LEVEL)
		g_snprintf(buf, size, "%.3g %s", e, row->unit);
	else
		g_snprintf(buf, size, "%+.3g%%", 100 * e);
}

/* The verdict: what the experiment set already (missing pairs), then the
 * comparison with the published effect, then a warning where too few
 * pairs leave the interval at the whole range. */
static void judge(struct exp_result *row)
{
	GString *v = g_string_new(row->verdict);
	double e, lo, hi;

	effect_of(row, &e, &lo, &hi);
	row->v = row->has_published
			 ? exp_judge(lo, hi, row->pub, row->pub_lo, row->pub_hi, EXP_TOLERANCE,
				     row->effect == EXP_EFFECT_LEVEL)
			 : EXP_NO_FIGURE;
	if (v->len)
		g_string_append(v, "; ");
	g_string_append(v, exp_verdict_name(row->v));
	if (row->has_published && row->v != EXP_NO_FIGURE) {
		char m[40], l[40], h[40], p[40];

		fmt_effect(m, sizeof(m), row, e);
		fmt_effect(l, sizeof(l), row, lo);
		fmt_effect(h, sizeof(h), row, hi);
		fmt_effect(p, sizeof(p), row, row->pub);
		g_string_append_printf(v, ": effect %s [%s, %s], published %s", m, l, h, p);
		if (row->pub_lo != row->pub_hi) {
			fmt_effect(l, sizeof(l), row, row->pub_lo);
			fmt_effect(h, sizeof(h), row, row->pub_hi);
			g_string_append_printf(v, " [%s, %s]", l, h);
		}
	}
	/* Over daemon pairs the interval is theirs; below 6 pairs of one
	 * daemon pair no order statistics bound the median at 95%. */
	if (row->blocks > 1)
		g_string_append_printf(v, "; %u daemon pairs: mean of their medians, t interval",
				       row->blocks);
	else if (row->n > 1 && row->n < 6)
		g_string_append_printf(v, "; n < 6: the interval is the range (%.0f%% coverage)",
				       100 * (1 - pow(0.5, row->n - 1)));
	g_strlcpy(row->verdict, v->str, sizeof(row->verdict));
	g_string_free(v, TRUE);
}

static void fmt_num(char *buf, size_t size, double v)
{
	if (isnan(v))
		g_strlcpy(buf, "-", size);
	else if (fabs(v) >= 100 || v == floor(v))
		g_snprintf(buf, size, "%.0f", v);
	else
		g_snprintf(buf, size, "%.3g", v);
}

static int write_tsv(const struct exp_report *r, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "experiment: %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "patch\tmeasure\tunit\tbefore\tafter\tratio\tci_low\tci_high\teffect_kind\t"
		   "effect\teffect_low\teffect_high\tn\tpublished\tpublished_effect\tverdict\t"
		   "daemon_pairs\n");
	for (unsigned i = 0; i < r->nr; i++) {
		const struct exp_result *row = &r->rows[i];
		double e, lo, hi;

		effect_of(row, &e, &lo, &hi);
		fprintf(f, "%s\t%s%s\t%s\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%s\t%.6g\t%.6g\t%.6g\t%u\t%s\t",
			r->name, row->headline ? "headline: " : "", row->measure, row->unit,
			row->before, row->after, row->ratio, row->lo, row->hi,
			row->effect == EXP_EFFECT_SAVING  ? "before-after"
			: row->effect == EXP_EFFECT_LEVEL ? "level"
							  : "ratio-1",
			e, lo, hi,
			row->n, row->published);
		if (row->has_published)
			fprintf(f, "%.6g", row->pub);
		else
			fputc('-', f);
		fprintf(f, "\t%s\t%u\n", row->verdict, row->blocks);
	}
	return fclose(f) ? -1 : 0;
}

/* gnuplot from Debian's archive (gnuplot-nox); without it, a note.  The
 * data and script go to a scratch directory: only the PNG is a result. */
static void write_plot(const struct exp_report *r, const char *dir)
{
	char *scratch = g_dir_make_tmp("memcgfs-plot.XXXXXX", NULL);
	char *dat = g_strdup_printf("%s/%s.dat", scratch ? scratch : dir, r->name);
	char *gp = g_strdup_printf("%s/%s.gp", scratch ? scratch : dir, r->name);
	char *png = g_strdup_printf("%s/%s%s.png", dir, r->name, r->file_tag);
	char *cmd;
	FILE *f;

	if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
		printf("  (no plot: gnuplot is not installed; contrib/install-deps.sh installs "
		       "gnuplot-nox)\n");
		goto out;
	}
	f = fopen(dat, "w");
	if (!f)
		goto out;
	if (r->npoints) {
		for (unsigned i = 0; i < r->npoints; i++)
			fprintf(f, "%g %g %g\n", r->x[i], r->yb[i], r->ya[i]);
	} else {
		for (unsigned i = 0; i < r->ndeltas; i++)
			fprintf(f, "%u %g\n", i + 1, r->deltas[i]);
	}
	fclose(f);
	f = fopen(gp, "w");
	if (!f)
		goto out;
	fprintf(f, "set terminal png size 800,500\nset output '%s'\n", png);
	fprintf(f, "set title \"%s\" noenhanced font \",9\"\nset grid\nset key top left\n",
		r->title);
	fprintf(f, "set xlabel \"%s\" noenhanced\nset ylabel \"%s\" noenhanced\n", r->xlabel,
		r->ylabel);
	if (r->logx)
		fprintf(f, "set logscale x 2\n");
	if (r->logy)
		fprintf(f, "set logscale y\n");
	if (r->npoints)
		fprintf(f,
			"plot '%s' using 1:2 with linespoints lw 2 title 'before', "
			"'' using 1:3 with linespoints lw 2 title 'after'\n",
			dat);
	else
		fprintf(f,
			"set style fill solid 0.5\nplot '%s' using 1:2 with boxes title "
			"'paired delta (after - before) / before', 0 with lines notitle\n",
			dat);
	fclose(f);
	cmd = g_strdup_printf("gnuplot '%s'", gp);
	if (system(cmd) != 0)
		fprintf(stderr, "experiment: gnuplot failed on %s\n", gp);
	else
		printf("  wrote %s\n", png);
	g_free(cmd);
out:
	if (scratch) {
		unlink(dat);
		unlink(gp);
		rmdir(scratch);
		g_free(scratch);
	}
	g_free(dat);
	g_free(gp);
	g_free(png);
}

int exp_report_finish(struct exp_report *r, const struct exp_options *o)
{
	char *tsv;
	int rc;

	printf("\n%s: %s\n", r->name, r->title);
	printf("  %-52s %-6s %11s %11s %8s %19s %4s\n", "measure", "unit", "before", "after",
	       "effect", "95% interval", "n");
	for (unsigned i = 0; i < r->nr; i++) {
		struct exp_result *row = &r->rows[i];
		char b[32], a[32], lo[32], hi[32];

		double e, elo, ehi;

		judge(row);
		effect_of(row, &e, &elo, &ehi);
		fmt_num(b, sizeof(b), row->before);
		fmt_num(a, sizeof(a), row->after);
		/* A ratio as a factor; a saving or a level in the row's unit. */
		if (row->effect == EXP_EFFECT_RATIO) {
			fmt_num(lo, sizeof(lo), row->lo);
			fmt_num(hi, sizeof(hi), row->hi);
			printf("%s %-52s %-6s %11s %11s %7.3gx [%8s, %8s] %4u\n",
			       row->headline ? "*" : " ", row->measure, row->unit, b, a, row->ratio,
			       lo, hi, row->n);
		} else {
			fmt_num(lo, sizeof(lo), elo);
			fmt_num(hi, sizeof(hi), ehi);
			printf("%s %-52s %-6s %11s %11s %8.3g [%8s, %8s] %4u\n",
			       row->headline ? "*" : " ", row->measure, row->unit, b, a, e, lo, hi,
			       row->n);
		}
		if (row->published[0] && strcmp(row->published, "-"))
			printf("    published: %s\n", row->published);
		printf("    verdict: %s\n", row->verdict);
	}
	if (g_mkdir_with_parents(o->out_dir, 0755)) {
		fprintf(stderr, "experiment: %s: %s\n", o->out_dir, strerror(errno));
		return -1;
	}
	tsv = g_strdup_printf("%s/%s%s.tsv", o->out_dir, r->name, r->file_tag);
	rc = write_tsv(r, tsv);
	if (!rc)
		printf("  wrote %s\n", tsv);
	g_free(tsv);
	write_plot(r, o->out_dir);
	return rc;
}
