/* sun_dense.c: sun_dense.h by SUNDIALS's dense LU (the same functions in 6.4 and 7.x) and
 * GSL's CBLAS (the triangular solves gsl_linalg_LU_solve makes). */
#include "drive/sun_dense.h"
#include "base/util.h"
#include <gsl/gsl_cblas.h>
#include <stdlib.h>
#include <sundials/sundials_dense.h>
#include <sundials/sundials_types.h>

_Static_assert(sizeof(sunrealtype) == sizeof(double), "SUNDIALS built with double precision");

void sun_dense_init(sun_dense *d, size_t n)
{
    d->n = n;
    d->a = xcalloc(n * n, sizeof(double));
    sunrealtype **cols = xcalloc(n, sizeof *cols);
    for (size_t j = 0; j < n; j++)
        cols[j] = d->a + j * n;
    d->cols = cols;
    d->piv = xcalloc(n, sizeof(sunindextype));
}

void sun_dense_free(sun_dense *d)
{
    free(d->a);
    free(d->cols);
    free(d->piv);
    d->a = NULL, d->cols = d->piv = NULL, d->n = 0;
}

int sun_dense_solve(sun_dense *d, double *b)
{
    size_t n = d->n;
    const sunindextype *piv = d->piv;
    if (SUNDlsMat_denseGETRF(d->cols, (sunindextype)n, (sunindextype)n, d->piv) != 0)
        return -1;
    for (size_t k = 0; k < n; k++) {        /* P b: the row swaps in the order they were made */
        double q = b[k];
        b[k] = b[piv[k]], b[piv[k]] = q;
    }
    /* L y = P b, then U x = y: row by row, in the order of GSL's own solve (gsl_linalg_LU_svx).
     * GSL's CBLAS sums each row of a column-major triangle in the same order as of a row-major
     * one (x_i - sum over j of A(i, j) x_j, j upwards), so the factors are read where GETRF
     * left them, without a row-major copy (test_sun_dense holds the bits) */
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, (int)n, d->a, (int)n, b, 1);
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, (int)n, d->a, (int)n, b, 1);
    return 0;
}
