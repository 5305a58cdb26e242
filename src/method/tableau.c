/* tableau.c: Butcher tableau files (format in tableau.h), their order conditions and R(z). */
#include "method/tableau.h"
#include "base/util.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_MAX IVP_MAX_STAGES

/* ---- rooted trees and their conditions ---------------------------------------------------- */

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

void tableau_conditions(const rk_tableau *tab, const double *w, double res[TABLEAU_NTREES], int ord[TABLEAU_NTREES])
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
    return tableau_explicit(tab) ? "every arrow points right or down (A strictly lower triangular): explicit"
           : tableau_coupled(tab) ? "arrows above the diagonal (a_ij != 0, j > i): fully implicit, all stages one "
                                    "Newton solve together (s n unknowns)"
                                  : "arrows on the diagonal (a_ii != 0): diagonally implicit, each such stage one "
                                    "Newton solve";
}

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
int tableau_print_all(void)
{
    int bad = 0;
    for (int k = 0; method_all[k]; k++) {
        const method *m = method_all[k];
        const char *file = tableau_file(m);
        printf("%s (%s, order %d%s%s):\n", m->label, m->name, m->order, file ? ", from " : "", file ? file : "");
        if (!m->tableau) {
            printf("  no single Butcher tableau: a partitioned method (u and v take different weights)\n\n");
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
        printf("  %s; c_i = sum_j a_ij: %s; sum b = %.15g\n", tableau_kind(tb), rowsum ? "yes" : "NO", bsum);
        printf("  order conditions (the %d rooted trees up to order %d): order %d%s\n", TABLEAU_NTREES, TABLEAU_ORDER_MAX, p,
               p == TABLEAU_ORDER_MAX ? " or more" : "");
        if (tb->bhat)
            printf("  embedded weights b-hat (second row): order %d; an adaptive pair (error estimate h sum (b - b-hat) k)\n",
                   tableau_order(tb, tb->bhat));
        printf("\n");
        if (!rowsum || fabs(bsum - 1.0) > 1e-15 || p != m->order)
            bad = 1;
    }
    return bad;
}

bool tableau_is_path(const char *arg)
{
    size_t n = strlen(arg);
    return strchr(arg, '/') != NULL || (n > 4 && strcmp(arg + n - 4, ".tab") == 0);
}

/* ---- loaded methods ------------------------------------------------------------------------ */

/* The method table's R and step take no context (C has no closures), so each loaded file gets a
 * slot of its own, and the slot's two functions read that slot's tableau. */
typedef struct {
    method m;
    rk_tableau tab;
    double a[S_MAX * S_MAX], b[S_MAX], c[S_MAX], bhat[S_MAX];
    char name[48], path[256];
} slot;

static slot slots[TABLEAU_MAX_FILES];
static int nslots;

#define SLOT_FUNCTIONS(i)                                                                                 \
    static double complex slot_R_##i(double complex z) { return tableau_R(&slots[i].tab, slots[i].b, z); } \
    static int slot_step_##i(const ivp *p, double t, double h, double *y, workspace *w)                   \
    {                                                                                                     \
        return rk_step(&slots[i].tab, p, t, h, y, w);                                                     \
    }
SLOT_FUNCTIONS(0)
SLOT_FUNCTIONS(1)
SLOT_FUNCTIONS(2)
SLOT_FUNCTIONS(3)
SLOT_FUNCTIONS(4)
SLOT_FUNCTIONS(5)
SLOT_FUNCTIONS(6)
SLOT_FUNCTIONS(7)
SLOT_FUNCTIONS(8)
SLOT_FUNCTIONS(9)
SLOT_FUNCTIONS(10)
SLOT_FUNCTIONS(11)
static double complex (*const slot_R[TABLEAU_MAX_FILES])(double complex) = {
    slot_R_0, slot_R_1, slot_R_2, slot_R_3, slot_R_4, slot_R_5, slot_R_6, slot_R_7, slot_R_8, slot_R_9, slot_R_10,
    slot_R_11};
static int (*const slot_step[TABLEAU_MAX_FILES])(const ivp *, double, double, double *, workspace *) = {
    slot_step_0, slot_step_1, slot_step_2, slot_step_3,  slot_step_4,  slot_step_5,
    slot_step_6, slot_step_7, slot_step_8, slot_step_9, slot_step_10, slot_step_11};

void tableau_reset(void)
{
    memset(slots, 0, sizeof slots);
    nslots = 0;
}

const char *tableau_file(const method *m)
{
    for (int i = 0; i < nslots; i++)
        if (m == &slots[i].m)
            return slots[i].path;
    return NULL;
}

/* ---- the file ------------------------------------------------------------------------------ */

typedef struct {
    const char *path;
    int line;
    char *err;
    size_t errlen;
} reader;

static int fail(reader *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(reader *r, int line, const char *fmt, ...)
{
    int n = snprintf(r->err, r->errlen, "%s:%d: ", r->path, line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->errlen)
        vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* An entry: expr = term {(+|-) term}; term = unary {(*|/) unary}; unary = (+|-) unary | primary;
 * primary = decimal | ( expr ) | sqrt( expr ). */
static double expr(const char **p, bool *ok);

static double primary(const char **p, bool *ok)
{
    const char *s = *p;
    if (*s == '(') {
        *p = s + 1;
        double v = expr(p, ok);
        if (**p != ')')
            *ok = false;
        else
            (*p)++;
        return v;
    }
    if (strncmp(s, "sqrt(", 5) == 0) {
        *p = s + 4;
        double v = primary(p, ok);
        if (v < 0)
            *ok = false;
        return sqrt(v);
    }
    /* a decimal: digits, a point, digits, an exponent (no hex, inf or nan) */
    const char *q = s;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q == '.')
        for (q++; isdigit((unsigned char)*q);)
            q++;
    if (q == s || (q == s + 1 && *s == '.')) {
        *ok = false;
        return 0.0;
    }
    if (*q == 'e' || *q == 'E') {
        const char *e = q + 1;
        if (*e == '+' || *e == '-')
            e++;
        if (isdigit((unsigned char)*e)) {
            while (isdigit((unsigned char)*e))
                e++;
            q = e;
        }
    }
    char buf[64];
    if ((size_t)(q - s) >= sizeof buf) {
        *ok = false;
        return 0.0;
    }
    memcpy(buf, s, (size_t)(q - s));
    buf[q - s] = '\0';
    *p = q;
    return strtod(buf, NULL);
}

static double unary(const char **p, bool *ok)
{
    if (**p == '-' || **p == '+') {
        double sign = **p == '-' ? -1.0 : 1.0;
        (*p)++;
        return sign * unary(p, ok);
    }
    return primary(p, ok);
}

static double term(const char **p, bool *ok)
{
    double v = unary(p, ok);
    while (*ok && (**p == '*' || **p == '/')) {
        char op = *(*p)++;
        double u = unary(p, ok);
        v = op == '*' ? v * u : v / u;
    }
    return v;
}

static double expr(const char **p, bool *ok)
{
    double v = term(p, ok);
    while (*ok && (**p == '+' || **p == '-')) {
        char op = *(*p)++;
        double u = term(p, ok);
        v = op == '+' ? v + u : v - u;
    }
    return v;
}

static int number(reader *r, const char *tok, double *out)
{
    const char *p = tok;
    bool ok = true;
    double v = expr(&p, &ok);
    if (!ok || *p != '\0' || !isfinite(v))
        return fail(r, r->line, "'%s' is not a number (accepted: 0.25, -1/3, 1/2+sqrt(3)/6, no spaces inside)", tok);
    *out = v;
    return 0;
}

/* Split text at blanks into at most max numbers; the count, or -1 after fail(). */
static int numbers(reader *r, char *text, double *v, int max)
{
    int n = 0;
    for (char *tok = strtok(text, " \t\r"); tok; tok = strtok(NULL, " \t\r")) {
        if (n == max)
            return fail(r, r->line, "more than %d entries in a row (at most %d stages)", max, max);
        if (number(r, tok, &v[n]) != 0)
            return -1;
        n++;
    }
    return n;
}

static bool is_rule(const char *s)
{
    bool dash = false;
    for (; *s; s++) {
        if (*s == '-' || *s == '=')
            dash = true;
        else if (!strchr("+| \t\r", *s))
            return false;
    }
    return dash;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* A textbook copied from a PDF writes minus as U+2212 (UTF-8 e2 88 92): read it as '-'. */
static void ascii_minus(char *s)
{
    char *out = s;
    for (const char *in = s; *in;)
        if ((unsigned char)in[0] == 0xe2 && (unsigned char)in[1] == 0x88 && (unsigned char)in[2] == 0x92) {
            *out++ = '-';
            in += 3;
        } else {
            *out++ = *in++;
        }
    *out = '\0';
}

static const char *ordinal_weights(int k) { return k == 0 ? "the weights b" : "the embedded weights b-hat"; }

/* What the file holds, as read: the rows of A (as long as written), the nodes and the weights. */
typedef struct {
    double rows[S_MAX][S_MAX], c[S_MAX], w[2][S_MAX];
    int len[S_MAX];         /* entries written in row i */
    int line_of[S_MAX];     /* the file's line of row i */
    int wline[2];           /* ... of b and b-hat */
    int s, nw, nlines;      /* rows of A, rows of weights, lines read */
} parsed;

/* One line (its comment cut off): a rule, a row of A "c_i | a_i1 ...", or weights "| b_1 ...". */
static int read_line(reader *r, char *buf, parsed *pt)
{
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    ascii_minus(buf);
    char *t = trim(buf);
    if (!*t || is_rule(t))
        return 0;
    char *bar = strchr(t, '|');
    if (!bar)
        return fail(r, r->line, "no '|' (a row is 'c_i | a_i1 ... a_ii', the weights '| b_1 ... b_s')");
    *bar = '\0';
    char *left = trim(t), *right = bar + 1;
    if (strchr(right, '|'))
        return fail(r, r->line, "two '|' in one row");
    if (*left) {                                    /* c_i | a_i1 ... */
        if (pt->nw)
            return fail(r, r->line, "a row of A after the weights (the weights come last, with nothing left of '|')");
        if (pt->s == S_MAX)
            return fail(r, r->line, "more than %d stages", S_MAX);
        if (number(r, left, &pt->c[pt->s]) != 0 || (pt->len[pt->s] = numbers(r, right, pt->rows[pt->s], S_MAX)) < 0)
            return -1;
        pt->line_of[pt->s++] = r->line;
        return 0;
    }
    if (!pt->s)                                     /* | b_1 ... b_s */
        return fail(r, r->line, "weights before any row of A");
    if (pt->nw == 2)
        return fail(r, r->line, "a third row of weights (accepted: b, and b-hat for an embedded pair)");
    pt->wline[pt->nw] = r->line;
    int n = numbers(r, right, pt->w[pt->nw], S_MAX);
    if (n < 0)
        return -1;
    if (n != pt->s)
        return fail(r, r->line, "%s have %d entries for %d stages", ordinal_weights(pt->nw), n, pt->s);
    pt->nw++;
    return 0;
}

/* Every line of the open file into pt; 0, or -1 after fail(). */
static int read_file(reader *r, FILE *f, parsed *pt)
{
    char buf[1024], why[120];
    int rc = 0;
    long len;
    while (rc == 0 && (len = text_line(f, buf, sizeof buf, pt->nlines == 0, why, sizeof why)) != -1) {
        r->line = ++pt->nlines;
        if (len == -2)
            return fail(r, r->line, "%s", why);
        rc = read_line(r, buf, pt);
    }
    if (rc == 0 && ferror(f)) {
        snprintf(r->err, r->errlen, "%s:%d: cannot read: %s", r->path, pt->nlines + 1, strerror(errno));
        rc = -1;
    }
    return rc;
}

/* A filled in (rows shorter than s padded with 0), each c_i against its row's sum, each weight row
 * against sum = 1. */
static int check_tableau(reader *r, const parsed *pt, slot *sl)
{
    const int s = pt->s;
    if (s == 0)
        return fail(r, pt->nlines ? pt->nlines : 1, "empty: no tableau rows (example: lessons/methods/kutta38.tab)");
    if (pt->nw == 0)
        return fail(r, pt->nlines, "no weights b after the %d rows of A (a last row '| b_1 ... b_%d')", s, s);
    for (int i = 0; i < s; i++) {
        int len = pt->len[i];
        if (len != i && len != i + 1 && len != s) {
            char full[40] = "";
            if (s > i + 1)
                snprintf(full, sizeof full, " or %d (all: fully implicit)", s);
            return fail(r, pt->line_of[i], "row %d of A has %d entries; accepted: %d (explicit), %d (diagonally "
                        "implicit)%s", i + 1, len, i, i + 1, full);
        }
        double sum = 0.0;
        for (int j = 0; j < s; j++) {
            sl->a[i * s + j] = j < len ? pt->rows[i][j] : 0.0;
            sum += sl->a[i * s + j];
        }
        if (fabs(sum - pt->c[i]) > TABLEAU_TOL)
            return fail(r, pt->line_of[i], "c_%d = %.6g but row %d of A sums to %.6g (off by %.3g)", i + 1, pt->c[i],
                        i + 1, sum, pt->c[i] - sum);
    }
    for (int k = 0; k < pt->nw; k++) {
        double sum = 0.0;
        for (int j = 0; j < s; j++)
            sum += pt->w[k][j];
        if (fabs(sum - 1.0) > TABLEAU_TOL)
            return fail(r, pt->wline[k], "%s sum to %.10g, not 1 (off by %.3g): not even order 1", ordinal_weights(k),
                        sum, sum - 1.0);
    }
    bool same = pt->nw == 2;
    for (int j = 0; same && j < s; j++)
        same = pt->w[0][j] == pt->w[1][j];
    if (same)
        return fail(r, pt->wline[1], "b-hat equals b: no error estimate (the estimate is h times the sum of "
                    "(b_i - b-hat_i) k_i, zero at every step)");
    return 0;
}

/* The method's name: the file's name without its folder and ".tab". */
static int name_from(reader *r, const char *path, slot *sl)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t nlen = strlen(base);
    if (nlen > 4 && strcmp(base + nlen - 4, ".tab") == 0)
        nlen -= 4;
    if (nlen == 0 || nlen >= sizeof sl->name || strlen(path) >= sizeof sl->path)
        return fail(r, 1, "the file's name gives no method name of 1 to %zu characters", sizeof sl->name - 1);
    for (size_t i = 0; i < nlen; i++)   /* the name is a cell of every table: a tab or newline breaks rows */
        if ((unsigned char)base[i] < 0x20 || base[i] == 0x7f)
            return fail(r, 1, "the file's name holds a control character (byte 0x%02x), which would break the "
                        "rows of --tsv; rename the file", (unsigned char)base[i]);
    memcpy(sl->name, base, nlen);
    snprintf(sl->path, sizeof sl->path, "%s", path);
    return 0;
}

/* Read a tableau from f (closed here) into the next slot; path names it and its messages. */
static const method *read_tableau(FILE *f, const char *path, char *err, size_t errlen)
{
    reader r = {path, 0, err, errlen};
    if (nslots == TABLEAU_MAX_FILES) {
        fclose(f);
        fail(&r, 1, "more than %d tableau files in one run", TABLEAU_MAX_FILES);
        return NULL;
    }
    slot *sl = &slots[nslots];
    memset(sl, 0, sizeof *sl);
    parsed pt;
    memset(&pt, 0, sizeof pt);
    int rc = read_file(&r, f, &pt);
    fclose(f);
    if (rc != 0 || check_tableau(&r, &pt, sl) != 0 || name_from(&r, path, sl) != 0) {
        memset(sl, 0, sizeof *sl);
        return NULL;
    }
    const int s = pt.s;
    memcpy(sl->b, pt.w[0], sizeof sl->b);
    if (pt.nw == 2)
        memcpy(sl->bhat, pt.w[1], sizeof sl->bhat);
    memcpy(sl->c, pt.c, sizeof sl->c);
    sl->tab = (rk_tableau){s, sl->a, sl->b, sl->c, pt.nw == 2 ? sl->bhat : NULL};
    sl->m = (method){sl->name, sl->name, tableau_order(&sl->tab, sl->b), s, !tableau_explicit(&sl->tab),
                     slot_R[nslots], slot_step[nslots], &sl->tab, false};
    nslots++;
    return &sl->m;
}

const method *tableau_load(const char *path, char *err, size_t errlen)
{
    for (int i = 0; i < nslots; i++)
        if (strcmp(slots[i].path, path) == 0)
            return &slots[i].m;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s:0: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    return read_tableau(f, path, err, errlen);
}

const method *tableau_parse(const char *name, const char *text, char *err, size_t errlen)
{
    /* an empty text reads as one blank line (fmemopen takes no empty buffer) */
    size_t len = strlen(text);
    FILE *f = fmemopen(len ? (void *)text : (void *)"\n", len ? len : 1, "r");
    if (!f) {
        snprintf(err, errlen, "%s:0: cannot read the text: %s", name, strerror(errno));
        return NULL;
    }
    return read_tableau(f, name, err, errlen);
}
