#include "study/work_record.h"
#include "io/table.h"
#include "analysis/measure.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

double work_run_cost(const work_run *q, double d)
{
    return (double)q->nfev + d * (double)q->njev + d / 3.0 * (double)q->nfactor + (double)q->nsolve;
}

static double work_of(const work_run *q, work_axis ax, double d)
{
    return ax == BY_EVALS ? (double)(q->nfev + q->njev) : ax == BY_COST ? work_run_cost(q, d) : q->seconds;
}

double work_to_reach(const work_run *r, int n, double target, work_axis ax, double d, const char **how)
{
    for (int i = 0; i < n; i++)
        if (r[i].error <= target) {
            if (i == 0) {
                *how = "first run";
                return work_of(&r[0], ax, d);
            }
            double x0 = log(work_of(&r[i - 1], ax, d)), x1 = log(work_of(&r[i], ax, d));
            double y0 = log(r[i - 1].error), y1 = log(r[i].error);
            *how = "interpolated";
            return exp(x0 + (log(target) - y0) * (x1 - x0) / (y1 - y0));
        }
    if (n < 2) {
        *how = "not reached";
        return NAN;
    }
    double x0 = log(work_of(&r[n - 2], ax, d)), x1 = log(work_of(&r[n - 1], ax, d));
    double y0 = log(r[n - 2].error), y1 = log(r[n - 1].error);
    if (!(y1 < y0)) {
        *how = "not reached";
        return NAN;
    }
    *how = "extrapolated";
    return exp(x1 + (log(target) - y1) * (x1 - x0) / (y1 - y0));
}

void work_runs_write(FILE *f, const work_run *rec, int n, double d)
{
    fprintf(f, "method\tlabel\tkind\tsteps_or_tol\tsteps\trejected\tnfev\tnjev\tevaluations\terror\tnfactor\tnsolve\t"
               "cost\tseconds\n");
    for (int i = 0; i < n; i++) {
        const work_run *q = &rec[i];
        if (i > 0 && strcmp(q->method, rec[i - 1].method) != 0)
            fprintf(f, "\n\n");     /* one gnuplot data block a method */
        fprintf(f, "%s\t%s\t%s\t%g\t%ld\t%ld\t%ld\t%ld\t%ld\t%.6e\t%ld\t%ld\t%.6g\t%.6e\n", q->method, q->label,
                q->adaptive ? "adaptive" : "fixed", q->param, q->steps, q->rejected, q->nfev, q->njev, q->nfev + q->njev,
                q->error, q->nfactor, q->nsolve, work_run_cost(q, d), q->seconds);
    }
}

/* -d log error / d log evals over runs i .. j-1 with error in (1e-11, 0.1); NAN below 3 runs. */
static double slope_of(const work_run *rec, int i, int j)
{
    double *ex = calloc((size_t)(j - i), sizeof(double)), *ey = calloc((size_t)(j - i), sizeof(double));
    size_t nf = 0;
    for (int k = i; ex && ey && k < j; k++)     /* the fit: runs above round-off, past the first digit */
        if (rec[k].error > 1e-11 && rec[k].error < 0.1)
            ex[nf] = (double)(rec[k].nfev + rec[k].njev), ey[nf++] = rec[k].error;
    double slope = nf >= 3 ? -measure_loglog_slope(ex, ey, nf) : NAN;
    free(ex);
    free(ey);
    return slope;
}

void work_runs_table(const work_run *rec, int n, double target, double d, int mode, const char *const pick[2],
                     double picked[2][3])
{
    table tab;
    table_begin(&tab, stdout, mode, "method", "+kind", "evals_to_target", "how", "best_error", "+runs", "cost_to_target",
                "+seconds_to_target", "slope", NULL);
    for (int c = 0; c < 2; c++)
        picked[c][0] = picked[c][1] = picked[c][2] = NAN;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && strcmp(rec[j].method, rec[i].method) == 0)
            j++;
        const char *how = "", *how2;
        double ev = work_to_reach(rec + i, j - i, target, BY_EVALS, d, &how);
        double cost = work_to_reach(rec + i, j - i, target, BY_COST, d, &how2);
        double secs = work_to_reach(rec + i, j - i, target, BY_SECONDS, d, &how2);
        double best = INFINITY, slope = slope_of(rec, i, j);
        for (int k = i; k < j; k++)
            best = fmin(best, rec[k].error);
        table_cell(&tab, "%s", rec[i].method);
        table_cell(&tab, "%s", rec[i].adaptive ? "adaptive" : "fixed");
        table_cell(&tab, "%.4g", ev);
        table_cell(&tab, "%s", how);
        table_cell(&tab, "%.3e", best);
        table_cell(&tab, "%d", j - i);
        table_cell(&tab, "%.4g", cost);
        if (strcmp(how2, "interpolated") == 0 || strcmp(how2, "first run") == 0)
            table_cell(&tab, "%.3g", secs);
        else
            table_cell(&tab, "-");  /* wall times are too noisy to extrapolate */
        table_cell(&tab, "%.2f", slope);
        for (int c = 0; c < 2; c++)
            if (pick[c] && strcmp(rec[i].method, pick[c]) == 0)
                picked[c][0] = ev, picked[c][1] = cost, picked[c][2] = slope;
        i = j;
    }
}
