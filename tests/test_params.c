/* test_params.c: parameter files: values land, comments are skipped, and every kind of bad
 * line is refused with the file, the line and the reason. */
#include "check.h"
#include "cli.h"
#include "io/params.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double m1, k;
static const param_spec spec[] = {
    {"m1", &m1, "kg", 0, 1e3, CLI_OPEN_MIN, "mass"},
    {"k", &k, "N/m", 0, 1e12, 0, "spring"},
    {NULL, NULL, NULL, 0, 0, 0, NULL},
};

static int load(const char *text, char *err)
{
    char path[] = "/tmp/ivplab-params-XXXXXX";
    int fd = mkstemp(path);
    if (write(fd, text, strlen(text)) < 0)
        return -2;
    close(fd);
    int rc = params_load(spec, path, false, err, 300);
    unlink(path);
    return rc;
}

int main(void)
{
    char err[300] = "";
    int rc = load("# a set\n[ball]\nm1 = 0.1   # kg; lecture\n\nk=2e3 ; N/m\n", err);
    check(rc == 0 && m1 == 0.1 && k == 2e3,
          "values and comments are read (m1 = %g, k = %g) %s", m1, k, err);
    check(load("m1 = 0.1\nkk = 3\n", err) == -1 && strstr(err, ":2: unknown key 'kk'; did you mean 'k'?"),
          "an unknown key names the line and the nearest key: %s", err);
    check(load("m1 = 0.1\n", err) == -1 && strstr(err, "key 'k'") && strstr(err, "missing"),
          "a missing key is refused: %s", err);
    check(load("m1 = abc\nk = 1\n", err) == -1 && strstr(err, ":1:") && strstr(err, "not a finite number"),
          "a non-number is refused: %s", err);
    check(load("m1 = 0\nk = 1\n", err) == -1 && strstr(err, "out of range"), "a value out of range is refused: %s", err);
    check(load("m1 = nan\nk = 1\n", err) == -1, "nan is refused: %s", err);
    check(load("m1 0.1\n", err) == -1 && strstr(err, "not of the form"), "a line without = is refused: %s", err);
    rc = params_set(spec, "k=5", err, sizeof err);
    check(rc == 0 && k == 5, "an override key=value applies (k = %g)", k);
    check(params_set(spec, "m2=5", err, sizeof err) == -1 && strstr(err, "did you mean 'm1'"),
          "an override of an unknown key names the nearest: %s", err);
    return check_done();
}
