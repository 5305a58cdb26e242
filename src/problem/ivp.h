/* ivp.h: the initial value problem y' = F(t, y), y(t0) = y0, as a plain struct
 * (after GSL odeiv2's gsl_odeiv2_system), and the workspace a step works in. */
#ifndef IVPLAB_IVP_H
#define IVPLAB_IVP_H
#include <stdbool.h>
#include <stddef.h>

/* F(t, y) into dydt; returns 0, or nonzero when F cannot be evaluated at (t, y). */
typedef int (*ivp_rhs_fn)(double t, const double *y, double *dydt, void *params);
/* Jacobian dF/dy at (t, y) into J, row-major dim x dim: J[i*dim + j] = dF_i/dy_j. */
typedef int (*ivp_jac_fn)(double t, const double *y, double *J, void *params);
/* A scalar of the state, e.g. the energy, J. */
typedef double (*ivp_scalar_fn)(double t, const double *y, void *params);

typedef struct ivp {
    size_t dim;             /* number of unknowns in y */
    ivp_rhs_fn rhs;         /* F(t, y), required */
    ivp_jac_fn jac;         /* dF/dy, optional: NULL means finite differences */
    ivp_scalar_fn energy;   /* optional energy of the state, J (or J/kg) */
    void *params;           /* the model's parameters, passed to every function */
    bool linear;            /* F(t, y) = A y with A constant: implicit steps factor once */
    bool second_order;      /* y = (u, v) with u' = v and v' = a(t, u) not depending on v:
                               what leapfrog (Stormer-Verlet) requires */
    size_t band;            /* dF_i/dy_j = 0 for |i - j| > band: implicit steps factor a band
                               matrix (GSL's band LU) when it is narrow; 0: not declared (dense) */
} ivp;

/* What a run cost: every count a method or a driver makes. */
typedef struct ivp_counts {
    long nfev;              /* evaluations of F (finite-difference Jacobians included) */
    long njev;              /* Jacobians formed (analytic or by differences) */
    long nnewton;           /* Newton iterations */
    long nfactor;           /* LU factorizations */
} ivp_counts;

#define IVP_MAX_STAGES 8

/* Scratch space for one problem size; init with workspace_alloc, release with workspace_free. */
typedef struct workspace {
    size_t dim;                      /* size of every vector below */
    double *k[IVP_MAX_STAGES];       /* stage derivatives */
    double *tmp;                     /* stage argument */
    double *tmp2;                    /* second scratch vector */
    void *solver;                    /* a solver's cached state (Newton's factors), owned by that
                                        solver, allocated on its first use; NULL when none */
    void (*solver_free)(void *);     /* how workspace_free releases solver; set with it */
    double *fsal_y, *fsal_f;         /* a method's last F (leapfrog's) and the state it stands for, */
    double fsal_t;                   /* at time fsal_t, of the problem (fsal_rhs, fsal_params); */
    ivp_rhs_fn fsal_rhs;             /* NULL: none kept. Reused only for exactly that t and y */
    void *fsal_params;
    ivp_counts counts;               /* running totals */
    char error[256];                 /* why the last call failed, in words */
} workspace;

workspace *workspace_alloc(size_t dim);
void workspace_free(workspace *w);           /* NULL is fine */
void workspace_reset_counts(workspace *w);

/* Evaluate F and count it. Returns 0 or F's failure code (error text in w->error). */
int ivp_eval(const ivp *p, double t, const double *y, double *f, workspace *w);

#endif
