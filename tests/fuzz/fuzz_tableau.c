/* fuzz_tableau.c: the Butcher tableau reader (method/tableau_read.c) on any bytes; what it accepts is
 * then asked for its order and R(z), and stepped once. */
#include "fuzz_file.h"
#include "method/tableau.h"

static int rhs(double t, const double *y, double *f, void *params)
{
    (void)t; (void)params;
    f[0] = -y[0] * y[0];
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    static tableau_method tm;
    const method *m = tableau_read_file(&tm, fuzz_file(data, size), err, sizeof err) == 0 ? &tm.m : NULL;
    if (m) {
        (void)method_R(m, -0.5 + 0.5 * I);
        if (m->tableau->bhat)
            (void)tableau_order(m->tableau, m->tableau->bhat);
        ivp p = {.dim = 1, .rhs = rhs};
        workspace *w = workspace_alloc(1);
        double y[1] = {1.0};
        (void)method_step(m, &p, 0.0, 0.1, y, w);
        workspace_free(w);
    }
    return 0;
}
