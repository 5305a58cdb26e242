/* bow_fixed.c: the two solvers of the bowed string and the stroke for sweeps.
 *
 * The fixed-step scheme is the trapezoidal rule on the whole system (81)-(88), solved in a
 * way that uses its structure. Every mode and every hair point is a linear oscillator
 * driven by the contact forces f = dx F_b sigma0 z, so for one step the new modal
 * velocities are an explicit part plus (h / D_i) times the step-averaged force; projected
 * on the contact points this makes the new relative velocity an affine function of the new
 * bristle displacements, v' = v0 - (kappa / 2) C z', with C a constant N x N matrix. What is
 * left is a Newton solve in the 2N contact unknowns (z', tau') with an analytic Jacobian;
 * the modes are then updated from the solved force. Cost per step: two passes over the
 * M x N mode shapes and a 2N x 2N LU. Second order; for the linear part it keeps the
 * discrete energy balance of the trapezoidal (midpoint) rule. */
#include "bow/bow.h"
#include "base/util.h"
#include "drive/sun_dense.h"
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *bow_solver_name(bow_solver s) { return s == BOW_CVODE ? "cvode-bdf" : "bow-trapezoid"; }

typedef struct fixed {
    bow_model *m;
    double h;                   /* step, s */
    double *au, *bu, *cu;       /* per transverse mode: p' = a p - c x + b (G fbar) */
    double *aw, *bw, *cw;       /* per torsional mode */
    double aq, bq, cq;          /* hair points */
    double *C;                  /* N x N: contact velocity per unit step-averaged force */
    double *Gtu, *Gtw;          /* N = 4: the mode shapes by point, 4 rows of Mu (Mw) */
    double *pu, *pw;            /* explicit parts of the new modal velocities */
    double *ue, *we;            /* their sums at the contact points, left by the last step's pass */
    double *vec;                /* 16 N scratch */
    double *zd1, *taud1;        /* contact rates at the last residual evaluation */
    double *qd1;                /* hair velocities at the end of the last step, m/s */
    double *zd0, *taud0;        /* contact rates at the start of the last step (the predictor) */
    double t_cached;            /* the time those rates (and P1, Q1) belong to, s (NaN: none) */
    double P1, Q1;              /* powers at t_cached, W */
    sun_dense J;                /* N x N: the contact Jacobian with tau eliminated */
    gsl_vector *R, *dX;         /* 2N: residual (z rows, tau rows) and Newton update */
    double *dz;                 /* N: the reduced right-hand side, then its solution */
    double *jzt, *jtt, *jtz;    /* the diagonal z-tau and tau-tau blocks, the N x N tau-z block
                                 * (column-major, as J) */
    bow_contact_rates *rates;   /* N: the friction law at the points, the last residual's */
    long newton;                /* Newton iterations so far */
    long split;                 /* steps split in halves because their Newton solve failed */
    int depth;                  /* this solver's step is the main step / 2^depth */
    struct fixed *half;         /* the same scheme at h / 2, made when first needed */
} fixed;

static void coeffs(double mass, double K, double R, double h, double *a, double *b, double *c)
{
    double D = mass + 0.25 * h * h * K + 0.5 * h * R;
    *a = (mass - 0.25 * h * h * K - 0.5 * h * R) / D;
    *b = h / D;
    *c = h * K / D;
}

/* The M x 4 shapes G (row-major) as 4 rows of M, one a contact point: modes in a row's lanes. */
static double *shapes_by_point(const double *G, int M)
{
    double *t = xcalloc(4 * (size_t)M, sizeof(double));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < 4; j++)
            t[(size_t)j * M + i] = G[4 * (size_t)i + j];
    return t;
}

static void fixed_init(fixed *s, bow_model *m, double h)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    s->h = h;
    int Mu = m->Mu, Mw = m->Mw, N = m->N;
    s->au = xcalloc((size_t)Mu, sizeof(double));
    s->bu = xcalloc((size_t)Mu, sizeof(double));
    s->cu = xcalloc((size_t)Mu, sizeof(double));
    s->aw = xcalloc((size_t)Mw, sizeof(double));
    s->bw = xcalloc((size_t)Mw, sizeof(double));
    s->cw = xcalloc((size_t)Mw, sizeof(double));
    s->pu = xcalloc((size_t)Mu, sizeof(double));
    s->pw = xcalloc((size_t)Mw, sizeof(double));
    s->ue = xcalloc((size_t)N, sizeof(double));
    s->we = xcalloc((size_t)N, sizeof(double));
    s->C = xcalloc((size_t)N * N, sizeof(double));
    s->vec = xcalloc(16 * (size_t)N, sizeof(double));
    s->zd1 = xcalloc((size_t)N, sizeof(double));
    s->taud1 = xcalloc((size_t)N, sizeof(double));
    s->qd1 = xcalloc((size_t)N, sizeof(double));
    s->zd0 = xcalloc((size_t)N, sizeof(double));
    s->taud0 = xcalloc((size_t)N, sizeof(double));
    s->t_cached = NAN;
    for (int i = 0; i < Mu; i++) {
        coeffs(m->m_u, m->Ku[i], m->Ru[i], h, &s->au[i], &s->bu[i], &s->cu[i]);
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                s->C[j * N + k] += m->Gu[(size_t)i * N + j] * s->bu[i] * m->Gu[(size_t)i * N + k];
    }
    for (int i = 0; i < Mw; i++) {
        coeffs(m->m_w, m->Kw[i], m->Rw[i], h, &s->aw[i], &s->bw[i], &s->cw[i]);
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                s->C[j * N + k] += m->Gw[(size_t)i * N + j] * s->bw[i] * m->Gw[(size_t)i * N + k];
    }
    coeffs(m->m_q, m->k_q, m->r_q, h, &s->aq, &s->bq, &s->cq);
    for (int j = 0; j < N; j++)
        s->C[j * N + j] += s->bq;
    if (N == 4) {
        s->Gtu = shapes_by_point(m->Gu, Mu);
        s->Gtw = shapes_by_point(m->Gw, Mw);
    }
    sun_dense_init(&s->J, (size_t)N);
    s->R = gsl_vector_alloc(2 * (size_t)N);
    s->dX = gsl_vector_alloc(2 * (size_t)N);
    s->dz = xcalloc((size_t)N, sizeof(double));
    s->jzt = xcalloc((size_t)N, sizeof(double));
    s->jtt = xcalloc((size_t)N, sizeof(double));
    s->jtz = xcalloc((size_t)N * N, sizeof(double));
    s->rates = xcalloc((size_t)N, sizeof(bow_contact_rates));
}

static void fixed_free(fixed *s)
{
    if (s->half) {
        fixed_free(s->half);
        free(s->half);
        s->half = NULL;
    }
    double **p[] = {&s->au, &s->bu, &s->cu, &s->aw, &s->bw, &s->cw, &s->pu, &s->pw, &s->ue,
                    &s->we, &s->C, &s->vec, &s->zd1, &s->taud1, &s->qd1, &s->zd0, &s->taud0,
                    &s->jzt, &s->jtt, &s->jtz, &s->dz, &s->Gtu, &s->Gtw};
    for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
        free(*p[k]);
        *p[k] = NULL;
    }
    free(s->rates);
    s->rates = NULL;
    sun_dense_free(&s->J);
    gsl_vector_free(s->R);
    gsl_vector_free(s->dX);
    s->R = s->dX = NULL;
}

/* One step's working vectors, N doubles each, carved from s->vec. */
typedef struct step_vecs {
    double *uc, *wc;        /* transverse and torsional velocity at the contact points, m/s */
    double *qd;             /* hair point velocities at the start of the step, m/s */
    double *qfree;          /* their explicit part at the end of the step, m/s */
    double *v0;             /* v' = v0 - (k1/2) C z': the affine part, m/s */
    double *zn, *taun;      /* z (m) and tau (K) at the start of the step */
    double *zdn, *taudn;    /* their rates at the start, m/s and K/s */
    double *z, *tau;        /* the Newton iterate at the end of the step, m and K */
    double *v;              /* the relative velocity at the iterate, m/s */
    double *fbar;           /* step-averaged contact force, N */
    double *zt, *tt;        /* trial iterate of the line search, m and K */
    double *tss;            /* the friction law's guesses (m->tss) before a trial, K */
} step_vecs;

static step_vecs step_carve(double *b, int N)
{
    step_vecs w = {.uc = b,             .wc = b + N,          .qd = b + 2 * N,
                   .qfree = b + 3 * N,  .v0 = b + 4 * N,      .zn = b + 5 * N,
                   .taun = b + 6 * N,   .zdn = b + 7 * N,     .taudn = b + 8 * N,
                   .z = b + 9 * N,      .tau = b + 10 * N,    .v = b + 11 * N,
                   .fbar = b + 12 * N,  .zt = b + 13 * N,     .tt = b + 14 * N,
                   .tss = b + 15 * N};
    return w;
}

/* Newton's scales: z against the bound mu_s/sigma0 (18), tau against this, K */
#define TAU_SCALE 10.0

#define LANE(v, k) __builtin_shuffle(v, (i64x4){k, k, k, k})      /* lane k in all four */

/* contact_residual at N = 4, the points in the lanes of one vector: each lane (point j) the
 * same operations in the same order as contact_residual's row j, so the same bits. The rows of
 * C's columns and of J's are the lanes. */
AVX2_CLONES static double
contact_residual4(fixed *s, double F_b1, double kappa1, const step_vecs *w, const double *z,
                  const double *tau, bool jac)
{
    const double *v0 = w->v0, *zn = w->zn, *taun = w->taun, *zdn = w->zdn, *taudn = w->taudn;
    double *v = w->v;
    bow_model *m = s->m;
    const double h = s->h, zs = m->fr.mu_s / m->fr.sigma0;
    const double *C = s->C;
#define COLUMN(k) {C[k], C[4 + k], C[8 + k], C[12 + k]}
    const f64x4 zero = {0}, col[4] = {COLUMN(0), COLUMN(1), COLUMN(2), COLUMN(3)};
#undef COLUMN
    f64x4 cz = zero + col[0] * z[0] + col[1] * z[1] + col[2] * z[2] + col[3] * z[3];
    const f64x4 vv = F64X4_AT(v0) - 0.5 * kappa1 * cz;
    F64X4_AT(v) = vv;
    bow_contact_rates4 c;
    bow_contacts4(&m->fr, z, v, tau, F_b1, m->tss, jac, &c);
    const f64x4 vs = F64X4_AT(c.varsigma), dtau = F64X4_AT(c.dtau);
    const f64x4 Rz = F64X4_AT(z) - F64X4_AT(zn) - 0.5 * h * (F64X4_AT(zdn) + vv - vs);
    const f64x4 Rt = F64X4_AT(tau) - F64X4_AT(taun) - 0.5 * h * (F64X4_AT(taudn) + dtau);
    F64X4_AT(s->zd1) = vv - vs, F64X4_AT(s->taud1) = dtau;
    F64X4_AT(s->R->data) = Rz, F64X4_AT(s->R->data + 4) = Rt;
    double norm = 0.0;
    for (int j = 0; j < 4; j++)
        norm = running_max(running_max(norm, fabs(Rz[j]) / zs), fabs(Rt[j]) / TAU_SCALE);
    if (!jac)
        return norm;
    const f64x4 dzt = 0.5 * h * F64X4_AT(c.s_tau), dtt = 1.0 - 0.5 * h * F64X4_AT(c.t_tau);
    const f64x4 r = dzt / dtt, djj = 1.0 + 0.5 * h * F64X4_AT(c.s_z);
    const f64x4 hsv = 0.5 * h * (1.0 - F64X4_AT(c.s_v));
    const f64x4 t_z = F64X4_AT(c.t_z), t_v = F64X4_AT(c.t_v);
    F64X4_AT(s->jzt) = dzt, F64X4_AT(s->jtt) = dtt;
    for (int k = 0; k < 4; k++) {
        const i64x4 diag = (i64x4){0, 1, 2, 3} == k;
        const f64x4 dv = -0.5 * kappa1 * col[k];                 /* d v_j / d z_k */
        const f64x4 dzz = F64X4_PICK(diag, djj, zero) - hsv * dv;
        const f64x4 dtz = -0.5 * h * (F64X4_PICK(diag, t_z, zero) + t_v * dv);
        F64X4_AT(s->jtz + 4 * k) = dtz;
        F64X4_AT(sun_dense_at(&s->J, 0, (size_t)k)) = dzz - r * dtz;
    }
    return norm;
}

/* Residual of the contact equations at X = (z, tau) from the step's start in w, row by row at
 * any N; fills w->v and, when jac, the Jacobian. Returns the scaled max-norm of the residual. */
static double contact_residual_rows(fixed *s, double F_b1, double kappa1, const step_vecs *w,
                                    const double *z, const double *tau, bool jac)
{
    const double *v0 = w->v0, *zn = w->zn, *taun = w->taun, *zdn = w->zdn, *taudn = w->taudn;
    double *v = w->v;
    bow_model *m = s->m;
    int N = m->N;
    double h = s->h, zs = m->fr.mu_s / m->fr.sigma0, norm = 0.0;
    for (int j = 0; j < N; j++) {
        double cz = 0;
        for (int k = 0; k < N; k++)
            cz += s->C[j * N + k] * z[k];
        v[j] = v0[j] - 0.5 * kappa1 * cz;
    }
    bow_contacts(&m->fr, N, z, v, tau, F_b1, m->tss, jac, s->rates);
    for (int j = 0; j < N; j++) {
        const bow_contact_rates c = s->rates[j];
        double Rz = z[j] - zn[j] - 0.5 * h * (zdn[j] + v[j] - c.varsigma);
        double Rt = tau[j] - taun[j] - 0.5 * h * (taudn[j] + c.dtau);
        s->zd1[j] = v[j] - c.varsigma;
        s->taud1[j] = c.dtau;
        s->R->data[j] = Rz, s->R->data[N + j] = Rt;
        norm = running_max(running_max(norm, fabs(Rz) / zs), fabs(Rt) / TAU_SCALE);
        if (jac) {
            /* the Jacobian has diagonal tau-z and tau-tau blocks (each tau_j only sees its own
             * point), so tau is eliminated and only the N x N Schur complement in z is factored;
             * the factors the row shares in locals (the same products, so the same bits) */
            double dzt = 0.5 * h * c.s_tau, dtt = 1.0 - 0.5 * h * c.t_tau, r = dzt / dtt;
            double djj = 1.0 + 0.5 * h * c.s_z, hsv = 0.5 * h * (1.0 - c.s_v);
            double t_z = c.t_z, t_v = c.t_v;
            s->jzt[j] = dzt, s->jtt[j] = dtt;
            for (int k = 0; k < N; k++) {
                double dv = -0.5 * kappa1 * s->C[j * N + k];          /* d v_j / d z_k */
                double dzz = (j == k ? djj : 0.0) - hsv * dv;
                double dtz = -0.5 * h * ((j == k ? t_z : 0.0) + t_v * dv);
                s->jtz[k * N + j] = dtz;
                *sun_dense_at(&s->J, (size_t)j, (size_t)k) = dzz - r * dtz;
            }
        }
    }
    return norm;
}

/* contact_residual_rows, at N = 4 in lanes (contact_residual4: the same bits). */
static inline double contact_residual(fixed *s, double F_b1, double kappa1, const step_vecs *w,
                                      const double *z, const double *tau, bool jac)
{
    if (s->m->N == 4)
        return contact_residual4(s, F_b1, kappa1, w, z, tau, jac);
    return contact_residual_rows(s, F_b1, kappa1, w, z, tau, jac);
}

/* Explicit parts of the new modal velocities, p = a p - c x, kept in pe, and their sum at the
 * contact points into acc (N): the first step's (each later step takes them from the pass over
 * the modes of the step before, modal_pass). */
static void modal_explicit(int M, int N, const double *restrict G, const double *restrict ca,
                           const double *restrict cc, const double *restrict xq,
                           const double *restrict xp, double *restrict pe, double *restrict acc)
{
    for (int i = 0; i < M; i++)
        pe[i] = ca[i] * xp[i] - cc[i] * xq[i];
    bow_at_points(G, pe, M, N, acc);
}

/* A family of modes (transverse or torsional) as one step sees it: the model's shapes, bridge
 * weights, stiffness and damping, the step's coefficients, the state's displacements and
 * velocities, and the explicit parts of the new velocities. */
typedef struct family {
    int M;
    double mass;
    const double *restrict G, *restrict g, *restrict K, *restrict R;
    const double *restrict ca, *restrict cb, *restrict cc;
    double *restrict xq, *restrict xp, *restrict pe;
    const double *restrict Gt;      /* N = 4: G by point (shapes_by_point), else NULL */
} family;

/* Mode i of family f driven by its share gf of the step-averaged force: its new displacement
 * and velocity (returned: p1); what bow_observe sums over the modes, into o (term for term as
 * modal_sums in bow.c); the next step's explicit part of its velocity into f->pe (*p, as
 * modal_explicit). */
static inline double mode_advance(const family *f, int i, double h, double gf, bow_modal *o,
                                  double *p)
{
    double p1 = f->pe[i] + f->cb[i] * gf;
    double q1 = f->xq[i] + 0.5 * h * (f->xp[i] + p1);
    f->xq[i] = q1, f->xp[i] = p1;
    o->bridge += f->g[i] * q1;
    o->H += 0.5 * f->mass * p1 * p1 + 0.5 * f->K[i] * q1 * q1;
    o->Q += f->R[i] * p1 * p1;
    *p = f->ca[i] * p1 - f->cc[i] * q1;
    f->pe[i] = *p;
    return p1;
}

/* Modes from..M-1 of f driven by fbar, one by one (mode_advance), their terms added to sum and to
 * the contact points' sums at and acc (N each) after those already there. */
static inline void modes_one_by_one(const family *f, int N, int from, double h,
                                    const double *restrict fbar, bow_modal *sum,
                                    double *restrict at, double *restrict acc)
{
    for (int i = from; i < f->M; i++) {
        const double *restrict row = f->G + (size_t)i * N;
        double p, gf = row[0] * fbar[0];
        for (int j = 1; j < N; j++)
            gf += row[j] * fbar[j];
        double p1 = mode_advance(f, i, h, gf, sum, &p);
        for (int j = 0; j < N; j++)
            at[j] += row[j] * p1, acc[j] += row[j] * p;
    }
}


/* What a pass over the modes sums, each in the order of the modes, as modal_sums: the bridge
 * force, the energy and the dissipated power (lanes 0-2 of bhq), the velocities at the points
 * and the explicit parts' sums there (lane j: point j). */
typedef struct pass_sums {
    f64x4 bhq, at, acc;
} pass_sums;

/* Modes i..i+3 of f (N = 4; rows of G by point at Gt, each ld long) driven by fbar, as
 * mode_advance does each of them (the same operations, so the same bits a mode); their terms
 * added to S mode after mode. */
static inline __attribute__((always_inline)) void
modes_advance4(const family *f, const double *Gt, size_t ld, int i, double h, const double *fbar,
               pass_sums *S)
{
    f64x4 gf = F64X4_AT(Gt + i) * fbar[0] + F64X4_AT(Gt + ld + i) * fbar[1] +
              F64X4_AT(Gt + 2 * ld + i) * fbar[2] + F64X4_AT(Gt + 3 * ld + i) * fbar[3];
    f64x4 p1 = F64X4_AT(f->pe + i) + F64X4_AT(f->cb + i) * gf;
    f64x4 q1 = F64X4_AT(f->xq + i) + 0.5 * h * (F64X4_AT(f->xp + i) + p1);
    f64x4 p = F64X4_AT(f->ca + i) * p1 - F64X4_AT(f->cc + i) * q1;
    F64X4_AT(f->xq + i) = q1, F64X4_AT(f->xp + i) = p1, F64X4_AT(f->pe + i) = p;
    f64x4 b = F64X4_AT(f->g + i) * q1;
    f64x4 H = 0.5 * f->mass * p1 * p1 + 0.5 * F64X4_AT(f->K + i) * q1 * q1;
    f64x4 Q = F64X4_AT(f->R + i) * p1 * p1;
    /* (b, H, Q, 0) of each mode: the 4 x 4 transpose, by pairs then halves */
    const f64x4 zero = {0}, bh02 = __builtin_shuffle(b, H, (i64x4){0, 4, 2, 6}),
               bh13 = __builtin_shuffle(b, H, (i64x4){1, 5, 3, 7}),
               q02 = __builtin_shuffle(Q, zero, (i64x4){0, 4, 2, 6}),
               q13 = __builtin_shuffle(Q, zero, (i64x4){1, 5, 3, 7});
    const f64x4 bhq[4] = {__builtin_shuffle(bh02, q02, (i64x4){0, 1, 4, 5}),
                         __builtin_shuffle(bh13, q13, (i64x4){0, 1, 4, 5}),
                         __builtin_shuffle(bh02, q02, (i64x4){2, 3, 6, 7}),
                         __builtin_shuffle(bh13, q13, (i64x4){2, 3, 6, 7})};
    const double *row = f->G + 4 * (size_t)i;
#define MODE_SUMS(k)                                                                        \
    S->bhq += bhq[k];                                                                       \
    S->at += F64X4_AT(row + 4 * k) * LANE(p1, k), S->acc += F64X4_AT(row + 4 * k) * LANE(p, k);
    MODE_SUMS(0) MODE_SUMS(1) MODE_SUMS(2) MODE_SUMS(3)
#undef MODE_SUMS
}

/* modal_pass at N = 4, four modes at a time (AVX2 where the machine has it, SSE2 elsewhere: the
 * same operations, the same bits), its sums in the order of the modes: the same bits as the
 * scalar pass. The last M % 4 modes one by one (mode_advance), their terms after the others. */
AVX2_CLONES static void
modal_pass4(const family *fam, double h, const double *restrict fbar, bow_modal *o,
            double *restrict at, double *restrict acc)
{
    const family local = *fam, *f = &local;
    pass_sums S = {{0}, {0}, {0}};
    int M = f->M, i = 0;
    for (; i + 4 <= M; i += 4)
        modes_advance4(f, f->Gt, (size_t)M, i, h, fbar, &S);
    bow_modal sum = {S.bhq[0], S.bhq[1], S.bhq[2]};
    for (int j = 0; j < 4; j++)
        at[j] = S.at[j], acc[j] = S.acc[j];
    modes_one_by_one(f, 4, i, h, fbar, &sum, at, acc);
    *o = sum;
}

/* The modes driven by the step-averaged force fbar, in one pass (mode_advance each): the sums
 * into o, the velocities at the contact points into at (N, as modal_sums) and the next step's
 * explicit parts' sums there into acc (N, as modal_explicit). At N = 4, modal_pass4. */
static void modal_pass(const family *fam, int N, double h, const double *restrict fbar,
                       bow_modal *o, double *restrict at, double *restrict acc)
{
    if (N == 4 && fam->Gt) {
        modal_pass4(fam, h, fbar, o, at, acc);
        return;
    }
    const family local = *fam;  /* no store can alias a copy: in registers */
    bow_modal sum = {0};        /* so do the sums; *o at the end */
    for (int j = 0; j < N; j++)
        at[j] = acc[j] = 0.0;
    modes_one_by_one(&local, N, 0, h, fbar, &sum, at, acc);
    *o = sum;
}

/* The two families of the step from x: transverse, torsional. */
static void families(fixed *s, double *x, family f[2])
{
    bow_model *m = s->m;
    const bow_layout *a = &m->at;
    f[0] = (family){.M = m->Mu, .mass = m->m_u, .G = m->Gu, .g = m->gu, .K = m->Ku, .R = m->Ru,
                    .ca = s->au, .cb = s->bu, .cc = s->cu, .xq = x + a->u, .xp = x + a->ud,
                    .pe = s->pu, .Gt = s->Gtu};
    f[1] = (family){.M = m->Mw, .mass = m->m_w, .G = m->Gw, .g = m->gw, .K = m->Kw, .R = m->Rw,
                    .ca = s->aw, .cb = s->bw, .cc = s->cw, .xq = x + a->w, .xp = x + a->wd,
                    .pe = s->pw, .Gt = s->Gtw};
}

/* The start of the step at t: the powers P0, Q0, the hair velocities and the contact rates,
 * left by the previous step when it ended at t (returns 1), else computed (returns 0). */
static int step_start(fixed *s, double t, const double *x, const step_vecs *w, double *P0, double *Q0)
{
    bow_model *m = s->m;
    const bow_layout *a = &m->at;
    int N = m->N;
    if (fabs(s->t_cached - t) < 1e-6 * s->h) {
        *P0 = s->P1, *Q0 = s->Q1;
        memcpy(w->qd, s->qd1, N * sizeof(double));
        memcpy(w->zdn, s->zd1, N * sizeof(double));
        memcpy(w->taudn, s->taud1, N * sizeof(double));
        return 1;
    }
    double F_b0 = gesture_value(&m->g.force, t) / m->in.W_b, v_b0 = gesture_value(&m->g.velocity, t);
    bow_powers(m, t, x, P0, Q0);
    for (int j = 0; j < N; j++)
        w->uc[j] = w->wc[j] = 0.0;
    for (int i = 0; i < m->Mu; i++)
        for (int j = 0; j < N; j++)
            w->uc[j] += m->Gu[(size_t)i * N + j] * x[a->ud + i];
    for (int i = 0; i < m->Mw; i++)
        for (int j = 0; j < N; j++)
            w->wc[j] += m->Gw[(size_t)i * N + j] * x[a->wd + i];
    for (int j = 0; j < N; j++) {
        w->qd[j] = w->uc[j] + w->wc[j] + x[a->v + j] - v_b0;
        bow_contact_rates c;
        bow_contact(&m->fr, x[a->z + j], x[a->v + j], x[a->tau + j], F_b0, &m->tss[j], false, &c);
        w->zdn[j] = x[a->v + j] - c.varsigma;
        w->taudn[j] = c.dtau;
    }
    return 0;
}

/* The explicit parts of the new velocities projected on the contact points, the affine part
 * v0 of the new relative velocity, and the predicted (z, tau): second order (Adams-Bashforth)
 * from the last two rates when the step continues the previous one, else Euler. */
static void step_predict(fixed *s, const double *x, const step_vecs *w, double k0, double v_b1,
                         bool cached)
{
    bow_model *m = s->m;
    const bow_layout *a = &m->at;
    int N = m->N;
    double h = s->h;
    for (int j = 0; j < N; j++)
        w->zn[j] = x[a->z + j], w->taun[j] = x[a->tau + j];
    /* cached: the last step's pass over the modes left them */
    const double *uc = s->ue, *wc = s->we;
    if (!cached) {
        modal_explicit(m->Mu, N, m->Gu, s->au, s->cu, x + a->u, x + a->ud, s->pu, w->uc);
        modal_explicit(m->Mw, N, m->Gw, s->aw, s->cw, x + a->w, x + a->wd, s->pw, w->wc);
        uc = w->uc, wc = w->wc;
    }
    for (int j = 0; j < N; j++)
        w->qfree[j] = s->aq * w->qd[j] - s->cq * x[a->q + j];
    for (int j = 0; j < N; j++) {
        double cf = 0;
        for (int k = 0; k < N; k++)
            cf += s->C[j * N + k] * k0 * w->zn[k];
        w->v0[j] = v_b1 + w->qfree[j] - uc[j] - wc[j] - 0.5 * cf;   /* v' = v0 - (k1/2) C z' */
        if (cached)
            w->z[j] = w->zn[j] + h * (1.5 * w->zdn[j] - 0.5 * s->zd0[j]),
            w->tau[j] = w->taun[j] + h * (1.5 * w->taudn[j] - 0.5 * s->taud0[j]);
        else
            w->z[j] = w->zn[j] + h * w->zdn[j], w->tau[j] = w->taun[j] + h * w->taudn[j];
        s->zd0[j] = w->zdn[j], s->taud0[j] = w->taudn[j];
    }
}

/* The Newton update dX for the residual s->R: the tau rows eliminated through the diagonal
 * blocks, an N x N LU solve for dz (SUNDIALS's dense LU, drive/sun_dense.h), then dtau. 0, or
 * -1 when the LU fails. */
static int newton_direction_rows(fixed *s, int N)
{
    const double *R = s->R->data, *dz = s->dz;      /* unit stride (gsl_vector_alloc) */
    double *dX = s->dX->data;
    for (int j = 0; j < N; j++)
        s->dz[j] = R[j] - s->jzt[j] / s->jtt[j] * R[N + j];
    if (sun_dense_solve(&s->J, s->dz) != 0)
        return -1;
    for (int j = 0; j < N; j++) {
        double q = 0;
        for (int k = 0; k < N; k++)
            q += s->jtz[k * N + j] * dz[k];
        dX[j] = dz[j];
        dX[N + j] = (R[N + j] - q) / s->jtt[j];
    }
    return 0;
}

/* newton_direction_rows at N = 4, the points in vector lanes (each the same operations). */
AVX2_CLONES static int newton_direction4(fixed *s)
{
    const double *R = s->R->data;
    double *dX = s->dX->data, *dz = s->dz;
    const f64x4 jtt = F64X4_AT(s->jtt), Rt = F64X4_AT(R + 4), zero = {0};
    F64X4_AT(dz) = F64X4_AT(R) - F64X4_AT(s->jzt) / jtt * Rt;
    if (sun_dense_solve(&s->J, dz) != 0)
        return -1;
    const f64x4 q = zero + F64X4_AT(s->jtz) * dz[0] + F64X4_AT(s->jtz + 4) * dz[1] +
                    F64X4_AT(s->jtz + 8) * dz[2] + F64X4_AT(s->jtz + 12) * dz[3];
    F64X4_AT(dX) = F64X4_AT(dz);
    F64X4_AT(dX + 4) = (Rt - q) / jtt;
    return 0;
}

static int newton_direction(fixed *s, int N)
{
    return N == 4 ? newton_direction4(s) : newton_direction_rows(s, N);
}

/* A trial point reached from a scaled residual below this is expected to end the solve
 * (Newton's quadratic step lands under 1e-10): it is evaluated without the Jacobian, and again
 * with it, from the same guesses of the friction law, only when it does not. The default stroke,
 * 200000 steps: of the trials from residuals 3e-7 to 3e-6, 99.95% end the solve; 3e-6 to 3e-5,
 * 93%; 3e-5 to 3e-4, 30%. */
#define JAC_SKIP_BELOW 1e-5

/* The line search along s->dX from (z, tau): halving the update while the residual grows, its
 * Jacobian only when jac. The accepted trial into (zt, tt); *dmax its scaled update; the
 * friction law's guesses before its evaluation into w->tss. Returns its scaled residual. */
static double line_search(fixed *s, double F_b1, double k1, const step_vecs *w, double norm,
                          bool jac, double *dmax)
{
    int N = s->m->N;
    double zs = s->m->fr.mu_s / s->m->fr.sigma0, lam = 1.0, n2 = norm;
    for (int tries = 0; tries < 20; tries++) {
        *dmax = 0.0;
        for (int j = 0; j < N; j++) {
            double dz = -lam * s->dX->data[j], dt = -lam * s->dX->data[N + j];
            w->zt[j] = w->z[j] + dz, w->tt[j] = w->tau[j] + dt;
            *dmax = running_max(running_max(*dmax, fabs(dz) / zs), fabs(dt) / TAU_SCALE);
        }
        memcpy(w->tss, s->m->tss, N * sizeof(double));
        n2 = contact_residual(s, F_b1, k1, w, w->zt, w->tt, jac);
        if (n2 < norm || n2 < 1e-12)
            break;
        lam *= 0.5;
    }
    return n2;
}

/* Newton in (z, tau) from the prediction in w. 0, or -1 with the method, the time and the
 * reason in err. */
static int step_newton(fixed *s, double t, const step_vecs *w, double F_b1, double k1, char *err, size_t errlen)
{
    int N = s->m->N;
    double norm = contact_residual(s, F_b1, k1, w, w->z, w->tau, true);
    int it, conv = norm < 1e-10;
    for (it = 0; it < 60 && !conv; it++) {
        if (newton_direction(s, N) != 0) {
            snprintf(err, errlen, "%s failed at t = %.9g s: singular contact Jacobian", bow_solver_name(BOW_FIXED), t);
            return -1;
        }
        bool jac = !(norm < JAC_SKIP_BELOW);
        double dmax;
        norm = line_search(s, F_b1, k1, w, norm, jac, &dmax);
        memcpy(w->z, w->zt, N * sizeof(double));
        memcpy(w->tau, w->tt, N * sizeof(double));
        s->newton++;
        conv = (dmax < 1e-10 && norm < 1e-8) || norm < 1e-10;
        if (!conv && !jac) {    /* the same evaluation again, from the same guesses, with J */
            memcpy(s->m->tss, w->tss, N * sizeof(double));
            contact_residual(s, F_b1, k1, w, w->z, w->tau, true);
        }
    }
    if (!conv || !isfinite(norm)) {
        snprintf(err, errlen, "%s failed at t = %.9g s: the contact Newton solve did not converge in %d iterations "
                 "(scaled residual %.3g); try a smaller dt", bow_solver_name(BOW_FIXED), t, it, norm);
        return -1;
    }
    return 0;
}

/* The end of the step: the modes and the hair updated from the step-averaged force, the new
 * contact state into x, the powers at t + h (76), (66) (as bow_powers, without another pass
 * over the modes) cached for the next step, and the energy integrals advanced. */
static void step_finish(fixed *s, double t1, double *x, const step_vecs *w, double k0, double k1,
                        double F_b1, double v_b1, double P0, double Q0)
{
    bow_model *m = s->m;
    const bow_layout *a = &m->at;
    int N = m->N;
    double h = s->h;
    for (int j = 0; j < N; j++)
        w->fbar[j] = 0.5 * (k0 * w->zn[j] + k1 * w->z[j]);
    family f[2];
    families(s, x, f);
    modal_pass(&f[0], N, h, w->fbar, &m->sums[0], m->sums_at, s->ue);
    modal_pass(&f[1], N, h, w->fbar, &m->sums[1], m->sums_at + N, s->we);
    double Qm = m->sums[0].Q + m->sums[1].Q;
    double dF = gesture_slope(&m->g.force, t1) / m->in.W_b, sz = 0, szz = 0, stau = 0, qt = 0, qq = 0;
    for (int j = 0; j < N; j++) {
        double qd1 = w->qfree[j] - s->bq * w->fbar[j];
        x[a->q + j] += 0.5 * h * (w->qd[j] + qd1);
        x[a->z + j] = w->z[j];
        x[a->tau + j] = w->tau[j];
        x[a->v + j] = w->v[j];
        s->qd1[j] = qd1;
        double lam = sqrt((fabs(w->v[j]) + m->fr.eps) / F_b1);
        sz += w->z[j], szz += w->z[j] * w->z[j], stau += w->tau[j];
        qt += (m->fr.b_tau * lam + m->fr.c_tau) * w->tau[j];
        qq += m->r_q * qd1 * qd1;
    }
    double P1 = v_b1 * k1 * sz + m->dx * dF * (0.5 * m->fr.sigma0 * szz + m->fr.a_tau * stau);
    double Q1 = Qm + qq + m->dx * F_b1 * qt;
    s->P1 = P1, s->Q1 = Q1, s->t_cached = t1;
    m->swept = x;
    x[a->e_in] += 0.5 * h * (P0 + P1);
    x[a->e_out] += 0.5 * h * (Q0 + Q1);
    x[a->e_abs] += 0.5 * h * (fabs(P0) + fabs(P1));
}

/* One step from (t, x) to t + h, in place, the energy integrals by the trapezoidal rule:
 * start, predict, Newton on the contact, finish. 0, or -1 with the reason in err. */
static int fixed_step(fixed *s, double t, double *x, char *err, size_t errlen)
{
    bow_model *m = s->m;
    /* the gesture at t + h, once for the prediction, the solve and the end of the step */
    double t1 = t + s->h, F_b0 = gesture_value(&m->g.force, t) / m->in.W_b;
    double F_b1 = gesture_value(&m->g.force, t1) / m->in.W_b;
    double v_b1 = gesture_value(&m->g.velocity, t1);
    double k0 = m->dx * m->fr.sigma0 * F_b0, k1 = m->dx * m->fr.sigma0 * F_b1, P0, Q0;
    step_vecs w = step_carve(s->vec, m->N);
    bool cached = step_start(s, t, x, &w, &P0, &Q0);
    step_predict(s, x, &w, k0, v_b1, cached);
    if (step_newton(s, t, &w, F_b1, k1, err, errlen) != 0)
        return -1;
    step_finish(s, t1, x, &w, k0, k1, F_b1, v_b1, P0, Q0);
    return 0;
}

/* A step whose contact Newton solve fails (it can stall at the kinks of the friction law,
 * e.g. where v changes sign) is done again as two steps of h / 2, down to h / 64. */
#define MAX_SPLIT_DEPTH 6
static int fixed_step_robust(fixed *s, double t, double *x, char *err, size_t errlen)
{
    if (fixed_step(s, t, x, err, errlen) == 0)
        return 0;
    if (s->depth >= MAX_SPLIT_DEPTH)
        return -1;
    if (!s->half) {
        s->half = xcalloc(1, sizeof(fixed));
        fixed_init(s->half, s->m, 0.5 * s->h);
        s->half->depth = s->depth + 1;
    }
    s->half->t_cached = NAN;
    long n0 = s->half->newton;
    if (fixed_step_robust(s->half, t, x, err, errlen) != 0 ||
        fixed_step_robust(s->half, t + 0.5 * s->h, x, err, errlen) != 0)
        return -1;
    s->newton += s->half->newton - n0;
    s->split += 1 + s->half->split;
    s->half->split = 0;
    s->t_cached = NAN;      /* the next step starts from the state, not from this step's cache */
    return 0;
}

static int run_fixed(bow_model *m, const bow_run_opts *o, double *x, bow_run_result *res)
{
    fixed s;
    fixed_init(&s, m, o->h);
    long n = lround(o->t1 / o->h);
    long every = o->dt_out > 0 ? lround(o->dt_out / o->h) : 1;
    if (every < 1)
        every = 1;
    double zlim = 10.0 * m->fr.mu_s / m->fr.sigma0, w0 = wall_seconds();
    int status = 0;
    m->swept = NULL;
    bow_rest(m, x);
    if (o->sink && o->sink(0.0, x, o->ctx))
        status = 1;
    long k;
    for (k = 0; k < n && status == 0; k++) {
        double t = k * o->h;
        if (fixed_step_robust(&s, t, x, res->message, sizeof res->message) != 0) {
            status = 1;
            break;
        }
        double zmax = max_abs(x + m->at.z, (size_t)m->N);
        if (!isfinite(zmax) || !isfinite(x[m->at.e_out]) || zmax > zlim) {
            snprintf(res->message, sizeof res->message,
                     "%s blew up at t = %.9g s: |z| = %.3g m exceeds ten times the bound mu_s/sigma0; try a smaller dt",
                     bow_solver_name(BOW_FIXED), t + o->h, zmax);
            status = 1;
            break;
        }
        if (o->sink && ((k + 1) % every == 0 || k + 1 == n) && o->sink((k + 1) * o->h, x, o->ctx)) {
            snprintf(res->message, sizeof res->message, "%s: stopped by the sink at t = %.9g s",
                     bow_solver_name(BOW_FIXED), (k + 1) * o->h);
            status = 1;
        }
    }
    res->t = k * o->h;
    res->steps = k;
    res->newton = s.newton;
    res->split = s.split;
    res->seconds = wall_seconds() - w0;
    m->swept = NULL;
    fixed_free(&s);
    return status;
}

typedef struct cv_ctx {
    const bow_run_opts *o;
    double dt_out;
} cv_ctx;

static int cv_sink(long k, double t, const double *y, void *c)
{
    (void)k;
    cv_ctx *cc = c;
    double r = t / cc->dt_out;
    if (fabs(r - lround(r)) > 1e-6)     /* a segment end, not an output time */
        return 0;
    return cc->o->sink ? cc->o->sink(t, y, cc->o->ctx) : 0;
}

static int run_cvode(bow_model *m, const bow_run_opts *o, double *x, bow_run_result *res)
{
    double w0 = wall_seconds();
    bow_rest(m, x);
    if (o->sink && o->sink(0.0, x, o->ctx))
        return 1;
    ivp p = bow_ivp(m);
    double breaks[2 * GESTURE_MAX_POINTS + 1];
    int nb = gesture_breaks(&m->g, 0.0, o->t1, breaks, 2 * GESTURE_MAX_POINTS);
    breaks[nb++] = o->t1;
    double dt = o->dt_out > 0 ? o->dt_out : o->t1 / 1000.0;
    long nout_all = lround(o->t1 / dt) + nb + 2;
    double *tout = xcalloc((size_t)nout_all, sizeof(double));
    cv_ctx cc = {o, dt};
    long *border = xcalloc(3 * (size_t)m->N + 1, sizeof(long)), nborder = bow_border(m, border);
    double t0 = 0.0;
    int status = 0;
    for (int s = 0; s < nb && status == 0; s++) {
        double t1 = breaks[s];
        size_t n = 0;
        for (long k = lround(floor(t0 / dt)) + 1; k * dt < t1 - 1e-12 * dt; k++)
            if (k * dt > t0 + 1e-12 * dt)
                tout[n++] = k * dt;
        tout[n++] = t1;
        cvode_opts co = cvode_defaults();
        co.lmm = CVODE_BDF;
        co.solver = CVODE_BORDERED;
        co.border = border;
        co.nborder = nborder;
        co.rtol = o->rtol;
        co.atol = o->atol;
        co.tout = tout;
        co.nout = n;
        co.sink = cv_sink;
        co.ctx = &cc;
        co.max_steps = 2000000;
        cvode_stats st;
        memset(&st, 0, sizeof st);
        if (cvode_solve(&p, t0, x, t1, &co, &st, res->message, sizeof res->message) != 0)
            status = 1;
        res->steps += st.steps;
        res->newton += st.nniters;
        res->nfev += st.nfev + st.nfev_jac;
        res->t = status ? t0 : t1;
        t0 = t1;
    }
    free(tout);
    free(border);
    res->seconds = wall_seconds() - w0;
    return status;
}

int bow_run(bow_model *m, const bow_run_opts *o, double *x, bow_run_result *res)
{
    memset(res, 0, sizeof *res);
    for (int j = 0; j < m->N; j++)
        m->tss[j] = 0.0;
    clock_t c0 = clock();
    int rc = o->solver == BOW_CVODE ? run_cvode(m, o, x, res) : run_fixed(m, o, x, res);
    res->cpu_seconds = (double)(clock() - c0) / CLOCKS_PER_SEC;
    return rc;
}

double bow_step_cost(int modes, int N)
{
    return 3e-6 + 2e-9 * modes * N + 30e-9 * (double)N * N;
}

double bow_step_weight(const bow_instrument *in)
{
    gesture g = gesture_stroke(1.0, 0.1, 0.0, 0.0, 1.0, 0.1 * in->L);    /* the sizes are the instrument's */
    bow_model m;
    char err[300];
    if (bow_model_init(&m, in, &g, err, sizeof err) != 0)
        return 1.0;
    double w = bow_step_cost(m.Mu + m.Mw, m.N) / bow_step_cost(BOW_REF_MODES, BOW_REF_N);
    bow_model_free(&m);
    return w;
}

typedef struct stroke_ctx {
    const bow_model *m;
    double *bridge, *v_rel;
    size_t n, cap;
} stroke_ctx;

static int stroke_sink(double t, const double *x, void *c)
{
    stroke_ctx *s = c;
    if (s->n == s->cap)
        return 1;
    double fu = 0, vm = 0;
    for (int i = 0; i < s->m->Mu; i++)
        fu += s->m->gu[i] * x[s->m->at.u + i];
    for (int j = 0; j < s->m->N; j++)
        vm += x[s->m->at.v + j] / s->m->N;
    (void)t;
    s->bridge[s->n] = fu;
    s->v_rel[s->n] = vm;
    s->n++;
    return 0;
}

int bow_stroke(const bow_instrument *in, const gesture *g, double **bridge, double **v_rel, size_t *n,
               char *err, size_t errlen)
{
    bow_model m;
    if (bow_model_init(&m, in, g, err, errlen) != 0)
        return -1;
    size_t cap = (size_t)lround(g->duration / in->dt) + 2;
    stroke_ctx sc = {.m = &m, .bridge = xcalloc(cap, sizeof(double)),
                     .v_rel = xcalloc(cap, sizeof(double)), .cap = cap};
    double *x = xcalloc(m.at.dim, sizeof(double));
    bow_run_opts o = {.solver = BOW_FIXED, .h = in->dt, .dt_out = in->dt, .t1 = g->duration,
                      .sink = stroke_sink, .ctx = &sc};
    bow_run_result r;
    int rc = bow_run(&m, &o, x, &r);
    free(x);
    bow_model_free(&m);
    if (rc != 0) {
        snprintf(err, errlen, "%s", r.message);
        free(sc.bridge);
        free(sc.v_rel);
        return -1;
    }
    *bridge = sc.bridge;
    *v_rel = sc.v_rel;
    *n = sc.n;
    return 0;
}

void bow_convergence_free(bow_convergence *c)
{
    for (size_t l = 0; c->fixed && l < c->levels; l++)
        free(c->fixed[l]);
    double *p[] = {c->ref, c->h, c->err, c->newton, c->seconds};
    for (size_t k = 0; k < sizeof p / sizeof p[0]; k++)
        free(p[k]);
    free(c->fixed);
    free(c->nfixed);
    memset(c, 0, sizeof *c);
}

/* One run of the study: the bridge force every dt_out into a fresh array of cap (*got samples). */
static double *convergence_run(bow_model *m, const bow_run_opts *o0, size_t cap, size_t *got, bow_run_result *res)
{
    stroke_ctx sc = {.m = m, .bridge = xcalloc(cap, sizeof(double)),
                     .v_rel = xcalloc(cap, sizeof(double)), .cap = cap};
    double *x = xcalloc(m->at.dim, sizeof(double));
    bow_run_opts o = *o0;
    o.sink = stroke_sink, o.ctx = &sc;
    int rc = bow_run(m, &o, x, res);
    free(x);
    free(sc.v_rel);
    if (rc != 0) {
        free(sc.bridge);
        return NULL;
    }
    *got = sc.n;
    return sc.bridge;
}

int bow_convergence_run(bow_model *m, double rtol, double atol, double dt_out, double t1, const double *h,
                        size_t levels, bow_convergence *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    size_t cap = (size_t)lround(t1 / dt_out) + 2;
    bow_run_opts ro = {.solver = BOW_CVODE, .rtol = rtol, .atol = atol, .dt_out = dt_out, .t1 = t1};
    bow_run_result res;
    c->ref = convergence_run(m, &ro, cap, &c->n, &res);
    if (!c->ref) {
        snprintf(err, errlen, "convergence reference: %s", res.message);
        return -1;
    }
    c->levels = levels;
    c->fixed = xcalloc(levels, sizeof *c->fixed);
    c->nfixed = xcalloc(levels, sizeof *c->nfixed);
    double **col[] = {&c->h, &c->err, &c->newton, &c->seconds};
    for (size_t k = 0; k < 4; k++)
        *col[k] = xcalloc(levels, sizeof(double));
    double scale = max_abs(c->ref, c->n);
    for (size_t l = 0; l < levels; l++) {
        bow_run_opts of = {.solver = BOW_FIXED, .h = h[l], .dt_out = dt_out, .t1 = t1};
        c->fixed[l] = convergence_run(m, &of, cap, &c->nfixed[l], &res);
        if (!c->fixed[l]) {
            snprintf(err, errlen, "convergence: %s", res.message);
            bow_convergence_free(c);
            return -1;
        }
        double e = 0;
        for (size_t k = 0; k < c->n && k < c->nfixed[l]; k++)
            e = fmax(e, fabs(c->fixed[l][k] - c->ref[k]));
        c->h[l] = h[l], c->err[l] = e / scale;
        c->newton[l] = (double)res.newton / res.steps, c->seconds[l] = res.seconds;
    }
    return 0;
}
