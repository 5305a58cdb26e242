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
 * 1/2+sqrt(3)/6 (a minus sign copied from a PDF, U+2212, reads as '-'). The method is named after the file (kutta38.tab: kutta38); its order is the
 * highest for which the rooted-tree order conditions hold (checked up to order 5, 17 trees);
 * its R(z) = 1 + z b^T (I - zA)^{-1} 1 is computed from A and b; its stages step through
 * method/rk.c: a diagonal entry by one Newton solve a stage, a fully implicit tableau (an entry
 * above the diagonal, rows of all s entries: lessons/methods/radau-iia3.tab, gauss2.tab) by one
 * Newton solve of all s stages together (method/newton.h, newton_coupled_stages). A malformed
 * file is refused: one line naming FILE:LINE and what is wrong.
 *
 * In a program: METHOD_ADD_OPT (--add-method FILE.tab, repeatable) adds the file's method to
 * method_all, so every loop over the methods has it; METHOD_ARG_OPT makes --method take a method
 * name or a file. Both are one line in a flag table. */
#ifndef IVPLAB_METHOD_TABLEAU_H
#define IVPLAB_METHOD_TABLEAU_H
#include "base/cli.h"
#include "method/method.h"
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>

#define TABLEAU_ORDER_MAX 5     /* order conditions are checked up to this order */
#define TABLEAU_NTREES 17       /* rooted trees of order 1 ... 5: 1 + 1 + 2 + 4 + 9 */
#define TABLEAU_TOL 1e-10       /* a condition (or c_i = row sum, sum b = 1) holds within this */
#define TABLEAU_MAX_FILES 12    /* tableau files one program loads (every example of lessons/methods/ fits) */

/* The highest order p <= TABLEAU_ORDER_MAX for which every condition
 * sum_i w_i Phi_i(t) = 1/gamma(t) of the rooted trees t with at most p nodes holds (w: the weights,
 * tab->b or tab->bhat); 0 when not even sum w = 1. */
int tableau_order(const rk_tableau *tab, const double *w);
/* The residual sum_i w_i Phi_i(t) - 1/gamma(t) of each of the 17 trees (in order of size) into
 * res, and their orders into ord (either may be NULL). */
void tableau_conditions(const rk_tableau *tab, const double *w, double res[TABLEAU_NTREES], int ord[TABLEAU_NTREES]);

/* R(z) = 1 + z w^T (I - zA)^{-1} 1 by forward substitution (A lower triangular); infinite where
 * I - zA is singular, NAN for an A with an entry above the diagonal. */
double complex tableau_R(const rk_tableau *tab, const double *w, double complex z);

/* Whether A is strictly lower triangular (every stage explicit). */
bool tableau_explicit(const rk_tableau *tab);

/* Whether a stage depends on a later one (an entry above the diagonal): the stages are coupled. */
bool tableau_coupled(const rk_tableau *tab);
/* The kind of A in words: explicit, diagonally implicit or fully implicit, and what a step solves. */
const char *tableau_kind(const rk_tableau *tab);

/* Every method of method_all with its Butcher tableau (bin/work --tableau), checked: the kind of its
 * arrows, c_i = sum_j a_ij, sum b = 1, and the order its rooted-tree conditions give against the
 * order its table entry says; stdout. Nonzero when any check fails. */
int tableau_print_all(void);

/* Whether a --method value names a tableau file: it contains '/' or ends in ".tab". */
bool tableau_is_path(const char *arg);

/* Read a tableau file into a method named after the file (not yet in method_all). The same
 * path twice gives the same method. NULL with "FILE:LINE: reason" in err. */
const method *tableau_load(const char *path, char *err, size_t errlen);
/* The same from a tableau's text (what a page's text box holds): name ("mine.tab") names the method
 * and the messages, "NAME:LINE: reason" in err; each call takes a new slot (tableau_reset frees them). */
const method *tableau_parse(const char *name, const char *text, char *err, size_t errlen);
/* Forget every loaded file (for tests and fuzzing): methods from them must not be used after,
 * nor be in method_all. */
void tableau_reset(void);
/* The file a loaded method came from, NULL for a built-in method. */
const char *tableau_file(const method *m);

/* --add-method FILE.tab: load the file and add its method to method_all (cli_parse_fn). The flag
 * repeats; a cli.h that refuses repeated flags marks the ones that may repeat with CLI_REPEAT. */
int method_add_parse(const char *text, void *dest, char *why, size_t whylen);
#ifdef CLI_REPEAT
#define METHOD_ADD_REPEAT CLI_REPEAT
#else
#define METHOD_ADD_REPEAT 0u
#endif
#define METHOD_ADD_OPT                                                                                        \
    {"add-method", CLI_CUSTOM, NULL, "", "add the method of a Butcher tableau file to every table and figure " \
     "(repeatable)", 0, 0, METHOD_ADD_REPEAT, NULL, method_add_parse, "a tableau file FILE.tab (examples: lessons/methods/)"}

/* --method NAME or --method FILE.tab, for a program that runs one method. */
typedef struct method_arg {
    const char **name;      /* the program's variable: a built-in name, a word of also, or a file's method */
    const char *also;       /* other words the program takes, "cvode" or "lecture|all" (NULL: none) */
    char accepts[400];      /* what --help and errors say is accepted (method_arg_accepts) */
} method_arg;
int method_arg_parse(const char *text, void *dest, char *why, size_t whylen);
/* Fill ma->accepts from the method table, also and the default (*ma->name); returns it. */
const char *method_arg_accepts(method_arg *ma);
#define METHOD_ARG_OPT(ma, help) \
    {"method", CLI_CUSTOM, &(ma), "", help, 0, 0, 0, NULL, method_arg_parse, method_arg_accepts(&(ma))}

#endif
