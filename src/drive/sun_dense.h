/* sun_dense.h: one small dense linear system at a time, in storage made once: factored by
 * SUNDIALS's dense LU (SUNDlsMat_denseGETRF, partial pivoting), solved by GSL's CBLAS triangular
 * solves (cblas_dtrsv). For callers that solve many tiny systems (the bowed string's N x N
 * contact Jacobian, twice a step), where GSL 2.7's gsl_linalg_LU_decomp allocates its pivots on
 * every call and goes through BLAS views: the same factors as GSL's and the same solution, bit
 * for bit (test_sun_dense), at a third of the instructions for N = 4. (SUNDlsMat_denseGETRS
 * would sum the back substitution in the other order, and so change the last bits.) */
#ifndef IVPLAB_SUN_DENSE_H
#define IVPLAB_SUN_DENSE_H
#include <stddef.h>

typedef struct sun_dense {
    size_t n;           /* rows = columns */
    double *a;          /* n x n, column-major: A(i, j) at a[j * n + i]; then the factors */
    void *cols;         /* n pointers to the columns of a (SUNDIALS's layout) */
    void *piv;          /* n pivots (sunindextype): row k was swapped with row piv[k] */
} sun_dense;

/* An n x n matrix (entries unset); checked allocation (base/util.h). */
void sun_dense_init(sun_dense *d, size_t n);
void sun_dense_free(sun_dense *d);
/* A(i, j), to set before each sun_dense_solve. */
static inline double *sun_dense_at(sun_dense *d, size_t i, size_t j) { return &d->a[j * d->n + i]; }
/* Factors A in place and solves A x = b, x into b (n entries). 0, or -1 when A is singular
 * (a zero pivot; b is then left as it was). */
int sun_dense_solve(sun_dense *d, double *b);

#endif
