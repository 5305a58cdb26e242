/* test_stability.c: the stability bounds read from each method's R(z) are the known ones. */
#include "check.h"
#include "method/method.h"
#include "analysis/stability.h"
#include <complex.h>

int main(void)
{
    struct { const method *m; double real, imag; } want[] = {
        {&method_euler, 2.0, 0.0},
        {&method_backward_euler, INFINITY, INFINITY},
        {&method_trapezoid, INFINITY, INFINITY},
        {&method_heun, 2.0, 0.0},
        {&method_rk4, 2.785293563, 2.0 * sqrt(2.0)},   /* real root of |R(-x)| = 1; sqrt 8 on j */
        {&method_leapfrog, 0.0, 2.0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const method *m = want[i].m;
        double r = stability_bound(m, -1.0), s = stability_bound(m, I);
        check(isinf(want[i].real) ? isinf(r) : fabs(r - want[i].real) <= 1e-8,
              "%s: real bound %.10g (expected %.10g)", m->name, r, want[i].real);
        check(isinf(want[i].imag) ? isinf(s) : fabs(s - want[i].imag) <= 1e-8,
              "%s: imaginary bound %.10g (expected %.10g)", m->name, s, want[i].imag);
    }
    /* a bounded explicit region: RK4 is unstable far out in the left half plane */
    check(!stability_stable(&method_rk4, -100.0) && stability_stable(&method_backward_euler, -100.0),
          "RK4's region is bounded (z = -100 unstable), backward Euler's is not");
    check(stability_stable(&method_rk4, 2.8 * I) && !stability_stable(&method_rk4, 2.9 * I),
          "RK4: z = 2.8j stable, 2.9j not");
    /* the phase error of one step is taken in (-pi, pi]: RK4 at z = 2.5j turns 0.848 rad too far
     * (arg R = -2.935 rad, Im z = 2.5); the plain difference would read -5.435 */
    double ph = stability_phase_error(&method_rk4, 2.5 * I);
    check(fabs(ph - 0.8480331929) <= 1e-8, "RK4 phase error at 2.5j: %.10g rad (expected 0.8480331929)", ph);
    for (double y = 0.1; y < 10.0; y += 0.1) {
        double e = stability_phase_error(&method_rk4, y * I);
        if (!(e > -M_PI && e <= M_PI)) {
            check(0, "RK4 phase error at %gj: %g outside (-pi, pi]", y, e);
            break;
        }
    }
    ph = stability_phase_error(&method_trapezoid, 1.0 * I);
    check(fabs(ph - (2.0 * atan(0.5) - 1.0)) <= 1e-12, "trapezoid phase error at j: %.10g (2 atan(1/2) - 1)", ph);
    return check_done();
}
