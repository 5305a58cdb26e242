/* test_bow_record.c: what is read off a recorded bow stroke (src/bow/bow_record.c), on
 * records filled by hand whose answers are known. The force: a slow rise to 1 N at the slip
 * (t_s = 10 ms), then a straight fall to 0 N in 0.5 ms, then 0: the drop is 1 N and the
 * steepest fall 1 / 0.5 ms = 2000 N/s. The velocities: v_b = 0.1 m/s throughout, the string
 * sticking (v_rel = 0) but for slips (v_rel = 2 v_b) of 0.1 ms starting every 1 ms from 5 ms:
 * 20 slips in 0..25 ms, the first at 5 ms; counted from 12.5 ms on, 12 (13 to 24 ms). */
#include "check.h"
#include "pages.h"
#include "bow/bow_record.h"
#include <math.h>
#include <sys/resource.h>

#define DT 5e-6

/* A 1 s stroke's record (200002 samples of 9 series, 14 MB), written sample by sample as
 * bow_record_sink does: in a few page faults where the kernel has transparent huge pages (one
 * block of 2 MB pages), where nine arrays of 4 KB pages took 3500. */
static void check_record_pages(void)
{
    bool asan = false;
#ifdef __SANITIZE_ADDRESS__
    asan = true;        /* its allocator places and maps the memory its own way */
#endif
    bow_record r;
    size_t cap = 200002;
    bow_record_init(&r, NULL, cap);
    long fell0 = vmstat("thp_fault_fallback");
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    for (size_t k = 0; k < cap; k++) {
        double v = (double)k;
        r.t[k] = v, r.bridge_u[k] = v, r.bridge_w[k] = v, r.v_mean[k] = v, r.z_mean[k] = v;
        r.tau_mean[k] = v, r.tau_max[k] = v, r.friction[k] = v, r.v_b[k] = v;
    }
    getrusage(RUSAGE_SELF, &r1);
    long faults = r1.ru_minflt - r0.ru_minflt, fell = vmstat("thp_fault_fallback") - fell0;
    bool kept = r.t[cap - 1] == cap - 1.0 && r.v_b[0] == 0.0 && r.friction[cap / 2] == cap / 2;
    bool thp = thp_on();
    check(kept && (faults <= 16 || asan || !thp || fell > 0),
          "a record of %zu samples written whole in %ld page faults (%s)", cap, faults,
          asan ? "any number under AddressSanitizer" : !thp ? "any number: transparent huge pages "
          "off" : fell > 0 ? "any number: the kernel had no huge page" : "<= 16, where 4 KB pages "
          "take 3500: transparent huge pages on");
    bow_record_free(&r);
}

int main(void)
{
    check_record_pages();
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
