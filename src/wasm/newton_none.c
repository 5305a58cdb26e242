/* newton_none.c: newton.h for the browser build (src/wasm/), which has no GSL. The page explorers
 * step explicit methods only; an implicit stage asks for a Newton solve on GSL's LU (newton.c),
 * and here it is refused with the reason, which the page shows (method, time, reason). */
#include "method/newton.h"
#include <stdio.h>

int newton_implicit_step(const ivp *p, double t, double a, const double *c, double *y, workspace *w)
{
    (void)p; (void)a; (void)c; (void)y;
    snprintf(w->error, sizeof w->error,
             "an implicit stage at t = %.6g s needs the Newton solve on GSL's LU, which the page's "
             "WebAssembly build leaves out (run the lesson program)", t);
    return -1;
}

void newton_configure(workspace *w, double rel_tol, int max_iter)
{
    (void)w; (void)rel_tol; (void)max_iter;
}

const newton_report *newton_last(const workspace *w)
{
    (void)w;
    return NULL;
}

bool newton_is_banded(const workspace *w)
{
    (void)w;
    return false;
}
