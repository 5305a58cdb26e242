/* test_params.c: parameter files: values land, comments are skipped, and every kind of bad
 * line is refused with the file, the line and the reason. */
#include "check.h"
#include "base/cli.h"
#include "io/params.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double m1, k;
static const param_spec spec[] = {
    FLAG_REAL("m1", m1, "kg", 0, 1e3, CLI_OPEN_MIN, "mass"),
    FLAG_REAL("k", k, "N/m", 0, 1e12, CLI_CLOSED, "spring"),
    FLAG_END,
};

static int load_n(const char *text, size_t n, char *err)
{
    char path[] = "/tmp/ivplab-params-XXXXXX";
    int fd = mkstemp(path);
    if (write(fd, text, n) < 0)
        return -2;
    close(fd);
    int rc = params_load(spec, path, false, err, 300);
    unlink(path);
    return rc;
}

static int load(const char *text, char *err) { return load_n(text, strlen(text), err); }

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

    /* refused by name: duplicates, malformed lines, directories, NUL bytes; untrusted bytes escaped */
    check(load("m1 = 0.1\nk = 1\nm1 = 0.2\n", err) == -1 && strstr(err, ":3: key 'm1' given twice (first at line 1)"),
          "a duplicate key names both lines: %s", err);
    check(load("[ball\nm1 = 0.1\nk = 1\n", err) == -1 && strstr(err, ":1: '[ball' is not a [section] header"),
          "an unclosed [section is refused: %s", err);
    check(load("[ball] x\nm1 = 0.1\nk = 1\n", err) == -1 && strstr(err, ":1:"), "text after a [section] is refused: %s",
          err);
    check(load("[]\nm1 = 0.1\nk = 1\n", err) == -1 && strstr(err, ":1:"), "an empty [] is refused: %s", err);
    check(load("= 3\nm1 = 0.1\nk = 1\n", err) == -1 && strstr(err, ":1: '= 3' has no key"), "a line without a key: %s",
          err);
    check(load_n("m1 = 0.1\nk = 1\0junk\n", 19, err) == -1 && strstr(err, ":2: a NUL byte at column 6"),
          "a NUL byte is said to be one, with its line and column: %s", err);
    check(load("m1 = 0.1\nk = \033[2J\n", err) == -1 && strstr(err, "\\x1b[2J") && !strchr(err, '\033'),
          "a value's raw bytes are echoed escaped: %s", err);
    check(load("\033]0;x\007 = 1\n", err) == -1 && !strchr(err, '\033') && !strchr(err, '\007'),
          "a key's raw bytes are echoed escaped: %s", err);
    char dir[] = "/tmp/ivplab-params-dir-XXXXXX";
    if (mkdtemp(dir)) {
        check(params_load(spec, dir, true, err, sizeof err) == -1 && strstr(err, "is a directory"),
              "a directory is refused as one: %s", err);
        char here[4200], name[] = "set.ini";
        if (getcwd(here, sizeof here) && chdir(dir) == 0) {
            FILE *f = fopen(name, "w");
            fputs("k = 7\n", f);
            fclose(f);
            k = 0;
            check(params_load_named(spec, name, err, sizeof err) == 0 && k == 7,
                  "a bare name present in the working folder is read there (k = %g)", k);
            unlink(name);
            check(params_load_named(spec, name, err, sizeof err) == -1 && strstr(err, "nor lessons/params/set.ini"),
                  "a bare name found nowhere names both places: %s", err);
            check(params_load_named(spec, "./set.ini", err, sizeof err) == -1 && strstr(err, "cannot read"),
                  "a path is only a path: %s", err);
            if (chdir(here) != 0)
                return 1;
        }
        rmdir(dir);
    }
    /* --set of any length: read whole, not cut */
    char big[2000] = "m1=";
    memset(big + 3, '0', 1500);
    strcpy(big + 1503, "2.5");
    check(params_set(spec, big, err, sizeof err) == 0 && m1 == 2.5, "a 1506-character --set is read whole (m1 = %g) %s", m1,
          err);
    check(params_set(spec, "m1= 0x1p-3", err, sizeof err) == -1 && strstr(err, "decimal"), "a hex value is refused: %s",
          err);
    return check_done();
}
