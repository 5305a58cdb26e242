/* tableau_r.c: R(z) of a Butcher tableau, R(z) = 1 + z w^T (I - zA)^{-1} 1, the amplification of
 * one step on y' = lambda y (z = h lambda), and the shape of A that decides how a step solves its
 * stages: explicit, diagonally implicit or fully implicit (tableau.h). */
#include "method/tableau.h"
#include <math.h>

#define S_MAX IVP_MAX_STAGES

/* (I - zA) x = 1 for a fully implicit A: Gaussian elimination with partial pivoting on the s x s
 * complex system (s <= 8; no library, so the page's module computes it too). 0, or -1 when the
 * system is singular. */
static int solve_full(const rk_tableau *tab, double complex z, double complex x[S_MAX])
{
    const int s = tab->stages;
    double complex m[S_MAX][S_MAX + 1];
    for (int i = 0; i < s; i++) {
        for (int j = 0; j < s; j++)
            m[i][j] = (i == j ? 1.0 : 0.0) - z * tab->a[i * s + j];
        m[i][s] = 1.0;
    }
    for (int k = 0; k < s; k++) {
        int piv = k;
        for (int i = k + 1; i < s; i++)
            if (cabs(m[i][k]) > cabs(m[piv][k]))
                piv = i;
        if (m[piv][k] == 0.0)
            return -1;
        for (int j = k; j <= s; j++) {
            double complex t = m[k][j];
            m[k][j] = m[piv][j];
            m[piv][j] = t;
        }
        for (int i = k + 1; i < s; i++) {
            double complex f = m[i][k] / m[k][k];
            for (int j = k; j <= s; j++)
                m[i][j] -= f * m[k][j];
        }
    }
    for (int i = s - 1; i >= 0; i--) {
        double complex r = m[i][s];
        for (int j = i + 1; j < s; j++)
            r -= m[i][j] * x[j];
        x[i] = r / m[i][i];
    }
    return 0;
}

double complex tableau_R(const rk_tableau *tab, const double *w, double complex z)
{
    /* A lower triangular (explicit or diagonally implicit): (I - zA) x = 1 by forward substitution,
     * row by row, with no factorization; fully implicit: by elimination (solve_full). */
    const int s = tab->stages;
    double complex x[S_MAX], acc = 0.0;
    if (tableau_coupled(tab)) {
        if (solve_full(tab, z, x) != 0)
            return INFINITY;        /* I - zA singular: the stage equations have no solution */
        for (int i = 0; i < s; i++)
            acc += w[i] * x[i];
        return 1.0 + z * acc;
    }
    for (int i = 0; i < s; i++) {
        double complex r = 1.0;
        for (int j = 0; j < i; j++)
            r += z * tab->a[i * s + j] * x[j];
        double complex d = 1.0 - z * tab->a[i * s + i];
        if (d == 0.0)
            return INFINITY;        /* z = 1/a_ii: the stage equation has no solution */
        x[i] = r / d;
        acc += w[i] * x[i];
    }
    return 1.0 + z * acc;
}

bool tableau_explicit(const rk_tableau *tab)
{
    for (int i = 0; i < tab->stages; i++)
        for (int j = i; j < tab->stages; j++)
            if (tab->a[i * tab->stages + j] != 0.0)
                return false;
    return true;
}

bool tableau_coupled(const rk_tableau *tab)
{
    for (int i = 0; i < tab->stages; i++)
        for (int j = i + 1; j < tab->stages; j++)
            if (tab->a[i * tab->stages + j] != 0.0)
                return true;
    return false;
}

const char *tableau_kind(const rk_tableau *tab)
{
    return tableau_explicit(tab)
               ? "every arrow points right or down (A strictly lower triangular): explicit"
           : tableau_coupled(tab)
               ? "arrows above the diagonal (a_ij != 0, j > i): fully implicit, all stages one "
                 "Newton solve together (s n unknowns)"
               : "arrows on the diagonal (a_ii != 0): diagonally implicit, each such stage one "
                 "Newton solve";
}
