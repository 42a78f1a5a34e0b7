// SPDX-License-Identifier: MIT
/*
 * SVG charts (see svg.h). Every chart is a standalone document that must also work inlined in an HTML
 * page next to other charts, so nothing carries an id or a stylesheet: no gradients, patterns or clip
 * paths, only presentation attributes. The class attributes are never styled; they name the drawn
 * elements (pt, bar, cell, na, err, key) for tests and for anyone post-processing the files.
 *
 * Every coordinate comes from axis_pos() or from layout arithmetic on finite numbers, and
 * axis_pos() clamps to the plot, so no "nan" or "inf" can reach the output. Values that cannot be
 * placed (NAN, infinite, beyond +-1e100, and <= 0 or below 1e-100 on a log scale) are gaps.
 *
 * Colours are Okabe-Ito; every series also gets its own marker shape and dash pattern so the
 * charts stay readable in black and white. The heatmap scale is viridis, monotonic in lightness.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"
#include "textesc.h"

#define W        720.0   /* every chart is this wide */
#define PH       300.0   /* plot height of line, bar and xy charts */
#define TOP      44.0    /* below the title */
#define KEY_H    18.0    /* one legend row */
#define KEY_CHARS 32     /* legend names are cut to this many characters */
#define TICK_CHARS 22    /* and category names to this many */
#define MAXT     96
#define PITCH    18.0    /* least distance in pixels between stacked tick labels (1.5 em) */
#define DEC125   3       /* log axes of at most this many decades are labelled 1, 2, 5, 10, ... */
#define HEAD_EM  0.68    /* bold text's estimated width per character, in em (the title's) */
#define VMAX     1e100

static const char *const colours[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#777777",
};
#define NCOLOURS (sizeof(colours) / sizeof(colours[0]))
static const char *const dashes[] = { NULL, "7 3", "2 2", "9 3 2 3", "4 4", "12 3 2 3 2 3" };
#define NDASHES (sizeof(dashes) / sizeof(dashes[0]))
#define NSHAPES 7

static const char *colour(size_t s)
{
	return colours[s % NCOLOURS];
}

/* ---- Text ---------------------------------------------------------------------------------- */

/* Estimated width in pixels of s (cut to max characters) in sans-serif of the given size. */
static double textw(const char *s, size_t max, double size)
{
	size_t n = text_nchars(s);

	/* 0.62 em: DejaVu Sans, the widest common default, rather than Helvetica's 0.55. */
	return (double)(n < max ? n : max) * size * 0.62;
}

static bool has_text(const char *s)
{
	return s && *s;
}

/* A text element anchored at (x, y), rotated by rot degrees about that point. */
static void text(FILE *f, double x, double y, const char *anchor, double rot, double size,
		 const char *s, size_t max)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"", x, y);
	if (strcmp(anchor, "start"))
		fprintf(f, " text-anchor=\"%s\"", anchor);
	if (rot != 0)
		fprintf(f, " transform=\"rotate(%.0f %.1f %.1f)\"", rot, x, y);
	if (size != 12)
		fprintf(f, " font-size=\"%.1f\"", size);
	fputc('>', f);
	esc_xml_n(f, s, max);
	fputs("</text>\n", f);
}

/*
 * v in at most about 7 characters: an SI suffix from k up, then either the decimals that step
 * needs (tick labels, so neighbours differ: 1.5k, 2k) or, with step 0, three significant digits
 * (values: 0.25, 12.5, 1.52k). Never "nan" or "inf": callers only pass finite values.
 */
static void fmt_num(char *buf, size_t len, double v, double step)
{
	static const char si[] = "kMGTPE";
	double a = fabs(v), scale = 1, m, lim = step > 0 ? 999.999 : 999.5;
	int k = 0, dec;
	char *e;

	if (!isfinite(v) || v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	while (a / scale >= lim && k < 6)
		scale *= 1000, k++;
	m = a / scale;
	if (m >= 1e6 || m < 1e-3) {
		snprintf(buf, len, "%.2g", v);
		return;
	}
	if (step > 0) {
		/* 1001 rather than 1.001k: a suffix only where it leaves at most one decimal. */
		dec = (int)ceil(-log10(step / scale) - 1e-9);
		while (dec > 1 && k > 0) {
			scale /= 1000, k--;
			dec = (int)ceil(-log10(step / scale) - 1e-9);
		}
	} else
		dec = m >= 99.95 ? 0 : m >= 9.995 ? 1 : 2 - (int)floor(log10(m));
	dec = dec < 0 ? 0 : dec > 9 ? 9 : dec;
	snprintf(buf, len, "%.*f", dec, v / scale);
	if (strchr(buf, '.')) {
		for (e = buf + strlen(buf) - 1; *e == '0'; e--)
			*e = '\0';
		if (*e == '.')
			*e = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, len, "0");
	else if (k && strlen(buf) + 1 < len)
		strncat(buf, &si[k - 1], 1);
}

/* ---- Axes ---------------------------------------------------------------------------------- */

enum axkind { AX_LIN, AX_LOG, AX_NINES };

struct tick {
	double v;          /* in data units */
	bool label;        /* labelled, with a darker grid line */
	char text[24];
};

/* lo and hi are in the scale's space: v, log10 v, or -log10(1 - v/100); p0, p1 their pixels. */
struct axis {
	enum axkind kind;
	double lo, hi, p0, p1;
	struct tick t[MAXT];
	size_t nt;
};

static bool usable(double v, bool log)
{
	return isfinite(v) && fabs(v) < VMAX && (!log || v >= 1 / VMAX);
}

/* The position of percentile x on a nines axis: 90 -> 1, 99 -> 2; +inf from 100 up. */
static double nines(double x)
{
	return x >= 100 ? INFINITY : -log10(1 - x / 100);
}

static double axis_f(const struct axis *a, double v)
{
	return a->kind == AX_LOG ? log10(v) : a->kind == AX_NINES ? nines(v) : v;
}

/* Where v lies from lo (0) to hi (1), clamped: NAN and out-of-range values land on an end. */
static double axis_frac(const struct axis *a, double v)
{
	double t = (axis_f(a, v) - a->lo) / (a->hi - a->lo);

	if (!(t >= 0))
		return 0;
	return t > 1 ? 1 : t;
}

static double axis_pos(const struct axis *a, double v)
{
	return a->p0 + axis_frac(a, v) * (a->p1 - a->p0);
}

static void add_tick(struct axis *a, double v, bool label, const char *s)
{
	struct tick *t = &a->t[a->nt];

	if (a->nt == MAXT)
		return;
	a->nt++;
	t->v = v;
	t->label = label;
	snprintf(t->text, sizeof(t->text), "%s", s ? s : "");
}

/* 1, 2 or 5 times a power of ten, near raw. */
static double nice_step(double raw)
{
	double mag = pow(10, floor(log10(raw))), n = raw / mag;

	return (n < 1.5 ? 1 : n < 3 ? 2 : n < 7 ? 5 : 10) * mag;
}

/* A linear axis over [dmin, dmax], widened to multiples of a 1-2-5 step, from 0 if zero. */
static void axis_lin(struct axis *a, double dmin, double dmax, bool zero)
{
	double step, span;
	char buf[24];
	long n;

	if (zero) {
		dmin = fmin(dmin, 0);
		dmax = fmax(dmax, 0);
	}
	/* A range too narrow for ticks to tell apart (or for pow() not to underflow): widen it. */
	span = fmax(fabs(dmin), fabs(dmax));
	if (dmax - dmin <= span * 1e-9 || dmax - dmin < 1e-90) {
		double pad = span >= 1e-90 ? span * 0.1 : 1;

		dmin = zero && dmin == 0 ? 0 : dmin - pad;
		dmax += pad;
	}
	step = nice_step((dmax - dmin) / 5);
	a->kind = AX_LIN;
	a->lo = floor(dmin / step) * step;
	a->hi = ceil(dmax / step) * step;
	a->nt = 0;
	n = lround((a->hi - a->lo) / step);
	for (long i = 0; i <= n && i < 50; i++) {
		double v = a->lo + (double)i * step;

		if (fabs(v) < step * 1e-6)
			v = 0;
		fmt_num(buf, sizeof(buf), v, step);
		add_tick(a, v, true, buf);
	}
}

/*
 * Whether labels at 1, 2 and 5 times the powers of ten fit a log scale of span decades drawn over
 * px pixels: few decades, and the closest two (1 and 2, 5 and 10: log10 2 apart) PITCH apart.
 */
static bool log125_fits(double span, double px)
{
	return span > 0 && span <= DEC125 + 1e-9 && log10(2) * px / span >= PITCH;
}

/*
 * A log axis over whole decades around [dmin, dmax] (both positive), px pixels long: labels 1 2 5
 * 10 20 50 ... where log125_fits, else 1 10 100 1k ... (every n-th decade past ten of them).
 */
static void axis_log(struct axis *a, double dmin, double dmax, double px)
{
	int klo = (int)floor(log10(dmin)), khi = (int)ceil(log10(dmax)), every;
	char buf[24];
	bool fine;

	if (khi <= klo) {
		/* All values one power of ten: it goes in the middle. */
		klo--;
		khi++;
	}
	every = (khi - klo + 9) / 10;
	fine = log125_fits(khi - klo, px);
	a->kind = AX_LOG;
	a->lo = klo;
	a->hi = khi;
	a->nt = 0;
	for (int k = klo; k <= khi; k++) {
		double d = pow(10, k);
		bool label = (k - klo) % every == 0;

		fmt_num(buf, sizeof(buf), d, 0);
		if (label || khi - klo <= 30)
			add_tick(a, d, label, label ? buf : NULL);
		for (int m = 2; m <= 9 && k < khi && khi - klo <= 6; m++) {
			bool mid = fine && (m == 2 || m == 5);

			if (mid)
				fmt_num(buf, sizeof(buf), m * d, 0);
			add_tick(a, m * d, mid, mid ? buf : NULL);
		}
	}
}

static const char *const nines_labels[] = {
	"0", "50", "90", "99", "99.9", "99.99", "99.999", "99.9999", "99.99999", "99.999999",
	"99.9999999", "99.99999999",
};
#define NNINES (sizeof(nines_labels) / sizeof(nines_labels[0]))

static double nines_at(size_t i)
{
	return nines(strtod(nines_labels[i], NULL));
}

/*
 * A nines axis over positions [pmin, pmax], widened to the percentile ticks around them (one
 * more on each side if both are the same), or to the data where no tick lies beyond it.
 */
static void axis_nines(struct axis *a, double pmin, double pmax)
{
	size_t ilo = NNINES, ihi = NNINES;

	for (size_t i = 0; i < NNINES; i++) {
		if (nines_at(i) <= pmin + 1e-9)
			ilo = i;
		if (nines_at(i) >= pmax - 1e-9 && ihi == NNINES)
			ihi = i;
	}
	if (ilo == ihi && ilo < NNINES) {
		ilo = ilo > 0 ? ilo - 1 : ilo;
		ihi = ihi + 1 < NNINES ? ihi + 1 : ihi;
	}
	a->kind = AX_NINES;
	a->lo = ilo < NNINES ? nines_at(ilo) : pmin;
	a->hi = ihi < NNINES ? nines_at(ihi) : pmax;
	if (a->hi <= a->lo)
		a->hi = a->lo + 1;
	a->nt = 0;
	for (size_t i = 0; i < NNINES; i++) {
		if (nines_at(i) >= a->lo - 1e-9 && nines_at(i) <= a->hi + 1e-9)
			add_tick(a, strtod(nines_labels[i], NULL), true, nines_labels[i]);
	}
}

static double ticks_width(const struct axis *a)
{
	double w = 0;

	for (size_t i = 0; i < a->nt; i++)
		w = fmax(w, textw(a->t[i].text, SIZE_MAX, 12));
	return w;
}

/* ---- Layout and frame ---------------------------------------------------------------------- */

struct frame {
	double l, t, r, b;   /* the plot area */
};

/* How category names fit under their slots: flat, at -30 degrees, or upright and smaller. */
struct catax {
	double rot, font;
	double below;        /* pixels from the axis line to the bottom of the names */
	double left;         /* how far the first name reaches left of its slot's centre */
};

static void cat_layout(struct catax *ca, const char *const *names, size_t n, double slot)
{
	double w = 0;

	for (size_t i = 0; names && i < n; i++)
		w = fmax(w, textw(names[i], TICK_CHARS, 12));
	ca->font = 12;
	if (w <= slot - 6) {
		ca->rot = 0;
		ca->below = 20;
		ca->left = w / 2;
	} else if (slot / 2 >= 13) {
		/* Neighbours at -30 degrees are slot * sin 30 apart across their baselines. */
		ca->rot = -30;
		ca->below = 16 + w * 0.5 + 6;
		ca->left = w * 0.87;
	} else {
		ca->rot = -90;
		ca->font = fmax(6, fmin(12, slot - 1));
		ca->below = 10 + w * ca->font / 12;
		ca->left = ca->font / 2;
	}
}

static void cat_draw(FILE *f, const char *const *names, size_t n, const struct frame *fr,
		     const struct catax *ca)
{
	double slot = (fr->r - fr->l) / (double)n;

	for (size_t i = 0; i < n; i++) {
		double x = fr->l + ((double)i + 0.5) * slot;
		const char *s = names ? names[i] : NULL;

		fprintf(f, "<path d=\"M%.1f %.1fv4\" stroke=\"#444\"/>\n", x, fr->b);
		if (ca->rot == 0)
			text(f, x, fr->b + 17, "middle", 0, 12, s, TICK_CHARS);
		else if (ca->rot == -30)
			text(f, x + 3, fr->b + 15, "end", -30, 12, s, TICK_CHARS);
		else
			text(f, x + ca->font * 0.35, fr->b + 8, "end", -90, ca->font, s, TICK_CHARS);
	}
}

/*
 * The root element, a white background (for dark pages), and the title twice: for screen readers
 * and, fit to the width, on the chart.
 */
static void doc_begin(FILE *f, double height, const char *title)
{
	double size;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
		"height=\"%.0f\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n",
		W, height, W, height);
	fputs("<title>", f);
	esc_xml(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n", W, height);
	/* A long title gets a smaller font (down to 11) before it is cut. */
	size = fmax(11, fmin(15, (W - 20) / ((double)text_nchars(title) * 0.68)));
	fprintf(f, "<text x=\"%.1f\" y=\"26\" text-anchor=\"middle\" font-size=\"%.1f\" "
		"font-weight=\"bold\" fill=\"#111\">", W / 2, size);
	esc_xml_n(f, title, (size_t)((W - 20) / (size * 0.68)));
	fputs("</text>\n", f);
}

static int doc_end(FILE *f)
{
	fputs("</svg>\n", f);
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

/* Grid lines and labels of the value axis, its title rotated on the left edge. */
static void yaxis_draw(FILE *f, const struct axis *a, const struct frame *fr, const char *label)
{
	for (size_t i = 0; i < a->nt; i++) {
		double y = axis_pos(a, a->t[i].v);

		fprintf(f, "<path d=\"M%.1f %.1fH%.1f\" stroke=\"%s\"/>\n", fr->l, y, fr->r,
			a->t[i].label ? "#dddddd" : "#f0f0f0");
		if (a->t[i].label)
			text(f, fr->l - 6, y + 4, "end", 0, 12, a->t[i].text, SIZE_MAX);
	}
	if (has_text(label))
		text(f, 16, (fr->t + fr->b) / 2, "middle", -90, 12, label,
		     (size_t)((fr->b - fr->t) / 7));
}

/* The same for a numeric x axis, with its title under the labels. */
static void xaxis_draw(FILE *f, const struct axis *a, const struct frame *fr, const char *label)
{
	for (size_t i = 0; i < a->nt; i++) {
		double x = axis_pos(a, a->t[i].v);

		fprintf(f, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"%s\"/>\n", x, fr->t, fr->b,
			a->t[i].label ? "#dddddd" : "#f0f0f0");
		if (a->t[i].label) {
			fprintf(f, "<path d=\"M%.1f %.1fv4\" stroke=\"#444\"/>\n", x, fr->b);
			text(f, x, fr->b + 17, "middle", 0, 12, a->t[i].text, SIZE_MAX);
		}
	}
	if (has_text(label))
		text(f, (fr->l + fr->r) / 2, fr->b + 38, "middle", 0, 12, label, 100);
}

static void axis_lines(FILE *f, const struct frame *fr)
{
	fprintf(f, "<path d=\"M%.1f %.1fV%.1fH%.1f\" fill=\"none\" stroke=\"#444\"/>\n", fr->l, fr->t,
		fr->b, fr->r);
}

/* The document, the value axis, the categories under the plot and the x axis's title. */
static void cat_chart_begin(FILE *f, double height, const char *title, const struct axis *ya,
			    const struct frame *fr, const struct catax *ca, const char *const *xticks, size_t nx,
			    const char *ylabel, const char *xlabel)
{
	doc_begin(f, height, title);
	yaxis_draw(f, ya, fr, ylabel);
	cat_draw(f, xticks, nx, fr, ca);
	axis_lines(f, fr);
	if (has_text(xlabel))
		text(f, (fr->l + fr->r) / 2, fr->b + ca->below + 16, "middle", 0, 12, xlabel, 100);
}

/* ---- Markers and legend -------------------------------------------------------------------- */

/*
 * The marker of series s at (x, y), half-size r: seven shapes, solid for the first seven series
 * and hollow for the next. On a bar it is white with a dark outline to stand out from the fill.
 */
static void marker(FILE *f, size_t s, double x, double y, double r, bool on_bar, const char *cls)
{
	const char *c = colour(s), *fill = on_bar || (s / NSHAPES) % 2 ? "#fff" : c;
	const char *stroke = on_bar ? "#222" : (s / NSHAPES) % 2 ? c : "#fff";

	switch (s % NSHAPES) {
	case 0:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", x, y, r);
		break;
	case 1:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x - r * 0.9,
			y - r * 0.9, r * 1.8, r * 1.8);
		break;
	case 2:
	case 4: {
		double d = s % NSHAPES == 2 ? 1 : -1;

		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"", x, y - d * r * 1.2,
			x + r * 1.1, y + d * r * 0.8, x - r * 1.1, y + d * r * 0.8);
		break;
	}
	case 3:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"", x, y - r * 1.25,
			x + r * 1.1, y, x, y + r * 1.25, x - r * 1.1, y);
		break;
	default: {
		/* A cross for 5, a plus for 6: strokes only, in the series colour. */
		double a = s % NSHAPES == 5 ? r : 0, b = s % NSHAPES == 5 ? r : r * 1.2;

		fill = "none";
		stroke = on_bar ? "#222" : c;
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke-width=\"2\"",
			x - b, y - a, x + b, y + a, x - a, y + b, x + a, y - b);
		break;
	}
	}
	if (cls)
		fprintf(f, " class=\"%s\"", cls);
	fprintf(f, " fill=\"%s\" stroke=\"%s\"/>\n", fill, stroke);
}

static void dash_attr(FILE *f, size_t s)
{
	if (dashes[s % NDASHES])
		fprintf(f, " stroke-dasharray=\"%s\"", dashes[s % NDASHES]);
}

/* Closes the path data of series s's line and the element, with the series' colour and dashes. */
static void end_line(FILE *f, size_t s)
{
	fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-linejoin=\"round\"",
		colour(s));
	dash_attr(f, s);
	fputs("/>\n", f);
}

/*
 * Where the entries go: a column right of the plot, or rows under everything else; either way under
 * a heading row (head = KEY_H) if the legend has a title, its left edge at x.
 */
struct legend {
	bool below;
	double x, y, colw, head;
	const char *title;   /* NULL: no heading */
	size_t ncols, rows;
};

/*
 * n entries, the widest name maxw pixels, under the heading title (NULL or "": none). The heading
 * must fit a column right of the plot, or it goes below, where it has a row of its own.
 */
static void legend_plan(struct legend *lg, double maxw, size_t n, const char *title)
{
	lg->title = has_text(title) ? title : NULL;
	lg->head = lg->title ? KEY_H : 0;
	lg->colw = maxw + 40;
	if (lg->title)
		lg->colw = fmax(lg->colw, (double)text_nchars(title) * 12 * HEAD_EM + 6);
	lg->below = lg->colw > 220 || (double)n * KEY_H + lg->head > PH;
	lg->ncols = 1;
	if (lg->below) {
		lg->colw = maxw + 40;
		lg->ncols = (size_t)((W - 40) / lg->colw);
		if (lg->ncols < 1)
			lg->ncols = 1;
		if (lg->ncols > n)
			lg->ncols = n;
	}
	lg->rows = (n + lg->ncols - 1) / lg->ncols;
}

/* Pixels the legend takes right of the plot, and under it. */
static double legend_right(const struct legend *lg)
{
	return lg->below ? 0 : lg->colw + 4;
}

static double legend_below(const struct legend *lg)
{
	return lg->below ? (double)lg->rows * KEY_H + lg->head + 10 : 0;
}

/* A bold heading with its baseline at y, cut to the pixels from x to the chart's right edge. */
static void key_heading(FILE *f, double x, double y, const char *title)
{
	fprintf(f, "<text class=\"key-title\" x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">", x, y);
	esc_xml_n(f, title, (size_t)fmax(1, (W - 6 - x) / (12 * HEAD_EM)));
	fputs("</text>\n", f);
}

/* The legend's heading, if it has one, in the row above its entries, flush with the first sample. */
static void legend_heading(FILE *f, const struct legend *lg)
{
	if (lg->title)
		key_heading(f, lg->x, lg->y + KEY_H / 2 + 4, lg->title);
}

/* Entry i: its sample is drawn by the caller left of *x + 28, the name follows. */
static void legend_entry(FILE *f, const struct legend *lg, size_t i, const char *name, size_t chars,
			 double *x, double *y)
{
	*x = lg->x + (double)(i % lg->ncols) * lg->colw;
	*y = lg->y + lg->head + (double)(i / lg->ncols) * KEY_H + KEY_H / 2;
	text(f, *x + 30, *y + 4, "start", 0, 12, name, chars);
}

static void key_line(FILE *f, size_t s, double x, double y)
{
	fprintf(f, "<path d=\"M%.1f %.1fh24\" stroke=\"%s\" stroke-width=\"2\"", x, y, colour(s));
	dash_attr(f, s);
	fputs("/>\n", f);
	marker(f, s, x + 12, y, 4, false, NULL);
}

static void key_bar(FILE *f, size_t s, double x, double y)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"12\" fill=\"%s\"/>\n", x + 2,
		y - 6, colour(s));
	marker(f, s, x + 12, y - 6, 3.5, true, NULL);
}

/* A legend under the plot starts under + 4 below it (centred); one on the right at its top. */
static void legend_place(struct legend *lg, const struct frame *fr, double under)
{
	if (lg->below) {
		lg->x = (W - (double)lg->ncols * lg->colw) / 2 + 10;
		lg->y = fr->b + under;
	} else {
		lg->x = fr->r + 16;
		lg->y = fr->t + 4;
	}
}

static double series_names_width(const struct svg_series *se, size_t n)
{
	double w = 0;

	for (size_t i = 0; i < n; i++)
		w = fmax(w, textw(se[i].name, KEY_CHARS, 12));
	return w;
}

/* ---- Lines and bars ------------------------------------------------------------------------ */

static double point(const struct svg_series *se, size_t i)
{
	return se->y ? se->y[i] : NAN;
}

static double point_err(const struct svg_series *se, size_t i)
{
	double e = se->err ? se->err[i] : NAN;

	return usable(e, false) && e > 0 ? e : 0;
}

/* The range of the values and of their error bars' tops; false if nothing can be drawn. */
static bool lines_range(const struct svg_lines *c, double *lo, double *hi)
{
	bool any = false;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t s = 0; s < c->nseries; s++) {
		for (size_t i = 0; i < c->nx; i++) {
			double v = point(&c->series[s], i), e = point_err(&c->series[s], i);

			if (!usable(v, c->logy))
				continue;
			any = true;
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, usable(v + e, false) ? v + e : v);
		}
	}
	return any;
}

static void errbar(FILE *f, const struct axis *ya, double x, double v, double e, double cap,
		   const char *stroke)
{
	double y0 = axis_pos(ya, v - e), y1 = axis_pos(ya, v + e);

	fprintf(f, "<path class=\"err\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh%.1fM%.1f %.1fh%.1f\" "
		"fill=\"none\" stroke=\"%s\"/>\n", x, y0, y1, x - cap / 2, y0, cap, x - cap / 2, y1, cap,
		stroke);
}

static void lines_series(FILE *f, const struct svg_lines *c, size_t s, const struct axis *ya,
			 const struct frame *fr)
{
	const struct svg_series *se = &c->series[s];
	double slot = (fr->r - fr->l) / (double)c->nx;
	bool pen = false;

	fputs("<path d=\"", f);
	for (size_t i = 0; i < c->nx; i++) {
		double v = point(se, i);

		if (!usable(v, c->logy)) {
			pen = false;
			continue;
		}
		fprintf(f, "%c%.1f %.1f", pen ? 'L' : 'M', fr->l + ((double)i + 0.5) * slot,
			axis_pos(ya, v));
		pen = true;
	}
	end_line(f, s);
	for (size_t i = 0; i < c->nx; i++) {
		double v = point(se, i), e = point_err(se, i), x = fr->l + ((double)i + 0.5) * slot;

		if (!usable(v, c->logy))
			continue;
		if (e > 0)
			errbar(f, ya, x, v, e, 8, colour(s));
		marker(f, s, x, axis_pos(ya, v), 4, false, "pt");
	}
}

static void bars_series(FILE *f, const struct svg_lines *c, size_t s, const struct axis *ya,
			const struct frame *fr)
{
	const struct svg_series *se = &c->series[s];
	double slot = (fr->r - fr->l) / (double)c->nx, group = slot * 0.8;
	double bw = group / (double)c->nseries, gap = bw > 4 ? 1 : 0;
	double base = c->logy ? fr->b : axis_pos(ya, 0);

	for (size_t i = 0; i < c->nx; i++) {
		double v = point(se, i), e = point_err(se, i), y;
		double x = fr->l + ((double)i + 0.5) * slot - group / 2 + (double)s * bw;

		if (!usable(v, c->logy))
			continue;
		y = axis_pos(ya, v);
		fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"%s\"/>\n", x + gap / 2, fmin(y, base), bw - gap, fabs(base - y),
			colour(s));
		if (e > 0)
			errbar(f, ya, x + bw / 2, v, e, fmin(8, bw * 0.6), "#222");
		if (bw >= 5)
			marker(f, s, x + bw / 2, y, fmin(4, bw * 0.35), true, "pt");
	}
}

int svg_lines(FILE *f, const struct svg_lines *c)
{
	struct axis ya;
	struct frame fr;
	struct legend lg;
	struct catax ca;
	double lo, hi, need, height, under;

	if (!c || !c->nx || !c->nseries || !c->series || !lines_range(c, &lo, &hi))
		return -EINVAL;
	if (c->logy)
		axis_log(&ya, lo, hi, PH);
	else
		axis_lin(&ya, lo, hi, true);
	legend_plan(&lg, series_names_width(c->series, c->nseries), c->nseries, c->key_title);

	/* The first category name may reach left of the plot: widen the margin, then fit again. */
	fr.t = TOP;
	fr.l = (has_text(c->ylabel) ? 34 : 10) + ticks_width(&ya) + 8;
	fr.r = W - 12 - legend_right(&lg);
	cat_layout(&ca, c->xticks, c->nx, (fr.r - fr.l) / (double)c->nx);
	need = ca.left - (fr.r - fr.l) / (double)c->nx / 2 + 6;
	if (fr.l < need) {
		fr.l = need;
		cat_layout(&ca, c->xticks, c->nx, (fr.r - fr.l) / (double)c->nx);
	}
	fr.b = fr.t + PH;
	ya.p0 = fr.b;
	ya.p1 = fr.t;
	under = ca.below + (has_text(c->xlabel) ? 26 : 6);
	height = fr.b + under + legend_below(&lg) + 8;
	legend_place(&lg, &fr, under + 4);

	cat_chart_begin(f, height, c->title, &ya, &fr, &ca, c->xticks, c->nx, c->ylabel, c->xlabel);
	legend_heading(f, &lg);
	for (size_t s = 0; s < c->nseries; s++) {
		double x, y;

		if (c->bars)
			bars_series(f, c, s, &ya, &fr);
		else
			lines_series(f, c, s, &ya, &fr);
		fputs("<g class=\"key\">\n", f);
		legend_entry(f, &lg, s, c->series[s].name, KEY_CHARS, &x, &y);
		if (c->bars)
			key_bar(f, s, x, y);
		else
			key_line(f, s, x, y);
		fputs("</g>\n", f);
	}
	return doc_end(f);
}

/* ---- Heatmap ------------------------------------------------------------------------------- */

/* Viridis at nine stops: dark purple to yellow, lightness rising all the way. */
static const unsigned char viridis[][3] = {
	{ 68, 1, 84 }, { 71, 45, 123 }, { 59, 82, 139 }, { 44, 114, 142 }, { 33, 145, 140 },
	{ 40, 174, 128 }, { 94, 201, 98 }, { 173, 220, 48 }, { 253, 231, 37 },
};
#define NVIRIDIS (sizeof(viridis) / sizeof(viridis[0]))

static void scale_colour(double t, double rgb[3])
{
	double x = fmin(fmax(t, 0), 1) * (NVIRIDIS - 1);
	size_t i = (size_t)x < NVIRIDIS - 1 ? (size_t)x : NVIRIDIS - 2;

	for (int k = 0; k < 3; k++)
		rgb[k] = viridis[i][k] + (x - (double)i) * (viridis[i + 1][k] - viridis[i][k]);
}

static void fill_attr(FILE *f, const double rgb[3])
{
	fprintf(f, " fill=\"#%02x%02x%02x\"", (unsigned)lround(rgb[0]), (unsigned)lround(rgb[1]),
		(unsigned)lround(rgb[2]));
}

/* Black or white, whichever contrasts more with rgb (WCAG relative luminance). */
static const char *ink(const double rgb[3])
{
	double l = 0, w[3] = { 0.2126, 0.7152, 0.0722 };

	for (int k = 0; k < 3; k++) {
		double c = rgb[k] / 255;

		l += w[k] * (c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
	}
	return l > 0.179 ? "#000" : "#fff";
}

struct zscale {
	bool log;
	double lo, hi;   /* in colour space: v or log10 v */
};

/* Where v lies on the colour scale, 0 to 1; a scale of one value is all mid-colour. */
static double zscale_t(const struct zscale *z, double v)
{
	double g = z->log ? log10(v) : v, t = (g - z->lo) / (z->hi - z->lo);

	if (!(z->hi > z->lo) || isnan(t))
		return 0.5;
	return fmin(fmax(t, 0), 1);
}

/* The values 1, 2 and 5 times a power of ten within the colour range, all labelled. */
static void zscale_125_ticks(const struct zscale *z, struct axis *a)
{
	char buf[24];

	a->nt = 0;
	for (int k = (int)floor(z->lo); k <= (int)ceil(z->hi); k++) {
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
			double v = m * pow(10, k);

			if (log10(v) >= z->lo - 1e-9 && log10(v) <= z->hi + 1e-9) {
				fmt_num(buf, sizeof(buf), v, 0);
				add_tick(a, v, true, buf);
			}
		}
	}
}

/*
 * On a colour bar px pixels high: 1-2-5 steps where log125_fits and at least two of them lie in
 * the range, else decades, at most seven of them labelled; 1-2-5 steps if fewer than two decades fit.
 */
static void zscale_log_ticks(const struct zscale *z, struct axis *a, double px)
{
	int k0 = (int)ceil(z->lo - 1e-9), k1 = (int)floor(z->hi + 1e-9), every = (k1 - k0 + 7) / 7;
	char buf[24];

	if (log125_fits(z->hi - z->lo, px)) {
		zscale_125_ticks(z, a);
		if (a->nt >= 2)
			return;
		a->nt = 0;
	}
	for (int k = k0; k <= k1; k += every > 1 ? every : 1) {
		fmt_num(buf, sizeof(buf), pow(10, k), 0);
		add_tick(a, pow(10, k), true, buf);
	}
	if (a->nt < 2)
		zscale_125_ticks(z, a);
}

/* Ticks of a colour bar px pixels high, inside the data's range only: the scale is not widened. */
static void zscale_ticks(const struct zscale *z, struct axis *a, double px)
{
	double lo = z->log ? pow(10, z->lo) : z->lo, hi = z->log ? pow(10, z->hi) : z->hi;
	char buf[24];

	a->nt = 0;
	if (z->log) {
		zscale_log_ticks(z, a, px);
	} else if (hi - lo > fmax(fabs(lo), fabs(hi)) * 1e-9 && hi - lo > 1e-90) {
		double step = nice_step((hi - lo) / 4);

		for (double k = ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9 && a->nt < 20; k++) {
			fmt_num(buf, sizeof(buf), k * step, step);
			add_tick(a, k * step, true, buf);
		}
	}
	/* Ends only: a scale of one value, or within one step of a 1-2-5 tick. */
	if (a->nt < 2) {
		a->nt = 0;
		fmt_num(buf, sizeof(buf), lo, 0);
		add_tick(a, lo, true, buf);
		if (hi > lo) {
			fmt_num(buf, sizeof(buf), hi, 0);
			add_tick(a, hi, true, buf);
		}
	}
}

static double heat_z(const struct svg_heatmap *c, size_t ix, size_t iy)
{
	return c->z[iy * c->nx + ix];
}

/* One size for every cell's text, so that the longest value fits; 0 below 5 px, unreadable. */
static double heat_font(const struct svg_heatmap *c, double cw, double ch)
{
	size_t len = 3;   /* n/a */
	char buf[24];
	double fs;

	for (size_t i = 0; i < c->nx * c->ny; i++) {
		if (usable(c->z[i], c->logz)) {
			fmt_num(buf, sizeof(buf), c->z[i], 0);
			len = strlen(buf) > len ? strlen(buf) : len;
		}
	}
	fs = fmin(fmin(12, ch * 0.6), (cw - 4) / ((double)len * 0.62));
	return fs >= 5 ? fs : 0;
}

static void heat_cell(FILE *f, const struct svg_heatmap *c, const struct zscale *z, size_t ix,
		      size_t iy, const struct frame *fr, double cw, double ch, double fs)
{
	double v = heat_z(c, ix, iy), x = fr->l + (double)ix * cw, y = fr->b - (double)(iy + 1) * ch;
	double rgb[3];
	const char *fg = "#555";
	char buf[24] = "n/a";

	if (usable(v, c->logz)) {
		scale_colour(zscale_t(z, v), rgb);
		fg = ink(rgb);
		fmt_num(buf, sizeof(buf), v, 0);
		fprintf(f, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"",
			x, y, cw, ch);
		fill_attr(f, rgb);
	} else {
		fprintf(f, "<rect class=\"na\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"#e4e4e4\"", x, y, cw, ch);
	}
	fputs(" stroke=\"#fff\"/>\n", f);
	if (fs > 0)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"%.1f\" "
			"fill=\"%s\">%s</text>\n", x + cw / 2, y + ch / 2 + fs * 0.35, fs, fg, buf);
}

/* The colour bar: 64 bands from low (bottom) to high, its ticks, the label; n/a if any. */
static void colour_bar(FILE *f, const struct svg_heatmap *c, const struct zscale *z,
		       const struct axis *ticks, double x, double top, double h, bool any_na)
{
	double rgb[3], bh = h / 64, tw = ticks_width(ticks);

	for (int k = 0; k < 64; k++) {
		scale_colour((k + 0.5) / 64, rgb);
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.2f\"", x,
			top + h - (k + 1) * bh, bh + 0.3);
		fill_attr(f, rgb);
		fputs("/>\n", f);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#444\"/>\n", x, top, h);
	for (size_t i = 0; i < ticks->nt; i++) {
		double y = top + h - zscale_t(z, ticks->t[i].v) * h;

		fprintf(f, "<path d=\"M%.1f %.1fh4\" stroke=\"#444\"/>\n", x + 14, y);
		text(f, x + 21, y + 4, "start", 0, 12, ticks->t[i].text, SIZE_MAX);
	}
	if (has_text(c->zlabel))
		text(f, x + 21 + tw + 16, top + h / 2, "middle", -90, 12, c->zlabel, (size_t)(h / 7));
	if (any_na) {
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\" fill=\"#e4e4e4\" "
			"stroke=\"#444\"/>\n", x, top + h + 10);
		text(f, x + 21, top + h + 20, "start", 0, 12, "n/a", SIZE_MAX);
	}
}

/* The colour range; false if no cell can be coloured. */
static bool heat_range(const struct svg_heatmap *c, struct zscale *z, bool *any_na)
{
	bool any = false;

	z->log = c->logz;
	z->lo = INFINITY;
	z->hi = -INFINITY;
	*any_na = false;
	for (size_t i = 0; i < c->nx * c->ny; i++) {
		double v = c->z[i];

		if (!usable(v, c->logz)) {
			*any_na = true;
			continue;
		}
		any = true;
		z->lo = fmin(z->lo, c->logz ? log10(v) : v);
		z->hi = fmax(z->hi, c->logz ? log10(v) : v);
	}
	return any;
}

/* Cells left to right by ix, bottom to top by iy, so y grows upward as on the other charts. */
int svg_heatmap(FILE *f, const struct svg_heatmap *c)
{
	struct zscale z;
	struct axis zt;
	struct frame fr;
	struct catax ca;
	double yw = 0, cw, ch, cbh, fs, height;
	bool any_na;

	if (!c || !c->nx || !c->ny || !c->z || c->ny > SIZE_MAX / c->nx || !heat_range(c, &z, &any_na))
		return -EINVAL;
	/* The colour bar's height first: its ticks depend on it, and the plot's width on them. */
	fr.t = TOP;
	ch = fmax(16, fmin(48, 320 / (double)c->ny));
	fr.b = fr.t + ch * (double)c->ny;
	cbh = fmin(fmax(fr.b - fr.t, 120), 320);
	zscale_ticks(&z, &zt, cbh);
	for (size_t i = 0; c->yticks && i < c->ny; i++)
		yw = fmax(yw, textw(c->yticks[i], TICK_CHARS, 12));

	fr.l = (has_text(c->ylabel) ? 34 : 10) + yw + 8;
	fr.r = W - 12 - (21 + ticks_width(&zt) + (has_text(c->zlabel) ? 24 : 0)) - 34;
	cw = (fr.r - fr.l) / (double)c->nx;
	cat_layout(&ca, c->xticks, c->nx, cw);
	if (fr.l < ca.left - cw / 2 + 6) {
		fr.l = ca.left - cw / 2 + 6;
		cw = (fr.r - fr.l) / (double)c->nx;
		cat_layout(&ca, c->xticks, c->nx, cw);
	}
	fs = heat_font(c, cw, ch);
	height = fmax(fr.b + ca.below + (has_text(c->xlabel) ? 26 : 6),
		      fr.t + cbh + (any_na ? 30 : 0)) + 8;

	doc_begin(f, height, c->title);
	for (size_t iy = 0; iy < c->ny; iy++) {
		for (size_t ix = 0; ix < c->nx; ix++)
			heat_cell(f, c, &z, ix, iy, &fr, cw, ch, fs);
		if (c->yticks)
			text(f, fr.l - 6, fr.b - ((double)iy + 0.5) * ch + 4, "end", 0, 12, c->yticks[iy],
			     TICK_CHARS);
	}
	if (has_text(c->ylabel))
		text(f, 16, (fr.t + fr.b) / 2, "middle", -90, 12, c->ylabel, (size_t)((fr.b - fr.t) / 7));
	cat_draw(f, c->xticks, c->nx, &fr, &ca);
	if (has_text(c->xlabel))
		text(f, (fr.l + fr.r) / 2, fr.b + ca.below + 16, "middle", 0, 12, c->xlabel, 100);
	colour_bar(f, c, &z, &zt, fr.r + 24, fr.t, cbh, any_na);
	return doc_end(f);
}

/* ---- Numeric x ----------------------------------------------------------------------------- */

/* Point i of a series where it can be drawn: its x in the axis' space (NAN if it cannot be). */
static double xy_at(const struct svg_xy *c, const struct svg_xy_series *se, size_t i, double *y)
{
	double x;

	if (!se->x || !se->y)
		return NAN;
	x = se->x[i];
	*y = se->y[i];
	if (!usable(*y, c->logy) || !usable(x, false))
		return NAN;
	/* p100 has no place on a nines axis (it is infinitely far right): left out. */
	return c->xscale == SVG_X_NINES ? (x < 100 ? nines(x) : NAN) : x;
}

static bool xy_range(const struct svg_xy *c, double *xlo, double *xhi, double *ylo, double *yhi)
{
	bool any = false;

	*xlo = *ylo = INFINITY;
	*xhi = *yhi = -INFINITY;
	for (size_t s = 0; s < c->nseries; s++) {
		for (size_t i = 0; i < c->series[s].n; i++) {
			double y, x = xy_at(c, &c->series[s], i, &y);

			if (isnan(x))
				continue;
			any = true;
			*xlo = fmin(*xlo, x);
			*xhi = fmax(*xhi, x);
			*ylo = fmin(*ylo, y);
			*yhi = fmax(*yhi, y);
		}
	}
	return any;
}

static bool xy_ok(const struct svg_xy *c, const struct svg_xy_series *se, size_t i)
{
	double y;

	return i < se->n && !isnan(xy_at(c, se, i, &y));
}

/*
 * A path broken at gaps. Markers on every point of short series (latency curves); on long ones
 * (time series) about fifteen, staggered between series, plus any point alone between gaps.
 */
static void xy_series(FILE *f, const struct svg_xy *c, size_t s, const struct axis *xa,
		      const struct axis *ya)
{
	const struct svg_xy_series *se = &c->series[s];
	size_t every = se->n <= 30 ? 1 : (se->n + 14) / 15;
	bool pen = false;
	double x, y;

	fputs("<path d=\"", f);
	for (size_t i = 0; i < se->n; i++) {
		if (!xy_ok(c, se, i)) {
			pen = false;
			continue;
		}
		fprintf(f, "%c%.1f %.1f", pen ? 'L' : 'M', axis_pos(xa, se->x[i]), axis_pos(ya, se->y[i]));
		pen = true;
	}
	end_line(f, s);
	for (size_t i = 0; i < se->n; i++) {
		bool alone = (!i || !xy_ok(c, se, i - 1)) && !xy_ok(c, se, i + 1);

		if (!xy_ok(c, se, i) || (!alone && i % every != (s * 5) % every))
			continue;
		x = axis_pos(xa, se->x[i]);
		y = axis_pos(ya, se->y[i]);
		marker(f, s, x, y, 4, false, "pt");
	}
}

/*
 * The shaded band as fractions of the axis, clamped to it (infinite ends, and 100 or more on a
 * nines axis, go to the ends); false if it is unset or does not overlap the axis.
 */
static bool xy_shade(const struct svg_xy *c, const struct axis *xa, double *t0, double *t1)
{
	if (!c->shade_label || isnan(c->shade_x0) || isnan(c->shade_x1))
		return false;
	*t0 = axis_frac(xa, fmin(c->shade_x0, c->shade_x1));
	*t1 = axis_frac(xa, fmax(c->shade_x0, c->shade_x1));
	return *t1 - *t0 > 1e-3;
}

static void shade_rect(FILE *f, double x, double y, double w, double h)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#888\" "
		"fill-opacity=\"0.2\" stroke=\"#888\" stroke-dasharray=\"3 3\"/>\n", x, y, w, h);
}

/* How many characters of a legend name an xy chart shows. */
static size_t key_chars(const struct svg_xy *c)
{
	return c->key_chars ? c->key_chars : KEY_CHARS;
}

/* Plot area and legend: the first and last x labels may reach past the plot's ends. */
static double xy_layout(const struct svg_xy *c, struct axis *xa, struct axis *ya, struct frame *fr,
			struct legend *lg, bool shade)
{
	double w = 0, under = has_text(c->xlabel) ? 46 : 26;

	for (size_t s = 0; s < c->nseries; s++)
		w = fmax(w, textw(c->series[s].name, key_chars(c), 12));
	if (shade)
		w = fmax(w, textw(c->shade_label, key_chars(c), 12));
	legend_plan(lg, w, c->nseries + shade, c->key_title);
	fr->t = TOP;
	fr->l = (has_text(c->ylabel) ? 34 : 10) + ticks_width(ya) + 8;
	fr->l = fmax(fr->l, ticks_width(xa) / 2 + 6);
	fr->r = W - 12 - fmax(legend_right(lg), ticks_width(xa) / 2);
	fr->b = fr->t + PH;
	xa->p0 = fr->l;
	xa->p1 = fr->r;
	ya->p0 = fr->b;
	ya->p1 = fr->t;
	legend_place(lg, fr, under + 4);
	return fr->b + under + legend_below(lg) + 8;
}

/* The band goes under everything else; its legend entry comes after the series'. */
int svg_xy(FILE *f, const struct svg_xy *c)
{
	struct axis xa, ya;
	struct frame fr;
	struct legend lg;
	double xlo, xhi, ylo, yhi, t0 = 0, t1 = 0, height, x, y;
	bool shade;

	if (!c || !c->nseries || !c->series || !xy_range(c, &xlo, &xhi, &ylo, &yhi))
		return -EINVAL;
	if (c->xscale == SVG_X_NINES)
		axis_nines(&xa, xlo, xhi);
	else
		axis_lin(&xa, xlo, xhi, false);
	if (c->logy)
		axis_log(&ya, ylo, yhi, PH);
	else
		axis_lin(&ya, ylo, yhi, true);
	shade = xy_shade(c, &xa, &t0, &t1);
	height = xy_layout(c, &xa, &ya, &fr, &lg, shade);

	doc_begin(f, height, c->title);
	if (shade)
		shade_rect(f, fr.l + t0 * (fr.r - fr.l), fr.t, (t1 - t0) * (fr.r - fr.l), fr.b - fr.t);
	yaxis_draw(f, &ya, &fr, c->ylabel);
	xaxis_draw(f, &xa, &fr, c->xlabel);
	axis_lines(f, &fr);
	legend_heading(f, &lg);
	for (size_t s = 0; s < c->nseries; s++) {
		xy_series(f, c, s, &xa, &ya);
		fputs("<g class=\"key\">\n", f);
		legend_entry(f, &lg, s, c->series[s].name, key_chars(c), &x, &y);
		key_line(f, s, x, y);
		fputs("</g>\n", f);
	}
	if (shade) {
		fputs("<g class=\"key\">\n", f);
		legend_entry(f, &lg, c->nseries, c->shade_label, key_chars(c), &x, &y);
		shade_rect(f, x, y - 6, 24, 12);
		fputs("</g>\n", f);
	}
	return doc_end(f);
}

/* ---- Strip chart --------------------------------------------------------------------------- */

#define STRIP_NAMED 6   /* outliers named per category, the most extreme (first) first */

static bool strip_range(const struct svg_strip *c, double *lo, double *hi)
{
	bool any = false;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < c->nx * c->npts; i++)
		if (usable(c->y[i], c->logy)) {
			any = true;
			*lo = fmin(*lo, c->y[i]);
			*hi = fmax(*hi, c->y[i]);
		}
	return any;
}

/* Drive k's place across its slot: the golden ratio's multiples, so that neighbours spread evenly. */
static double strip_jitter(size_t k)
{
	double v = (double)k * 0.6180339887;

	return v - floor(v) - 0.5;
}

static void strip_category(FILE *f, const struct svg_strip *c, size_t ix, const struct axis *ya,
			   const struct frame *fr)
{
	double slot = (fr->r - fr->l) / (double)c->nx, x0 = fr->l + ((double)ix + 0.5) * slot;
	double half = fmin(slot * 0.3, 40);
	size_t named = 0;

	if (usable(c->lo[ix], c->logy) && usable(c->hi[ix], c->logy))
		fprintf(f, "<rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"#e4e4e4\" stroke=\"#999\"/>\n", x0 - half, axis_pos(ya, c->hi[ix]), 2 * half,
			fmax(1, axis_pos(ya, c->lo[ix]) - axis_pos(ya, c->hi[ix])));
	for (size_t k = 0; k < c->npts; k++) {
		double v = c->y[ix * c->npts + k];
		bool out = c->outlier && c->outlier[ix * c->npts + k];

		if (!usable(v, c->logy))
			continue;
		fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\" fill-opacity=\"%s\"/>\n",
			out ? "outlier" : "pt", x0 + strip_jitter(k) * half * 1.6, axis_pos(ya, v), out ? "4" : "2.5",
			out ? colour(1) : colour(0), out ? "1" : "0.55");
	}
	if (usable(c->median[ix], c->logy))
		fprintf(f, "<path class=\"median\" d=\"M%.1f %.1fh%.1f\" stroke=\"#111\" stroke-width=\"2.5\"/>\n",
			x0 - half, axis_pos(ya, c->median[ix]), 2 * half);
	for (size_t k = 0; c->outlier && c->names && k < c->npts; k++) {
		double v = c->y[ix * c->npts + k];

		if (!c->outlier[ix * c->npts + k] || !usable(v, c->logy) || named++ >= STRIP_NAMED)
			continue;
		text(f, x0 + strip_jitter(k) * half * 1.6 + 7, axis_pos(ya, v) + 4, "start", 0, 10, c->names[k], 16);
	}
}

int svg_strip(FILE *f, const struct svg_strip *c)
{
	struct axis ya;
	struct frame fr;
	struct catax ca;
	double lo, hi, height, head = has_text(c->key_title) ? KEY_H : 0;
	char key[160];

	if (!c || !c->nx || !c->npts || !c->y || !c->median || !c->lo || !c->hi || !strip_range(c, &lo, &hi))
		return -EINVAL;
	if (c->logy)
		axis_log(&ya, lo, hi, PH);
	else
		axis_lin(&ya, lo, hi, false);
	fr.t = TOP;
	fr.l = (has_text(c->ylabel) ? 34 : 10) + ticks_width(&ya) + 8;
	fr.r = W - 12;
	cat_layout(&ca, c->xticks, c->nx, (fr.r - fr.l) / (double)c->nx);
	fr.b = fr.t + PH;
	ya.p0 = fr.b;
	ya.p1 = fr.t;
	height = fr.b + ca.below + (has_text(c->xlabel) ? 26 : 6) + head + KEY_H + 8;
	cat_chart_begin(f, height, c->title, &ya, &fr, &ca, c->xticks, c->nx, c->ylabel, c->xlabel);
	for (size_t ix = 0; ix < c->nx; ix++)
		strip_category(f, c, ix, &ya, &fr);
	snprintf(key, sizeof(key), "dot: a drive; bar: the median; box: %s; orange, named: an outlier",
		 has_text(c->band) ? c->band : "the middle");
	if (head > 0)
		key_heading(f, fr.l, height - 10 - head, c->key_title);
	fputs("<g class=\"key\">\n", f);
	text(f, fr.l, height - 10, "start", 0, 11, key, 120);
	fputs("</g>\n", f);
	return doc_end(f);
}
