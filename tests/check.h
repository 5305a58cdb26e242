/* check.h: the unit-test harness. Each check prints one line, "pass: ..." or "FAIL: ...";
 * tests/run.sh counts them. A test program returns nonzero when any check failed. */
#ifndef IVPLAB_CHECK_H
#define IVPLAB_CHECK_H
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int check_failures;

static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    fputs(ok ? "pass: " : "FAIL: ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
    if (!ok)
        check_failures++;
}

/* |actual - expected| <= tol, with both values in the line. */
__attribute__((unused)) static void check_close(const char *what, double actual, double expected, double tol)
{
    check(fabs(actual - expected) <= tol, "%s: %.6g (expected %.6g +- %.2g)", what, actual, expected, tol);
}

static int check_done(void) { return check_failures ? 1 : 0; }

#endif
