/* test_bow_fixed.c: the fixed-step scheme's own parts, which bow_fixed.c keeps static (it is
 * included here whole): contact_residual4 and newton_direction4, the contact residual with its
 * Jacobian and the Newton update at N = 4 in vector lanes, against contact_residual_rows and
 * newton_direction_rows, the forms for any N, bit for bit. */
#include "check.h"
#include "../src/bow/bow_fixed.c"
#include "io/params.h"

static double unit_draw(unsigned long long *r)   /* xorshift64: a uniform draw in [0, 1) */
{
    *r ^= *r << 13, *r ^= *r >> 7, *r ^= *r << 17;
    return (double)(*r >> 11) / 9007199254740992.0;
}

/* What one evaluation leaves: v, the residual, the rates, the Jacobian's blocks, the guesses. */
typedef struct evaluation {
    double norm, v[4], R[8], zd1[4], taud1[4], jzt[4], jtt[4], jtz[16], J[16], tss[4];
    double dX[8], LU[16];   /* the Newton update from there, and J's factors */
} evaluation;

static evaluation evaluate(fixed *s, bool four, double F_b1, double k1, double (*x)[4], bool jac)
{
    evaluation e;
    memset(&e, 0, sizeof e);
    double (*f)(fixed *, double, double, const double *, const double *, const double *,
                const double *, const double *, const double *, const double *, double *, bool) =
        four ? contact_residual4 : contact_residual_rows;
    memcpy(s->m->tss, x[6], sizeof x[6]);
    e.norm = f(s, F_b1, k1, x[0], x[1], x[2], x[3], x[4], x[5], x[7], e.v, jac);
    memcpy(e.R, s->R->data, sizeof e.R);
    memcpy(e.zd1, s->zd1, sizeof e.zd1), memcpy(e.taud1, s->taud1, sizeof e.taud1);
    if (jac) {
        memcpy(e.jzt, s->jzt, sizeof e.jzt), memcpy(e.jtt, s->jtt, sizeof e.jtt);
        memcpy(e.jtz, s->jtz, sizeof e.jtz), memcpy(e.J, s->J.a, sizeof e.J);
        if ((four ? newton_direction4(s) : newton_direction_rows(s, 4)) == 0)
            memcpy(e.dX, s->dX->data, sizeof e.dX);
        memcpy(e.LU, s->J.a, sizeof e.LU);
    }
    memcpy(e.tss, s->m->tss, sizeof e.tss);
    return e;
}

int main(void)
{
    bow_instrument in;
    param_spec spec[BOW_NKEYS + 1];
    bow_param_table(&in, spec);
    char err[400];
    if (params_load(spec, params_path("cello-g.ini"), false, err, sizeof err) != 0) {
        printf("FAIL: cello-g.ini: %s\n", err);
        return 1;
    }
    gesture g = gesture_stroke(0.5, 0.1, 0.1, 0.0, 2.15, 0.075 * in.L);
    bow_model m;
    if (bow_model_init(&m, &in, &g, err, sizeof err) != 0 || m.N != 4) {
        printf("FAIL: model: %s\n", err);
        return 1;
    }
    fixed s;
    fixed_init(&s, &m, in.dt);
    unsigned long long r = 0x9E3779B97F4A7C15ULL;
    double zs = m.fr.mu_s / m.fr.sigma0;
    long differ = 0, trials = 4000, slid = 0;
    for (long t = 0; t < trials; t++) {
        double F_b1 = (0.2 + 4 * unit_draw(&r)) / in.W_b, k1 = m.dx * m.fr.sigma0 * F_b1;
        double x[8][4];     /* v0, z, tau, zn, taun, zdn, the guesses, taudn */
        for (int j = 0; j < 4; j++) {
            x[0][j] = 0.6 * unit_draw(&r) - 0.3, x[1][j] = (2.2 * unit_draw(&r) - 1.1) * zs;
            x[2][j] = 60 * unit_draw(&r), x[3][j] = x[1][j] * (1 - 0.01 * unit_draw(&r));
            x[4][j] = x[2][j] * (1 - 0.01 * unit_draw(&r)), x[5][j] = unit_draw(&r) - 0.5;
            x[6][j] = unit_draw(&r) < 0.3 ? -1.0 : 80 * unit_draw(&r);
            x[7][j] = 1e4 * (unit_draw(&r) - 0.5);
        }
        bool jac = t % 3 != 0;
        evaluation a = evaluate(&s, false, F_b1, k1, x, jac), b = evaluate(&s, true, F_b1, k1, x, jac);
        differ += memcmp(&a, &b, sizeof a) != 0;
        for (int j = 0; j < 4; j++)
            slid += a.tss[j] != x[6][j];
    }
    check(differ == 0 && slid > trials,
          "contact residual and Newton update at N = 4 in lanes against the rows: %ld of %ld "
          "evaluations differ in a bit (v, residual, rates, Jacobian blocks, guesses, update; "
          "%ld points slid)", differ, trials,
          slid);
    fixed_free(&s);
    bow_model_free(&m);
    return check_done();
}
