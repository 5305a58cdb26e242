/* gsl_lite.c: the GSL subset of gsl/gsl_linalg.h here (browser build only). Allocation returns
 * NULL on failure, as GSL's does (newton.c checks). */
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A header of hsize bytes and n zeroed elements of esize for it (*data), or NULL with neither. */
static void *alloc_with_data(size_t hsize, size_t n, size_t esize, void **data)
{
    void *h = malloc(hsize), *d = calloc(n ? n : 1, esize);
    if (!h || !d) {
        free(h);
        free(d);
        return NULL;
    }
    *data = d;
    return h;
}

gsl_matrix *gsl_matrix_alloc(size_t n1, size_t n2)
{
    void *d;
    gsl_matrix *m = alloc_with_data(sizeof *m, n1 * n2, sizeof(double), &d);
    if (m)
        *m = (gsl_matrix){n1, n2, n2, d};
    return m;
}

/* gsl_vector_alloc, gsl_vector_uint_alloc, gsl_permutation_alloc: a size and its n elements. */
#define ALLOC_1D(type, elem)                                              \
    type *type##_alloc(size_t n)                                          \
    {                                                                     \
        void *d;                                                          \
        type *v = alloc_with_data(sizeof *v, n, sizeof(elem), &d);        \
        if (v)                                                            \
            *v = (type){n, d};                                            \
        return v;                                                         \
    }
ALLOC_1D(gsl_vector, double)
ALLOC_1D(gsl_vector_uint, unsigned int)
ALLOC_1D(gsl_permutation, size_t)

void gsl_matrix_free(gsl_matrix *m) { free(m ? m->data : NULL); free(m); }
void gsl_vector_free(gsl_vector *v) { free(v ? v->data : NULL); free(v); }
void gsl_vector_uint_free(gsl_vector_uint *v) { free(v ? v->data : NULL); free(v); }
void gsl_permutation_free(gsl_permutation *p) { free(p ? p->data : NULL); free(p); }
void gsl_matrix_set_zero(gsl_matrix *m) { memset(m->data, 0, m->size1 * m->size2 * sizeof *m->data); }

int gsl_linalg_LU_decomp(gsl_matrix *A, gsl_permutation *p, int *signum)
{
    size_t n = A->size1;
    *signum = 1;
    for (size_t i = 0; i < n; i++)
        p->data[i] = i;
    for (size_t k = 0; k < n; k++) {
        size_t piv = k;     /* the largest entry of column k on or below the diagonal */
        for (size_t i = k + 1; i < n; i++)
            if (fabs(gsl_matrix_get(A, i, k)) > fabs(gsl_matrix_get(A, piv, k)))
                piv = i;
        if (piv != k) {
            for (size_t j = 0; j < n; j++) {
                double t = gsl_matrix_get(A, k, j);
                gsl_matrix_set(A, k, j, gsl_matrix_get(A, piv, j));
                gsl_matrix_set(A, piv, j, t);
            }
            size_t t = p->data[k];
            p->data[k] = p->data[piv];
            p->data[piv] = t;
            *signum = -*signum;
        }
        double d = gsl_matrix_get(A, k, k);
        if (d == 0.0)
            continue;       /* singular: the caller reads the zero on the diagonal */
        for (size_t i = k + 1; i < n; i++) {
            double l = gsl_matrix_get(A, i, k) / d;
            gsl_matrix_set(A, i, k, l);
            for (size_t j = k + 1; j < n; j++)
                gsl_matrix_set(A, i, j, gsl_matrix_get(A, i, j) - l * gsl_matrix_get(A, k, j));
        }
    }
    return 0;
}

int gsl_linalg_LU_solve(const gsl_matrix *LU, const gsl_permutation *p, const gsl_vector *b, gsl_vector *x)
{
    size_t n = LU->size1;
    for (size_t i = 0; i < n; i++) {        /* L z = P b */
        double acc = b->data[p->data[i]];
        for (size_t j = 0; j < i; j++)
            acc -= gsl_matrix_get(LU, i, j) * x->data[j];
        x->data[i] = acc;
    }
    for (size_t i = n; i-- > 0;) {          /* U x = z */
        double acc = x->data[i];
        for (size_t j = i + 1; j < n; j++)
            acc -= gsl_matrix_get(LU, i, j) * x->data[j];
        x->data[i] = acc / gsl_matrix_get(LU, i, i);
    }
    return 0;
}

int gsl_linalg_LU_band_decomp(size_t n, size_t lb, size_t ub, gsl_matrix *AB, gsl_vector_uint *piv)
{
    (void)n; (void)lb; (void)ub; (void)AB; (void)piv;
    __builtin_trap();
}

int gsl_linalg_LU_band_solve(size_t lb, size_t ub, const gsl_matrix *LUB, const gsl_vector_uint *piv,
                             const gsl_vector *b, gsl_vector *x)
{
    (void)lb; (void)ub; (void)LUB; (void)piv; (void)b; (void)x;
    __builtin_trap();
}
