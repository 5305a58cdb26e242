/* gsl/gsl_linalg.h for the browser build only (src/wasm/; the Makefile puts src/wasm first on the
 * include path of the module, never of libivplab): the few GSL types and calls that
 * method/newton.c makes, so that the page steps implicit methods with the lessons' own Newton
 * iteration. Dense LU with partial pivoting (gsl_lite.c); the band LU is not here, and the band
 * path (a problem declaring ivp.band) is never taken by the explorers' problems: it traps. */
#ifndef IVPLAB_WASM_GSL_LINALG_H
#define IVPLAB_WASM_GSL_LINALG_H
#include <stddef.h>

typedef struct {
    size_t size1, size2;    /* rows, columns */
    size_t tda;             /* row stride, = size2 */
    double *data;           /* row-major */
} gsl_matrix;

typedef struct {
    size_t size;            /* entries */
    double *data;
} gsl_vector;

typedef struct {
    size_t size;
    unsigned int *data;
} gsl_vector_uint;

typedef struct {
    size_t size;            /* entries */
    size_t *data;           /* row i of the factors came from row data[i] */
} gsl_permutation;

gsl_matrix *gsl_matrix_alloc(size_t n1, size_t n2);
void gsl_matrix_free(gsl_matrix *m);
void gsl_matrix_set_zero(gsl_matrix *m);
static inline double gsl_matrix_get(const gsl_matrix *m, size_t i, size_t j) { return m->data[i * m->tda + j]; }
static inline void gsl_matrix_set(gsl_matrix *m, size_t i, size_t j, double x) { m->data[i * m->tda + j] = x; }
gsl_vector *gsl_vector_alloc(size_t n);
void gsl_vector_free(gsl_vector *v);
static inline double gsl_vector_get(const gsl_vector *v, size_t i) { return v->data[i]; }
static inline void gsl_vector_set(gsl_vector *v, size_t i, double x) { v->data[i] = x; }
gsl_vector_uint *gsl_vector_uint_alloc(size_t n);
void gsl_vector_uint_free(gsl_vector_uint *v);
gsl_permutation *gsl_permutation_alloc(size_t n);
void gsl_permutation_free(gsl_permutation *p);

/* A = P^T L U in place (L unit lower, U upper), partial pivoting; *signum = (-1)^swaps. 0. */
int gsl_linalg_LU_decomp(gsl_matrix *A, gsl_permutation *p, int *signum);
/* x from the factors: A x = b. 0. */
int gsl_linalg_LU_solve(const gsl_matrix *LU, const gsl_permutation *p, const gsl_vector *b, gsl_vector *x);
/* Not in the browser build: trap. */
int gsl_linalg_LU_band_decomp(size_t n, size_t lb, size_t ub, gsl_matrix *AB, gsl_vector_uint *piv);
int gsl_linalg_LU_band_solve(size_t lb, size_t ub, const gsl_matrix *LUB, const gsl_vector_uint *piv,
                             const gsl_vector *b, gsl_vector *x);

#endif
