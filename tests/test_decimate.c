/* test_decimate.c: plot_decimate, the rows a figure keeps of a long series (bin/drop's steps.tsv):
 * the first and last row, each key column's smallest and largest value in every span, each row
 * once and in order, within the stated room; short series whole; the same rows chosen as they
 * come (plot_stream). */
#include "check.h"
#include "io/plot.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 20000, NCOL = 3, BUCKETS = 50 };

int main(void)
{
    double *rows = calloc((size_t)N * NCOL, sizeof *rows);
    size_t *keep = calloc(4 * BUCKETS + 2, sizeof *keep);
    for (size_t i = 0; i < N; i++) {
        double t = 2.0 * (double)i / N;
        rows[i * NCOL] = t;
        rows[i * NCOL + 1] = 1e-5 * (1.0 + 0.5 * sin(37.0 * t)) - (i == 12345 ? 9e-6 : 0.0);   /* one dip */
        rows[i * NCOL + 2] = exp(-t) * sin(2513.0 * t);                                         /* ringing */
    }
    const size_t keys[] = {1, 2};
    size_t n = plot_decimate(rows, N, NCOL, 0, keys, 2, BUCKETS, keep);
    check(n <= 4 * BUCKETS + 2 && n > 2 * BUCKETS, "%zu rows kept of %d (room %d)", n, N, 4 * BUCKETS + 2);
    check(keep[0] == 0 && keep[n - 1] == N - 1, "first and last row kept");
    int order = 1, dip = 0;
    for (size_t i = 0; i < n; i++) {
        order = order && (i == 0 || keep[i] > keep[i - 1]);
        dip = dip || keep[i] == 12345;
    }
    check(order, "indices increase: each row once, in time order");
    check(dip, "the one dip in column 1 (row 12345) is kept");
    double umax = 0.0, kmax = 0.0;
    for (size_t i = 0; i < N; i++)
        umax = fmax(umax, rows[i * NCOL + 2]);
    for (size_t i = 0; i < n; i++)
        kmax = fmax(kmax, rows[keep[i] * NCOL + 2]);
    check(kmax == umax, "the ringing's largest value is kept (%.6f)", kmax);
    /* in every span the envelope is there: the kept rows of each span hold its max of column 2 */
    int env = 1;
    double span = rows[(N - 1) * NCOL];        /* the spans divide [t_first, t_last] */
    for (size_t b = 0; b < BUCKETS; b++) {
        double lo = span * (double)b / BUCKETS, hi = b + 1 == BUCKETS ? INFINITY : span * (double)(b + 1) / BUCKETS;
        double m = -INFINITY, km = -INFINITY;
        for (size_t i = 1; i < N - 1; i++)
            if (rows[i * NCOL] >= lo && rows[i * NCOL] < hi)
                m = fmax(m, rows[i * NCOL + 2]);
        for (size_t i = 0; i < n; i++)
            if (rows[keep[i] * NCOL] >= lo && rows[keep[i] * NCOL] < hi)
                km = fmax(km, rows[keep[i] * NCOL + 2]);
        env = env && (km == m || fabs(km - m) < 1e-12 * fabs(m));
    }
    check(env, "every span keeps its largest value of column 2");
    size_t n_short = plot_decimate(rows, 150, NCOL, 0, keys, 2, BUCKETS, keep);
    check(n_short == 150 && keep[149] == 149, "a series within the room is kept whole (%zu of 150)", n_short);
    check(plot_decimate(NULL, 0, NCOL, 0, keys, 2, BUCKETS, keep) == 0, "an empty series keeps nothing");
    /* as the rows come (bin/drop's steps): the same rows, their values with them */
    n = plot_decimate(rows, N, NCOL, 0, keys, 2, BUCKETS, keep);
    plot_stream *st = plot_stream_new(NCOL, 0, keys, 2, BUCKETS, rows[(N - 1) * NCOL]);
    for (size_t i = 0; i < N; i++)
        plot_stream_push(st, rows + i * NCOL);
    const double *kv;
    const size_t *ki;
    size_t ns = plot_stream_rows(st, &kv, &ki);
    int same = ns == n;
    for (size_t i = 0; same && i < n; i++)
        same = ki[i] == keep[i]
               && memcmp(kv + i * NCOL, rows + keep[i] * NCOL, sizeof(double) * NCOL) == 0;
    check(same, "plot_stream: the rows plot_decimate keeps, with their values (%zu of %d)", ns, N);
    plot_stream_free(st);
    free(rows);
    free(keep);
    return check_done();
}
