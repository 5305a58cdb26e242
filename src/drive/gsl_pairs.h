/* gsl_pairs.h: GSL's embedded explicit Runge-Kutta pairs (gsl_odeiv2 rk2, rkf45, rkck, rk8pd)
 * driven one accepted step at a time under the same contract as cvode_solve: outputs at given
 * times, a sink after every step, and root functions whose sign changes are located (by
 * bisection on re-taken steps from the step's start) and handed to an event sink, after which
 * the run restarts from the event. So an adaptive explicit pair and CVODE can solve the same
 * lesson's problem side by side (the lecture's "adaptive explicit or implicit?"). */
#ifndef IVPLAB_GSL_PAIRS_H
#define IVPLAB_GSL_PAIRS_H
#include "drive/cvode.h"

/* "rk2|rkf45|rkck|rk8pd": what a --method of gsl-NAME takes. */
const char *gsl_pair_names(void);
/* The same as --method values: "gsl-rk2|gsl-rkf45|gsl-rkck|gsl-rk8pd". */
const char *gsl_pair_choices(void);
/* Whether name is one of them. */
bool gsl_pair_known(const char *name);

/* Integrate y from t0 to t1 with the pair called name, under o's rtol, atol, max_step,
 * init_step, max_steps (between outputs), tout/sink, on_step and roots/on_event (o's lmm,
 * solver, band, order and stability fields are CVODE's and are ignored). Statistics into st:
 * steps (accepted), netf (rejected), nfev, ngev, nevents, last_h, seconds. 0 on success; -1
 * with err naming the pair, the time and the reason. */
int gsl_pair_solve(const char *name, const ivp *p, double t0, double *y, double t1, const cvode_opts *o,
                   cvode_stats *st, char *err, size_t errlen);

#endif
