/* cvode.c: the only file that includes SUNDIALS. Written to the API common to 6.4 and 7.x;
 * the one shim is the context (SUN_COMM_NULL in 7) and the error handler. */
#include "drive/cvode.h"
#include "base/util.h"
#include <cvode/cvode.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_types.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

typedef struct {
    const ivp *p;
    const cvode_opts *o;
    double *J;              /* row-major Jacobian from the problem */
    char msg[256];          /* CVODE's own last error message */
} udata;

#if SUNDIALS_VERSION_MAJOR >= 7
#define IVP_SUN_COMM SUN_COMM_NULL
static void capture_error(int line, const char *func, const char *file, const char *msg,
                          SUNErrCode code, void *data, SUNContext ctx)
{
    (void)line; (void)func; (void)file; (void)code; (void)ctx;
    snprintf(((udata *)data)->msg, sizeof ((udata *)data)->msg, "%s", msg ? msg : "");
}
#else
#define IVP_SUN_COMM NULL
static void capture_error(int code, const char *module, const char *function, char *msg, void *data)
{
    (void)code; (void)module; (void)function;
    snprintf(((udata *)data)->msg, sizeof ((udata *)data)->msg, "%s", msg ? msg : "");
}
#endif

cvode_opts cvode_defaults(void)
{
    cvode_opts o;
    memset(&o, 0, sizeof o);
    o.lmm = CVODE_BDF;
    o.solver = CVODE_DENSE;
    o.rtol = 1e-8;
    o.atol = 1e-10;
    return o;
}

const char *cvode_name(const cvode_opts *o)
{
    return o->lmm == CVODE_ADAMS ? "cvode-adams" : "cvode-bdf";
}

const char *cvode_version(void)
{
    return SUNDIALS_VERSION;
}

static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *data)
{
    udata *u = data;
    int rc = u->p->rhs(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot), u->p->params);
    return rc ? 1 : 0;   /* positive: recoverable, CVODE retries with a smaller step */
}

static int jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *data,
               N_Vector t1, N_Vector t2, N_Vector t3)
{
    (void)fy; (void)t1; (void)t2; (void)t3;
    udata *u = data;
    size_t n = u->p->dim;
    if (u->p->jac(t, N_VGetArrayPointer(y), u->J, u->p->params))
        return 1;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            SM_ELEMENT_D(J, (sunindextype)i, (sunindextype)j) = u->J[i * n + j];
    return 0;
}

static int roots(sunrealtype t, N_Vector y, sunrealtype *g, void *data)
{
    udata *u = data;
    return u->o->roots(t, N_VGetArrayPointer(y), g, u->p->params) ? -1 : 0;
}

/* CVODE's name for a return code ("CV_TOO_MUCH_WORK"); CVODE allocates it, so it is copied. */
static const char *flag_name(int flag)
{
    static char buf[64];
    char *name = CVodeGetReturnFlagName(flag);
    snprintf(buf, sizeof buf, "%s", name ? name : "unknown code");
    free(name);
    return buf;
}

/* The reason for a failure in words, and what to try. */
static const char *explain(int flag, const char **hint)
{
    switch (flag) {
    case CV_TOO_MUCH_WORK:
        *hint = "raise the step limit, or use BDF if the problem is stiff";
        return "took too many internal steps before the next output";
    case CV_TOO_MUCH_ACC:
        *hint = "loosen rtol/atol";
        return "the tolerances ask for more accuracy than double precision gives";
    case CV_ERR_FAILURE:
        *hint = "lower the max step, or look for a discontinuity in F";
        return "the local error test failed repeatedly (the step became as small as it can be)";
    case CV_CONV_FAILURE:
        *hint = "use BDF with the dense solver, give the Jacobian, or lower the max step";
        return "the nonlinear (Newton) iteration failed to converge repeatedly";
    case CV_LSETUP_FAIL:
    case CV_LSOLVE_FAIL:
        *hint = "try another linear solver (dense instead of band)";
        return "the linear solver failed (singular or unusable Newton matrix)";
    case CV_RHSFUNC_FAIL:
    case CV_FIRST_RHSFUNC_ERR:
    case CV_REPTD_RHSFUNC_ERR:
    case CV_UNREC_RHSFUNC_ERR:
        *hint = "check the model's parameters and initial state";
        return "F could not be evaluated";
    case CV_RTFUNC_FAIL:
        *hint = "check the root functions";
        return "a root function failed";
    case CV_ILL_INPUT:
        *hint = "check tolerances, output times and the initial state";
        return "an input was illegal";
    default:
        *hint = "see the SUNDIALS CVODE documentation for this code";
        return "an error CVODE reports by the code in brackets";
    }
}

/* Statistics so far: kept current before every sink call, so sinks may read them. */
static void read_stats(void *mem, const cvode_opts *o, cvode_stats *st)
{
    long x;
    double h;
    if (CVodeGetNumSteps(mem, &x) >= 0) st->steps = x;
    if (CVodeGetNumRhsEvals(mem, &x) >= 0) st->nfev = x;
    if (CVodeGetNumErrTestFails(mem, &x) >= 0) st->netf = x;
    if (CVodeGetNumNonlinSolvIters(mem, &x) >= 0) st->nniters = x;
    if (CVodeGetNumNonlinSolvConvFails(mem, &x) >= 0) st->nncf = x;
    if (o->nroots > 0 && CVodeGetNumGEvals(mem, &x) >= 0) st->ngev = x;
    if (o->solver != CVODE_FIXEDPOINT) {
        if (CVodeGetNumJacEvals(mem, &x) >= 0) st->njev = x;
        if (CVodeGetNumLinRhsEvals(mem, &x) >= 0) st->nfev_jac = x;
        if (CVodeGetNumLinSolvSetups(mem, &x) >= 0) st->nsetups = x;
    }
    if (CVodeGetLastStep(mem, &h) >= 0) st->last_h = h;
}

#define CHECK_CALL(call)                                                                        \
    do {                                                                                        \
        int flag_ = (call);                                                                     \
        if (flag_ < 0) {                                                                        \
            snprintf(err, errlen, "%s: %s returned %s", cvode_name(o), #call,                   \
                     flag_name(flag_));                                                         \
            goto done;                                                                          \
        }                                                                                       \
    } while (0)

int cvode_solve(const ivp *p, double t0, double *y, double t1, const cvode_opts *o,
                cvode_stats *st, char *err, size_t errlen)
{
    SUNContext ctx = NULL;
    N_Vector v = NULL, dky = NULL;
    SUNMatrix A = NULL;
    SUNLinearSolver LS = NULL;
    SUNNonlinearSolver NLS = NULL;
    void *mem = NULL;
    int *rootsfound = NULL;
    int status = -1;
    sunindextype n = (sunindextype)p->dim;
    udata u = {p, o, NULL, ""};
    memset(st, 0, sizeof *st);
    double wall0 = wall_seconds();
    if (errlen)
        err[0] = '\0';

    if (SUNContext_Create(IVP_SUN_COMM, &ctx) != 0) {
        snprintf(err, errlen, "%s: could not create a SUNDIALS context", cvode_name(o));
        return -1;
    }
#if SUNDIALS_VERSION_MAJOR >= 7
    SUNContext_ClearErrHandlers(ctx);
    SUNContext_PushErrHandler(ctx, capture_error, &u);
#endif
    v = N_VNew_Serial(n, ctx);
    dky = N_VNew_Serial(n, ctx);
    if (!v || !dky) {
        snprintf(err, errlen, "%s: out of memory for vectors of %ld", cvode_name(o), (long)n);
        goto done;
    }
    memcpy(N_VGetArrayPointer(v), y, p->dim * sizeof(double));
    mem = CVodeCreate(o->lmm == CVODE_ADAMS ? CV_ADAMS : CV_BDF, ctx);
    if (!mem) {
        snprintf(err, errlen, "%s: CVodeCreate failed", cvode_name(o));
        goto done;
    }
#if SUNDIALS_VERSION_MAJOR < 7
    CVodeSetErrHandlerFn(mem, capture_error, &u);
#endif
    CHECK_CALL(CVodeInit(mem, rhs, t0, v));
    CHECK_CALL(CVodeSetUserData(mem, &u));
    CHECK_CALL(CVodeSStolerances(mem, o->rtol, o->atol));
    CHECK_CALL(CVodeSetStopTime(mem, t1));
    if (o->max_step > 0)
        CHECK_CALL(CVodeSetMaxStep(mem, o->max_step));
    if (o->init_step > 0)
        CHECK_CALL(CVodeSetInitStep(mem, o->init_step));
    if (o->max_order > 0)
        CHECK_CALL(CVodeSetMaxOrd(mem, o->max_order));
    if (o->stab_lim_det && o->lmm == CVODE_BDF)
        CHECK_CALL(CVodeSetStabLimDet(mem, SUNTRUE));
    switch (o->solver) {
    case CVODE_DENSE:
        A = SUNDenseMatrix(n, n, ctx);
        LS = A ? SUNLinSol_Dense(v, A, ctx) : NULL;
        break;
    case CVODE_BAND:
        A = SUNBandMatrix(n, (sunindextype)o->upper, (sunindextype)o->lower, ctx);
        LS = A ? SUNLinSol_Band(v, A, ctx) : NULL;
        break;
    case CVODE_FIXEDPOINT:
        NLS = SUNNonlinSol_FixedPoint(v, 0, ctx);
        break;
    }
    if (o->solver == CVODE_FIXEDPOINT) {
        if (!NLS) {
            snprintf(err, errlen, "%s: could not create the fixed-point solver", cvode_name(o));
            goto done;
        }
        CHECK_CALL(CVodeSetNonlinearSolver(mem, NLS));
    } else {
        if (!LS) {
            snprintf(err, errlen, "%s: out of memory for a %ld x %ld Jacobian", cvode_name(o), (long)n, (long)n);
            goto done;
        }
        CHECK_CALL(CVodeSetLinearSolver(mem, LS, A));
        if (o->solver == CVODE_DENSE && p->jac) {
            u.J = xcalloc(p->dim * p->dim, sizeof(double));
            CHECK_CALL(CVodeSetJacFn(mem, jac));
        }
    }
    if (o->nroots > 0) {
        CHECK_CALL(CVodeRootInit(mem, o->nroots, roots));
        rootsfound = xcalloc((size_t)o->nroots, sizeof(int));
    }

    size_t next = 0;
    long k_sample = 0, since_output = 0;
    long max_steps = o->max_steps > 0 ? o->max_steps : 1000000;
    double t = t0;
    while (t < t1) {
        int flag = CVode(mem, t1, v, &t, CV_ONE_STEP);
        /* One-step mode: the limit on steps between outputs is kept here. */
        if (flag >= 0 && ++since_output > max_steps && !(next < o->nout && o->tout[next] <= t))
            flag = CV_TOO_MUCH_WORK;
        if (flag < 0) {
            const char *hint, *why = explain(flag, &hint);
            double tcur = t;
            CVodeGetCurrentTime(mem, &tcur);
            snprintf(err, errlen, "%s failed at t = %.9g s: %s (%s%s%s); try: %s", cvode_name(o), tcur, why,
                     flag_name(flag), u.msg[0] ? ": " : "", u.msg, hint);
            goto done;
        }
        while (next < o->nout && o->tout[next] <= t) {
            read_stats(mem, o, st);
            int rc = CVodeGetDky(mem, o->tout[next], 0, dky);
            if (rc < 0) {
                snprintf(err, errlen, "%s: no output at t = %.9g s (%s)", cvode_name(o), o->tout[next],
                         flag_name(rc));
                goto done;
            }
            if (o->sink && o->sink(k_sample, o->tout[next], N_VGetArrayPointer(dky), o->ctx)) {
                snprintf(err, errlen, "%s: stopped by the output sink at t = %.9g s", cvode_name(o), o->tout[next]);
                goto done;
            }
            next++;
            k_sample++;
            since_output = 0;
        }
        if (flag == CV_ROOT_RETURN) {
            CVodeGetRootInfo(mem, rootsfound);
            read_stats(mem, o, st);
            st->nevents++;
            if (o->on_event && o->on_event(t, N_VGetArrayPointer(v), rootsfound, o->ctx)) {
                snprintf(err, errlen, "%s: stopped by the event sink at t = %.9g s", cvode_name(o), t);
                goto done;
            }
        } else if (o->on_step) {
            read_stats(mem, o, st);
            if (o->on_step(t, st->last_h, N_VGetArrayPointer(v), o->ctx)) {
                snprintf(err, errlen, "%s: stopped by the step sink at t = %.9g s", cvode_name(o), t);
                goto done;
            }
        }
        if (flag == CV_TSTOP_RETURN)
            break;
    }
    memcpy(y, N_VGetArrayPointer(v), p->dim * sizeof(double));
    status = 0;

done:
    if (mem)
        read_stats(mem, o, st);
    st->seconds = wall_seconds() - wall0;
    free(rootsfound);
    free(u.J);
    CVodeFree(&mem);
    if (NLS) SUNNonlinSolFree(NLS);
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    if (dky) N_VDestroy(dky);
    if (v) N_VDestroy(v);
    if (ctx) SUNContext_Free(&ctx);
    return status;
}
