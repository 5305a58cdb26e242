/* lu_gsl.c: lu.h's factor and solve by GSL's dense LU and band LU (the native build). */
#include "method/lu.h"
#include <gsl/gsl_linalg.h>

int lu_factor(lu_matrix *m)
{
    size_t n = m->n, b = m->band;
    if (b) {
        gsl_matrix_view ab = gsl_matrix_view_array(m->a, n, 3 * b + 1);
        gsl_vector_uint_view piv = gsl_vector_uint_view_array(m->piv, n);
        return gsl_linalg_LU_band_decomp(n, b, b, &ab.matrix, &piv.vector);
    }
    gsl_matrix_view a = gsl_matrix_view_array(m->a, n, n);
    gsl_permutation perm = {n, m->perm};
    int sign;
    return gsl_linalg_LU_decomp(&a.matrix, &perm, &sign);
}

int lu_solve(const lu_matrix *m, const double *b, double *x)
{
    size_t n = m->n, w = m->band;
    gsl_vector_const_view bv = gsl_vector_const_view_array(b, n);
    gsl_vector_view xv = gsl_vector_view_array(x, n);
    if (w) {
        gsl_matrix_const_view ab = gsl_matrix_const_view_array(m->a, n, 3 * w + 1);
        gsl_vector_uint_const_view piv = gsl_vector_uint_const_view_array(m->piv, n);
        return gsl_linalg_LU_band_solve(w, w, &ab.matrix, &piv.vector, &bv.vector, &xv.vector);
    }
    gsl_matrix_const_view a = gsl_matrix_const_view_array(m->a, n, n);
    gsl_permutation perm = {n, m->perm};
    return gsl_linalg_LU_solve(&a.matrix, &perm, &bv.vector, &xv.vector);
}
