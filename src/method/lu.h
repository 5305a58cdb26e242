/* lu.h: the linear algebra Newton needs, behind one small interface: a square matrix, dense or
 * banded, factored in place as P A = L U (partial pivoting) and then solved for right-hand sides.
 * Natively lu_gsl.c factors with GSL (dense LU, band LU); the browser build links its own
 * src/wasm/lu_dense.c instead (dense only). Storage and entry access (lu.c) are shared. */
#ifndef IVPLAB_LU_H
#define IVPLAB_LU_H
#include <stdbool.h>
#include <stddef.h>

typedef struct lu_matrix {
    size_t n;           /* rows = columns */
    size_t band; /* 0: dense, row-major n x n; b > 0: a band of half-width b, stored as n rows
                    of 3b + 1 (GSL's band layout: row j holds column j, A(i, j) at 2b + i - j) */
    double *a;          /* the entries, then the factors L and U */
    size_t *perm;       /* dense pivots: row i of the factors came from row perm[i] */
    unsigned *piv;      /* band pivots */
} lu_matrix;

/* An n x n matrix of zeros, dense (band 0) or banded; checked allocation (base/util.h). */
void lu_init(lu_matrix *m, size_t n, size_t band);
void lu_free(lu_matrix *m);
void lu_zero(lu_matrix *m);

/* A(i, j), to set before lu_factor (for a band, |i - j| <= band). */
static inline double *lu_at(lu_matrix *m, size_t i, size_t j)
{
    size_t b = m->band;
    return b ? &m->a[j * (3 * b + 1) + 2 * b + i - j] : &m->a[i * m->n + j];
}

/* Factors A in place. 0, or nonzero when the factorisation failed outright (a zero pivot is not
 * a failure here: read lu_pivot). */
int lu_factor(lu_matrix *m);
/* U(k, k) of the factors: zero (or tiny) when A is singular. */
double lu_pivot(const lu_matrix *m, size_t k);
/* Whether the factors have a zero pivot: A is singular, and lu_solve would divide by zero. */
bool lu_singular(const lu_matrix *m);
/* x from the factors: A x = b (n entries each; they may not alias). 0, nonzero on failure. */
int lu_solve(const lu_matrix *m, const double *b, double *x);

#endif
