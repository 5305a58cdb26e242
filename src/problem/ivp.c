#include "problem/ivp.h"
#include "base/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

workspace *workspace_alloc(size_t dim)
{
    workspace *w = xcalloc(1, sizeof *w);
    w->dim = dim;
    for (int i = 0; i < IVP_MAX_STAGES; i++)
        w->k[i] = xcalloc(dim, sizeof(double));
    w->tmp = xcalloc(dim, sizeof(double));
    w->tmp2 = xcalloc(dim, sizeof(double));
    w->fsal_y = xcalloc(dim, sizeof(double));
    w->fsal_f = xcalloc(dim, sizeof(double));
    return w;
}

void workspace_free(workspace *w)
{
    if (!w)
        return;
    for (int i = 0; i < IVP_MAX_STAGES; i++)
        free(w->k[i]);
    free(w->tmp);
    free(w->tmp2);
    free(w->fsal_y);
    free(w->fsal_f);
    if (w->solver_free)
        w->solver_free(w->solver);
    free(w);
}

void workspace_reset_counts(workspace *w)
{
    memset(&w->counts, 0, sizeof w->counts);
}

int ivp_eval(const ivp *p, double t, const double *y, double *f, workspace *w)
{
    w->counts.nfev++;
    int rc = p->rhs(t, y, f, p->params);
    if (rc != 0)
        snprintf(w->error, sizeof w->error, "F could not be evaluated at t = %.9g s (code %d)", t, rc);
    return rc;
}
