/* lu_dense.c: lu.h's factor and solve for the browser build (GSL is not in the module): a dense
 * LU with partial pivoting. No explorer's problem declares a band, so the band path traps. */
#include "method/lu.h"
#include <math.h>

static void swap_rows(lu_matrix *m, size_t k, size_t r)
{
    for (size_t j = 0; j < m->n; j++) {
        double t = *lu_at(m, k, j);
        *lu_at(m, k, j) = *lu_at(m, r, j);
        *lu_at(m, r, j) = t;
    }
    size_t t = m->perm[k];
    m->perm[k] = m->perm[r];
    m->perm[r] = t;
}

int lu_factor(lu_matrix *m)
{
    if (m->band)
        __builtin_trap();
    size_t n = m->n;
    for (size_t i = 0; i < n; i++)
        m->perm[i] = i;
    for (size_t k = 0; k < n; k++) {
        size_t piv = k;     /* the largest entry of column k on or below the diagonal */
        for (size_t i = k + 1; i < n; i++)
            if (fabs(*lu_at(m, i, k)) > fabs(*lu_at(m, piv, k)))
                piv = i;
        if (piv != k)
            swap_rows(m, k, piv);
        double d = *lu_at(m, k, k);
        if (d == 0.0)
            continue;       /* singular: the caller reads the zero pivot */
        for (size_t i = k + 1; i < n; i++) {
            double l = *lu_at(m, i, k) / d;
            *lu_at(m, i, k) = l;
            for (size_t j = k + 1; j < n; j++)
                *lu_at(m, i, j) -= l * *lu_at(m, k, j);
        }
    }
    return 0;
}

int lu_solve(const lu_matrix *m, const double *b, double *x)
{
    if (m->band)
        __builtin_trap();
    size_t n = m->n;
    const double *a = m->a;
    for (size_t i = 0; i < n; i++) {        /* L z = P b */
        double acc = b[m->perm[i]];
        for (size_t j = 0; j < i; j++)
            acc -= a[i * n + j] * x[j];
        x[i] = acc;
    }
    for (size_t i = n; i-- > 0;) {          /* U x = z */
        double acc = x[i];
        for (size_t j = i + 1; j < n; j++)
            acc -= a[i * n + j] * x[j];
        x[i] = acc / a[i * n + i];
    }
    return 0;
}
