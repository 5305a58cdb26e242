/* test_sun_dense.c: drive/sun_dense.h (SUNDIALS's dense LU, GSL's triangular solves, storage
 * made once) solves A x = b where A is not symmetric (so a row-major mix-up fails), with rows to
 * swap (a zero in the corner), on the same storage again (no stale factors), to the same bits as
 * GSL's LU (SUNDIALS's own solve, denseGETRS, differs in the last bits from n = 3); says so, and
 * leaves b alone, when A is singular. */
#include "check.h"
#include "drive/sun_dense.h"
#include <gsl/gsl_linalg.h>
#include <string.h>

/* A(i, j) of a nonsymmetric test matrix, with a zero at (0, 0): row swaps are needed. */
static double entry(size_t n, size_t i, size_t j, int seed)
{
    if (i == 0 && j == 0 && n > 1)
        return 0.0;
    double diag = i == j ? 0.5 * (double)n : 0.0;
    return sin(0.7 * (double)(i * n + j) + seed) + diag + 0.3 * (double)j;
}

/* Solves one n x n system on d and by GSL; the largest difference relative to |x| (*resid: the
 * largest residual). */
static double against_gsl(sun_dense *d, size_t n, int seed, double *resid)
{
    gsl_matrix *A = gsl_matrix_alloc(n, n);
    gsl_vector *b = gsl_vector_alloc(n), *x = gsl_vector_alloc(n);
    gsl_permutation *p = gsl_permutation_alloc(n);
    double bs[64];
    for (size_t i = 0; i < n; i++) {
        bs[i] = cos(1.3 * (double)i + seed);
        gsl_vector_set(b, i, bs[i]);
        for (size_t j = 0; j < n; j++) {
            *sun_dense_at(d, i, j) = entry(n, i, j, seed);
            gsl_matrix_set(A, i, j, entry(n, i, j, seed));
        }
    }
    int sg, rc = sun_dense_solve(d, bs);
    gsl_linalg_LU_decomp(A, p, &sg);
    gsl_linalg_LU_solve(A, p, b, x);
    double diff = rc == 0 ? 0.0 : INFINITY, size = 0.0, r = 0.0;
    for (size_t i = 0; i < n; i++) {
        diff = fmax(diff, fabs(bs[i] - gsl_vector_get(x, i)));
        size = fmax(size, fabs(gsl_vector_get(x, i)));
        double ax = 0.0;        /* the residual of A x = b with the original entries */
        for (size_t j = 0; j < n; j++)
            ax += entry(n, i, j, seed) * bs[j];
        r = fmax(r, fabs(ax - cos(1.3 * (double)i + seed)));
    }
    *resid = r;
    gsl_matrix_free(A), gsl_vector_free(b), gsl_vector_free(x), gsl_permutation_free(p);
    return diff / size;
}

int main(void)
{
    size_t sizes[] = {1, 2, 4, 7, 64};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        sun_dense d;
        sun_dense_init(&d, n);
        for (int seed = 0; seed < 16; seed++) {     /* 16 systems on the same storage */
            double r, rel = against_gsl(&d, n, seed, &r);
            check(rel == 0.0 && r <= 1e-13 * (double)n,
                  "n = %zu, system %d: the same x as GSL's LU (largest difference %.2e of |x|), "
                  "residual |A x - b| %.2e", n,
                  seed + 1, rel, r);
        }
        sun_dense_free(&d);
    }
    /* rows 0 and 2 equal: singular */
    sun_dense d;
    sun_dense_init(&d, 3);
    double rows[3][3] = {{1, 2, 3}, {4, 5, 7}, {1, 2, 3}}, b[3] = {1, 2, 3};
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            *sun_dense_at(&d, i, j) = rows[i][j];
    int rc = sun_dense_solve(&d, b);
    check(rc == -1 && b[0] == 1 && b[1] == 2 && b[2] == 3,
          "a singular matrix: %d (expected -1), b left as it was (%g %g %g)", rc, b[0], b[1], b[2]);
    sun_dense_free(&d);
    check(d.a == NULL && d.n == 0, "sun_dense_free leaves it empty");
    return check_done();
}
