/*
 * bench_svg.c - `raidx bench --plot FILE.svg`: throughput against block
 * length, one line per implementation, written by hand as a self-contained
 * SVG (no scripts, no external fonts or styles) that any browser shows.
 *
 * Block lengths go on a log2 axis (each doubling is the same distance, which
 * is how cache levels show up), GB/s on a linear axis from zero so that
 * ratios between lines can be read off the heights.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define W 1000
#define H 600
#define ML 80  /* margins: left (y labels), right (legend), top, bottom */
#define MR 210
#define MT 70
#define MB 70

/* Colour-blind-friendly palette (Okabe-Ito, then a few extra). */
static const char *const palette[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
	"#8C564B", "#332288", "#882255", "#117733", "#999933", "#44AA99",
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))

static void put_escaped(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void text(FILE *f, double x, double y, const char *anchor, int size,
		 const char *extra, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s>",
		x, y, anchor, size, extra ? " " : "", extra ? extra : "");
	put_escaped(f, s);
	fputs("</text>\n", f);
}

/* 1K, 64K, 1M, 512 ... */
static void len_label(double v, char *buf, size_t n)
{
	unsigned long long b = (unsigned long long)(v + 0.5);

	if (b >= (1ull << 30) && b % (1ull << 30) == 0)
		snprintf(buf, n, "%lluG", b >> 30);
	else if (b >= (1ull << 20) && b % (1ull << 20) == 0)
		snprintf(buf, n, "%lluM", b >> 20);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, n, "%lluK", b >> 10);
	else
		snprintf(buf, n, "%llu", b);
}

/* A step of 1, 2 or 5 times a power of ten giving 4 to 10 ticks. */
static double nice_step(double max)
{
	double raw = max / 6, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

int bench_plot_svg(const char *path, const char *title, const char *subtitle,
		   const char *xlabel, const char *ylabel,
		   const struct bench_series *series, unsigned nseries)
{
	double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
	FILE *f;

	for (unsigned s = 0; s < nseries; s++) {
		for (unsigned i = 0; i < series[s].n; i++) {
			if (series[s].y[i] < 0 || series[s].x[i] <= 0)
				continue;
			double lx = log2(series[s].x[i]);
			xmin = fmin(xmin, lx);
			xmax = fmax(xmax, lx);
			ymax = fmax(ymax, series[s].y[i]);
		}
	}
	if (!(xmin <= xmax)) { /* no points at all */
		xmin = 10;
		xmax = 20;
	}
	xmin = floor(xmin);
	xmax = ceil(xmax);
	if (xmax - xmin < 2) { /* a single length: give it some room */
		xmin -= 1;
		xmax += 1;
	}
	if (ymax <= 0)
		ymax = 1;
	double ystep = nice_step(ymax * 1.05);
	double ytop = ceil(ymax * 1.05 / ystep) * ystep;
	double pw = W - ML - MR, ph = H - MT - MB;
#define PX(lx) (ML + ((lx) - xmin) / (xmax - xmin) * pw)
#define PY(v) (MT + ph - (v) / ytop * ph)

	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
		W, H, W, H);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	text(f, W / 2.0, 28, "middle", 18, "font-weight=\"bold\"", title);
	text(f, W / 2.0, 50, "middle", 12, "fill=\"#555\"", subtitle);

	/* grid and tick labels */
	unsigned xevery = xmax - xmin > 14 ? 2 : 1;
	for (double lx = xmin; lx <= xmax + 1e-9; lx += xevery) {
		char lab[32];
		len_label(exp2(lx), lab, sizeof(lab));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n",
			PX(lx), MT, PX(lx), MT + ph);
		text(f, PX(lx), MT + ph + 18, "middle", 12, NULL, lab);
	}
	for (double v = 0; v <= ytop + ystep / 1000; v += ystep) {
		char lab[32];
		snprintf(lab, sizeof(lab), ystep < 1 ? "%.1f" : "%.0f", v);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n",
			ML, PY(v), ML + pw, PY(v));
		text(f, ML - 8, PY(v) + 4, "end", 12, NULL, lab);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n",
		ML, MT, pw, ph);
	text(f, ML + pw / 2, H - 22, "middle", 13, NULL, xlabel);
	{
		char tr[96];
		snprintf(tr, sizeof(tr), "transform=\"rotate(-90 %d %.1f)\"", 22, MT + ph / 2);
		text(f, 22, MT + ph / 2, "middle", 13, tr, ylabel);
	}

	/* lines, markers and the legend */
	/* implementations in colour, the peer dotted, the machine's limits
	 * dashed in greys */
	static const char *const greys[] = { "#222", "#888", "#bbb" };
	unsigned color = 0, grey = 0;
	for (unsigned s = 0; s < nseries; s++) {
		const struct bench_series *se = &series[s];
		const char *c = se->style == BSS_REFERENCE ? greys[grey++ % 3] : palette[color++ % NPAL];
		const char *dash = se->style == BSS_REFERENCE ? " stroke-dasharray=\"7 4\""
				   : se->style == BSS_PEER    ? " stroke-dasharray=\"2 3\""
							      : "";
		double width = se->style == BSS_CHOSEN ? 3.5 : 1.8;
		int started = 0;

		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s points=\"",
			c, width, dash);
		for (unsigned i = 0; i < se->n; i++) {
			if (se->y[i] < 0)
				continue;
			fprintf(f, "%s%.1f,%.1f", started ? " " : "", PX(log2(se->x[i])), PY(se->y[i]));
			started = 1;
		}
		fputs("\"/>\n", f);
		for (unsigned i = 0; i < se->n; i++) {
			if (se->y[i] < 0)
				continue;
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"><title>",
				PX(log2(se->x[i])), PY(se->y[i]), width + 1.2, c);
			char lab[32];
			len_label(se->x[i], lab, sizeof(lab));
			put_escaped(f, se->name);
			fprintf(f, " %s: %.2f GB/s</title></circle>\n", lab, se->y[i]);
		}

		double ly = MT + 12 + s * 22.0, lx = ML + pw + 18;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s/>\n",
			lx, ly, lx + 30, ly, c, width, dash);
		char name[64];
		snprintf(name, sizeof(name), "%s%s", se->name,
			 se->style == BSS_CHOSEN ? " * (chosen)" : "");
		text(f, lx + 38, ly + 4, "start", 13, NULL, name);
	}
	fputs("</svg>\n", f);
#undef PX
#undef PY
	if (ferror(f)) {
		int e = errno ? errno : EIO;
		fclose(f);
		errno = e;
		return -1;
	}
	return fclose(f) ? -1 : 0;
}
