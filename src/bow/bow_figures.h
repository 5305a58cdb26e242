/* bow_figures.h: the data of the bowed-string article's figures (lesson 10), each written
 * through io/atomic.h into a folder as TSV: Figure 6 (the stroke, three periods at its end,
 * and the steady-state mapping (28)), the modes and their Q-factors, Figure 4 (the friction
 * and temperature curves), Figure 8d (the string alone from a triangular shape) and the
 * convergence of the fixed-step scheme against CVODE BDF. prog names the program in the
 * one-line errors of a file that cannot be written (exit 1). Figure 7's transients are a sweep
 * (bow/bow_fig7.h). */
#ifndef IVPLAB_BOW_FIGURES_H
#define IVPLAB_BOW_FIGURES_H
#include "base/failure.h"
#include "bow/bow_record.h"
#include "bow/bow.h"
#include "bow/gesture.h"
#include <stdbool.h>
#include <stddef.h>

/* The figures' values (lessons/params/bow-figures.ini). */
typedef struct bow_figure_params {
    double fig4_F_b;            /* bowing force per unit width, N/m */
    double fig4_mu_s, fig4_mu_d;        /* static and dynamic friction coefficients, 1 */
    double fig4_b_tau, fig4_c_tau;      /* temperature-dependence shape, 1 */
    double fig4_y_a, fig4_xi;           /* yield shape, 1 */
    double fig4_tau_g[3];       /* the three glass temperatures, K */
    double fig4_v_max;          /* largest velocity of the curves, m/s */
    double fig7_accel;          /* the transients' bow acceleration, m/s^2 */
    double fig7_x_b_rel;        /* their bow-bridge distance over the length, 1 */
    double fig7_f_b;            /* their bowing force, N */
    double fig7_duration;       /* their length, s */
    double fig7_mu_d[3];        /* the three dynamic friction coefficients, 1 */
    double fig7_b_scale[3];     /* the three scales of b_tau, 1 */
    double pluck_x_rel;         /* Figure 8d's pluck point over the length, 1 */
    double pluck_amplitude;     /* its displacement, m */
    double pluck_duration;      /* its length, s */
    double qref_sigma0;         /* the 2024/2025 loss model sigma = s0 + s2 beta^2: s0, 1/s */
    double qref_sigma2;         /* its s2, m^2/s */
} bow_figure_params;

/* The convergence study's values (bow-figures.ini, conv_*). */
typedef struct bow_conv_params {
    double f_max;       /* the reduced mode set's top frequency, Hz */
    double duration;    /* simulated time, s */
    double dt_out;      /* spacing of the compared bridge force, s */
    double rtol, atol;  /* CVODE's tolerances, 1 and SI units of each state */
    double dt_max;      /* the largest fixed step, s */
    double levels;      /* how many halvings of dt_max, 1 */
} bow_conv_params;

/* Each writer below: 0, or nonzero with e: the file that could not be written (atomic.h). */
/* Figure 6's data: stroke.tsv every 8th sample of r, zoom.tsv the last nz, and steady.tsv the
 * mapping (28) at the bowing force f_b (N); the quasi-static line (89) up to t_up (s) unless
 * track (the velocity is a --velocity track). */
int bow_write_stroke_data(const char *prog, const bow_record *r, const bow_model *m, double t_up,
                          double f_b, bool track, size_t nz, const char *dir, failure *e);
/* modes.tsv: each mode's frequency and Q, and Q of the loss model sigma0 + sigma2 beta^2. */
int bow_write_modes(const char *prog, const bow_model *m, double sigma0, double sigma2,
                    const char *dir, failure *e);
/* Figure 4: mu_ss(v), tau(v) by Appendix B's Newton solve, and y(tau), for three tau_g
 * (fig4_v.tsv, fig4_y.tsv). */
int bow_write_fig4(const char *prog, const bow_instrument *in, const bow_figure_params *fp,
                   const char *dir, failure *e);
/* Figure 8d (pluck.tsv): the string alone from a triangular shape at x_rel L of amplitude
 * (m), released at rest, for duration (s) (the exact modal answer of bow_pluck_bridge, no
 * stepping). */
int bow_write_pluck(const char *prog, const bow_model *m, double x_rel, double amplitude,
                    double duration, const char *dir, failure *e);
/* Whether the model takes the convergence study's parameters (before any work or file): 0, or -1
 * with the model's reason in err. */
int bow_convergence_check(const bow_instrument *in0, const gesture *g0, const bow_conv_params *cp,
                          char *err, size_t errlen);
/* The fixed-step scheme against the CVODE BDF reference on the first slips: a reduced mode
 * set (f_max), the stroke g0 up to duration, the transverse bridge force compared every dt_out.
 * Writes convergence.tsv and conv_traj.tsv; order gets the least-squares order over the dt
 * values, pairwise the slopes between neighbouring dt (levels - 1 of them) and dt_range[0], [1]
 * the largest and smallest dt. 0, or the status with e: a model refused 2, a failed run or
 * file 1. */
int bow_convergence_study(const char *prog, const bow_instrument *in0, const gesture *g0,
                          const bow_conv_params *cp, const char *dir, double *order,
                          double *pairwise, double *dt_range, failure *e);

#endif
