/* test_gsl_pairs.c: GSL's explicit pairs under the cvode_opts contract: outputs between steps by
 * Hermite interpolation, events located by bisection, statistics kept. */
#include "check.h"
#include "drive/gsl_pairs.h"
#include <math.h>
#include <string.h>

static int decay(double t, const double *y, double *f, void *p)
{
    (void)t;
    (void)p;
    f[0] = -y[0];
    return 0;
}

static int half(double t, const double *y, double *g, void *p)
{
    (void)t;
    (void)p;
    g[0] = y[0] - 0.5;
    return 0;
}

typedef struct {
    double out[3], t_event;
    int dir, nout, nevents;
} seen;

static int sink(long k, double t, const double *y, void *c)
{
    (void)t;
    seen *s = c;
    if (k < 3)
        s->out[k] = y[0];
    s->nout++;
    return 0;
}

static int event(double t, const double *y, const int *dir, void *c)
{
    (void)y;
    seen *s = c;
    s->t_event = t;
    s->dir = dir[0];
    s->nevents++;
    return 0;
}

int main(void)
{
    ivp p = {.dim = 1, .rhs = decay};
    const double tout[3] = {0.0, 1.0, 2.0};
    const char *names[] = {"rk2", "rkf45", "rkck", "rk8pd"};
    for (int i = 0; i < 4; i++) {
        cvode_opts o = cvode_defaults();
        o.rtol = 1e-10;
        o.atol = 1e-12;
        o.tout = tout;
        o.nout = 3;
        seen s;
        memset(&s, 0, sizeof s);
        o.sink = sink;
        o.ctx = &s;
        o.nroots = 1;
        o.roots = half;
        o.on_event = event;
        double y = 1.0;
        cvode_stats st;
        char err[300];
        int rc = gsl_pair_solve(names[i], &p, 0.0, &y, 2.0, &o, &st, err, sizeof err);
        check(rc == 0, "gsl-%s runs: %s", names[i], rc ? err : "ok");
        check(fabs(y - exp(-2.0)) < 1e-7, "gsl-%s: y(2) = %.12g (e^-2 = %.12g)", names[i], y, exp(-2.0));
        check(s.nout == 3 && s.out[0] == 1.0 && fabs(s.out[1] - exp(-1.0)) < 1e-6,
              "gsl-%s: outputs at 0, 1, 2; y(1) = %.10g by interpolation (e^-1)", names[i], s.out[1]);
        check(s.nevents == 1 && fabs(s.t_event - log(2.0)) < 1e-9 && s.dir == -1,
              "gsl-%s: y = 0.5 falling at t = %.12g (ln 2 = %.12g)", names[i], s.t_event, log(2.0));
        check(st.steps > 0 && st.nfev > st.steps && st.nevents == 1, "gsl-%s: %ld steps, %ld F evaluations", names[i],
              st.steps, st.nfev);
    }
    cvode_opts o = cvode_defaults();
    double y = 1.0;
    cvode_stats st;
    char err[300];
    check(gsl_pair_solve("nope", &p, 0.0, &y, 1.0, &o, &st, err, sizeof err) != 0 && strstr(err, "rk2|rkf45"),
          "an unknown pair is refused, naming those accepted: %s", err);
    return check_done();
}
