#include "string/partials.h"
#include "base/util.h"
#include "analysis/measure.h"
#include "string/string_run.h"
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The K leading right singular vectors of the Hankel matrix of x (n - L rows, L + 1 columns):
 * *V, L + 1 rows. 0, or -1 when GSL fails. */
static int hankel_right_vectors(const double *x, size_t n, size_t L, gsl_matrix **V)
{
    size_t rows = n - L, cols = L + 1;
    gsl_matrix *A = gsl_matrix_alloc(rows, cols), *X = gsl_matrix_alloc(cols, cols);
    *V = gsl_matrix_alloc(cols, cols);
    gsl_vector *S = gsl_vector_alloc(cols), *work = gsl_vector_alloc(cols);
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            gsl_matrix_set(A, i, j, x[i + j]);
    int rc = gsl_linalg_SV_decomp_mod(A, X, *V, S, work);
    gsl_matrix_free(A);
    gsl_matrix_free(X);
    gsl_vector_free(S);
    gsl_vector_free(work);
    return rc == 0 ? 0 : -1;
}

int partials_pencil(const double *x, size_t n, size_t L, int K, double complex *poles, char *err,
                    size_t errlen)
{
    if (K < 1 || (size_t)K >= L || L + 1 > n - L) {
        snprintf(
            err, errlen,
            "matrix pencil: order %d with %zu columns and %zu samples (need K < L, 2L + 1 <= n)", K,
            L, n);
        return -1;
    }
    gsl_matrix *V;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int svd = hankel_right_vectors(x, n, L, &V);
    gsl_set_error_handler(old);
    if (svd != 0) {
        gsl_matrix_free(V);
        snprintf(err, errlen, "matrix pencil: the SVD of the %zu x %zu Hankel matrix failed", n - L,
                 L + 1);
        return -1;
    }
    gsl_matrix_view up = gsl_matrix_submatrix(V, 0, 0, L, (size_t)K),
                    down = gsl_matrix_submatrix(V, 1, 0, L, (size_t)K);
    gsl_matrix *QR = gsl_matrix_alloc(L, (size_t)K), *Xm = gsl_matrix_alloc((size_t)K, (size_t)K);
    gsl_matrix_memcpy(QR, &up.matrix);
    gsl_vector *tau = gsl_vector_alloc((size_t)K), *xs = gsl_vector_alloc((size_t)K),
               *res = gsl_vector_alloc(L);
    gsl_linalg_QR_decomp(QR, tau);
    for (int j = 0; j < K; j++) {
        gsl_vector_view b = gsl_matrix_column(&down.matrix, (size_t)j);
        gsl_linalg_QR_lssolve(QR, tau, &b.vector, xs, res);
        gsl_matrix_set_col(Xm, (size_t)j, xs);
    }
    gsl_vector_complex *ev = gsl_vector_complex_alloc((size_t)K);
    gsl_eigen_nonsymm_workspace *ew = gsl_eigen_nonsymm_alloc((size_t)K);
    old = gsl_set_error_handler_off();
    int rc = gsl_eigen_nonsymm(Xm, ev, ew);
    gsl_set_error_handler(old);
    for (int j = 0; j < K && rc == 0; j++) {
        gsl_complex e = gsl_vector_complex_get(ev, (size_t)j);
        poles[j] = GSL_REAL(e) + I * GSL_IMAG(e);
    }
    if (rc != 0)
        snprintf(err, errlen, "matrix pencil: the %d x %d eigenproblem did not converge", K, K);
    gsl_eigen_nonsymm_free(ew);
    gsl_vector_complex_free(ev);
    gsl_vector_free(tau);
    gsl_vector_free(xs);
    gsl_vector_free(res);
    gsl_matrix_free(QR);
    gsl_matrix_free(Xm);
    gsl_matrix_free(V);
    return rc == 0 ? 0 : -1;
}

/* The damped frequency of a mode, rad/s (0 when it is not underdamped). */
static double damped_omega(const string_mode *md)
{
    double d = md->omega0sq - md->alpha * md->alpha;
    return d > 0 ? sqrt(d) : 0.0;
}

int partials_modes(const string_params *s, double f_max, int max_modes, string_mode **modes)
{
    int M = 0;
    while (M < max_modes) {
        string_mode md = string_exact_mode(s, M + 1);
        double om = damped_omega(&md);
        if (om <= 0 || om > 2.0 * M_PI * f_max)
            break;
        M++;
    }
    *modes = xcalloc(M > 0 ? (size_t)M : 1, sizeof **modes);
    for (int k = 0; k < M; k++)
        (*modes)[k] = string_exact_mode(s, k + 1);
    return M;
}

/* The rows before the run: exact, predicted, excitation; measured columns NAN. Returns the
 * number of modes above the node floor (each two poles of the signal). */
static int predict_rows(const partials_cfg *c, const method *m, const string_mode *modes, int M,
                        partial_row *rows)
{
    double h = 1.0 / (c->fs * (double)c->sub), top = 0.0;
    for (int k = 0; k < M; k++) {
        double om = damped_omega(&modes[k]);
        partial_row *r = &rows[k];
        r->mode = k + 1;
        r->f_exact = om / (2.0 * M_PI);
        r->alpha = modes[k].alpha;
        r->t60_exact = measure_t60(r->alpha);
        r->excitation = fabs(modes[k].pickup * modes[k].amplitude) * modes[k].omega0sq / om;
        r->pred = stability_partial_of(m, h, r->alpha, om);
        r->f_meas = r->decay_meas = r->cents_meas = r->t60_ratio_meas = NAN;
        top = fmax(top, r->excitation);
    }
    int excited = 0;
    for (int k = 0; k < M; k++) {
        partial_row *r = &rows[k];
        r->excitation /= top;
        /* the distance to the nearer neighbour's predicted frequency */
        double gap = INFINITY;
        if (k > 0)
            gap = fabs(r->pred.omega - rows[k - 1].pred.omega);
        if (k + 1 < M)
            gap = fmin(gap, fabs(stability_partial_of(m, h, modes[k + 1].alpha,
                                                      damped_omega(&modes[k + 1]))
                                     .omega -
                                 r->pred.omega));
        r->status = r->excitation < PARTIALS_NODE ? "node" : r->excitation < c->level ? "weak"
                    : r->pred.decay > PARTIALS_RESOLVED * gap ? "unresolved" : "measured";
        excited += r->excitation >= PARTIALS_NODE;
    }
    return excited;
}

/* Each measured row's pole: the one nearest the predicted ln mu, upper half plane. */
static void match_poles(const partials_cfg *c, partial_row *rows, int M,
                        const double complex *poles, int K)
{
    for (int k = 0; k < M; k++) {
        partial_row *r = &rows[k];
        if (strcmp(r->status, "measured") != 0)
            continue;
        double complex want = (-r->pred.decay + I * r->pred.omega) / c->fs, best = NAN;
        double dbest = INFINITY;
        for (int j = 0; j < K; j++) {
            double complex lz = clog(poles[j]);
            if (cimag(lz) > 0 && cabs(lz - want) < dbest)
                dbest = cabs(lz - want), best = lz;
        }
        if (!isfinite(dbest)) {
            r->status = "lost";
            continue;
        }
        r->f_meas = cimag(best) * c->fs / (2.0 * M_PI);
        r->decay_meas = -creal(best) * c->fs;
        r->cents_meas = 1200.0 * log2(r->f_meas / r->f_exact);
        r->t60_ratio_meas = r->decay_meas == 0 ? INFINITY : r->alpha / r->decay_meas;
    }
}

int partials_study(const partials_cfg *c, const method *m, const string_mode *modes, int M,
                   partial_row **rows, char *err, size_t errlen)
{
    *rows = xcalloc(M > 0 ? (size_t)M : 1, sizeof **rows);
    int excited = predict_rows(c, m, modes, M, *rows), K = 2 * excited, worst = -1;
    if (K == 0)
        return 0;
    for (int k = 0; k < M; k++)
        if ((*rows)[k].excitation >= PARTIALS_NODE &&
            (worst < 0 || (*rows)[k].pred.decay < (*rows)[worst].pred.decay))
            worst = k;
    double growth = exp(-(*rows)[worst].pred.decay * (double)c->n_fit / c->fs);
    if (growth > PARTIALS_GROWTH_MAX) {
        for (int k = 0; k < M; k++)
            if (strcmp((*rows)[k].status, "weak") != 0 && strcmp((*rows)[k].status, "node") != 0)
                (*rows)[k].status = "swamped";
        snprintf(
            err, errlen,
            "%s makes mode %d grow by %.3g over the %ld samples: the pencil would see that partial "
            "alone, so none is measured",
            m->name, worst + 1, growth, c->n_fit);
        return 1;
    }
    string_run_cfg rc = {
        .fs = c->fs, .n = c->n_fit, .tol_abs = 0.0, .blowup = 1e300, .meter = c->meter};
    string_run r;
    string_run_start(&r, "modal", M, m->name, c->sub);
    double *x = xcalloc((size_t)c->n_fit, sizeof(double));
    string_run_modal(&rc, modes, M, m, c->sub, x, &r);
    int status = 0;
    if (!string_run_ok(&r)) {
        snprintf(err, errlen, "%s on the Galerkin system (%d modes): %s", m->name, M, r.message);
        status = -1;
    }
    double complex *poles = xcalloc((size_t)K, sizeof *poles);
    if (status == 0 &&
        partials_pencil(x, (size_t)c->n_fit, (size_t)c->n_fit / 3, K, poles, err, errlen) != 0)
        status = -1;
    if (status == 0)
        match_poles(c, *rows, M, poles, K);
    free(poles);
    free(x);
    return status;
}

int partials_grid_tsv(FILE *f, const string_fd *fd, const method *m, double h, double f_max)
{
    string_mode *gm;
    int ng = string_fd_modes(fd, &gm);
    for (int k = 0; k < ng; k++) {
        string_mode ex = string_exact_mode(&fd->s, k + 1);
        double oe = damped_omega(&ex), og = damped_omega(&gm[k]);
        if (oe <= 0 || og <= 0 || oe > 2.0 * M_PI * f_max)
            break;
        stability_partial p = stability_partial_of(m, h, gm[k].alpha, og);
        fprintf(f, "%d\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\n", k + 1, oe / (2.0 * M_PI),
                og / (2.0 * M_PI), 1200.0 * log2(og / oe), 1200.0 * log2(p.omega / oe),
                ex.alpha / gm[k].alpha, ex.alpha / p.decay);
    }
    free(gm);
    return ferror(f) ? -1 : 0;
}
