/* tableau_order.c: the order conditions of a Butcher tableau. Each rooted tree t with at most
 * TABLEAU_ORDER_MAX nodes gives one condition sum_i w_i Phi_i(t) = 1/gamma(t); the order of the
 * weights w is the largest p for which every tree of at most p nodes holds (tableau.h). */
#include "method/tableau.h"
#include <math.h>

#define S_MAX IVP_MAX_STAGES

/* A rooted tree: its order |t|, its subtrees (indices of smaller trees) and gamma(t) =
 * |t| prod gamma(subtree). Generated once, in order of size, as every multiset of smaller trees
 * whose orders add up to |t| - 1. */
typedef struct {
    int order, nsub, sub[TABLEAU_ORDER_MAX];
    double gamma;
} tree;

static tree trees[TABLEAU_NTREES];
static int ntrees;

static void add_subtrees(int order, int left, int from, int limit, int *sub, int nsub)
{
    if (left == 0) {
        tree *t = &trees[ntrees++];
        t->order = order;
        t->nsub = nsub;
        t->gamma = order;
        for (int k = 0; k < nsub; k++) {
            t->sub[k] = sub[k];
            t->gamma *= trees[sub[k]].gamma;
        }
        return;
    }
    for (int k = from; k < limit; k++)
        if (trees[k].order <= left) {
            sub[nsub] = k;
            add_subtrees(order, left - trees[k].order, k, limit, sub, nsub + 1);
        }
}

static void make_trees(void)
{
    if (ntrees)
        return;
    int sub[TABLEAU_ORDER_MAX];
    for (int order = 1; order <= TABLEAU_ORDER_MAX; order++)
        add_subtrees(order, order - 1, 0, ntrees, sub, 0);
}

void tableau_conditions(const rk_tableau *tab, const double *w, double res[TABLEAU_NTREES],
                        int ord[TABLEAU_NTREES])
{
    make_trees();
    const int s = tab->stages;
    double phi[TABLEAU_NTREES][S_MAX];
    for (int t = 0; t < ntrees; t++) {
        double sum = 0.0;
        for (int i = 0; i < s; i++) {
            /* Phi_i(t) = prod over subtrees u of sum_j a_ij Phi_j(u) */
            double prod = 1.0;
            for (int k = 0; k < trees[t].nsub; k++) {
                double acc = 0.0;
                for (int j = 0; j < s; j++)
                    acc += tab->a[i * s + j] * phi[trees[t].sub[k]][j];
                prod *= acc;
            }
            phi[t][i] = prod;
            sum += w[i] * prod;
        }
        if (res)
            res[t] = sum - 1.0 / trees[t].gamma;
        if (ord)
            ord[t] = trees[t].order;
    }
}

int tableau_order(const rk_tableau *tab, const double *w)
{
    double res[TABLEAU_NTREES];
    int ord[TABLEAU_NTREES], p = TABLEAU_ORDER_MAX;
    tableau_conditions(tab, w, res, ord);
    for (int t = 0; t < TABLEAU_NTREES; t++)
        if (fabs(res[t]) > TABLEAU_TOL && ord[t] - 1 < p)
            p = ord[t] - 1;
    return p;
}
