/* plane.h: the Schelleng plane swept (lesson 11). A log-spaced grid of bow-bridge distances
 * x_b/L and bowing forces f_b; each cell one stroke of schelleng_stroke.h, classified by
 * regime.h and appended to a results file of 25 columns through sweep.h (whose header names
 * the grid and a hash of every instrument value and of the stroke, so that a file is resumed
 * only by a run that computes the same cells). Then what is read back from such a file: its
 * rows, the regime counts, the cells left unclassified, the cell nearest the middle of a
 * regime, and Figure 10's boundary lines. */
#ifndef IVPLAB_PLANE_H
#define IVPLAB_PLANE_H
#include "base/failure.h"
#include "io/params.h"
#include "io/table.h"
#include "bow/bow.h"
#include "analysis/regime.h"
#include "bow/schelleng_stroke.h"
#include "study/sweep.h"
#include <stdbool.h>

#define PLANE_NGALLERY 10       /* strokes of the Figure 9 gallery */
#define PLANE_NCOLUMNS 25       /* columns of a results file */

/* What schelleng.ini holds: the plane, the stroke, the gallery. */
typedef struct plane_params {
    double x_min, x_max;        /* smallest, largest x_b/L, 1 */
    double f_min, f_max;        /* smallest, largest bowing force, N */
    double nx, nf;              /* bowing positions, forces of the default grid, 1 */
    double n_full;              /* positions and forces of the full grid, 1 */
    schelleng_stroke stroke;    /* the stroke of every cell */
    double gallery_x;           /* x_b/L of the Figure 9 gallery, 1 */
    double gallery_offset;      /* offset between gallery waveforms in the figure, N */
    double gallery_f[PLANE_NGALLERY];   /* the gallery's forces, N */
} plane_params;

/* The keys of schelleng.ini, each declared once (io/params.h) and bound to p, in the groups
 * bin/schelleng takes as flags (FLAG_TABLE): grid, stroke; rest and gallery: the file only. */
typedef struct plane_keys {
    param_spec grid[7], stroke[5], rest[5], gallery[PLANE_NGALLERY + 1];
    param_spec all[5];
} plane_keys;
void plane_keys_bind(plane_params *p, plane_keys *k);

/* Refuses (returns 2, e: one line) a plane that cannot be swept: ends the wrong way round, one
 * end for many cells, a settle leaving under two periods of the hold, the bow hair over the
 * bridge. nx, nf: the grid's positions and forces. 0: it can. */
int plane_check(const char *program, const plane_params *p, long nx, long nf,
                const bow_instrument *in, failure *e);

typedef struct plane_grid {
    int nx, nf;                 /* positions, forces */
    double x_min, x_max;        /* x_b/L at the ends, 1 */
    double f_min, f_max;        /* forces at the ends, N */
    double rx, rf; /* ratio between neighbouring positions, forces (1.1 for one point) */
} plane_grid;

void plane_grid_init(plane_grid *g, int nx, int nf, double x_min, double x_max, double f_min,
                     double f_max);
double plane_x(const plane_grid *g, int i);     /* x_b/L of column i */
double plane_f(const plane_grid *g, int j);     /* f_b of row j, N */

/* One sweep of the plane: a sweep.h client. */
typedef struct plane_sweep {
    const bow_instrument *inst;     /* the instrument of every cell */
    const schelleng_stroke *stroke; /* the stroke of every cell */
    plane_grid grid;                /* the cells, task j * nx + i */
    bool stand_in;                  /* synthetic stand-in cells (rows marked so), for tests */
    const char *keep;               /* folder of kept analysis windows (NULL: none) */
    const char *redo; /* only the cells unclassified in this results file (NULL: all) */
    /* filled in as cells arrive */
    long failed;                    /* cells whose stroke failed, cells */
    double cpu;                     /* CPU time summed over the computed cells, s */
    char first_error[400];          /* the first failure, "" when none */
    /* held for sweep.h */
    char identity[640];             /* the header's last field */
    char *want;                     /* the cells of redo (NULL: all) */
    sweep_spec spec;                /* what sweep_open got */
} plane_sweep;

/* Readies the sweep of ps (inst, stroke, grid, stand_in, keep, redo set) into results: the
 * plane's columns, header and rows in ps->spec (for sweep_pending). 0, or 2 with one line on
 * stderr (redo unreadable or not of this grid). */
int plane_sweep_init(plane_sweep *ps, const char *program, const char *label, const char *results,
                     sweep_shard shard, long jobs);
/* sweep_open of ps->spec: 0, or the exit status (2: the results file not of this grid and
 * model, or in use) with one line on stderr. */
int plane_sweep_open(plane_sweep *ps, sweep *s);
void plane_sweep_free(plane_sweep *ps);
/* The default results file: OUT/results[-PARAMS][-full][-stand-in][-K-of-N].tsv (PARAMS: the
 * --params file's name without folder and extension). */
void plane_results_name(char *path, size_t n, const char *out, const char *params_name, bool full,
                        bool stand_in, sweep_shard sh);

/* bin/schelleng --merge: the parts of a sweep run with --shard K/N (sweep_merge: every part
 * of this program, one grid, model and N, every cell once, every row whole and valid) into
 * results (NULL: the first part's name without -K-of-N), atomically; its name into path, its
 * grid (from the parts' header) into g. 0, or the exit status with one line on stderr (2: the
 * part and the cell, or the shards missing). */
int plane_merge(const char *program, char *const *part, int nparts, const char *results,
                plane_grid *g, char *path, size_t pathlen);

/* A row of a results file, read back. */
typedef struct plane_row {
    int i, j;       /* grid indices */
    double x, f;    /* x_b/L, 1; f_b, N */
    int kind;       /* regime_kind, -1 for a failed cell */
    int reason;     /* regime_reason, -1 when unknown */
} plane_row;

/* Every row of a results file (missing: none); *n gets how many. Free the array. */
plane_row *plane_load_rows(const char *path, long *n);
/* Regime counts of a results file (counts[REGIME_COUNT]: failed cells) and unclassified cells
 * by reason; the number of rows. */
long plane_counts(const char *path, long counts[REGIME_COUNT + 1],
                  long reasons[REGIME_REASON_COUNT]);
/* The regime counts of a results file as rows of tab (what, regime, cells, of), then the
 * unclassified cells by reason ("unclassified:REASON", of the unclassified ones). */
void plane_summary_rows(table *tab, const char *what, const char *results);
/* The row of kind nearest the middle (log coordinates) of all rows of that kind; -1 if none. */
long plane_central(const plane_row *rows, long n, int kind);

/* ---- waveforms: Figures 9 and 11 ---- */

/* A stroke's classification and its bridge force resampled for a figure. */
typedef struct plane_wave {
    regime_result r;    /* the classification */
    double *wave;       /* the bridge force at the figure's rate, N (NULL: the stroke failed) */
    size_t n;           /* its samples */
} plane_wave;

/* The bridge force of s resampled to rate (resample.h); *n samples. Free it. NULL with the
 * reason in err when the resampler refuses. */
double *plane_resampled(const schelleng_signal *s, double rate, size_t *n, char *err,
                        size_t errlen);
/* Figure 9: the n strokes at x_b/L = x with the forces f[], on jobs workers (sweep.h, no
 * results file), into out[] (free each wave). Returns the strokes that failed (each named on
 * stderr). */
int plane_gallery(const char *program, const bow_instrument *in, const schelleng_stroke *st,
                  double x, const double *f, int n, long jobs, double rate, plane_wave *out);
/* Figure 11: a waveform of regime kind, periods periods of 1/f0 long at rate: the stroke of the
 * row nearest the middle of that regime's rows (at the grid's own x and f, not the rows'
 * rounded ones: the bowed string depends sensitively on them), its window's last periods; when
 * there is none or it fails, regime_synthetic's kinematic sketch. *where says which cell or
 * "a kinematic sketch, not the model"; returns "simulated" or "synthetic" (free *w). When the
 * resampler refuses the simulated stroke: NULL, e: "PROGRAM: reason", status 1. */
const char *plane_example(const char *program, const bow_instrument *in, const schelleng_stroke *st,
                          const plane_grid *g, const plane_row *rows, long n, int kind, double rate,
                          double periods, double **w, size_t *nw, char *where, size_t wherelen,
                          failure *e);

/* Schelleng's slopes of Figure 10's edges (NAN: none predicted). */
extern const double plane_schelleng_slope[REGIME_EDGE_COUNT];
/* Figure 10's edges read off a results file of grid g (regime_edges), fitted into fit[], and
 * written to RESULTS-boundaries.tsv (its name in path): each column's edges, then the fits. 0,
 * or -1 when the file cannot be written (errno set). */
int plane_boundaries(const char *results, const plane_grid *g, regime_fit fit[REGIME_EDGE_COUNT],
                     char *path, size_t pathlen);

#endif
