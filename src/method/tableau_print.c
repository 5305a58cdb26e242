/* tableau_print.c: every method's Butcher tableau as a textbook prints it, with its checks
 * (bin/work --tableau; tableau.h). */
#include "method/tableau.h"
#include <math.h>
#include <stdio.h>

static void print_row(const char *left, const double *v, int s)
{
    printf("  %8s |", left);
    for (int j = 0; j < s; j++)
        printf(" %8.4f", v[j]);
    printf("\n");
}

/* Every method's Butcher tableau from its table entry, checked: what kind of arrows it has,
 * c_i = sum_j a_ij, sum b = 1, and the order its rooted-tree conditions give against the order
 * the table says. Nonzero when any check fails. */
int tableau_print_all(const method *const *all)
{
    int bad = 0;
    for (int k = 0; all[k]; k++) {
        const method *m = all[k];
        const char *file = m->file;
        printf("%s (%s, order %d%s%s):\n", m->label, m->name, m->order, file ? ", from " : "",
               file ? file : "");
        if (!m->tableau) {
            printf("  no single Butcher tableau: a partitioned method (u and v take different "
                   "weights)\n\n");
            continue;
        }
        const rk_tableau *tb = m->tableau;
        int s = tb->stages;
        bool rowsum = true;
        for (int i = 0; i < s; i++) {
            char c[32];
            snprintf(c, sizeof c, "%.4f", tb->c[i]);
            print_row(c, tb->a + i * s, s);
            double sum = 0.0;
            for (int j = 0; j < s; j++)
                sum += tb->a[i * s + j];
            if (fabs(sum - tb->c[i]) > 1e-15)
                rowsum = false;
        }
        printf("  ---------+");
        for (int j = 0; j < s; j++)
            printf("---------");
        printf("\n");
        print_row("", tb->b, s);
        if (tb->bhat)
            print_row("", tb->bhat, s);
        double bsum = 0.0;
        for (int j = 0; j < s; j++)
            bsum += tb->b[j];
        int p = tableau_order(tb, tb->b);
        printf("  %s; c_i = sum_j a_ij: %s; sum b = %.15g\n", tableau_kind(tb),
               rowsum ? "yes" : "NO", bsum);
        printf("  order conditions (the %d rooted trees up to order %d): order %d%s\n",
               TABLEAU_NTREES, TABLEAU_ORDER_MAX, p, p == TABLEAU_ORDER_MAX ? " or more" : "");
        if (tb->bhat)
            printf("  embedded weights b-hat (second row): order %d; an adaptive pair (error "
                   "estimate h sum (b - b-hat) k)\n",
                   tableau_order(tb, tb->bhat));
        printf("\n");
        if (!rowsum || fabs(bsum - 1.0) > 1e-15 || p != m->order)
            bad = 1;
    }
    return bad;
}
