/* tableau.h: a student's own method as a plain-text Butcher tableau file, laid out as in a
 * textbook (lessons/methods/, NAME.tab):
 *
 *     # Kutta's 3/8 rule              (comments from '#' to the end of the line)
 *     0   |
 *     1/3 | 1/3                       (row i: c_i | a_i1 ... a_i,i-1   explicit,
 *     2/3 | -1/3  1                               or a_i1 ... a_ii     diagonally implicit,
 *     1   | 1    -1    1                          or all s entries, fully implicit;
 *                                                 the rest are 0)
 *     ----+---------------------      (an optional line of '-', '=', '+')
 *         | 1/8  3/8   3/8  1/8       (the weights b; a second row b-hat makes an embedded pair)
 *
 * An entry is a number, a fraction or a short expression without spaces: 0.25, -1/3,
 * 1/2+sqrt(3)/6 (a minus sign copied from a PDF, U+2212, reads as '-'). The method is named after
 * the file (kutta38.tab: kutta38); its order is the highest for which the rooted-tree order
 * conditions hold (checked up to order 5, 17 trees); its R(z) = 1 + z b^T (I - zA)^{-1} 1 is
 * computed from A and b; its stages step through method/rk.c: a diagonal entry by one Newton solve
 * a stage, a fully implicit tableau (an entry above the diagonal, rows of all s entries:
 * lessons/methods/radau-iia3.tab, gauss2.tab) by one Newton solve of all s stages together
 * (method/newton.h, newton_coupled_stages). A malformed file is refused: one line naming FILE:LINE
 * and what is wrong.
 *
 * A program's methods, built-in and loaded, are its method set (method/set.h). The tableau code is
 * one file an idea: tableau_read.c (the file), tableau_expr.c (an entry's expression),
 * tableau_order.c (the order conditions), tableau_r.c (R(z) and the shape of A), tableau_print.c
 * (bin/work --tableau). */
#ifndef IVPLAB_METHOD_TABLEAU_H
#define IVPLAB_METHOD_TABLEAU_H
#include "method/method.h"
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TABLEAU_ORDER_MAX 5     /* order conditions are checked up to this order */
#define TABLEAU_NTREES 17       /* rooted trees of order 1 ... 5: 1 + 1 + 2 + 4 + 9 */
#define TABLEAU_TOL 1e-10       /* a condition (or c_i = row sum, sum b = 1) holds within this */

/* The highest order p <= TABLEAU_ORDER_MAX for which every condition
 * sum_i w_i Phi_i(t) = 1/gamma(t) of the rooted trees t with at most p nodes holds (w: the weights,
 * tab->b or tab->bhat); 0 when not even sum w = 1. */
int tableau_order(const rk_tableau *tab, const double *w);
/* The residual sum_i w_i Phi_i(t) - 1/gamma(t) of each of the 17 trees (in order of size) into
 * res, and their orders into ord (either may be NULL). */
void tableau_conditions(const rk_tableau *tab, const double *w, double res[TABLEAU_NTREES],
                        int ord[TABLEAU_NTREES]);

/* R(z) = 1 + z w^T (I - zA)^{-1} 1 by forward substitution (A lower triangular) or by elimination
 * (a fully implicit A); infinite where I - zA is singular. */
double complex tableau_R(const rk_tableau *tab, const double *w, double complex z);

/* Whether A is strictly lower triangular (every stage explicit). */
bool tableau_explicit(const rk_tableau *tab);

/* Whether a stage depends on a later one (an entry above the diagonal): the stages are coupled. */
bool tableau_coupled(const rk_tableau *tab);
/* The kind of A in words: explicit, diagonally implicit or fully implicit, and what a step solves.
 */
const char *tableau_kind(const rk_tableau *tab);

/* Every method of all (NULL-terminated: a method set's all) with its Butcher tableau (bin/work
 * --tableau), checked: the kind of its arrows, c_i = sum_j a_ij, sum b = 1, and the order its
 * rooted-tree conditions give against the order its table entry says; stdout. Nonzero when any
 * check fails. */
int tableau_print_all(const method *const *all);

/* An entry of a tableau file: the whole text a number or an expression (0.25, -1/3,
 * 1/2+sqrt(3)/6), finite, into out; false when it is not. */
bool tableau_expr(const char *text, double *out);

/* Whether a --method value names a tableau file: it contains '/' or ends in ".tab". */
bool tableau_is_path(const char *arg);

/* A method read from a tableau file, and the storage it points into: its tableau, its name and
 * its file. m steps by the shared Runge-Kutta step and takes R(z) from the tableau (rk.c). Do
 * not copy one once read: m points into it. */
typedef struct tableau_method {
    method m;               /* the method: name, order, implicit, R, step, tableau, file */
    rk_tableau tab;         /* m.tableau */
    double a[IVP_MAX_STAGES * IVP_MAX_STAGES], b[IVP_MAX_STAGES], c[IVP_MAX_STAGES],
        bhat[IVP_MAX_STAGES];
    char name[48];          /* the file's name without its folder and ".tab" */
    char path[256];         /* the file as given */
} tableau_method;

/* Read a tableau file into tm, the method named after the file. 0, or -1 with "FILE:LINE: reason"
 * in err (tm left empty). */
int tableau_read_file(tableau_method *tm, const char *path, char *err, size_t errlen);
/* The same from a tableau's text (what a page's text box holds): name ("mine.tab") names the
 * method and the messages, "NAME:LINE: reason" in err. */
int tableau_read_text(tableau_method *tm, const char *name, const char *text, char *err,
                      size_t errlen);

#endif
