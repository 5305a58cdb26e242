/* bow.c: the thermal elasto-plastic bowed string: parameters, friction law, steady state
 * (Appendix B), the modal model and the first-order system (81)-(88), energy (64)-(76). */
#include "bow/bow.h"
#include "base/cli.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bow_param_table(bow_instrument *b, param_spec s[BOW_NKEYS + 1])
{
    const param_spec t[BOW_NKEYS + 1] = {
        FLAG_REAL("L", b->L, "m", 0.05, 5, CLI_OPEN_MIN, "string length"),
        FLAG_REAL("r", b->r, "m", 1e-5, 5e-3, CLI_CLOSED, "string radius"),
        FLAG_REAL("f0", b->f0, "Hz", 10, 5000, CLI_CLOSED,
            "fundamental that sets the density rho = T/(4 L^2 f0^2 A)"),
        FLAG_REAL("T", b->T, "N", 1, 5000, CLI_CLOSED, "string tension"),
        FLAG_REAL("E", b->E, "Pa", 0, 1e12, CLI_CLOSED,
            "Young's modulus (bending stiffness B = E pi r^4 / 4)"),
        FLAG_REAL("eta_A", b->eta_A, "1/s", 0, 1e3, CLI_CLOSED,
            "air damping in the Q formula (44)"),
        FLAG_REAL("eta_F", b->eta_F, "", 0, 1, CLI_CLOSED, "internal-friction damping in (44)"),
        FLAG_REAL("eta_B", b->eta_B, "", 0, 1, CLI_CLOSED, "bending damping in (44)"),
        FLAG_REAL("K_T", b->K_T, "N m^2", 1e-8, 1, CLI_CLOSED, "torsional stiffness"),
        FLAG_REAL("P_T", b->P_T, "kg m", 1e-14, 1e-6, CLI_CLOSED,
            "polar moment of inertia per length"),
        FLAG_REAL("Q_T", b->Q_T, "", 1, 1e5, CLI_CLOSED, "torsional Q-factor (45)"),
        FLAG_REAL("W_b", b->W_b, "m", 1e-4, 0.05, CLI_CLOSED, "bow-hair width"),
        FLAG_REAL("N", b->N, "", 1, 64, PARAM_WHOLE, "contact points under the bow (integer)"),
        FLAG_REAL("D_h", b->D_h, "kg/m", 1e-4, 100, CLI_CLOSED, "bow-hair linear density"),
        FLAG_REAL("K_h", b->K_h, "N/m^2", 1, 1e10, CLI_CLOSED, "bow-hair distributed stiffness"),
        FLAG_REAL("zeta_h", b->zeta_h, "kg/(s m)", 0, 1e6, CLI_CLOSED, "bow-hair damping"),
        FLAG_REAL("sigma0", b->sigma0, "1/m", 1e3, 1e9, CLI_CLOSED,
            "bristle (rosin shear) stiffness, force-normalised"),
        FLAG_REAL("mu_s", b->mu_s, "", 0.01, 5, CLI_CLOSED, "static friction coefficient"),
        FLAG_REAL("mu_d", b->mu_d, "", 0.0, 5, CLI_CLOSED, "dynamic friction coefficient"),
        FLAG_REAL("y_a", b->y_a, "", 0.01, 1, CLI_CLOSED, "asymptotic temperature factor"),
        FLAG_REAL("tau_g", b->tau_g, "K", 0.1, 500, CLI_CLOSED,
            "glass transition temperature above ambient"),
        FLAG_REAL("xi", b->xi, "", 1, 10, CLI_CLOSED, "glass-transition roll-off exponent"),
        FLAG_REAL("chi", b->chi, "", 0, 1, CLI_OPEN_MAX, "break-away ratio z_ba = chi z_d(tau)"),
        FLAG_REAL("a_tau", b->a_tau, "m/K", 1e-12, 1, CLI_CLOSED, "heat absorption constant"),
        FLAG_REAL("b_tau", b->b_tau, "W^1/2 m^-1/2 K^-1", 0, 100, CLI_CLOSED,
            "velocity-dependent heat conduction"),
        FLAG_REAL("c_tau", b->c_tau, "m s^-1 K^-1", 0, 100, CLI_CLOSED,
            "velocity-independent heat conduction"),
        FLAG_REAL("eps", b->eps, "m/s", 0, 1e-3, CLI_CLOSED,
            "epsilon in Lambda = sqrt((|v| + eps) / F_b)"),
        FLAG_REAL("ambient_c", b->ambient_c, "degC", -50, 100, CLI_CLOSED, "ambient temperature"),
        FLAG_REAL("f_max", b->f_max, "Hz", 100, 1e5, CLI_CLOSED,
            "keep the modes up to this frequency"),
        FLAG_REAL("dt", b->dt, "s", 1e-8, 1e-3, CLI_CLOSED, "time step of the fixed-step scheme"),
        FLAG_END,
    };
    memcpy(s, t, sizeof t);
}

bow_friction bow_friction_of(const bow_instrument *b)
{
    bow_friction f = {.sigma0 = b->sigma0, .mu_s = b->mu_s, .mu_d = b->mu_d, .y_a = b->y_a,
                      .tau_g = b->tau_g, .xi = b->xi, .chi = b->chi, .a_tau = b->a_tau,
                      .b_tau = b->b_tau, .c_tau = b->c_tau, .eps = b->eps};
    return f;
}

/* s = (tau / tau_g)^xi and ds/dtau, for tau >= 0 (tau < 0 is treated as 0). Whole
 * exponents by multiplication: this sits in the innermost loop of both solvers. */
static inline double glass(const bow_friction *fr, double tau, double *ds)
{
    if (tau <= 0.0) {
        if (ds)
            *ds = fr->xi == 1.0 ? 1.0 / fr->tau_g : 0.0;
        return 0.0;
    }
    double u = tau / fr->tau_g, s;
    if (fr->xi == 2.0)
        s = u * u;
    else if (fr->xi == 3.0)
        s = u * u * u;
    else if (fr->xi == 1.0)
        s = u;
    else
        s = exp(fr->xi * log(u));
    if (ds)
        *ds = fr->xi * s / tau;
    return s;
}

double bow_y(const bow_friction *fr, double tau)
{
    double s = glass(fr, tau, NULL);
    return (1.0 + fr->y_a * s) / (1.0 + s);
}

double bow_mu_ss(const bow_friction *fr, double tau)
{
    double s = glass(fr, tau, NULL);
    return (fr->mu_s + fr->mu_d * fr->y_a * s) / (1.0 + s);
}

/* The derivative of (31): xi (mu_d y_a - mu_s) (tau/tau_g)^(xi-1) / (tau_g (1 + s)^2). (B.4) as
 * printed lacks the factor xi and the square of 1 + s and divides by tau_g^xi instead of tau_g
 * (a central difference in test_bow checks this form). */
double bow_dmu_ss(const bow_friction *fr, double tau)
{
    double ds, s = glass(fr, tau, &ds);
    return (fr->mu_d * fr->y_a - fr->mu_s) * ds / ((1.0 + s) * (1.0 + s));
}

double bow_mu_str_tau(const bow_friction *fr, double tau)
{
    double s = glass(fr, tau, NULL);
    return (fr->mu_s + fr->mu_d * fr->y_a * s) / (1.0 + fr->y_a * s);
}

double bow_v_of_tau(const bow_friction *fr, double tau, double F_b)
{
    double mu = bow_mu_ss(fr, tau), b = fr->b_tau, c = fr->c_tau;
    double k = (b * tau + sqrt(b * b * tau * tau + 4.0 * c * tau * mu * F_b)) / (2.0 * mu);
    return k * k / F_b;
}

/* The solve of (B.3) for tau at |v| = v > 0 with cond = b_tau sqrt(v / F_b) + c_tau: Newton kept
 * inside the bracket [0, mu_s v / cond], from guess when it lies inside. The products of the
 * constants are taken once (the same products every iteration, so the same bits). */
static int tau_solve(const bow_friction *fr, double v, double cond, double guess, double *tau)
{
    const double mdy = fr->mu_d * fr->y_a, slope = mdy - fr->mu_s;
    double lo = 0.0, hi = fr->mu_s * v / cond;                /* f(lo) > 0 >= f(hi) */
    double t = (guess > lo && guess < hi) ? guess : 0.5 * hi;
    for (int it = 1; it <= 100; it++) {
        double ds, g = glass(fr, t, &ds), d = 1.0 + g;
        double f = (fr->mu_s + mdy * g) / d * v - cond * t;  /* f = mu_ss v - cond tau */
        if (f > 0.0)
            lo = t;
        else
            hi = t;
        double df = slope * ds / (d * d) * v - cond;
        double tn = t - f / df;
        if (fabs(tn - t) <= 1e-13 * (1.0 + t)) {
            *tau = tn;
            return it;
        }
        if (!(tn >= lo && tn <= hi))                          /* keep Newton inside the bracket */
            tn = 0.5 * (lo + hi);
        double step = fabs(tn - t);
        t = tn;
        if (step <= 1e-13 * (1.0 + t) || hi - lo <= 1e-14 * (1.0 + t)) {
            *tau = t;
            return it;
        }
    }
    *tau = t;
    return -1;
}

int bow_tau_of_v_from(const bow_friction *fr, double v, double F_b, double guess, double *tau)
{
    v = fabs(v);
    if (v == 0.0) {
        *tau = 0.0;
        return 0;
    }
    return tau_solve(fr, v, fr->b_tau * sqrt(v / F_b) + fr->c_tau, guess, tau);   /* (B.3) */
}

int bow_tau_of_v(const bow_friction *fr, double v, double F_b, double *tau)
{
    return bow_tau_of_v_from(fr, v, F_b, -1.0, tau);
}

double bow_mu_str(const bow_friction *fr, double v, double F_b, double *dmu_dv, double *tss)
{
    double a = fabs(v), tau = 0.0, cond = 0.0;
    if (a > 0.0) {
        cond = fr->b_tau * sqrt(a / F_b) + fr->c_tau;          /* (B.3) */
        tau_solve(fr, a, cond, tss ? *tss : -1.0, &tau);
    }
    if (tss)
        *tss = tau;
    /* one glass() for mu_str(tau) (29) and the slopes of mu_ss and mu_str: the same sums as
     * bow_mu_str_tau, bow_mu_ss, bow_dmu_ss and d mu_str / d tau, term for term */
    double ds, s = glass(fr, tau, &ds);
    double d = 1.0 + fr->y_a * s, num = fr->mu_s + fr->mu_d * fr->y_a * s;
    double mu = num / d;
    if (dmu_dv) {
        /* d tau/d|v| = -f_v / f_t for f(tau, v) = mu_ss(tau) v - (b sqrt(v/F_b) + c) tau */
        double dm = 0.0;
        if (a > 0.0) {
            double f_v = num / (1.0 + s) - fr->b_tau * tau / (2.0 * sqrt(a * F_b));
            double f_t = (fr->mu_d * fr->y_a - fr->mu_s) * ds / ((1.0 + s) * (1.0 + s)) * a - cond;
            dm = fr->y_a * (fr->mu_d - fr->mu_s) * ds / (d * d) * (-f_v / f_t);
        }
        *dmu_dv = dm;   /* mu_str is odd in v, so its slope is even */
    }
    return v >= 0.0 ? mu : -mu;
}

void bow_contact(const bow_friction *fr, double z, double v, double tau, double F_b, double *tss,
                 bool derivs, bow_contact_rates *o)
{
    bow_contact_rates r = {0};     /* a local: no store through o can alias *fr */
    double av = fabs(v), sv = v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : 0.0);
    double lam = sqrt((av + fr->eps) / F_b);
    double cond = fr->b_tau * lam + fr->c_tau;
    double ta = tau > 0.0 ? tau : 0.0;
    /* bow_y and its slope */
    double dsy, sy = glass(fr, ta, &dsy), y = (1.0 + fr->y_a * sy) / (1.0 + sy);
    double Bz = fr->chi * y * fr->mu_d / fr->sigma0;        /* z_ba = chi z_d(tau) */
    /* alpha = 0 (pure sticking, varsigma = 0) unless v z > 0 and |z| > z_ba: only then is the
     * Stribeck curve, and with it the steady-state solve for tau(|v|), needed */
    if (v != 0.0 && v * z > 0.0 && fabs(z) > Bz) {
        double dm, m = fabs(bow_mu_str(fr, av, F_b, derivs ? &dm : NULL, tss));
        double S = y * m / fr->sigma0;                      /* |z_ss(v, tau)| (10) */
        double a = fabs(z), al = 0.0, al_a = 0.0, al_S = 0.0, al_B = 0.0;
        {                                                   /* (11)-(14) */
            if (a >= S)
                al = 1.0;
            else if (a > Bz) {
                double w = S - Bz, th = (a - 0.5 * (S + Bz)) / w;
                al = 0.5 * (sin(M_PI * th) + 1.0);
                if (derivs) {                               /* the cosine only for the slopes */
                    double c = 0.5 * M_PI * cos(M_PI * th);
                    al_a = c / w;
                    al_S = c * (Bz - a) / (w * w);
                    al_B = c * (a - S) / (w * w);
                }
            }
        }
        r.varsigma = al * av * z / S;
        if (derivs && al > 0.0) {
            double dS_dv = y * dm / fr->sigma0;             /* d S / d|v| */
            double dy = tau > 0.0 ? (fr->y_a - 1.0) * dsy / ((1.0 + sy) * (1.0 + sy)) : 0.0;
            double dS_dt = S * dy / y, dB_dt = Bz * dy / y;
            r.s_z = av / S * (al + a * al_a);
            r.s_v = sv * (al * z / S + av * z * (al_S / S - al / (S * S)) * dS_dv);
            r.s_tau = av * z * ((al_S * dS_dt + al_B * dB_dt) / S - al * dS_dt / (S * S));
        }
    }
    r.dtau = (fr->sigma0 * z * r.varsigma - cond * tau) / fr->a_tau;
    if (derivs) {
        r.t_z = fr->sigma0 * (r.varsigma + z * r.s_z) / fr->a_tau;
        r.t_v = (fr->sigma0 * z * r.s_v - fr->b_tau * tau * sv / (2.0 * F_b * lam)) / fr->a_tau;
        r.t_tau = (fr->sigma0 * z * r.s_tau - cond) / fr->a_tau;
    }
    *o = r;
}

/* ---- bow_contact at four points in the lanes of one vector ---------------------------------
 * Each lane does bow_contact's operations in its order (so the same bits); a branch is taken in
 * every lane and its results kept (F64X4_PICK) where the lane takes it. sin, cos, exp and log are
 * libm's per lane; sqrt is SSE2's in pairs of lanes (exact, as libm's; its arguments here are
 * never negative, so no NaN of another sign or errno is at stake). */

static inline __attribute__((always_inline)) bool any4(i64x4 m)     /* a lane set: by halves */
{
    m |= __builtin_shuffle(m, (i64x4){2, 3, 0, 1});
    return (m | __builtin_shuffle(m, (i64x4){1, 0, 3, 2}))[0] != 0;
}

/* sqrt in each lane: SSE2's in pairs of lanes on x86-64 (exact, as sqrt), else libm's. A macro:
 * an inline function returning a vector changes the ABI between the clones (-Wpsabi). */
#if defined(__x86_64__) && defined(__GNUC__)
#include <emmintrin.h>
#define SQRT4(x) ({ const f64x4 x_ = (x);                                                  \
                    const __m128d lo_ = _mm_sqrt_pd((__m128d){x_[0], x_[1]}),                  \
                                  hi_ = _mm_sqrt_pd((__m128d){x_[2], x_[3]});                  \
                    (f64x4){lo_[0], lo_[1], hi_[0], hi_[1]}; })
#else
#define SQRT4(x) ({ const f64x4 x_ = (x);                                                  \
                    (f64x4){sqrt(x_[0]), sqrt(x_[1]), sqrt(x_[2]), sqrt(x_[3])}; })
#endif

/* glass() in each lane (exp(xi log u) by libm per lane for an exponent other than 1, 2, 3) */
static inline __attribute__((always_inline)) void glass4(const bow_friction *fr, const f64x4 *t,
                                                         f64x4 *s_out, f64x4 *ds)
{
    const f64x4 tau = *t;
    const i64x4 pos = ~(i64x4)(tau <= 0.0);
    const double xi = fr->xi;
    const f64x4 zero = {0};
    f64x4 u = tau / fr->tau_g, s = zero;
    if (xi == 2.0)
        s = u * u;
    else if (xi == 3.0)
        s = u * u * u;
    else if (xi == 1.0)
        s = u;
    else
        for (int k = 0; k < 4; k++)
            s[k] = pos[k] ? exp(xi * log(u[k])) : 0.0;
    *ds = F64X4_PICK(pos, xi * s / tau, zero + (xi == 1.0 ? 1.0 / fr->tau_g : 0.0));
    *s_out = F64X4_PICK(pos, s, zero);
}

/* tau_solve in the lanes of live, each until its own stop; the solution into *tau there. */
static inline __attribute__((always_inline)) void
tau_solve4(const bow_friction *fr, const f64x4 *vp, const f64x4 *cp, const f64x4 *guess,
           const i64x4 *lp, f64x4 *tau)
{
    const f64x4 v = *vp, cond = *cp, g0 = *guess;
    i64x4 live = *lp;
    const double mdy = fr->mu_d * fr->y_a, slope = mdy - fr->mu_s;
    f64x4 lo = {0}, hi = fr->mu_s * v / cond;
    f64x4 t = F64X4_PICK((i64x4)(g0 > lo) & (i64x4)(g0 < hi), g0, 0.5 * hi), out = t;
    for (int it = 1; it <= 100 && any4(live); it++) {
        f64x4 ds, g;
        glass4(fr, &t, &g, &ds);
        f64x4 d = 1.0 + g;
        f64x4 f = (fr->mu_s + mdy * g) / d * v - cond * t;
        i64x4 up = (i64x4)(f > 0.0);
        lo = F64X4_PICK(up, t, lo), hi = F64X4_PICK(up, hi, t);
        f64x4 df = slope * ds / (d * d) * v - cond;
        f64x4 tn = t - f / df;
        i64x4 done = live & (i64x4)(F64X4_ABS(tn - t) <= 1e-13 * (1.0 + t));
        out = F64X4_PICK(done, tn, out);
        live &= ~done;
        tn = F64X4_PICK((i64x4)(tn >= lo) & (i64x4)(tn <= hi), tn, 0.5 * (lo + hi));
        f64x4 step = F64X4_ABS(tn - t);
        t = tn;
        i64x4 stop = live & ((i64x4)(step <= 1e-13 * (1.0 + t)) |
                             (i64x4)(hi - lo <= 1e-14 * (1.0 + t)));
        out = F64X4_PICK(stop, t, out);
        live &= ~stop;
    }
    *tau = F64X4_PICK(live, t, out);
}

/* Four contact points: the inputs, then what bow_contact finds before the Stribeck curve. */
typedef struct contact4 {
    f64x4 z, v, tau, guess;
    f64x4 av, sv, lam, cond, sy, dsy, y, Bz;
    i64x4 slide;    /* v z > 0 beyond z_ba: the Stribeck curve is needed */
} contact4;

static inline __attribute__((always_inline)) void contact4_start(const bow_friction *fr,
                                                                 double F_b, contact4 *p)
{
    const f64x4 zero = {0}, one = zero + 1.0, z = p->z, v = p->v;
    p->av = F64X4_ABS(v);
    p->sv = F64X4_PICK((i64x4)(v > 0.0), one, F64X4_PICK((i64x4)(v < 0.0), -one, zero));
    p->lam = SQRT4((p->av + fr->eps) / F_b);
    p->cond = fr->b_tau * p->lam + fr->c_tau;
    const f64x4 ta = F64X4_PICK((i64x4)(p->tau > 0.0), p->tau, zero);
    glass4(fr, &ta, &p->sy, &p->dsy);
    p->y = (1.0 + fr->y_a * p->sy) / (1.0 + p->sy);
    p->Bz = fr->chi * p->y * fr->mu_d / fr->sigma0;
    p->slide = (i64x4)(v != 0.0) & (i64x4)(v * z > 0.0) & (i64x4)(F64X4_ABS(z) > p->Bz);
}

/* The adhesion map's alpha (11)-(14) and, with derivs, its slopes, lane by lane as bow_contact. */
static inline __attribute__((always_inline)) void
alpha4(const f64x4 *ap, const f64x4 *Sp, const f64x4 *Bp, const i64x4 *slide, bool derivs,
       f64x4 al[4])
{
    const f64x4 zero = {0}, a = *ap, S = *Sp, Bz = *Bp;
    const i64x4 full = (i64x4)(a >= S), mid = *slide & ~full & (i64x4)(a > Bz);
    al[0] = F64X4_PICK(full, zero + 1.0, zero), al[1] = al[2] = al[3] = zero;
    for (int k = 0; k < 4; k++)
        if (mid[k]) {
            double w = S[k] - Bz[k], th = (a[k] - 0.5 * (S[k] + Bz[k])) / w;
            al[0][k] = 0.5 * (sin(M_PI * th) + 1.0);
            if (derivs) {
                double c = 0.5 * M_PI * cos(M_PI * th);
                al[1][k] = c / w;
                al[2][k] = c * (Bz[k] - a[k]) / (w * w);
                al[3][k] = c * (a[k] - S[k]) / (w * w);
            }
        }
}


/* The rest of bow_contact from p and tau(|v|) at tss (the Stribeck lanes), into o. */
static inline __attribute__((always_inline)) void
contact4_end(const bow_friction *fr, double F_b, const contact4 *p, const f64x4 *sc,
             const f64x4 *ts, bool derivs, bow_contact_rates4 *o)
{
    const f64x4 scond = *sc, tss = *ts, zero = {0};
    const f64x4 z = p->z, tau = p->tau, av = p->av, y = p->y, Bz = p->Bz;
    f64x4 ds, s, dm = zero, al[4], vs, s_z = zero, s_v = zero, s_tau = zero;
    glass4(fr, &tss, &s, &ds);                               /* mu_str_at: bow_mu_str's end */
    f64x4 d = 1.0 + fr->y_a * s, num = fr->mu_s + fr->mu_d * fr->y_a * s, mu = num / d;
    if (derivs) {
        f64x4 f_v = num / (1.0 + s) - fr->b_tau * tss / (2.0 * SQRT4(av * F_b));
        f64x4 f_t = (fr->mu_d * fr->y_a - fr->mu_s) * ds / ((1.0 + s) * (1.0 + s)) * av - scond;
        dm = fr->y_a * (fr->mu_d - fr->mu_s) * ds / (d * d) * (-f_v / f_t);
    }
    f64x4 S = y * F64X4_ABS(mu) / fr->sigma0, a = F64X4_ABS(z);
    alpha4(&a, &S, &Bz, &p->slide, derivs, al);
    vs = F64X4_PICK(p->slide, al[0] * av * z / S, zero);
    if (derivs) {
        i64x4 on = p->slide & (i64x4)(al[0] > 0.0);
        f64x4 dS_dv = y * dm / fr->sigma0;
        f64x4 dy = F64X4_PICK((i64x4)(tau > 0.0),
                         (fr->y_a - 1.0) * p->dsy / ((1.0 + p->sy) * (1.0 + p->sy)), zero);
        f64x4 dS_dt = S * dy / y, dB_dt = Bz * dy / y;
        s_z = F64X4_PICK(on, av / S * (al[0] + a * al[1]), zero);
        s_v = F64X4_PICK(on,
                         p->sv * (al[0] * z / S + av * z * (al[2] / S - al[0] / (S * S)) * dS_dv),
                         zero);
        s_tau = F64X4_PICK(on,
                           av * z * ((al[2] * dS_dt + al[3] * dB_dt) / S - al[0] * dS_dt / (S * S)),
                           zero);
    }
    f64x4 dtau = (fr->sigma0 * z * vs - p->cond * tau) / fr->a_tau, t_z = zero, t_v = zero,
          t_tau = zero;
    if (derivs) {
        t_z = fr->sigma0 * (vs + z * s_z) / fr->a_tau;
        t_v = (fr->sigma0 * z * s_v - fr->b_tau * tau * p->sv / (2.0 * F_b * p->lam)) / fr->a_tau;
        t_tau = (fr->sigma0 * z * s_tau - p->cond) / fr->a_tau;
    }
    F64X4_AT(o->varsigma) = vs, F64X4_AT(o->dtau) = dtau;
    F64X4_AT(o->s_z) = s_z, F64X4_AT(o->s_v) = s_v, F64X4_AT(o->s_tau) = s_tau;
    F64X4_AT(o->t_z) = t_z, F64X4_AT(o->t_v) = t_v, F64X4_AT(o->t_tau) = t_tau;
}

/* bow_contact at the n <= 4 points (z, v, tau) from the guesses (4 each; lanes past n are any
 * finite copies), the solved tau(|v|) into tss[k] where the Stribeck curve was used. */
AVX2_CLONES static void contacts4(const bow_friction *fr, const double *z, const double *v,
                                  const double *tau, const double *guess, double F_b, double *tss,
                                  bool derivs, int n, bow_contact_rates4 *o)
{
    contact4 p = {.z = F64X4_AT(z), .v = F64X4_AT(v), .tau = F64X4_AT(tau),
                  .guess = F64X4_AT(guess)};
    contact4_start(fr, F_b, &p);
    const f64x4 zero = {0};
    f64x4 scond = zero, ts = zero;
    i64x4 live = p.slide;
    for (int k = n; k < 4; k++)
        live[k] = 0;
    if (any4(live)) {                                       /* as bow_mu_str at |v| > 0 */
        scond = fr->b_tau * SQRT4(p.av / F_b) + fr->c_tau;
        tau_solve4(fr, &p.av, &scond, &p.guess, &live, &ts);
        for (int k = 0; k < n; k++)
            if (live[k] && tss)
                tss[k] = ts[k];
    }
    if (derivs)     /* each its own copy: the sine alone without the slopes (no sincos) */
        contact4_end(fr, F_b, &p, &scond, &ts, true, o);
    else
        contact4_end(fr, F_b, &p, &scond, &ts, false, o);
}

void bow_contacts4(const bow_friction *fr, const double *z, const double *v, const double *tau,
                   double F_b, double *tss, bool derivs, bow_contact_rates4 *out)
{
    const double none[4] = {-1.0, -1.0, -1.0, -1.0};
    contacts4(fr, z, v, tau, tss ? tss : none, F_b, tss, derivs, 4, out);
}

void bow_contacts(const bow_friction *fr, int n, const double *z, const double *v,
                  const double *tau, double F_b, double *tss, bool derivs, bow_contact_rates *o)
{
    for (int j0 = 0; j0 < n; j0 += 4) {
        int m = n - j0 < 4 ? n - j0 : 4;
        double x[4][4];
        for (int k = 0; k < 4; k++) {
            int j = j0 + (k < m ? k : 0);       /* the lanes past m repeat the first point */
            x[0][k] = z[j], x[1][k] = v[j], x[2][k] = tau[j], x[3][k] = tss ? tss[j] : -1.0;
        }
        bow_contact_rates4 r;
        contacts4(fr, x[0], x[1], x[2], x[3], F_b, tss ? tss + j0 : NULL, derivs, m, &r);
        for (int k = 0; k < m; k++)
            o[j0 + k] = (bow_contact_rates){.varsigma = r.varsigma[k], .dtau = r.dtau[k],
                                            .s_z = r.s_z[k], .s_v = r.s_v[k],
                                            .s_tau = r.s_tau[k], .t_z = r.t_z[k],
                                            .t_v = r.t_v[k], .t_tau = r.t_tau[k]};
    }
}

/* ---- the model --------------------------------------------------------------------------- */

static int count_modes(double m, double f_max, double (*K)(const bow_model *, int),
                       const bow_model *bm)
{
    int i = 1;
    while (i < 100000 && sqrt(K(bm, i) / m) / (2.0 * M_PI) <= f_max)
        i++;
    return i - 1;
}

static double beta(const bow_model *m, int i) { return i * M_PI / m->in.L; }
static double K_u(const bow_model *m, int i)
{
    double b = beta(m, i);
    return 0.5 * m->in.L * (m->B * b * b * b * b + m->in.T * b * b);     /* (40) */
}
static double K_w(const bow_model *m, int i)
{
    double b = beta(m, i), r = m->in.r;
    return 0.5 * m->in.K_T * m->in.L * b * b / (r * r);                   /* (41) */
}

/* The instrument and gesture are usable together: 0, or -1 with the reason in err. */
static int model_check(const bow_instrument *in, const gesture *g, char *err, size_t errlen)
{
    if (fabs(in->N - lround(in->N)) > 1e-9) {
        snprintf(err, errlen, "N = %g is not a whole number of contact points", in->N);
        return -1;
    }
    if (in->mu_d > in->mu_s) {
        snprintf(err, errlen, "mu_d = %g exceeds mu_s = %g; accepted: mu_d <= mu_s", in->mu_d,
                 in->mu_s);
        return -1;
    }
    double x_b = g->position;
    if (x_b - 0.5 * in->W_b <= 0.0 || x_b + 0.5 * in->W_b >= in->L) {
        snprintf(err, errlen, "the bow hair [%g, %g] m is not on the string (0, %g) m",
                 x_b - 0.5 * in->W_b, x_b + 0.5 * in->W_b, in->L);
        return -1;
    }
    for (int k = 0; k < g->force.n; k++)
        if (!(g->force.value[k] > 0.0)) {
            snprintf(err, errlen, "bowing force %g N at %g s; accepted: > 0", g->force.value[k],
                     g->force.time[k]);
            return -1;
        }
    return 0;
}

/* The string's and the hair's constants: cross-section, density, stiffness, modal masses (38). */
static void model_constants(bow_model *m)
{
    const bow_instrument *in = &m->in;
    double L = in->L, r = in->r;
    m->A = M_PI * r * r;
    m->rho = in->T / (4.0 * L * L * in->f0 * in->f0 * m->A);
    m->B = in->E * M_PI * r * r * r * r / 4.0;
    m->m_u = 0.5 * m->rho * m->A * L;                          /* (38) */
    m->m_w = 0.5 * in->P_T * L / (r * r);
    m->dx = in->W_b / m->N;
    m->m_q = m->dx * in->D_h;
    m->k_q = m->dx * in->K_h;
    m->r_q = m->dx * in->zeta_h;
}

/* The per-mode and per-point arrays of Mu transverse, Mw torsional modes and N points. */
static void model_alloc(bow_model *m)
{
    size_t Mu = (size_t)m->Mu, Mw = (size_t)m->Mw, N = (size_t)m->N;
    double **per_u[] = {&m->Ku, &m->Ru, &m->Qu, &m->fu, &m->gu},
           **per_w[] = {&m->Kw, &m->Rw, &m->Qw, &m->fw, &m->gw};
    for (size_t k = 0; k < 5; k++) {
        *per_u[k] = xcalloc(Mu, sizeof(double));
        *per_w[k] = xcalloc(Mw, sizeof(double));
    }
    m->Gu = xcalloc(Mu * N, sizeof(double));
    m->Gw = xcalloc(Mw * N, sizeof(double));
    m->xj = xcalloc(N, sizeof(double));
    m->scratch = xcalloc(8 * N, sizeof(double));
    m->tss = xcalloc(N, sizeof(double));
    m->sums_at = xcalloc(2 * N, sizeof(double));
}

/* Stiffness, damping, Q, frequency, bridge weight and mode shapes of both families. */
static void model_modes(bow_model *m)
{
    const bow_instrument *in = &m->in;
    int N = m->N;
    for (int i = 0; i < m->Mu; i++) {
        double b = beta(m, i + 1), K = K_u(m, i + 1);
        double w0 = sqrt(K / m->m_u);
        double Q = (in->T + m->B * b * b) /
                   (in->T * (in->eta_F + in->eta_A / w0) + m->B * in->eta_B * b * b); /* (44) */
        double R = sqrt(K * m->m_u) / Q;                       /* (43) */
        double w2 = K / m->m_u - pow(R / (2 * m->m_u), 2);    /* (46) */
        m->Ku[i] = K, m->Ru[i] = R, m->Qu[i] = Q;
        m->fu[i] = w2 > 0 ? sqrt(w2) / (2 * M_PI) : 0.0;
        m->gu[i] = in->T * b + m->B * b * b * b;               /* (63) */
        for (int j = 0; j < N; j++)
            m->Gu[(size_t)i * N + j] = sin(b * m->xj[j]);
    }
    for (int i = 0; i < m->Mw; i++) {
        double b = beta(m, i + 1), K = K_w(m, i + 1);
        double Q = in->Q_T, R = sqrt(K * m->m_w) / Q;          /* (45), (43) */
        double w2 = K / m->m_w - pow(R / (2 * m->m_w), 2);
        m->Kw[i] = K, m->Rw[i] = R, m->Qw[i] = Q;
        m->fw[i] = w2 > 0 ? sqrt(w2) / (2 * M_PI) : 0.0;
        m->gw[i] = in->K_T / (in->r * in->r) * b;              /* (63) */
        for (int j = 0; j < N; j++)
            m->Gw[(size_t)i * N + j] = sin(b * m->xj[j]);
    }
}

/* The state layout (81)-(88) and the three energy integrals after it. */
static bow_layout model_layout(int Mu, int Mw, int N)
{
    bow_layout a;
    size_t o = 0;
    a.u = o, o += Mu;
    a.w = o, o += Mw;
    a.q = o, o += N;
    a.ud = o, o += Mu;
    a.wd = o, o += Mw;
    a.v = o, o += N;
    a.z = o, o += N;
    a.tau = o, o += N;
    a.e_in = o++;
    a.e_out = o++;
    a.e_abs = o++;
    a.dim = o;
    return a;
}

int bow_model_init(bow_model *m, const bow_instrument *in, const gesture *g, char *err,
                   size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (model_check(in, g, err, errlen) != 0)
        return -1;
    m->in = *in;
    m->fr = bow_friction_of(in);
    m->g = *g;
    m->N = (int)lround(in->N);
    model_constants(m);
    m->Mu = count_modes(m->m_u, in->f_max, K_u, m);
    m->Mw = count_modes(m->m_w, in->f_max, K_w, m);
    if (m->Mu < 1) {   /* no torsional mode below f_max is allowed: the string then only bends */
        snprintf(err, errlen, "f_max = %g Hz keeps no transverse mode (the first is at %g Hz)",
                 in->f_max, sqrt(K_u(m, 1) / m->m_u) / (2 * M_PI));
        return -1;
    }
    model_alloc(m);
    for (int j = 0; j < m->N; j++)
        m->xj[j] = g->position - 0.5 * in->W_b + (j + 0.5) * m->dx;   /* (47) */
    model_modes(m);
    m->at = model_layout(m->Mu, m->Mw, m->N);
    return 0;
}

void bow_model_free(bow_model *m)
{
    double **p[] = {&m->Ku, &m->Ru, &m->Qu, &m->fu, &m->gu, &m->Kw, &m->Rw, &m->Qw, &m->fw, &m->gw,
                    &m->Gu, &m->Gw, &m->xj, &m->scratch, &m->tss, &m->sums_at};
    for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
        free(*p[k]);
        *p[k] = NULL;
    }
}

int bow_model_check(const bow_instrument *in, const gesture *g, char *err, size_t errlen)
{
    bow_model m;
    if (bow_model_init(&m, in, g, err, errlen) != 0)
        return -1;
    bow_model_free(&m);
    return 0;
}

void bow_rest(const bow_model *m, double *x)
{
    memset(x, 0, m->at.dim * sizeof(double));
    for (int j = 0; j < m->N; j++)
        x[m->at.v + j] = gesture_value(&m->g.velocity, 0.0);
}

void bow_at_points(const double *restrict G, const double *restrict xdot, int M, int N,
                   double *restrict out)
{
    if (N == 4) {                       /* the default: accumulate in registers */
        double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (int i = 0; i < M; i++) {
            const double *row = G + 4 * (size_t)i;
            double s = xdot[i];
            a0 += row[0] * s, a1 += row[1] * s, a2 += row[2] * s, a3 += row[3] * s;
        }
        out[0] = a0, out[1] = a1, out[2] = a2, out[3] = a3;
        return;
    }
    for (int j = 0; j < N; j++)
        out[j] = 0.0;
    for (int i = 0; i < M; i++) {
        const double *row = G + (size_t)i * N;
        double s = xdot[i];
        for (int j = 0; j < N; j++)
            out[j] += row[j] * s;
    }
}

/* Power terms at (t, x): P (supplied, with the load-change term), Q (dissipated). */
static void powers(const bow_model *m, double t, const double *x, const double *qd, double qmodal,
                   double *P, double *Q)
{
    const bow_layout *a = &m->at;
    double F_b = gesture_value(&m->g.force, t) / m->in.W_b,
           dF = gesture_slope(&m->g.force, t) / m->in.W_b;
    double v_b = gesture_value(&m->g.velocity, t);
    double sz = 0, szz = 0, stau = 0, qt = 0;
    for (int j = 0; j < m->N; j++) {
        double z = x[a->z + j], tau = x[a->tau + j], v = x[a->v + j];
        double lam = sqrt((fabs(v) + m->fr.eps) / F_b);
        sz += z, szz += z * z, stau += tau;
        qt += (m->fr.b_tau * lam + m->fr.c_tau) * tau;
    }
    *P = v_b * m->dx * F_b * m->fr.sigma0 * sz                                /* (76) */
         + m->dx * dF * (0.5 * m->fr.sigma0 * szz + m->fr.a_tau * stau);     /* F_b changing */
    double q = qmodal;                                                        /* (72), (73) */
    if (q < 0) {
        q = 0;
        for (int i = 0; i < m->Mu; i++)
            q += m->Ru[i] * x[a->ud + i] * x[a->ud + i];
        for (int i = 0; i < m->Mw; i++)
            q += m->Rw[i] * x[a->wd + i] * x[a->wd + i];
    }
    for (int j = 0; j < m->N; j++)
        q += m->r_q * qd[j] * qd[j];                                          /* (74) */
    *Q = q + m->dx * F_b * qt;                                                /* (75) */
}

/* The string's two families of modes, transverse (u) and torsional (w): the same linear
 * oscillators seen through their own shapes at the contact points, so one routine serves both. */
typedef struct mode_family {
    int disp, vel;          /* offsets of the displacements and velocities in the state */
    int M;                  /* modes */
    const double *G;        /* shapes at the contact points, M x N */
    const double *K, *R;    /* modal stiffness (N/m) and damping (kg/s) */
    double mass;            /* modal mass, kg */
} mode_family;

static void mode_families(const bow_model *m, mode_family fam[2])
{
    fam[0] = (mode_family){.disp = m->at.u, .vel = m->at.ud, .M = m->Mu, .G = m->Gu, .K = m->Ku,
                           .R = m->Ru, .mass = m->m_u};
    fam[1] = (mode_family){.disp = m->at.w, .vel = m->at.wd, .M = m->Mw, .G = m->Gw, .K = m->Kw,
                           .R = m->Rw, .mass = m->m_w};
}

/* Modal equations: position' = velocity, m velocity' = G f - K position - R velocity. */
static void family_rhs(const mode_family *fm, int N, const double *x, const double *f, double *dx)
{
    for (int i = 0; i < fm->M; i++) {
        double gf = 0;
        for (int j = 0; j < N; j++)
            gf += fm->G[(size_t)i * N + j] * f[j];
        dx[fm->disp + i] = x[fm->vel + i];
        dx[fm->vel + i] = (gf - fm->K[i] * x[fm->disp + i] - fm->R[i] * x[fm->vel + i]) / fm->mass;
    }
}

/* The family's rows and columns of the dense Jacobian (n x n, row-major). */
#define JX(r, c) J[(size_t)(r) * n + (size_t)(c)]
static void family_jac(const mode_family *fm, const bow_model *m, int N, size_t n, double kz,
                       double rq, const double *x, const double *qd, const bow_layout *a, double *J)
{
    for (int i = 0; i < fm->M; i++) {
        int d = fm->disp + i, v = fm->vel + i;
        JX(d, v) = 1.0;
        JX(v, d) = -fm->K[i] / fm->mass;
        JX(v, v) = -fm->R[i] / fm->mass;
        double qsum = 0;
        for (int j = 0; j < N; j++) {
            double G = fm->G[(size_t)i * N + j];
            JX(v, a->z + j) = G * kz / fm->mass;
            JX(a->q + j, v) = G;
            JX(a->v + j, v) = G * (fm->R[i] / fm->mass - rq);
            JX(a->v + j, d) = G * fm->K[i] / fm->mass;
            qsum += 2.0 * m->r_q * qd[j] * G;
        }
        JX(a->e_out, v) = 2.0 * fm->R[i] * x[v] + qsum;
    }
}
#undef JX

static int rhs(double t, const double *x, double *dx, void *params)
{
    bow_model *m = params;
    const bow_layout *a = &m->at;
    int N = m->N, Mu = m->Mu, Mw = m->Mw;
    double F_b = gesture_value(&m->g.force, t) / m->in.W_b;
    double v_b = gesture_value(&m->g.velocity, t), a_b = gesture_slope(&m->g.velocity, t);
    double *uc = m->scratch, *wc = uc + N, *qd = wc + N, *f = qd + N, *ua = f + N, *wa = ua + N;
    double kz = m->dx * F_b * m->fr.sigma0;
    bow_at_points(m->Gu, x + a->ud, Mu, N, uc);
    bow_at_points(m->Gw, x + a->wd, Mw, N, wc);
    for (int j = 0; j < N; j++) {
        qd[j] = uc[j] + wc[j] + x[a->v + j] - v_b;                            /* (83) */
        f[j] = kz * x[a->z + j];                                              /* (56) */
        dx[a->q + j] = qd[j];
    }
    mode_family fam[2];
    mode_families(m, fam);
    for (int k = 0; k < 2; k++) /* (81)-(82), (84)-(85) */
        family_rhs(&fam[k], N, x, f, dx);
    /* (86), written as a_b + q'' - (string acceleration at the points): the printed form
     * drops the transposes G^T on the modal terms. */
    bow_at_points(m->Gu, dx + a->ud, Mu, N, ua);
    bow_at_points(m->Gw, dx + a->wd, Mw, N, wa);
    for (int j = 0; j < N; j++) {
        double qdd = (-m->k_q * x[a->q + j] - m->r_q * qd[j] - f[j]) / m->m_q;
        dx[a->v + j] = a_b + qdd - ua[j] - wa[j];
        bow_contact_rates c;
        /* no warm start here: F must be a deterministic function of x for CVODE's
         * error estimates and difference quotients */
        bow_contact(&m->fr, x[a->z + j], x[a->v + j], x[a->tau + j], F_b, NULL, false, &c);
        dx[a->z + j] = x[a->v + j] - c.varsigma;                              /* (87) */
        dx[a->tau + j] = c.dtau;                                              /* (88) */
    }
    double P, Q;
    powers(m, t, x, qd, -1.0, &P, &Q);
    dx[a->e_in] = P;
    dx[a->e_out] = Q;
    dx[a->e_abs] = fabs(P);
    return 0;
}

/* dF/dx of rhs, row-major, from the same terms (the friction law's partials from bow_contact). */
static int jacobian(double t, const double *x, double *J, void *params)
{
    bow_model *m = params;
    const bow_layout *a = &m->at;
    int N = m->N, Mu = m->Mu, Mw = m->Mw;
    size_t n = a->dim;
    memset(J, 0, n * n * sizeof(double));
#define JX(r, c) J[(size_t)(r) * n + (size_t)(c)]
    double F_b = gesture_value(&m->g.force, t) / m->in.W_b,
           dF = gesture_slope(&m->g.force, t) / m->in.W_b;
    double v_b = gesture_value(&m->g.velocity, t);
    double kz = m->dx * F_b * m->fr.sigma0, rq = m->r_q / m->m_q;
    double *uc = m->scratch, *wc = uc + N, *qd = wc + N;
    bow_at_points(m->Gu, x + a->ud, Mu, N, uc);
    bow_at_points(m->Gw, x + a->wd, Mw, N, wc);
    for (int j = 0; j < N; j++)
        qd[j] = uc[j] + wc[j] + x[a->v + j] - v_b;
    double P, Q;
    powers(m, t, x, qd, -1.0, &P, &Q);
    double sgnP = P > 0 ? 1.0 : (P < 0 ? -1.0 : 0.0);
    mode_family fam[2];
    mode_families(m, fam);
    for (int k = 0; k < 2; k++)
        family_jac(&fam[k], m, N, n, kz, rq, x, qd, a, J);
    for (int j = 0; j < N; j++) {
        JX(a->q + j, a->v + j) = 1.0;
        JX(a->v + j, a->q + j) = -m->k_q / m->m_q;
        JX(a->v + j, a->v + j) = -rq;
        for (int k = 0; k < N; k++) {
            double gg = 0;
            for (int i = 0; i < Mu; i++)
                gg += m->Gu[(size_t)i * N + j] * m->Gu[(size_t)i * N + k] / m->m_u;
            for (int i = 0; i < Mw; i++)
                gg += m->Gw[(size_t)i * N + j] * m->Gw[(size_t)i * N + k] / m->m_w;
            JX(a->v + j, a->z + k) = -kz * ((j == k ? 1.0 / m->m_q : 0.0) + gg);
        }
        bow_contact_rates c;
        double z = x[a->z + j], v = x[a->v + j], tau = x[a->tau + j];
        bow_contact(&m->fr, z, v, tau, F_b, NULL, true, &c);
        JX(a->z + j, a->v + j) = 1.0 - c.s_v;
        JX(a->z + j, a->z + j) = -c.s_z;
        JX(a->z + j, a->tau + j) = -c.s_tau;
        JX(a->tau + j, a->z + j) = c.t_z;
        JX(a->tau + j, a->v + j) = c.t_v;
        JX(a->tau + j, a->tau + j) = c.t_tau;
        double dPz = v_b * kz + m->dx * dF * m->fr.sigma0 * z, dPt = m->dx * dF * m->fr.a_tau;
        JX(a->e_in, a->z + j) = dPz;
        JX(a->e_in, a->tau + j) = dPt;
        JX(a->e_abs, a->z + j) = sgnP * dPz;
        JX(a->e_abs, a->tau + j) = sgnP * dPt;
        double lam = sqrt((fabs(v) + m->fr.eps) / F_b), sv = v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
        JX(a->e_out, a->v + j) =
            2.0 * m->r_q * qd[j] + m->dx * F_b * m->fr.b_tau * tau * sv / (2.0 * F_b * lam);
        JX(a->e_out, a->tau + j) = m->dx * F_b * (m->fr.b_tau * lam + m->fr.c_tau);
    }
#undef JX
    return 0;
}

static double energy(double t, const double *x, void *params)
{
    bow_obs o;
    bow_observe(params, t, x, &o);
    return o.H;
}

ivp bow_ivp(bow_model *m)
{
    ivp p = {.dim = m->at.dim, .rhs = rhs, .jac = jacobian, .energy = energy, .params = m};
    return p;
}

long bow_border(const bow_model *m, long *idx)
{
    const bow_layout *a = &m->at;
    const size_t from[] = {a->q, a->v, a->z};
    long k = 0;
    for (int f = 0; f < 3; f++)
        for (int j = 0; j < m->N; j++)
            idx[k++] = (long)from[f] + j;
    idx[k++] = (long)a->e_out;
    return k;
}

/* One pass over a polarisation's modes: bridge force, energy, dissipation, velocity at the
 * contact points. */
static void modal_sums(const double *restrict G, const double *restrict g, const double *restrict K,
                       const double *restrict R, double mass, const double *restrict q,
                       const double *restrict p, int M, int N, bow_modal *o, double *restrict at)
{
    double b = 0, h = 0, d = 0, a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int i = 0; i < M; i++) {
        b += g[i] * q[i];                                                     /* (61), (62) */
        h += 0.5 * mass * p[i] * p[i] + 0.5 * K[i] * q[i] * q[i];             /* (67), (68) */
        d += R[i] * p[i] * p[i];                                              /* (72), (73) */
        if (N == 4) {   /* the default: bow_at_points in the same pass, the same sums in order */
            const double *row = G + 4 * (size_t)i;
            a0 += row[0] * p[i], a1 += row[1] * p[i], a2 += row[2] * p[i], a3 += row[3] * p[i];
        }
    }
    if (N == 4)
        at[0] = a0, at[1] = a1, at[2] = a2, at[3] = a3;
    else
        bow_at_points(G, p, M, N, at);
    o->bridge = b, o->H = h, o->Q = d;
}

/* The modal sums of x, both families, velocities at the contact points into at (2 N): those the
 * fixed-step scheme took when x is the state it has just made (m->swept), else one pass. */
static void observe_modes(const bow_model *m, const double *x, bow_modal s[2], double *at)
{
    const bow_layout *a = &m->at;
    int N = m->N;
    if (m->swept == x) {
        s[0] = m->sums[0], s[1] = m->sums[1];
        memcpy(at, m->sums_at, 2 * (size_t)N * sizeof(double));
        return;
    }
    modal_sums(m->Gu, m->gu, m->Ku, m->Ru, m->m_u, x + a->u, x + a->ud, m->Mu, N, &s[0], at);
    modal_sums(m->Gw, m->gw, m->Kw, m->Rw, m->m_w, x + a->w, x + a->wd, m->Mw, N, &s[1], at + N);
}

/* bow_observe, its powers only when asked (a record of every step has no use for them) */
static void observe(const bow_model *m, double t, const double *x, bool with_powers, bow_obs *o)
{
    const bow_layout *a = &m->at;
    int N = m->N;
    memset(o, 0, sizeof *o);
    o->v_b = gesture_value(&m->g.velocity, t);
    o->f_b = gesture_value(&m->g.force, t);
    double F_b = o->f_b / m->in.W_b, kz = m->dx * F_b * m->fr.sigma0;
    double buf[3 * 64];
    double *uc = N <= 64 ? buf : xcalloc(3 * (size_t)N, sizeof(double)), *wc = uc + N, *qd = wc + N;
    double Hq = 0, Hz = 0, Ht = 0;
    bow_modal ms[2];
    observe_modes(m, x, ms, uc);
    o->bridge_u = ms[0].bridge, o->bridge_w = ms[1].bridge;
    /* the sums and extremes in locals (no store through o can alias x), from o's zeros */
    double v_mean = 0, z_mean = 0, tau_mean = 0, z_absmax = 0, tau_max = 0, tau_min = INFINITY;
    double friction = 0, v_b = o->v_b;
    for (int j = 0; j < N; j++) {
        double z = x[a->z + j], tau = x[a->tau + j];
        qd[j] = uc[j] + wc[j] + x[a->v + j] - v_b;
        v_mean += x[a->v + j] / N;
        z_mean += z / N;
        tau_mean += tau / N;
        z_absmax = running_max(z_absmax, fabs(z));
        tau_max = running_max(tau_max, tau);
        tau_min = running_min(tau_min, tau);
        friction += kz * z;
        Hq += 0.5 * m->m_q * qd[j] * qd[j] + 0.5 * m->k_q * x[a->q + j] * x[a->q + j];  /* (69) */
        Hz += 0.5 * kz * z * z;                                                          /* (70) */
        Ht += m->dx * F_b * m->fr.a_tau * tau;                                           /* (71) */
    }
    o->v_mean = v_mean, o->z_mean = z_mean, o->tau_mean = tau_mean, o->z_absmax = z_absmax;
    o->tau_max = tau_max, o->tau_min = tau_min, o->friction = friction;
    o->H = ms[0].H + ms[1].H + Hq + Hz + Ht;
    if (with_powers)
        powers(m, t, x, qd, ms[0].Q + ms[1].Q, &o->P, &o->Q);
    o->e_in = x[a->e_in];
    o->e_out = x[a->e_out];
    o->e_abs = x[a->e_abs];
    if (uc != buf)
        free(uc);
}

void bow_observe(const bow_model *m, double t, const double *x, bow_obs *o)
{
    observe(m, t, x, true, o);
}

void bow_observe_state(const bow_model *m, double t, const double *x, bow_obs *o)
{
    observe(m, t, x, false, o);
}

void bow_powers(const bow_model *m, double t, const double *x, double *P, double *Q)
{
    int N = m->N;
    double buf[3 * 64];
    double *uc = N <= 64 ? buf : xcalloc(3 * (size_t)N, sizeof(double)), *wc = uc + N, *qd = wc + N;
    double v_b = gesture_value(&m->g.velocity, t);
    bow_at_points(m->Gu, x + m->at.ud, m->Mu, N, uc);
    bow_at_points(m->Gw, x + m->at.wd, m->Mw, N, wc);
    for (int j = 0; j < N; j++)
        qd[j] = uc[j] + wc[j] + x[m->at.v + j] - v_b;
    powers(m, t, x, qd, -1.0, P, Q);
    if (uc != buf)
        free(uc);
}

double bow_pluck_bridge(const bow_model *m, double x_p, double u0, double t)
{
    double L = m->in.L, fu = 0;
    for (int i = 0; i < m->Mu; i++) {
        double b = (i + 1) * M_PI / L;
        double a0 = 2.0 * u0 * sin(b * x_p) / (b * b * x_p * (L - x_p));
        double g = m->Ru[i] / (2 * m->m_u), w = 2 * M_PI * m->fu[i];
        fu += m->gu[i] * a0 * exp(-g * t) * (cos(w * t) + g / w * sin(w * t));
    }
    return fu;
}
