/* wp_osc.c: the ivplab half of the oscillator's work-precision figure (make bench).
 * The lecture's damped oscillator (omega0 = 2 pi rad/s, sigma0 = 0.2 1/s, y(0) = (1, 0)) to
 * T = 5 s, as in "Getting the most accuracy per evaluation", but against wall time: every
 * fixed-step method of the table over 12 step counts n = 60 .. 40000, and CVODE BDF and Adams
 * over rtol = 1e-3 .. 1e-12 (atol = rtol / 1000, the lecture's ratio). Error: |y(T) - exact|_2.
 * Time: each run repeated until it has taken at least --min-time seconds (batched so that one
 * timing spans 1 ms or more); the fastest per-run time is kept, the one least disturbed by the
 * rest of the machine. The library is called in-process, as tests/bench/wp_osc.py calls
 * solve_ivp in-process, so neither side pays for starting a program.
 * Output (stdout): TSV with a header row: impl, method, label, setting, error, seconds, nfev. */
#include "drive/cvode.h"
#include "method/method.h"
#include "oscillator/oscillator.h"
#include "drive/solve.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double min_time = 0.05; /* s of repetitions per point */

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One point: run() repeated; the fastest per-run time. */
typedef double (*run_fn)(void *ctx, long *nfev); /* returns the error */

static double timed(run_fn run, void *ctx, double *err, long *nfev)
{
    double t[64];
    int k = 0;
    double total = 0.0;
    while (k < 64 && (k < 3 || total < min_time)) {
        /* batch so a fast run is timed over ~1 ms at least */
        long batch = 1;
        double t0 = wall_seconds(), dt;
        for (;;) {
            for (long b = 0; b < batch; b++)
                *err = run(ctx, nfev);
            dt = wall_seconds() - t0;
            if (dt > 1e-3 || batch > (1L << 20))
                break;
            batch *= 4;
            t0 = wall_seconds();
        }
        t[k++] = dt / (double)batch;
        total += dt;
    }
    qsort(t, (size_t)k, sizeof t[0], cmp);
    return t[0];
}

typedef struct {
    oscillator osc;
    double T, y0[2], exact[2];
    const method *m;
    long n;
    cvode_opts co;
} point;

static double run_fixed(void *c, long *nfev)
{
    point *p = c;
    ivp pr = oscillator_ivp(&p->osc);
    double y[2] = {p->y0[0], p->y0[1]};
    solve_opts so = {p->m, 0.0, p->T / (double)p->n, p->n, 0.0, 1, NULL, NULL};
    solve_result res;
    if (solve_fixed(&pr, y, &so, NULL, &res) != SOLVE_OK)
        return INFINITY;
    *nfev = res.counts.nfev;
    return hypot(y[0] - p->exact[0], y[1] - p->exact[1]);
}

static double run_cvode(void *c, long *nfev)
{
    point *p = c;
    ivp pr = oscillator_ivp(&p->osc);
    double y[2] = {p->y0[0], p->y0[1]};
    cvode_stats st;
    char err[400];
    if (cvode_solve(&pr, 0.0, y, p->T, &p->co, &st, err, sizeof err) != 0)
        return INFINITY;
    *nfev = st.nfev + st.nfev_jac;
    return hypot(y[0] - p->exact[0], y[1] - p->exact[1]);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--min-time") == 0 && i + 1 < argc)
            min_time = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: wp_osc [--min-time SECONDS]  (ivplab's points of the oscillator work-precision figure)\n");
            return 2;
        }
    }
    point p = {{2.0 * M_PI, 0.2}, 5.0, {1.0, 0.0}, {0, 0}, NULL, 0, cvode_defaults()};
    oscillator_exact(&p.osc, p.y0, p.T, p.exact);
    printf("impl\tmethod\tlabel\tsetting\terror\tseconds\tnfev\n");
    for (int i = 0; method_builtin[i]; i++) {
        p.m = method_builtin[i];
        long last = -1;
        for (int j = 0; j < 12; j++) {
            long n = lround(60.0 * pow(40000.0 / 60.0, j / 11.0));
            if (n == last)
                continue;
            last = n;
            p.n = n;
            double err;
            long nfev = 0;
            double s = timed(run_fixed, &p, &err, &nfev);
            if (isfinite(err))
                printf("ivplab\t%s\tivplab %s\tn=%ld\t%.6e\t%.6e\t%ld\n", p.m->name, p.m->label, n, err, s, nfev);
        }
    }
    for (int lmm = 0; lmm < 2; lmm++) {
        p.co = cvode_defaults();
        p.co.lmm = lmm ? CVODE_ADAMS : CVODE_BDF;
        p.co.solver = lmm ? CVODE_FIXEDPOINT : CVODE_DENSE;
        for (int e = 3; e <= 12; e++) {
            p.co.rtol = pow(10.0, -e);
            p.co.atol = p.co.rtol * 1e-3;
            double err;
            long nfev = 0;
            double s = timed(run_cvode, &p, &err, &nfev);
            if (isfinite(err))
                printf("ivplab\t%s\tivplab %s\trtol=1e-%d\t%.6e\t%.6e\t%ld\n", cvode_name(&p.co),
                       lmm ? "CVODE Adams" : "CVODE BDF", e, err, s, nfev);
        }
    }
    return 0;
}
