/* stages.c: one step opened up, stage by stage (see stages.h). */
#include "method/stages.h"
#include "base/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void row(FILE *f, const char *stage, double t, double c, double b, const double *y,
                const double *F, size_t n, const char *label)
{
    fprintf(f, "%s\t%.12g\t%.6g\t%.6g", stage, t, c, b);
    for (size_t q = 0; q < n; q++)
        fprintf(f, "\t%.12g", y[q]);
    for (size_t q = 0; q < n; q++)
        fprintf(f, "\t%.12g", F[q]);
    fprintf(f, "\t%s\n", label);
}

int step_stages_write(const method *m, const ivp *p, double t0, const double *y0, double h, long k,
                      FILE *f, char *why, size_t whylen)
{
    const size_t n = p->dim;
    workspace *w = workspace_alloc(n);
    double *y = xcalloc(n, sizeof *y), *y1 = xcalloc(n, sizeof *y1), *F = xcalloc(n, sizeof *F);
    double *Y = xcalloc(n, sizeof *Y);
    memcpy(y, y0, n * sizeof *y);
    int rc = 0;
    double t = t0;
    for (long i = 0; i < k && rc == 0; i++, t = t0 + (double)i * h)
        rc = method_step(m, p, t, h, y, w);
    t = t0 + (double)k * h;
    fprintf(f, "stage\tt_s\tc\tb");
    for (size_t q = 0; q < n; q++)
        fprintf(f, "\ty%zu", q + 1);
    for (size_t q = 0; q < n; q++)
        fprintf(f, "\tF%zu", q + 1);
    fprintf(f, "\tmethod\n");
    char label[128];
    snprintf(label, sizeof label, "%s, h = %g s", m->label, h);
    if (rc == 0)
        rc = ivp_eval(p, t, y, F, w);
    if (rc == 0)
        row(f, "from", t, 0.0, NAN, y, F, n, label);
    memcpy(y1, y, n * sizeof *y);
    if (rc == 0)
        rc = method_step(m, p, t, h, y1, w);
    const rk_tableau *tab = m->tableau;
    if (rc == 0 && tab) {
        /* the step left every stage's slope K_i in w->k[i]; its state is y + h sum_j a_ij K_j
         * (j < i for an explicit stage; j = i too for a diagonally implicit one) */
        const int s = tab->stages;
        for (int i = 0; i < s; i++) {
            for (size_t q = 0; q < n; q++) {
                double acc = 0.0;
                for (int j = 0; j <= i; j++)
                    acc += tab->a[i * s + j] * w->k[j][q];
                Y[q] = y[q] + h * acc;
            }
            char name[16];
            snprintf(name, sizeof name, "%d", i + 1);
            row(f, name, t + tab->c[i] * h, tab->c[i], tab->b[i], Y, w->k[i], n, label);
        }
    } else if (rc == 0) {
        row(f, "start", t, 0.0, NAN, y, F, n, label);
        rc = ivp_eval(p, t + h, y1, Y, w);
        if (rc == 0)
            row(f, "end", t + h, 1.0, NAN, y1, Y, n, label);
    }
    if (rc == 0) {
        for (size_t q = 0; q < n; q++)
            F[q] = (y1[q] - y[q]) / h;
        row(f, "step", t + h, 1.0, NAN, y1, F, n, label);
    } else {
        snprintf(why, whylen, "%s at t = %g s: %s", m->name, t,
                 w->error[0] ? w->error : "step failed");
    }
    free(y);
    free(y1);
    free(F);
    free(Y);
    workspace_free(w);
    return rc;
}
