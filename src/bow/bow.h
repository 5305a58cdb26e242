/* bow.h: the bowed string of van Walstijn, Chatziioannou, Lampis and Matusiak (Acta
 * Acustica 2026), "a thermal elasto-plastic friction model": a stiff string in transverse
 * and torsional modes (40)-(46), bowed at N contact points (47)-(51) by a compliant bow-hair
 * ribbon (54), with the friction force f = dx F_b sigma0 z of a bristle displacement z (8)
 * that follows the adhesion map (9)-(14) and a contact temperature tau (22), both through
 * the co-parameterised curves (30)-(32). Written as the first-order system (81)-(88).
 *
 * The instrument (string, hair, friction constants) is a bow_instrument read from a .ini;
 * what the player does over time is a gesture (gesture.h). A bow_model joins the two and
 * holds everything derived from them (modal masses, stiffnesses, damping, mode shapes). */
#ifndef IVPLAB_BOW_H
#define IVPLAB_BOW_H
#include "drive/cvode.h"
#include "bow/gesture.h"
#include "io/params.h"
#include "problem/ivp.h"
#include <stdbool.h>
#include <stddef.h>

/* The instrument: every value of lessons/params/cello-g.ini (keys are the field names). */
typedef struct bow_instrument {
    double L;           /* string length, m */
    double r;           /* string radius, m */
    double f0;          /* fundamental that sets the density rho = T / (4 L^2 f0^2 A), Hz */
    double T;           /* tension, N */
    double E;           /* Young's modulus, Pa (B = E pi r^4 / 4) */
    double eta_A;       /* air damping in (44), 1/s */
    double eta_F;       /* internal-friction damping in (44), dimensionless */
    double eta_B;       /* bending damping in (44), dimensionless */
    double K_T;         /* torsional stiffness, N m^2 */
    double P_T;         /* polar moment of inertia per length, kg m */
    double Q_T;         /* torsional Q-factor (45) */
    double W_b;         /* bow-hair width, m */
    double N;           /* contact points under the bow (an integer) */
    double D_h;         /* bow-hair linear density, kg/m */
    double K_h;         /* bow-hair distributed stiffness, N/m^2 */
    double zeta_h;      /* bow-hair damping, kg/(s m) */
    double sigma0;      /* bristle stiffness, force-normalised, 1/m */
    double mu_s;        /* static friction coefficient */
    double mu_d;        /* dynamic friction coefficient */
    double y_a;         /* asymptotic temperature factor */
    double tau_g;       /* glass transition temperature above ambient, K */
    double xi;          /* glass-transition roll-off exponent */
    double chi;         /* break-away ratio, z_ba = chi z_d(tau) */
    double a_tau;       /* heat absorption constant, m/K */
    double b_tau;       /* velocity-dependent conduction, W^1/2 m^-1/2 K^-1 */
    double c_tau;       /* velocity-independent conduction, m s^-1 K^-1 */
    double eps;         /* epsilon in Lambda = sqrt((|v| + eps) / F_b), m/s */
    double ambient_c;   /* ambient temperature, deg C (tau is the rise above it) */
    double f_max;       /* modes are kept up to this frequency (both polarisations), Hz */
    double dt;          /* time step of the fixed-step scheme, s */
} bow_instrument;

#define BOW_NKEYS 30
/* The parameter table of b (BOW_NKEYS entries and a NULL end) for params_load/params_set. */
void bow_param_table(bow_instrument *b, param_spec spec[BOW_NKEYS + 1]);

/* The friction law alone: what the steady-state curves and one contact point need. */
typedef struct bow_friction {
    double sigma0, mu_s, mu_d, y_a, tau_g, xi, chi;   /* as in bow_instrument */
    double a_tau, b_tau, c_tau, eps;                  /* as in bow_instrument */
} bow_friction;
bow_friction bow_friction_of(const bow_instrument *b);

double bow_y(const bow_friction *fr, double tau);          /* temperature factor (30) */
double bow_mu_ss(const bow_friction *fr, double tau);      /* steady-state coefficient (31) */
double bow_dmu_ss(const bow_friction *fr, double tau);     /* d mu_ss / d tau, 1/K */
double bow_mu_str_tau(const bow_friction *fr, double tau); /* Stribeck coefficient (32) */
/* Steady sliding at normal load F_b (N/m): v from tau by (B.2); tau from v >= 0 by Newton on
 * (B.3) (returns the iterations used, or -1 if it did not converge). */
double bow_v_of_tau(const bow_friction *fr, double tau, double F_b);
int bow_tau_of_v(const bow_friction *fr, double v, double F_b, double *tau);
/* The same from a starting guess (a previous solution; negative: none). */
int bow_tau_of_v_from(const bow_friction *fr, double v, double F_b, double guess, double *tau);
/* The Stribeck curve mu_str(v) = sgn(v) mu_str(tau(|v|)) at load F_b; *dmu_dv (if not NULL)
 * gets its slope, s/m. *tss (if not NULL) is the starting guess for tau(|v|) and gets it. */
double bow_mu_str(const bow_friction *fr, double v, double F_b, double *dmu_dv, double *tss);

/* One contact point at (z, v, tau) under load F_b: the bristle-string relative velocity
 * varsigma (20) with the adhesion map (11)-(14), z_ba = chi z_d(tau), and d tau/dt of the
 * heat balance (22) with Lambda = sqrt((|v| + eps)/F_b); with their partial derivatives. */
typedef struct bow_contact_rates {
    double varsigma;                /* (20), m/s */
    double dtau;                    /* d tau / dt, K/s */
    double s_z, s_v, s_tau;         /* d varsigma / d(z, v, tau) */
    double t_z, t_v, t_tau;         /* d (d tau/dt) / d(z, v, tau) */
} bow_contact_rates;
/* tss: as in bow_mu_str (a cache per contact point); derivs: also fill the partials. */
void bow_contact(const bow_friction *fr, double z, double v, double tau, double F_b, double *tss,
                 bool derivs, bow_contact_rates *out);
/* bow_contact at n points (z[j], v[j], tau[j]; tss[j] if tss) into out[j], the same bits: four
 * points at a time in the lanes of one vector, so that their chains of divisions (the steady
 * state's solve for tau(|v|) above all) overlap. */
void bow_contacts(const bow_friction *fr, int n, const double *z, const double *v,
                  const double *tau, double F_b, double *tss, bool derivs, bow_contact_rates *out);
/* bow_contacts at four points, the rates field by field (index k: point k), what lanes read. */
typedef struct bow_contact_rates4 {
    double varsigma[4], dtau[4], s_z[4], s_v[4], s_tau[4], t_z[4], t_v[4], t_tau[4];
} bow_contact_rates4;
void bow_contacts4(const bow_friction *fr, const double *z, const double *v, const double *tau,
                   double F_b, double *tss, bool derivs, bow_contact_rates4 *out);

/* Where each block of the state x = (u~, w~, q, u~', w~', v, z, tau, E_P, E_Q, E_|P|) starts. */
typedef struct bow_layout {
    size_t u, w, q, ud, wd, v, z, tau;  /* (81)-(88) */
    size_t e_in;    /* integral of the supplied power P, J */
    size_t e_out;   /* integral of the dissipated power Q, J */
    size_t e_abs;   /* integral of |P|, J */
    size_t dim;
} bow_layout;

/* What one pass over a family of modes (transverse or torsional) gives an observation: the
 * bridge force (61)/(62), N, the stored energy (67)/(68), J, and the dissipated power
 * (72)/(73), W (the velocities at the contact points beside it). */
typedef struct bow_modal {
    double bridge, H, Q;
} bow_modal;

typedef struct bow_model {
    bow_instrument in;  /* the instrument */
    bow_friction fr;    /* its friction constants */
    gesture g;          /* the stroke */
    int Mu, Mw, N;      /* transverse modes, torsional modes, contact points */
    bow_layout at;      /* state layout */
    double A;           /* cross-section, m^2 */
    double rho;         /* density, kg/m^3 */
    double B;           /* bending stiffness, N m^2 */
    double m_u, m_w;    /* modal masses (38), kg */
    double dx;          /* width per contact point W_b / N, m */
    double m_q, k_q, r_q; /* hair point mass (kg), stiffness (N/m), damping (kg/s) */
    double *Ku, *Ru;    /* transverse modal stiffness (N/m) and damping (kg/s), Mu each */
    double *Qu, *fu;    /* transverse Q (44) and frequency (46), Hz */
    double *Kw, *Rw;    /* torsional, Mw each */
    double *Qw, *fw;
    double *Gu, *Gw;    /* mode shapes at the contact points, row-major Mu x N and Mw x N */
    double *gu, *gw;    /* bridge-force weights (63), N/m per modal amplitude */
    double *xj;         /* contact points (47), m */
    double *scratch;    /* 8 N doubles */
    double *tss;        /* tau(|v|) per contact point, the Newton guess for the next call, K */
    /* What an observation sums over the modes of the state swept (bow_modal), taken by the
     * fixed-step scheme in its pass over the modes of the step that made it: bow_observe of
     * that state reads them instead of passing over the modes again. NULL: none. */
    const double *swept;
    bow_modal sums[2];  /* transverse, torsional */
    double *sums_at;    /* 2 N: their velocities at the contact points, transverse then torsional */
} bow_model;

/* Derive the model; 0 or -1 with a reason (e.g. the bow off the string). */
int bow_model_init(bow_model *m, const bow_instrument *in, const gesture *g, char *err, size_t errlen);
void bow_model_free(bow_model *m);
/* Whether an instrument and a gesture make a model (0, or -1 with the reason): a check before work. */
int bow_model_check(const bow_instrument *in, const gesture *g, char *err, size_t errlen);
/* The problem y' = F(t, y) of (81)-(88), with three energy integrals appended, and its
 * analytic Jacobian (dense). */
ivp bow_ivp(bow_model *m);
/* The unknowns through which alone the modes are coupled into idx, and their number (3 N + 1):
 * q and v at every contact point (they see every mode), z (it drives every mode) and the
 * integral of the dissipated power (it sums every mode's). Outside them each mode's displacement
 * and velocity are a group of their own in the Jacobian: CVODE's bordered solver. */
long bow_border(const bow_model *m, long *idx);
/* The rest state (string at rest, z = 0, tau = 0) into x (m->at.dim values). */
void bow_rest(const bow_model *m, double *x);

/* What one state shows: the bridge forces, the means over the contact points, the energies. */
typedef struct bow_obs {
    double v_b;         /* bow velocity, m/s */
    double f_b;         /* bowing force, N */
    double bridge_u;    /* transverse bridge force (61), N */
    double bridge_w;    /* torsional bridge force (62), N */
    double v_mean;      /* mean relative velocity, m/s */
    double z_mean;      /* mean shear deformation, m */
    double z_absmax;    /* largest |z_j|, m */
    double tau_mean;    /* mean contact temperature rise, K */
    double tau_max;     /* largest tau_j, K */
    double tau_min;     /* smallest tau_j, K */
    double friction;    /* total friction force 1^T f, N */
    double H;           /* stored energy (65), J */
    double P;           /* supplied power (76), W (with the load-change term when f_b varies) */
    double Q;           /* dissipated power (66), W */
    double e_in, e_out, e_abs;  /* the appended integrals, J */
} bow_obs;
void bow_observe(const bow_model *m, double t, const double *x, bow_obs *o);
/* The same but the powers P and Q (left zero): what a record of every step needs. */
void bow_observe_state(const bow_model *m, double t, const double *x, bow_obs *o);
/* A family's velocities at the contact points: out_j = sum_i G_ij xdot_i (G: M x N, row-major;
 * N = 4 in registers). */
void bow_at_points(const double *restrict G, const double *restrict xdot, int M, int N,
                   double *restrict out);
/* The supplied power P and the dissipated power Q at (t, x), W. */
void bow_powers(const bow_model *m, double t, const double *x, double *P, double *Q);

/* ---- the two solvers ------------------------------------------------------------------ */

/* Receives the state at t (article layout). Nonzero stops the run. */
typedef int (*bow_sink)(double t, const double *x, void *ctx);

typedef enum { BOW_FIXED, BOW_CVODE } bow_solver;
typedef struct bow_run_opts {
    bow_solver solver;
    double h;           /* fixed step, s (BOW_FIXED) */
    double rtol, atol;  /* CVODE tolerances (atol scaled per block, see bow.c) */
    double dt_out;      /* sink interval, s (BOW_FIXED: rounded to a whole number of steps) */
    double t1;          /* end time, s */
    bow_sink sink;
    void *ctx;
} bow_run_opts;
typedef struct bow_run_result {
    double t;           /* time reached, s */
    long steps;         /* steps (fixed) or internal steps (CVODE) */
    long newton;        /* Newton iterations (fixed) or nonlinear iterations (CVODE) */
    long nfev;          /* F evaluations (CVODE, Jacobian differences included) */
    long split;         /* fixed steps redone as two halves (or finer) after a failed Newton solve */
    double seconds;     /* wall time, s */
    double cpu_seconds; /* processor time of this process during the run, s */
    char message[480];  /* on failure: the solver, the time and the reason */
} bow_run_result;
/* Run from the rest state; x receives the final state. 0 on success, else 1 (message set). */
int bow_run(bow_model *m, const bow_run_opts *o, double *x, bow_run_result *res);
const char *bow_solver_name(bow_solver s);
/* The processor time of one fixed step with modes modes (transverse and torsional) and N contact
 * points, s: 3 us + 2 ns a mode and point (the modal updates) + 30 ns a pair of points (the N x N
 * contact Newton solve), calibrated on the user time of 6000-step strokes (bin/bow --quick
 * --duration 0.03): 161 modes, N = 4: 4.8 us (measured 5); N = 16: 11 (12); N = 32: 43 (32);
 * N = 64: 126 (123); 1190 modes, N = 4: 13 (7); N = 64: 282 (260); 755 modes, N = 16: 35 (33).
 * A first-steps pilot was 8 times low: the bow starting from rest sticks, its Newton solve done
 * at once. */
double bow_step_cost(int modes, int N);
#define BOW_REF_MODES 161       /* the default cello G (cello-g.ini: 128 + 33 modes, N = 4) */
#define BOW_REF_N 4
/* A step of in's model over a step of the default cello's (bow_step_cost): what the estimates of
 * bin/bow and bin/schelleng weigh their steps by (1 when the model cannot be built). */
double bow_step_weight(const bow_instrument *in);

/* The whole stroke for sweeps: the transverse bridge force (N) and the mean relative velocity
 * (m/s) at every step of in->dt from 0 to g->duration, allocated (*n samples). 0 on success. */
int bow_stroke(const bow_instrument *in, const gesture *g, double **bridge, double **v_rel, size_t *n,
               char *err, size_t errlen);

/* The fixed-step scheme against CVODE BDF on one model: the transverse bridge force every
 * dt_out from 0 to t1, by CVODE at (rtol, atol) and by the fixed-step scheme at each step
 * h[l], l < levels. */
typedef struct bow_convergence {
    size_t levels;      /* fixed steps compared */
    size_t n;           /* samples of the reference (every dt_out from 0) */
    double *ref;        /* CVODE's bridge force, N (n) */
    double **fixed;     /* fixed[l][k]: the scheme's at h[l], N (nfixed[l] each) */
    size_t *nfixed;     /* samples of each fixed-step run */
    double *h;          /* the steps, s (levels) */
    double *err;        /* largest |fixed[l][k] - ref[k]| over the largest |ref|, 1 (levels) */
    double *newton;     /* Newton iterations a step at h[l] */
    double *seconds;    /* wall time of the run at h[l], s */
} bow_convergence;
/* Run the study into c (free with bow_convergence_free). 0, or -1 with the solver, the time
 * and the reason in err (c is then empty). */
int bow_convergence_run(bow_model *m, double rtol, double atol, double dt_out, double t1, const double *h,
                        size_t levels, bow_convergence *c, char *err, size_t errlen);
void bow_convergence_free(bow_convergence *c);   /* leaves it empty; safe twice */

/* Figure 8d of the article: the transverse bridge force (N) at t (s) of the string alone,
 * released at rest from a triangle of height u0 (m) at x_p (m): each mode decays exactly as
 * e^(-g t) (cos w t + g/w sin w t), g = R / (2 m) (the exact answer of the modal model, no
 * stepping). */
double bow_pluck_bridge(const bow_model *m, double x_p, double u0, double t);

#endif
