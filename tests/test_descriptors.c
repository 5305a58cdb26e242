/* test_descriptors.c: a model's parameter is declared once (base/cli.h, io/params.h): its .ini
 * key, --set KEY=VALUE and its --flag are one row. For ball.ini and pluck.ini: the file loads,
 * and every row a program includes as a flag (FLAG_TABLE) is set by the flag and by its key to
 * the same variable; an on/off key is a flag and takes true or false, never a number. */
#include "check.h"
#include "base/cli.h"
#include "io/params.h"
#include "ball/ball_model.h"
#include "spring/spring2.h"
#include "string/score.h"
#include "string/string_run.h"
#include "bow/plane.h"
#include <stdio.h>
#include <string.h>

/* A value of row r inside its range (whole where required), and a second one. */
static void two_values(const param_spec *r, double *a, double *b)
{
    double lo = r->min, hi = r->max > 1e6 ? fmax(r->min * 10.0, 1e3) : r->max;
    *a = lo + (hi - lo) * 0.75;
    *b = lo + (hi - lo) * 0.25;
    if (r->open & PARAM_WHOLE)
        *a = ceil(*a), *b = ceil(*b);
}

/* Every row of group: --FLAG sets its variable, then KEY=VALUE (as --set and a file line) sets
 * the same variable. Returns the rows checked. */
static int same_variable(const char *file, const param_spec *all, const param_spec *group)
{
    param_spec keys[CLI_MAX_ROWS], flags[CLI_MAX_ROWS];
    size_t n = cli_flatten(group, false, keys, CLI_MAX_ROWS);
    cli_flatten(group, true, flags, CLI_MAX_ROWS);
    const cli_opt opts[] = {FLAG_TABLE(group), FLAG_END};
    const cli_spec spec = {.program = "test", .summary = "", .opts = opts};
    int ok = 0;
    for (size_t i = 0; i < n; i++) {
        char flag[80], value[40], set[120], err[300] = "";
        snprintf(flag, sizeof flag, "--%s", flags[i].name);
        double a = 1, b = 0;
        bool on = false;
        if (keys[i].kind == CLI_FLAG) {
            *(bool *)keys[i].dest = false;
            snprintf(set, sizeof set, "%s=false", keys[i].name);
        } else {
            two_values(&keys[i], &a, &b);
            snprintf(value, sizeof value, "%.17g", a);
            snprintf(set, sizeof set, "%s=%.17g", keys[i].name, b);
        }
        char *argv[] = {"test", flag, value, NULL};
        cli_parse(&spec, keys[i].kind == CLI_FLAG ? 2 : 3, argv);
        bool by_flag = keys[i].kind == CLI_FLAG ? *(bool *)keys[i].dest : *(double *)keys[i].dest == a;
        int rc = params_set(all, set, err, sizeof err);
        on = keys[i].kind == CLI_FLAG && *(bool *)keys[i].dest;
        bool by_key = rc == 0 && (keys[i].kind == CLI_FLAG ? !on : *(double *)keys[i].dest == b);
        if (by_flag && by_key)
            ok++;
        else
            check(0, "%s: --%s and key %s set the same variable (flag %d, key %d) %s", file,
                  flags[i].name, keys[i].name, by_flag, by_key, err);
    }
    return ok;
}

static void ball_keys_check(void)
{
    ball_settings s;
    ball_params p;
    char err[600] = "";
    ball_params_bind(&s, &p);
    param_spec rows[CLI_MAX_ROWS];
    size_t n = cli_flatten(p.all, false, rows, CLI_MAX_ROWS);
    int rc = params_load(p.all, "lessons/params/ball.ini", false, err, sizeof err);
    check(rc == 0 && n == BALL_NPARAMS, "ball.ini: its %zu keys load %s", n, err);
    int k = same_variable("ball.ini", p.all, p.model) + same_variable("ball.ini", p.all, p.cvode) +
            same_variable("ball.ini", p.all, p.rhythm);
    check(k == 18, "ball.ini: each of the %d keys bin/drop and bin/audiorate take as flags is set "
          "by its flag and by KEY=VALUE alike", k);
    rc = params_set(p.all, "max-step=0.1", err, sizeof err);
    check(rc == -1 && strstr(err, "did you mean 'max_step'"),
          "ball.ini: the key is max_step, its flag --max-step (%s)", err);
}

static void string_keys_check(void)
{
    string_settings st;
    string_keys k;
    char err[600] = "";
    string_keys_bind(&st, &k);
    int rc = params_load(k.all, "lessons/params/pluck.ini", false, err, sizeof err);
    check(rc == 0 && st.cvode_modal && !st.stab_lim,
          "pluck.ini loads: cvode_modal = true, cvode_stab_lim = false %s", err);
    int n = same_variable("pluck.ini", k.all, k.tol) + same_variable("pluck.ini", k.all, k.sweep) +
            same_variable("pluck.ini", k.all, k.cvode);
    check(n == 21, "pluck.ini: each of the %d keys bin/pluck takes as flags is set by its flag "
          "and by KEY=VALUE alike", n);
    const char *bad[] = {"cvode_modal=1", "cvode_modal=0.5", "cvode_stab_lim=0", "cvode_modal=on"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = params_set(k.all, bad[i], err, sizeof err);
        check(rc == -1 && strstr(err, "accepted: true or false"), "%s refused: %s", bad[i], err);
    }
}

static void spring2_keys_check(void)
{
    spring2 s;
    double pull, T;
    spring2_keys k;
    char err[600] = "";
    spring2_keys_bind(&s, &pull, &T, &k);
    int rc = params_load(k.all, "lessons/params/spring2.ini", false, err, sizeof err);
    check(rc == 0 && pull == 0.01, "spring2.ini loads (pull = %g m) %s", pull, err);
    int n = same_variable("spring2.ini", k.all, k.all);
    check(n == SPRING2_NKEYS, "spring2.ini: each of its %d keys, flags of bin/stiff, is set by its "
          "flag and by KEY=VALUE alike", n);
}

static void plane_keys_check(void)
{
    plane_params pp;
    plane_keys k;
    char err[600] = "";
    plane_keys_bind(&pp, &k);
    int rc = params_load(k.all, "lessons/params/schelleng.ini", false, err, sizeof err);
    check(rc == 0, "schelleng.ini loads %s", err);
    int n = same_variable("schelleng.ini", k.all, k.grid) +
            same_variable("schelleng.ini", k.all, k.stroke);
    check(n == 10, "schelleng.ini: each of the %d keys bin/schelleng takes as flags is set by its "
          "flag and by KEY=VALUE alike", n);
    rc = params_set(k.all, "nx=2.5", err, sizeof err);
    check(rc == -1 && strstr(err, "not a whole number"), "schelleng.ini: nx is whole (%s)", err);
}

static void challenge_keys_check(void)
{
    challenge ch;
    challenge_keys k;
    char err[600] = "";
    int rc = challenge_load("challenge.json", &ch, err, sizeof err);
    challenge_keys_bind(&ch.string, &k);
    int n = same_variable("challenge.json", k.string, k.string);
    check(rc == 0 && n == 8, "challenge.json: each of its %d string parameters "
          "(parameters.NAME.value) is set by bin/pluck's flag and by its member alike %s", n, err);
}

int main(void)
{
    challenge_keys_check();
    plane_keys_check();
    ball_keys_check();
    spring2_keys_check();
    string_keys_check();
    return check_done();
}
