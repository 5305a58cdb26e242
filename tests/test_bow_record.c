/* test_bow_record.c: what is read off a recorded bow stroke (src/bow/bow_record.c), on
 * records filled by hand whose answers are known. The force: a slow rise to 1 N at the slip
 * (t_s = 10 ms), then a straight fall to 0 N in 0.5 ms, then 0: the drop is 1 N and the
 * steepest fall 1 / 0.5 ms = 2000 N/s. The velocities: v_b = 0.1 m/s throughout, the string
 * sticking (v_rel = 0) but for slips (v_rel = 2 v_b) of 0.1 ms starting every 1 ms from 5 ms:
 * 20 slips in 0..25 ms, the first at 5 ms; counted from 12.5 ms on, 12 (13 to 24 ms). */
#include "check.h"
#include "bow/bow_record.h"
#include <math.h>

#define DT 5e-6

int main(void)
{
    bow_record r;
    bow_record_init(&r, NULL, 5000);
    check(r.tick == 1.0 && r.tau_min == INFINITY && r.n == 0, "a new record: empty, tick 1, tau_min +inf");
    const double ts = 10e-3;
    r.n = 5000;
    for (size_t k = 0; k < r.n; k++) {
        double t = k * DT;
        r.t[k] = t;
        r.bridge_u[k] = t <= ts ? 1.0 + (t - ts) : fmax(0.0, 1.0 - (t - ts) / 5e-4);
        r.v_b[k] = 0.1;
        double ph = fmod(t - 5e-3 + 1e-9, 1e-3);
        r.v_mean[k] = t >= 5e-3 - 1e-9 && ph < 1e-4 ? 0.2 : 0.0;
    }
    double fall;
    double drop = bow_record_first_drop(&r, DT, ts, &fall);
    check_close("first slip's force drop, N", drop, 1.0, 1e-9);
    check_close("its steepest fall, N/s", fall, 2000.0, 1e-6);
    double first;
    long n = bow_record_slips(&r, 0, r.n, &first);
    check(n == 20, "slips in 0..25 ms: %ld (expected 20)", n);
    check_close("the first, s", first, 5e-3, DT / 2);
    n = bow_record_slips(&r, 2500, r.n, &first);
    check(n == 12, "slips from 12.5 ms on: %ld (expected 12)", n);
    check_close("the first of those, s", first, 13e-3, DT / 2);
    bow_record_free(&r);
    check(r.t == NULL && r.cap == 0, "freed: no arrays left");
    return check_done();
}
