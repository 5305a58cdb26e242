/* cvode.c: with sun_dense.c, the only file that includes SUNDIALS. Written to the API common
 * to 6.4 and 7.x; the one shim is the context (SUN_COMM_NULL in 7) and the error handler. */
#include "drive/cvode.h"
#include "base/util.h"
#include "method/lu.h"
#include <cvode/cvode.h>
#include <limits.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_types.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

typedef struct {
    const ivp *p;
    const cvode_opts *o;
    double *J;              /* row-major Jacobian from the problem (dense solver) */
    double *B;              /* a constant Jacobian's band, row i at B + i (upper + lower + 1),
                               column j at offset j - i + upper (band solver, linear problem) */
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

double cvode_wrms_norm(const double *x, const double *w, size_t n)
{
    SUNContext ctx;
    if (SUNContext_Create(IVP_SUN_COMM, &ctx) != 0)
        return NAN;
    N_Vector vx = N_VMake_Serial((sunindextype)n, (sunrealtype *)x, ctx);
    N_Vector vw = N_VMake_Serial((sunindextype)n, (sunrealtype *)w, ctx);
    double norm = vx && vw ? N_VWrmsNorm(vx, vw) : NAN;
    if (vx) N_VDestroy(vx);
    if (vw) N_VDestroy(vw);
    SUNContext_Free(&ctx);
    return norm;
}

/* Every vector of a run is serial (N_VNew_Serial and CVODE's clones of it): its data straight
 * from the serial vector's content (nvector_serial.h's NV_DATA_S), not through N_VGetArrayPointer's
 * two calls, made several times a step. */
static inline double *data_of(N_Vector v)
{
    return NV_DATA_S(v);
}

static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *data)
{
    udata *u = data;
    int rc = u->p->rhs(t, data_of(y), data_of(ydot), u->p->params);
    return rc ? 1 : 0;   /* positive: recoverable, CVODE retries with a smaller step */
}

/* The weights 1 / (rtol |a_i| + atol) into b, four at a time in vector lanes (the divisions
 * overlap; row 3 of the bench spent 11% of its time in the scalar loop): each lane the scalar
 * operations, so the same bits. */
AVX2_CLONES static void inverse_weights(const double *restrict a, double *restrict b, long n,
                                        double rtol, double atol)
{
    long i = 0;
    for (; i + 4 <= n; i += 4)
        F64X4_AT(b + i) = 1.0 / (rtol * F64X4_ABS(F64X4_AT(a + i)) + atol);
    for (; i < n; i++)
        b[i] = 1.0 / (rtol * fabs(a[i]) + atol);
}

/* The error weights 1 / (rtol |y_i| + atol) in one pass over y: CVODE's own (CVodeSStolerances)
 * takes four passes (abs, scale, add, invert) at every step, with the same arithmetic. Like
 * CVODE's, a weight that is not positive fails only when atol is 0 (with atol > 0, none is). */
static int ewt(N_Vector y, N_Vector w, void *data)
{
    const cvode_opts *o = ((udata *)data)->o;
    const double *a = data_of(y);
    double *b = data_of(w), rtol = o->rtol, atol = o->atol;
    sunindextype n = NV_LENGTH_S(y);
    if (atol > 0.0) {
        inverse_weights(a, b, (long)n, rtol, atol);
        return 0;
    }
    for (sunindextype i = 0; i < n; i++) {
        double d = rtol * fabs(a[i]) + atol;
        if (d <= 0.0)
            return -1;
        b[i] = 1.0 / d;
    }
    return 0;
}

static int jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *data,
               N_Vector t1, N_Vector t2, N_Vector t3)
{
    (void)fy; (void)t1; (void)t2; (void)t3;
    udata *u = data;
    size_t n = u->p->dim;
    if (u->p->jac(t, data_of(y), u->J, u->p->params))
        return 1;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            SM_ELEMENT_D(J, (sunindextype)i, (sunindextype)j) = u->J[i * n + j];
    return 0;
}

/* A linear problem's constant Jacobian, its band copied from the one evaluation (band_of). */
static int jac_band(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *data,
                    N_Vector t1, N_Vector t2, N_Vector t3)
{
    (void)t; (void)y; (void)fy; (void)t1; (void)t2; (void)t3;
    udata *u = data;
    long n = (long)u->p->dim, up = u->o->upper, lo = u->o->lower, w = up + lo + 1;
    for (long i = 0; i < n; i++)
        for (long j = i - lo < 0 ? 0 : i - lo; j <= i + up && j < n; j++)
            SM_ELEMENT_B(J, (sunindextype)i, (sunindextype)j) = u->B[i * w + j - i + up];
    return 0;
}

/* The band of p's Jacobian at (t0, y) (the problem is linear: it is the same everywhere) into
 * u->B. 0, or -1 when the Jacobian fails or has an entry outside the declared band. */
static int band_of(udata *u, double t0, const double *y)
{
    size_t n = u->p->dim;
    long up = u->o->upper, lo = u->o->lower, w = up + lo + 1;
    double *J = xcalloc(n * n, sizeof(double));
    int bad = u->p->jac(t0, y, J, u->p->params) != 0;
    u->B = xcalloc(n * (size_t)w, sizeof(double));
    for (long i = 0; i < (long)n; i++)
        for (long j = 0; j < (long)n; j++) {
            double a = J[(size_t)i * n + (size_t)j];
            if (j - i > up || i - j > lo)
                bad |= a != 0.0;
            else
                u->B[i * w + j - i + up] = a;
        }
    free(J);
    return bad ? -1 : 0;
}

/* ---- CVODE_BORDERED: Newton matrices that are block diagonal but for a border -------------
 * M = I - gamma J (CVODE forms it in a dense matrix) with its unknowns split in two: the few the
 * caller names (the border) and the rest, which fall into small groups that meet no other group
 * except through the border. Reordered rest first, M = [A C; R D] with A block diagonal, so
 * M x = b is A x_r + C x_b = b_r, R x_r + D x_b = b_b: the setup finds the groups from M's
 * nonzeros, factors each one and the Schur complement S = D - R A^-1 C (k x k) by method/lu.h;
 * a solve is then x_b = S^-1 (b_b - R A^-1 b_r), x_r = A^-1 b_r - (A^-1 C) x_b. For n unknowns
 * and k in the border that is O(n k) a solve and O(n^2 + n k^2) a setup instead of O(n^2) and
 * O(n^3) (the bowed string: n = 341, k = 13). */
typedef struct {
    long n, k, nr, ng;      /* unknowns, border unknowns, the others, their groups */
    long *border;           /* the border's unknowns, k */
    char *in_border;        /* n flags */
    long *parent, *group;   /* union-find over the unknowns, a root's group (setup's scratch) */
    long *rest;             /* the others group by group: group g is rest[start[g] .. start[g+1]) */
    long *start;            /* ng + 1 */
    long *lu_at;            /* where group g's LU starts in lu, ng + 1 */
    double *lu;             /* each group's LU (s x s, row-major), one after another */
    size_t lu_cap;
    size_t *perm;           /* each group's row permutation, at rest's offsets */
    lu_matrix *glu;         /* each group's factors, in lu and perm */
    long *wcol, nw;         /* the border unknowns in some rest row of M (the nonzero columns
                               of C, and so of W) */
    long *rrow, nrr;        /* the border rows of M with a nonzero in the rest (of R) */
    double *W;              /* A^-1 C's nonzero columns, nr x nw row-major, rows in rest order */
    double *R;              /* R's nonzero rows, nrr x nr row-major, columns in rest order */
    double *xr, *xt, *xb, *xs; /* a solve's rest and border parts, nr and k, and their
                                  right-hand sides (group_solve's b and x do not alias) */
    lu_matrix S;            /* the Schur complement and its factors */
} bordered;

#define M_AT(cols, i, j) ((cols)[j][i])   /* a dense SUNMatrix is column-major */

static long uf_root(long *parent, long i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* The groups of the rest: unknowns joined by a nonzero of M, in rest/start/lu_at. */
static void bordered_groups(bordered *b, sunrealtype **cols)
{
    long n = b->n;
    for (long i = 0; i < n; i++)
        b->parent[i] = i;
    for (long j = 0; j < n; j++)
        if (!b->in_border[j])
            for (long i = 0; i < n; i++)
                if (i != j && !b->in_border[i] && M_AT(cols, i, j) != 0.0) {
                    long ri = uf_root(b->parent, i), rj = uf_root(b->parent, j);
                    if (ri != rj)
                        b->parent[ri > rj ? ri : rj] = ri < rj ? ri : rj;
                }
    long ng = 0;
    for (long i = 0; i < n; i++)
        if (!b->in_border[i]) {
            b->parent[i] = uf_root(b->parent, i);   /* now straight at its root */
            if (b->parent[i] == i)
                b->group[i] = ng++;
        }
    long *count = b->start;                  /* members per group, then where each starts */
    memset(count, 0, (size_t)(ng + 1) * sizeof(long));
    for (long i = 0; i < n; i++)
        if (!b->in_border[i])
            count[b->group[b->parent[i]] + 1]++;
    for (long g = 0; g < ng; g++)
        count[g + 1] += count[g];
    long *fill = b->lu_at;                   /* scratch: the next place in each group */
    memcpy(fill, count, (size_t)ng * sizeof(long));
    for (long i = 0; i < n; i++)
        if (!b->in_border[i])
            b->rest[fill[b->group[b->parent[i]]]++] = i;
    b->ng = ng;
    b->lu_at[0] = 0;
    for (long g = 0; g < ng; g++) {
        long s = b->start[g + 1] - b->start[g];
        b->lu_at[g + 1] = b->lu_at[g] + s * s;
    }
}

/* x = A^-1 b from lu.h's dense factors (P A = L U; row i of them came from row perm[i] of A):
 * lu_solve's arithmetic without its calls into GSL, which cost more than the work does on
 * groups of two. */
static void group_solve(const lu_matrix *m, const double *b, double *x)
{
    long s = (long)m->n;
    const double *LU = m->a;
    for (long i = 0; i < s; i++) {
        double t = b[m->perm[i]];
        for (long j = 0; j < i; j++)
            t -= LU[i * s + j] * x[j];
        x[i] = t;
    }
    for (long i = s - 1; i >= 0; i--) {
        double t = x[i];
        for (long j = i + 1; j < s; j++)
            t -= LU[i * s + j] * x[j];
        x[i] = t / LU[i * s + i];
    }
}

/* Each group's LU, and its rows of W = A^-1 C. false: a group is singular. */
static bool bordered_factor_groups(bordered *b, sunrealtype **cols)
{
    size_t need = (size_t)b->lu_at[b->ng];
    if (need > b->lu_cap) {
        free(b->lu);
        b->lu = xcalloc(need, sizeof(double));
        b->lu_cap = need;
    }
    for (long g = 0; g < b->ng; g++) {
        const long *idx = b->rest + b->start[g];
        long s = b->start[g + 1] - b->start[g];
        lu_matrix *A = &b->glu[g];
        *A = (lu_matrix){.n = (size_t)s, .a = b->lu + b->lu_at[g], .perm = b->perm + b->start[g]};
        for (long r = 0; r < s; r++)
            for (long c = 0; c < s; c++)
                *lu_at(A, (size_t)r, (size_t)c) = M_AT(cols, idx[r], idx[c]);
        if (lu_factor(A) != 0 || lu_singular(A))
            return false;
        double *w = b->W + b->start[g] * b->nw, *col = b->xt, *sol = b->xr;
        for (long c = 0; c < b->nw; c++) {
            bool zero = true;
            for (long r = 0; r < s; r++) {
                col[r] = M_AT(cols, idx[r], b->border[b->wcol[c]]);
                zero &= col[r] == 0.0;
            }
            if (!zero)
                group_solve(A, col, sol);
            for (long r = 0; r < s; r++)
                w[r * b->nw + c] = zero ? 0.0 : sol[r];
        }
    }
    return true;
}

/* The nonzero columns of C (wcol) and rows of R (rrow, gathered into b->R in rest order). */
static void bordered_coupling(bordered *b, sunrealtype **cols)
{
    b->nw = b->nrr = 0;
    for (long c = 0; c < b->k; c++) {
        const sunrealtype *col = cols[b->border[c]];
        long r = 0;
        while (r < b->nr && col[b->rest[r]] == 0.0)
            r++;
        if (r < b->nr)
            b->wcol[b->nw++] = c;
    }
    for (long a = 0; a < b->k; a++) {
        double *R = b->R + b->nrr * b->nr;
        bool zero = true;
        for (long r = 0; r < b->nr; r++) {
            R[r] = M_AT(cols, b->border[a], b->rest[r]);
            zero &= R[r] == 0.0;
        }
        if (!zero)
            b->rrow[b->nrr++] = a;
    }
}

static int bordered_setup(SUNLinearSolver LS, SUNMatrix M)
{
    bordered *b = LS->content;
    sunrealtype **cols = SM_COLS_D(M);
    long k = b->k;
    bordered_groups(b, cols);
    bordered_coupling(b, cols);
    long nw = b->nw;
    if (!bordered_factor_groups(b, cols))
        return SUNLS_LUFACT_FAIL;            /* recoverable: CVODE retries with a smaller step */
    for (long a = 0; a < k; a++)             /* S = D - R W */
        for (long c = 0; c < k; c++)
            *lu_at(&b->S, (size_t)a, (size_t)c) = M_AT(cols, b->border[a], b->border[c]);
    for (long i = 0; i < b->nrr; i++) {
        double *S = lu_at(&b->S, (size_t)b->rrow[i], 0);
        const double *R = b->R + i * b->nr;
        for (long r = 0; r < b->nr; r++)
            if (R[r] != 0.0)
                for (long c = 0; c < nw; c++)
                    S[b->wcol[c]] -= R[r] * b->W[r * nw + c];
    }
    if (k > 0 && (lu_factor(&b->S) != 0 || lu_singular(&b->S)))
        return SUNLS_LUFACT_FAIL;
    return 0;
}

static int bordered_solve(SUNLinearSolver LS, SUNMatrix M, N_Vector x, N_Vector rhs,
                          sunrealtype tol)
{
    (void)M; (void)tol;
    bordered *b = LS->content;
    const double *bv = data_of(rhs);
    double *xv = data_of(x), *xr = b->xr, *xb = b->xb;
    long k = b->k, nr = b->nr, nw = b->nw;
    for (long r = 0; r < nr; r++)
        b->xt[r] = bv[b->rest[r]];
    for (long g = 0; g < b->ng; g++)          /* A^-1 b_r */
        group_solve(&b->glu[g], b->xt + b->start[g], xr + b->start[g]);
    for (long a = 0; a < k; a++)              /* b_b - R A^-1 b_r, then S^-1 of it */
        b->xs[a] = bv[b->border[a]];
    for (long i = 0; i < b->nrr; i++) {
        const double *R = b->R + i * nr;
        double s = 0;
        for (long r = 0; r < nr; r++)
            s += R[r] * xr[r];
        b->xs[b->rrow[i]] -= s;
    }
    if (k > 0)
        group_solve(&b->S, b->xs, xb);
    for (long a = 0; a < k; a++)
        xv[b->border[a]] = xb[a];
    for (long r = 0; r < nr; r++) {
        double s = xr[r];
        for (long c = 0; c < nw; c++)
            s -= b->W[r * nw + c] * xb[b->wcol[c]];
        xv[b->rest[r]] = s;
    }
    return 0;
}

static void bordered_free_content(bordered *b)
{
    if (!b)
        return;
    void *p[] = {b->border, b->in_border, b->parent, b->group, b->rest, b->start, b->lu_at,
                 b->lu, b->perm, b->glu, b->wcol, b->rrow, b->W, b->R, b->xr, b->xt, b->xb,
                 b->xs};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
    lu_free(&b->S);
    free(b);
}

static int bordered_free(SUNLinearSolver LS)
{
    if (!LS)
        return 0;
    bordered_free_content(LS->content);
    LS->content = NULL;
    SUNLinSolFreeEmpty(LS);
    return 0;
}

static SUNLinearSolver_Type bordered_type(SUNLinearSolver LS)
{
    (void)LS;
    return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID bordered_id(SUNLinearSolver LS)
{
    (void)LS;
    return SUNLINEARSOLVER_CUSTOM;
}

/* The solver for n unknowns with the k border ones given (distinct, each below n); NULL when
 * they are not. */
static SUNLinearSolver bordered_new(SUNContext ctx, long n, const long *border, long k)
{
    if (k < 0 || k > n || (k > 0 && !border))
        return NULL;
    bordered *b = xcalloc(1, sizeof *b);
    b->n = n, b->k = k, b->nr = n - k;
    b->in_border = xcalloc((size_t)n, 1);
    b->border = xcalloc((size_t)k + 1, sizeof(long));
    for (long a = 0; a < k; a++) {
        if (border[a] < 0 || border[a] >= n || b->in_border[border[a]]) {
            bordered_free_content(b);
            return NULL;
        }
        b->border[a] = border[a];
        b->in_border[border[a]] = 1;
    }
    b->parent = xcalloc((size_t)n, sizeof(long));
    b->group = xcalloc((size_t)n, sizeof(long));
    b->rest = xcalloc((size_t)b->nr + 1, sizeof(long));
    b->start = xcalloc((size_t)b->nr + 2, sizeof(long));
    b->lu_at = xcalloc((size_t)b->nr + 2, sizeof(long));
    b->perm = xcalloc((size_t)b->nr + 1, sizeof(size_t));
    b->wcol = xcalloc((size_t)k + 1, sizeof(long));
    b->rrow = xcalloc((size_t)k + 1, sizeof(long));
    b->W = xcalloc((size_t)(b->nr * k) + 1, sizeof(double));
    b->R = xcalloc((size_t)(b->nr * k) + 1, sizeof(double));
    b->glu = xcalloc((size_t)b->nr + 1, sizeof(lu_matrix));
    b->xr = xcalloc((size_t)b->nr + 1, sizeof(double));
    b->xt = xcalloc((size_t)b->nr + 1, sizeof(double));
    b->xb = xcalloc((size_t)k + 1, sizeof(double));
    b->xs = xcalloc((size_t)k + 1, sizeof(double));
    lu_init(&b->S, (size_t)k, 0);
    SUNLinearSolver LS = SUNLinSolNewEmpty(ctx);
    if (!LS) {
        bordered_free_content(b);
        return NULL;
    }
    LS->content = b;
    LS->ops->gettype = bordered_type;
    LS->ops->getid = bordered_id;
    LS->ops->setup = bordered_setup;
    LS->ops->solve = bordered_solve;
    LS->ops->free = bordered_free;
    return LS;
}
#undef M_AT

int cvode_bordered_solve(size_t n, const double *M, const long *border, long k, const double *b,
                         double *x)
{
    SUNContext ctx;
    if (SUNContext_Create(IVP_SUN_COMM, &ctx) != 0)
        return -1;
    sunindextype nn = (sunindextype)n;
    SUNMatrix A = SUNDenseMatrix(nn, nn, ctx);
    N_Vector vb = N_VNew_Serial(nn, ctx), vx = N_VNew_Serial(nn, ctx);
    SUNLinearSolver LS = A && vb && vx ? bordered_new(ctx, (long)n, border, k) : NULL;
    int rc = -1;
    if (LS) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                SM_ELEMENT_D(A, (sunindextype)i, (sunindextype)j) = M[i * n + j];
        memcpy(N_VGetArrayPointer(vb), b, n * sizeof(double));
        rc = SUNLinSolSetup(LS, A) != 0 || SUNLinSolSolve(LS, A, vx, vb, 0.0) != 0 ? 1 : 0;
        if (rc == 0)
            memcpy(x, N_VGetArrayPointer(vx), n * sizeof(double));
        SUNLinSolFree(LS);
    }
    if (vx) N_VDestroy(vx);
    if (vb) N_VDestroy(vb);
    if (A) SUNMatDestroy(A);
    SUNContext_Free(&ctx);
    return rc;
}

static int roots(sunrealtype t, N_Vector y, sunrealtype *g, void *data)
{
    udata *u = data;
    return u->o->roots(t, data_of(y), g, u->p->params) ? -1 : 0;
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

/* Statistics so far: read once after every step that has a sink to see them (they change only
 * inside CVode), so sinks may read them. */
static void read_stats(void *mem, const cvode_opts *o, cvode_stats *st)
{
    long steps, nfev, nsetups, netf, x;
    int q, qcur;
    double h0, h, hcur, tcur;
    if (CVodeGetIntegratorStats(mem, &steps, &nfev, &nsetups, &netf, &q, &qcur, &h0, &h, &hcur,
                                &tcur) >= 0) {
        st->steps = steps, st->nfev = nfev, st->netf = netf, st->last_h = h, st->last_q = q;
        if (o->solver != CVODE_FIXEDPOINT)
            st->nsetups = nsetups;
    }
    long nni, nncf;
    if (CVodeGetNonlinSolvStats(mem, &nni, &nncf) >= 0) st->nniters = nni, st->nncf = nncf;
    if (o->nroots > 0 && CVodeGetNumGEvals(mem, &x) >= 0) st->ngev = x;
    if (o->solver != CVODE_FIXEDPOINT) {
        if (CVodeGetNumJacEvals(mem, &x) >= 0) st->njev = x;
        if (CVodeGetNumLinRhsEvals(mem, &x) >= 0) st->nfev_jac = x;
    }
}

#define CHECK_CALL(call)                                                                        \
    do {                                                                                        \
        int flag_ = (call);                                                                     \
        if (flag_ < 0) {                                                                        \
            snprintf(err, errlen, "%s: %s returned %s", cvode_name(o), #call,                   \
                     flag_name(flag_));                                                         \
            return -1;                                                                          \
        }                                                                                       \
    } while (0)

/* Everything one run holds; run_free releases what run_setup made. */
typedef struct {
    SUNContext ctx;
    N_Vector v, dky;        /* the state, and the interpolated output */
    SUNMatrix A;
    SUNLinearSolver LS;
    SUNNonlinearSolver NLS;
    void *mem;              /* CVODE's */
    int *rootsfound;
    udata u;
} run;

static void run_free(run *r)
{
    free(r->rootsfound);
    free(r->u.J);
    free(r->u.B);
    CVodeFree(&r->mem);
    if (r->NLS) SUNNonlinSolFree(r->NLS);
    if (r->LS) SUNLinSolFree(r->LS);
    if (r->A) SUNMatDestroy(r->A);
    if (r->dky) N_VDestroy(r->dky);
    if (r->v) N_VDestroy(r->v);
    if (r->ctx) SUNContext_Free(&r->ctx);
}

/* The linear (or fixed-point) solver of o, attached to r->mem. 0, or -1 with err. */
static int attach_solver(run *r, const ivp *p, double t0, const cvode_opts *o, char *err,
                         size_t errlen)
{
    sunindextype n = (sunindextype)p->dim;
    switch (o->solver) {
    case CVODE_DENSE:
        r->A = SUNDenseMatrix(n, n, r->ctx);
        r->LS = r->A ? SUNLinSol_Dense(r->v, r->A, r->ctx) : NULL;
        break;
    case CVODE_BORDERED:
        r->A = SUNDenseMatrix(n, n, r->ctx);
        r->LS = r->A ? bordered_new(r->ctx, (long)n, o->border, o->nborder) : NULL;
        break;
    case CVODE_BAND:
        r->A = SUNBandMatrix(n, (sunindextype)o->upper, (sunindextype)o->lower, r->ctx);
        r->LS = r->A ? SUNLinSol_Band(r->v, r->A, r->ctx) : NULL;
        break;
    case CVODE_FIXEDPOINT:
        r->NLS = SUNNonlinSol_FixedPoint(r->v, 0, r->ctx);
        if (!r->NLS) {
            snprintf(err, errlen, "%s: could not create the fixed-point solver", cvode_name(o));
            return -1;
        }
        CHECK_CALL(CVodeSetNonlinearSolver(r->mem, r->NLS));
        return 0;
    }
    if (!r->LS && r->A && o->solver == CVODE_BORDERED) {
        snprintf(err, errlen, "%s: the border is not a set of distinct unknowns below %ld",
                 cvode_name(o), (long)n);
        return -1;
    }
    if (!r->LS) {
        snprintf(err, errlen, "%s: out of memory for a %ld x %ld Jacobian", cvode_name(o), (long)n,
                 (long)n);
        return -1;
    }
    CHECK_CALL(CVodeSetLinearSolver(r->mem, r->LS, r->A));
    if ((o->solver == CVODE_DENSE || o->solver == CVODE_BORDERED) && p->jac) {
        r->u.J = xcalloc(p->dim * p->dim, sizeof(double));
        CHECK_CALL(CVodeSetJacFn(r->mem, jac));
    }
    /* A linear problem's Jacobian is constant: its band once, and no re-evaluation (CVODE keeps
     * its copy; a change of step only refactors I - gamma J). */
    if (o->solver == CVODE_BAND && p->jac && p->linear) {
        if (band_of(&r->u, t0, N_VGetArrayPointer(r->v)) != 0) {
            snprintf(err, errlen,
                     "%s: the problem's Jacobian failed or is wider than the band %ld/%ld",
                     cvode_name(o), o->upper, o->lower);
            return -1;
        }
        CHECK_CALL(CVodeSetJacFn(r->mem, jac_band));
        CHECK_CALL(CVodeSetJacEvalFrequency(r->mem, LONG_MAX));
    }
    return 0;
}

/* Context, vectors, CVODE's memory with o's settings, the solver and the roots. 0, or -1 with err.
 */
static int run_setup(run *r, const ivp *p, double t0, const double *y, double t1,
                     const cvode_opts *o, char *err, size_t errlen)
{
    sunindextype n = (sunindextype)p->dim;
    if (SUNContext_Create(IVP_SUN_COMM, &r->ctx) != 0) {
        r->ctx = NULL;
        snprintf(err, errlen, "%s: could not create a SUNDIALS context", cvode_name(o));
        return -1;
    }
#if SUNDIALS_VERSION_MAJOR >= 7
    SUNContext_ClearErrHandlers(r->ctx);
    SUNContext_PushErrHandler(r->ctx, capture_error, &r->u);
#endif
    r->v = N_VNew_Serial(n, r->ctx);
    /* fused vector operations: the Nordsieck predict and update as one pass each (CVODE's clones
     * inherit it), and so CVodeGetDky's sum of the q + 1 Nordsieck vectors into dky, a clone too:
     * one pass, where a vector without them takes a scale and q linear sums (the same
     * arithmetic, in the same order) */
    if (r->v && N_VEnableFusedOps_Serial(r->v, SUNTRUE) != 0) {
        snprintf(err, errlen, "%s: could not enable fused vector operations", cvode_name(o));
        return -1;
    }
    r->dky = r->v ? N_VClone(r->v) : NULL;
    if (!r->v || !r->dky) {
        snprintf(err, errlen, "%s: out of memory for vectors of %ld", cvode_name(o), (long)n);
        return -1;
    }
    memcpy(N_VGetArrayPointer(r->v), y, p->dim * sizeof(double));
    r->mem = CVodeCreate(o->lmm == CVODE_ADAMS ? CV_ADAMS : CV_BDF, r->ctx);
    if (!r->mem) {
        snprintf(err, errlen, "%s: CVodeCreate failed", cvode_name(o));
        return -1;
    }
#if SUNDIALS_VERSION_MAJOR < 7
    CVodeSetErrHandlerFn(r->mem, capture_error, &r->u);
#endif
    CHECK_CALL(CVodeInit(r->mem, rhs, t0, r->v));
    CHECK_CALL(CVodeSetUserData(r->mem, &r->u));
    if (o->rtol < 0 || o->atol < 0)   /* CVODE's own refusal of negative tolerances */
        CHECK_CALL(CVodeSStolerances(r->mem, o->rtol, o->atol));
    CHECK_CALL(CVodeWFtolerances(r->mem, ewt));
    CHECK_CALL(CVodeSetStopTime(r->mem, t1));
    if (o->max_step > 0)
        CHECK_CALL(CVodeSetMaxStep(r->mem, o->max_step));
    if (o->init_step > 0)
        CHECK_CALL(CVodeSetInitStep(r->mem, o->init_step));
    if (o->max_order > 0)
        CHECK_CALL(CVodeSetMaxOrd(r->mem, o->max_order));
    if (o->stab_lim_det && o->lmm == CVODE_BDF)
        CHECK_CALL(CVodeSetStabLimDet(r->mem, SUNTRUE));
    if (attach_solver(r, p, t0, o, err, errlen))
        return -1;
    if (o->nroots > 0) {
        CHECK_CALL(CVodeRootInit(r->mem, o->nroots, roots));
        r->rootsfound = xcalloc((size_t)o->nroots, sizeof(int));
    }
    return 0;
}

/* The outputs up to t (interpolated by CVODE), each to the sample sink. 0, or -1 with err. */
static int emit_outputs(run *r, const cvode_opts *o, double t, size_t *next, long *k_sample,
                        long *since_output, char *err, size_t errlen)
{
    for (; *next < o->nout && o->tout[*next] <= t; (*next)++, (*k_sample)++) {
        int rc = CVodeGetDky(r->mem, o->tout[*next], 0, r->dky);
        if (rc < 0) {
            snprintf(err, errlen, "%s: no output at t = %.9g s (%s)", cvode_name(o), o->tout[*next],
                     flag_name(rc));
            return -1;
        }
        if (o->sink && o->sink(*k_sample, o->tout[*next], data_of(r->dky), o->ctx)) {
            snprintf(err, errlen, "%s: stopped by the output sink at t = %.9g s", cvode_name(o),
                     o->tout[*next]);
            return -1;
        }
        *since_output = 0;
    }
    return 0;
}

/* After a step that ended at t with flag: the event sink (a root) or the step sink. 0, or -1 with
 * err. */
static int after_step(run *r, const cvode_opts *o, int flag, double t, cvode_stats *st, char *err,
                      size_t errlen)
{
    if (flag == CV_ROOT_RETURN) {
        CVodeGetRootInfo(r->mem, r->rootsfound);
        st->nevents++;
        if (o->on_event && o->on_event(t, data_of(r->v), r->rootsfound, o->ctx)) {
            snprintf(err, errlen, "%s: stopped by the event sink at t = %.9g s", cvode_name(o), t);
            return -1;
        }
    } else if (o->on_step) {
        if (o->on_step(t, st->last_h, data_of(r->v), o->ctx)) {
            snprintf(err, errlen, "%s: stopped by the step sink at t = %.9g s", cvode_name(o), t);
            return -1;
        }
    }
    return 0;
}

/* CVODE's failure flag in one line: the method, the time, the reason and what to try. */
static void failure(run *r, const cvode_opts *o, int flag, double t, char *err, size_t errlen)
{
    const char *hint, *why = explain(flag, &hint);
    double tcur = t;
    CVodeGetCurrentTime(r->mem, &tcur);
    snprintf(err, errlen, "%s failed at t = %.9g s: %s (%s%s%s); try: %s", cvode_name(o), tcur, why,
             flag_name(flag), r->u.msg[0] ? ": " : "", r->u.msg, hint);
}

int cvode_solve(const ivp *p, double t0, double *y, double t1, const cvode_opts *o,
                cvode_stats *st, char *err, size_t errlen)
{
    run r;
    memset(&r, 0, sizeof r);
    r.u = (udata){.p = p, .o = o};
    memset(st, 0, sizeof *st);
    double wall0 = wall_seconds();
    if (errlen)
        err[0] = '\0';
    int status = run_setup(&r, p, t0, y, t1, o, err, errlen);
    size_t next = 0;
    long k_sample = 0, since_output = 0;
    long max_steps = o->max_steps > 0 ? o->max_steps : 1000000;
    double t = t0;
    while (status == 0 && t < t1) {
        int flag = CVode(r.mem, t1, r.v, &t, CV_ONE_STEP);
        /* One-step mode: the limit on steps between outputs is kept here. */
        if (flag >= 0 && ++since_output > max_steps && !(next < o->nout && o->tout[next] <= t))
            flag = CV_TOO_MUCH_WORK;
        if (flag < 0) {
            failure(&r, o, flag, t, err, errlen);
            status = -1;
        } else {
            if (o->stats_at_end) {      /* none read so far but the step sink's h */
                if (o->on_step)
                    CVodeGetLastStep(r.mem, &st->last_h);
            } else if (o->sink || o->on_step || o->on_event) {
                read_stats(r.mem, o, st);
            }
            status = emit_outputs(&r, o, t, &next, &k_sample, &since_output, err, errlen);
            if (status == 0)
                status = after_step(&r, o, flag, t, st, err, errlen);
            if (flag == CV_TSTOP_RETURN)
                break;
        }
    }
    if (status == 0)
        memcpy(y, N_VGetArrayPointer(r.v), p->dim * sizeof(double));
    if (r.mem)
        read_stats(r.mem, o, st);
    st->seconds = wall_seconds() - wall0;
    run_free(&r);
    return status;
}
