/* lu.c: the storage of lu.h's matrices, the same in both builds. */
#include "method/lu.h"
#include "base/util.h"
#include <stdlib.h>
#include <string.h>

/* Doubles per row: n (dense), or 3b + 1 (band: b below, b above, b more for the pivoting's fill).
 */
static size_t row_width(const lu_matrix *m)
{
    return m->band ? 3 * m->band + 1 : m->n;
}

void lu_init(lu_matrix *m, size_t n, size_t band)
{
    *m = (lu_matrix){.n = n, .band = band};
    m->a = xcalloc(n * row_width(m), sizeof(double));
    if (band)
        m->piv = xcalloc(n, sizeof(unsigned));
    else
        m->perm = xcalloc(n, sizeof(size_t));
}

void lu_free(lu_matrix *m)
{
    free(m->a);
    free(m->perm);
    free(m->piv);
    *m = (lu_matrix){0};
}

void lu_zero(lu_matrix *m)
{
    memset(m->a, 0, m->n * row_width(m) * sizeof(double));
}

double lu_pivot(const lu_matrix *m, size_t k)
{
    size_t b = m->band;
    return b ? m->a[k * (3 * b + 1) + 2 * b] : m->a[k * m->n + k];
}

bool lu_singular(const lu_matrix *m)
{
    for (size_t i = 0; i < m->n; i++)
        if (lu_pivot(m, i) == 0.0)
            return true;
    return false;
}
