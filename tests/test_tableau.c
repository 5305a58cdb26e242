/* test_tableau.c: a Butcher tableau file keeps its promises. The 17 rooted trees up to order 5;
 * every example in lessons/methods/ loads with the order its conditions give, its measured order
 * on a nonlinear problem is within 0.1 of that order, and its R(z) from the tableau is what one
 * step on y' = lambda y does at six complex z; an embedded pair's b-hat has its own order; every
 * malformed file is refused with FILE:LINE and the reason. */
#include "drive/adaptive.h"
#include "check.h"
#include "one_step.h"
#include "analysis/measure.h"
#include "oscillator/oscillator.h"
#include "method/method.h"
#include "method/set.h"
#include "drive/solve.h"
#include "base/util.h"
#include <complex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void one_step_is_R(const method *m)
{
    double worst = one_step_vs_R(m);
    check(worst <= 1e-12, "%s: R(z) from the tableau equals one step on y' = lambda y at six complex z (worst %.2e)",
          m->name, worst);
}

/* A nonlinear problem with an exact solution: y' = -2 t y^2, y(0) = 1, so y = 1/(1 + t^2), as the
 * autonomous system (u, y) with u' = 1, y' = -2 u y^2 (where a linear problem could hide a
 * missing order condition). */
static int nl_rhs(double t, const double *y, double *f, void *params)
{
    (void)t; (void)params;
    f[0] = 1.0;
    f[1] = -2.0 * y[0] * y[1] * y[1];
    return 0;
}

/* The least-squares slope of the error at T against h over 5 halvings, h = 2^-k0 ... 2^-(k0 + 4):
 * on y' = -2 t y^2 to T = 2 (nonlinear), or on the damped oscillator to T = 2 (linear). */
static double measured_order(const method *m, int k0, bool linear)
{
    oscillator osc = {2.0 * M_PI, 0.2};
    ivp p = linear ? oscillator_ivp(&osc) : (ivp){.dim = 2, .rhs = nl_rhs};
    const double T = 2.0, y0[2] = {linear ? 1.0 : 0.0, linear ? 0.0 : 1.0};
    double hs[5], errs[5], ex[2];
    oscillator_exact(&osc, y0, T, ex);
    for (int i = 0; i < 5; i++) {
        hs[i] = ldexp(1.0, -(k0 + i));
        double y[2] = {y0[0], y0[1]};
        solve_opts o = {m, 0.0, hs[i], lround(T / hs[i]), 0, 1, NULL, NULL};
        solve_result r;
        solve_fixed(&p, y, &o, NULL, &r);
        errs[i] = linear ? hypot(y[0] - ex[0], y[1] - ex[1]) : fabs(y[1] - 1.0 / (1.0 + T * T));
    }
    return measure_loglog_slope(hs, errs, 5);
}

/* The test's methods: the built-in ones and the files it loads. */
static method_set set;

static const method *load(const char *rel, char *err, size_t n)
{
    return method_set_load(&set, repo_file(rel), err, n);
}

/* Two method sets in one process are independent: a tableau loaded into one is not in the other,
 * the same file loaded into both gives each its own method, and freeing one leaves the other's. */
static void two_sets(void)
{
    static method_set a, b;
    char err[400] = "";
    method_set_init(&a);
    method_set_init(&b);
    const method *ka = method_set_load(&a, repo_file("lessons/methods/kutta38.tab"), err, sizeof err);
    check(ka && method_set_find(&a, "kutta38") == ka && method_set_find(&b, "kutta38") == NULL && b.n == a.n - 1,
          "a tableau loaded into one set is not in another (%d methods against %d) %s", a.n, b.n, err);
    const method *kb = method_set_load(&b, repo_file("lessons/methods/kutta38.tab"), err, sizeof err);
    check(kb && kb != ka && method_set_find(&b, "kutta38") == kb, "the same file in a second set is that set's own method");
    double complex z = -1.5 + 2.0 * I, before = kb ? method_R(kb, z) : NAN;
    method_set_free(&a);
    check(a.n == 0 && a.all[0] == NULL && kb && method_set_find(&b, "kutta38") == kb && method_R(kb, z) == before,
          "freeing one set empties it and leaves the other's method as it was");
    method_set_free(&b);
}

/* A bad file: refused, the message starts with FILE:LINE: and says why. */
static char scratch[64] = "/tmp/test_tableau.XXXXXX";

static void refused(const char *name, const char *text, int line, const char *why)
{
    char path[256], err[400] = "", prefix[300];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    static tableau_method tm;
    const method *m = tableau_read_file(&tm, path, err, sizeof err) == 0 ? &tm.m : NULL;
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    check(!m && strncmp(err, prefix, strlen(prefix)) == 0 && strstr(err, why), "%s refused at line %d: %s", name, line, err);
    remove(path);
}

int main(void)
{
    method_set_init(&set);
    int ord[TABLEAU_NTREES], per[TABLEAU_ORDER_MAX + 1] = {0};
    const double a1[] = {0.0}, b1[] = {1.0}, c1[] = {0.0};
    const rk_tableau euler = {1, a1, b1, c1, NULL};
    tableau_conditions(&euler, b1, NULL, ord);
    for (int t = 0; t < TABLEAU_NTREES; t++)
        per[ord[t]]++;
    check(per[1] == 1 && per[2] == 1 && per[3] == 2 && per[4] == 4 && per[5] == 9,
          "the 17 rooted trees: 1, 1, 2, 4, 9 of orders 1 ... 5 (%d %d %d %d %d)", per[1], per[2], per[3], per[4], per[5]);

    struct { const char *file; int order, order_hat, k0; bool implicit; } ex[] = {
        {"lessons/methods/kutta38.tab", 4, -1, 4, false},   {"lessons/methods/ralston2.tab", 2, -1, 7, false},
        {"lessons/methods/ralston3.tab", 3, -1, 5, false},  {"lessons/methods/ssprk3.tab", 3, -1, 5, false},
        {"lessons/methods/sdirk3.tab", 3, -1, 5, true},     {"lessons/methods/heun-euler-pair.tab", 2, 1, 7, false},
        {"lessons/methods/dopri54.tab", 5, 4, 3, false},    {"lessons/methods/radau-iia3.tab", 5, -1, 2, true},
        {"lessons/methods/gauss2.tab", 4, -1, 3, true},
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        char err[400] = "";
        const method *m = load(ex[i].file, err, sizeof err);
        check(m != NULL, "%s loads (%s)", ex[i].file, err);
        if (!m)
            continue;
        check(m->order == ex[i].order && m->implicit == ex[i].implicit,
              "%s: its order conditions give order %d (expected %d), %s", m->name, m->order, ex[i].order,
              !m->implicit ? "explicit" : tableau_coupled(m->tableau) ? "fully implicit" : "diagonally implicit");
        if (ex[i].order_hat >= 0)
            check(m->tableau->bhat && tableau_order(m->tableau, m->tableau->bhat) == ex[i].order_hat,
                  "%s: an embedded pair, b-hat of order %d", m->name, ex[i].order_hat);
        double p = measured_order(m, ex[i].k0, false);
        if (m->order < 5)
            check(fabs(p - m->order) <= 0.1, "%s: measured order %.3f on y' = -2 t y^2 (nonlinear), within 0.1 of %d",
                  m->name, p, m->order);
        else {
            /* Dormand-Prince's fifth-order error constants are so small that its errors on the
             * nonlinear problem reach round-off while the slope still comes down from above (5.1
             * to 5.2): there it is checked to be at least 5, and within 0.1 of 5 on the oscillator,
             * where R(z) - e^z = C z^6 + ... sets it. */
            double q = measured_order(m, ex[i].k0 + 2, true);
            check(p >= m->order - 0.1 && fabs(q - m->order) <= 0.1,
                  "%s: measured order %.3f on y' = -2 t y^2 (at least %d, pre-asymptotic from above), %.3f on the "
                  "damped oscillator, within 0.1 of %d", m->name, p, m->order, q, m->order);
        }
        one_step_is_R(m);
        check(load(ex[i].file, err, sizeof err) == m, "%s: the same file twice is the same method",
              m->name);
    }
    /* a name from the file name */
    char err[400], e2buf[400];
    const method *k = load("lessons/methods/kutta38.tab", err, sizeof err);
    check(k && strcmp(k->name, "kutta38") == 0, "kutta38.tab is named kutta38");
    check(tableau_is_path("a/b") && tableau_is_path("x.tab") && !tableau_is_path("rk4"),
          "--method takes a path when it has '/' or ends in .tab");
    check(cabs(tableau_R(method_backward_euler.tableau, method_backward_euler.tableau->b, 1.0)) == INFINITY,
          "backward Euler's R(z) is infinite at z = 1, where I - zA is singular");

    if (!mkdtemp(scratch)) {
        check(0, "a scratch folder for the bad files");
        return check_done();
    }
    refused("empty.tab", "", 1, "empty");
    refused("comments.tab", "# nothing\n\n", 2, "empty");
    refused("rowlen.tab", "0 |\n1/2 | 1/2 1/2 1/2\n--+--\n | 0 1\n", 2, "row 2 of A has 3 entries");
    refused("blen.tab", "0 |\n1 | 1\n--+--\n | 1/2 1/2 0\n", 4, "the weights b have 3 entries for 2 stages");
    refused("csum.tab", "0 |\n1/3 | 1/2\n--+--\n | 0 1\n", 2, "c_2 = 0.333333 but row 2 of A sums to 0.5 (off by -0.167)");
    refused("nan.tab", "0 |\n1/2 | 1/x\n--+--\n | 0 1\n", 2, "'1/x' is not a number");
    refused("div0.tab", "0 |\n1 | 1/0\n | 1 0\n", 2, "'1/0' is not a number");
    refused("hex.tab", "0 |\n1 | 0x1\n | 1 0\n", 2, "'0x1' is not a number");
    refused("bsum.tab", "0 |\n1 | 1\n--+--\n | 1/2 1/4\n", 4, "the weights b sum to 0.75, not 1");
    refused("bhat.tab", "0 |\n1 | 1\n | 1/2 1/2\n | 1 1\n", 4, "b-hat sum to 2, not 1");
    refused("rowlen3.tab", "0 |\n1/2 | 1/4 1/4\n1 | 1\n--+--\n | 0 1 0\n", 3,
            "row 3 of A has 1 entries; accepted: 2 (explicit), 3 (diagonally implicit)");
    refused("rowlen4.tab", "0 |\n1/2 | 1/2 0 0 0 0\n1 | 0 1\n1 | 0 0 1\n--+--\n | 1/4 1/4 1/4 1/4\n", 2,
            "row 2 of A has 5 entries; accepted: 1 (explicit), 2 (diagonally implicit) or 4 (all: fully implicit)");
    refused("nob.tab", "0 |\n1 | 1\n", 2, "no weights b");
    refused("nobar.tab", "0 |\n1  1\n | 1 0\n", 2, "no '|'");
    refused("three.tab", "0 |\n1 | 1\n | 1/2 1/2\n | 1 0\n | 1 0\n", 5, "a third row of weights");
    refused("late.tab", "0 |\n | 1\n1 | 1\n", 3, "a row of A after the weights");
    /* A diagonally implicit pair runs through the adaptive controller too: Alexander's L-stable
     * SDIRK2 with forward-Euler-like weights (1, 0) as b-hat, on the damped oscillator. */
    {
        char path[256];
        snprintf(path, sizeof path, "%s/sdirk2pair.tab", scratch);
        FILE *f = fopen(path, "w");
        fputs("1-1/sqrt(2) | 1-1/sqrt(2)\n1 | 1/sqrt(2) 1-1/sqrt(2)\n--+--\n | 1/sqrt(2) 1-1/sqrt(2)\n | 1 0\n", f);
        fclose(f);
        const method *d = method_set_load(&set, path, err, sizeof err);
        check(d && d->implicit && d->order == 2 && tableau_order(d->tableau, d->tableau->bhat) == 1,
              "an SDIRK2 pair loads: diagonally implicit, order 2, b-hat order 1 (%s)", d ? "" : err);
        if (d) {
            oscillator osc = {2.0 * M_PI, 0.2};
            ivp p = oscillator_ivp(&osc);
            double y[2] = {1.0, 0.0}, ex[2];
            const double y0[2] = {1.0, 0.0};
            oscillator_exact(&osc, y0, 5.0, ex);
            adaptive_opts o = {.rtol = 1e-6, .atol = 1e-6};
            adaptive_stats st;
            int rc = adaptive_pair(d->tableau, d->name, &p, 0.0, y, 5.0, &o, &st, err, sizeof err);
            double e = hypot(y[0] - ex[0], y[1] - ex[1]);
            check(rc == 0 && e < 1e-3 && e > 1e-9 && st.accepted > 10,
                  "the SDIRK2 pair runs adaptively (Newton stages): error %.2e at tol 1e-6 in %ld steps (%s)", e,
                  st.accepted, rc ? err : "");
        }
        /* more tableau files than the 12 slots of old: a fresh set takes files up to METHOD_MAX
         * methods, and the one after is refused in words */
        static method_set big;
        method_set_init(&big);
        int builtins = big.n, loaded = 0, refusals = 0;
        char extra[256], e3[400] = "";
        for (int i = 0; builtins + i <= METHOD_MAX && !refusals; i++) {
            snprintf(extra, sizeof extra, "%s/extra%d.tab", scratch, i);
            rename(path, extra);
            if (method_set_load(&big, extra, e3, sizeof e3))
                loaded++;
            else
                refusals++;
            memcpy(path, extra, sizeof path);
        }
        char want[64];
        snprintf(want, sizeof want, "at most %d methods in one run", METHOD_MAX);
        check(refusals == 1 && loaded == METHOD_MAX - builtins && loaded > 12 && big.n == METHOD_MAX && strstr(e3, want),
              "%d tableau files load into one set (more than the 12 slots of old), the next is refused: %s", loaded,
              e3);
        method_set_free(&big);
        remove(path);
    }
    {
        /* Kutta's 3/8 rule with the minus signs a PDF gives (U+2212) reads as the file does */
        char path[256], e2[400] = "";
        snprintf(path, sizeof path, "%s/minus.tab", scratch);
        FILE *f = fopen(path, "w");
        fputs("0 |\n1/3 | 1/3\n2/3 | \xe2\x88\x92" "1/3 1\n1 | 1 \xe2\x88\x92" "1 1\n | 1/8 3/8 3/8 1/8\n", f);
        fclose(f);
        static tableau_method tm;
        const method *mm = tableau_read_file(&tm, path, e2, sizeof e2) == 0 ? &tm.m : NULL;
        check(mm && mm->order == 4, "U+2212 minus signs read as '-': Kutta's 3/8 rule of order %d (%s)", mm ? mm->order : -1,
              e2);
        remove(path);
    }
    char missing[64];
    snprintf(missing, sizeof missing, "/nonexistent-%d.tab", 7);
    check(method_set_load(&set, missing, err, sizeof err) == NULL && strstr(err, "cannot open"), "a missing file: %s", err);
    /* A tableau from text (a page's text box) reads as the same file does. */
    err[0] = '\0';
    const char kutta38[] = "0 |\n1/3 | 1/3\n2/3 | -1/3 1\n1 | 1 -1 1\n--+--\n | 1/8 3/8 3/8 1/8\n";
    static tableau_method typed, blank, bad;
    const method *t = tableau_read_text(&typed, "typed.tab", kutta38, err, sizeof err) == 0 ? &typed.m : NULL;
    const method *f = load("lessons/methods/kutta38.tab", e2buf, sizeof e2buf);
    check(t && f && strcmp(t->name, "typed") == 0 && t->order == 4 && cabs(method_R(t, -1.5 + 2.0 * I) - method_R(f, -1.5 + 2.0 * I)) < 1e-15,
          "a tableau from text: named after its name, order %d, the file's R(z) (%s)", t ? t->order : -1, err);
    check(tableau_read_text(&blank, "blank.tab", "", err, sizeof err) != 0 && strstr(err, "blank.tab:1: empty"),
          "an empty text is refused as an empty file: %s", err);
    check(tableau_read_text(&bad, "bad.tab", "0 |\n1 | 1 2\n | 1 0\n", err, sizeof err) != 0 &&
              strstr(err, "bad.tab:2: c_2 = 1 but row 2 of A sums to 3"),
          "a malformed text names its line: %s", err);
    /* a fully implicit A (an entry above the diagonal) is solved by elimination: A = 1/4 everywhere,
     * b = (1/2, 1/2) gives x_1 = x_2 = 1 / (1 - z/2), R = (1 + z/2) / (1 - z/2) (by hand), singular at z = 2 */
    const double ua[] = {0.25, 0.25, 0.25, 0.25}, ub[] = {0.5, 0.5}, uc[] = {0.5, 0.5};
    const rk_tableau upper = {2, ua, ub, uc, NULL};
    check(cabs(tableau_R(&upper, ub, 0.5) - 5.0 / 3.0) < 1e-15 && cabs(tableau_R(&upper, ub, 2.0)) == INFINITY,
          "tableau_R of a fully implicit tableau by elimination: R(0.5) = 5/3, infinite at z = 2");
    check(cabs(tableau_R(method_rk4.tableau, method_rk4.tableau->b, 2.8284 * I) - method_R(&method_rk4, 2.8284 * I)) < 1e-15,
          "tableau_R by forward substitution = RK4's own R at 2.8284j");
    two_sets();
    method_set_free(&set);
    rmdir(scratch);
    return check_done();
}
