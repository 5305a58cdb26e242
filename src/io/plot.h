/* plot.h: one figure per command. Every program takes --plot (draw its own figures from the data
 * it has just written, PNG and SVG, and print their paths), --show (the same, then, when DISPLAY or
 * WAYLAND_DISPLAY is set and gnuplot offers a window terminal, qt, wxt or x11, one gnuplot -persist
 * window a figure; otherwise one line saying why none opened and which package gives one, exit 0
 * with the files written) and --figures DIR (where the files go). A program's
 * figures are the scripts plots/NAME.gp that read its data through datadir("PROGRAM") (see
 * plots/common.gp); `make render-plots` is bin/plot (src/tools/plot.c) calling plot_render()
 * for every program, so its files are these files. */
#ifndef IVPLAB_PLOT_H
#define IVPLAB_PLOT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct plot_opts {
    bool plot;              /* write the figures */
    bool show;              /* write them, then open a window */
    const char *figures;    /* folder for PNG and SVG; NULL: plots/out/ of the checkout */
} plot_opts;

/* The three flags, one line in a program's flag table. */
#define PLOT_OPTS(p)                                                                        \
    FLAG_BOOL("plot", (p).plot,                                                             \
        "draw this program's figures from its data (PNG and SVG) and print their paths"),   \
    FLAG_BOOL("show", (p).show,                                                             \
        "as --plot, then open each figure in a window (needs a display and gnuplot-qt or "  \
        "gnuplot-x11; else says why, files still written)"),                                \
    FLAG_TEXT("figures", (p).figures,                                                       \
        "folder for the figures of --plot (none given: plots/out/ in the checkout)")

/* If p asks for it, render every figure of program from the data folder dir: each script once as
 * PNG and once as SVG (in parallel, written under temporary names and renamed into place), the
 * paths printed (stdout, or stderr when tsv keeps stdout for the table). The scripts read a view
 * of dir holding only the files its manifest.txt lists (io/manifest.h: those the last run wrote;
 * the whole folder when it has none), so a figure whose data file the run did not write is skipped
 * with a note, never drawn from an older run's file. Returns 0 on success (and when nothing was
 * asked), 1 after printing "program: figure NAME: reason" (or when no figure had data). */
int plot_render(const plot_opts *p, const char *program, const char *dir, bool tsv);

/* The figure scripts of program (plots/NAME.gp that contain datadir("program")), sorted: their
 * names without .gp, written into names (up to max); returns how many, -1 if plots/ is missing. */
int plot_scripts(const char *program, char names[][64], int max);

/* Every program that has figure scripts (the PROGRAM of their datadir("PROGRAM")), sorted, into
 * names; returns how many, -1 if plots/ is missing. */
int plot_programs(char names[][64], int max);

/* Rows for a figure from a long series: of rows[i][0..ncol), i < nrows, with column tcol
 * increasing, keep in each of `buckets` equal spans of tcol the rows holding the smallest and the
 * largest value of each column kcols[j], j < nk (at most PLOT_DECIMATE_KEYS), and the first and
 * last row. Their indices go to keep (room for 2 nk buckets + 2), in order, each once; returns how
 * many. A series of nrows <= 2 nk buckets + 2 is kept whole. */
enum { PLOT_DECIMATE_KEYS = 4 };
size_t plot_decimate(const double *rows, size_t nrows, size_t ncol, size_t tcol,
                     const size_t *kcols, size_t nk, size_t buckets, size_t *keep);

/* plot_decimate's choice made as the rows come, holding only the rows it keeps (a run's steps,
 * 10^5 and more, need not be kept): rows of ncol values pushed in order of column tcol; the spans
 * divide [the first row's tcol, t_last], t_last given before (the end of a run: plot_decimate
 * passes its last row's). plot_stream_rows ends the series: the kept rows (row-major) and their
 * numbers in the series, and how many; the stream holds them until plot_stream_free. */
typedef struct plot_stream plot_stream;
plot_stream *plot_stream_new(size_t ncol, size_t tcol, const size_t *kcols, size_t nk,
                             size_t buckets, double t_last);
void plot_stream_push(plot_stream *s, const double *row);
size_t plot_stream_rows(plot_stream *s, const double **rows, const size_t **index);
void plot_stream_free(plot_stream *s);

/* The kept rows written as a table: the header line, then per row each column by its own
 * printf format (fmt[j] takes one double), tab-separated. Ends the series; returns how many
 * rows were written. */
size_t plot_stream_write(FILE *f, const char *header, plot_stream *s, const char *const *fmt);

#endif
