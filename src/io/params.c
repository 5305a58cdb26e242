#include "io/params.h"
#include "base/cli.h"
#include "base/util.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The spec of key; else NULL, with *nearest the closest key within 3 edits (or NULL). The
 * distances are computed only for a key that is not there (an ini file names dozens of keys). */
static const param_spec *find(const param_spec *spec, const char *key, const param_spec **nearest)
{
    *nearest = NULL;
    for (const param_spec *p = spec; p->name; p++)
        if (strcmp(p->name, key) == 0)
            return p;
    size_t best = 99;
    for (const param_spec *p = spec; p->name; p++) {
        size_t d = cli_edit_distance(key, p->name);
        if (d < best) {
            best = d;
            *nearest = p;
        }
    }
    if (best > 3)
        *nearest = NULL;
    return NULL;
}

int params_check(const param_spec *ps, double v, char *err, size_t errlen)
{
    bool lo = (ps->open & CLI_OPEN_MIN) ? v > ps->min : v >= ps->min;
    bool hi = (ps->open & CLI_OPEN_MAX) ? v < ps->max : v <= ps->max;
    if (lo && hi && (!(ps->open & PARAM_WHOLE) || v == floor(v)))
        return 0;
    if (lo && hi) {
        snprintf(err, errlen, "%s = %g is not a whole number (%s takes %g to %g)", ps->name, v,
                 ps->name, ps->min, ps->max);
        return -1;
    }
    snprintf(err, errlen, "%s = %g is out of range; accepted: %c%g, %g%c %s", ps->name, v,
             (ps->open & CLI_OPEN_MIN) ? '(' : '[', ps->min, ps->max,
             (ps->open & CLI_OPEN_MAX) ? ')' : ']', ps->unit);
    return -1;
}

/* Trim spaces at both ends in place. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

static int assign(const param_spec *spec, char *key, char *text, int *first_line, int lineno,
                  char *err, size_t errlen)
{
    char k[160], t[160];
    const param_spec *near, *ps = find(spec, key, &near);
    if (!ps) {
        if (near)
            snprintf(err, errlen, "unknown key '%s'; did you mean '%s'?",
                     cli_escape(key, k, sizeof k), near->name);
        else
            snprintf(err, errlen, "unknown key '%s'", cli_escape(key, k, sizeof k));
        return -1;
    }
    if (first_line && first_line[ps - spec]) {
        snprintf(err, errlen, "key '%s' given twice (first at line %d)", ps->name,
                 first_line[ps - spec]);
        return -1;
    }
    if (ps->kind == CLI_FLAG) {
        bool on = strcmp(text, "true") == 0;
        if (!on && strcmp(text, "false") != 0) {
            snprintf(err, errlen, "%s = '%s' is not accepted; accepted: true or false", ps->name,
                     cli_escape(text, t, sizeof t));
            return -1;
        }
        *(bool *)ps->dest = on;
    } else {
        double v;
        const char *bad = cli_number_error(text, &v);
        if (bad) {
            snprintf(err, errlen, "%s = '%s' %s", ps->name, cli_escape(text, t, sizeof t), bad);
            return -1;
        }
        if (params_check(ps, v, err, errlen) != 0)
            return -1;
        *(double *)ps->dest = v;
    }
    if (first_line)
        first_line[ps - spec] = lineno;
    return 0;
}

int params_set(const param_spec *table, const char *assignment, char *err, size_t errlen)
{
    param_spec spec[CLI_MAX_ROWS];
    cli_flatten(table, false, spec, CLI_MAX_ROWS);
    char *buf = xcalloc(strlen(assignment) + 1, 1), shown[160];
    strcpy(buf, assignment);
    char *eq = strchr(buf, '=');
    int rc = -1;
    if (!eq) {
        snprintf(err, errlen, "'%s' is not of the form key=value",
                 cli_escape(assignment, shown, sizeof shown));
    } else {
        *eq = '\0';
        rc = assign(spec, trim(buf), trim(eq + 1), NULL, 0, err, errlen);
    }
    free(buf);
    return rc;
}

/* One line of a parameter file (comment cut, trimmed): a [section] header, a key = value, or a
 * refusal in why. */
static int parse_line(const param_spec *spec, char *s, int *first_line, int lineno, char *why,
                      size_t n)
{
    char shown[200];
    if (*s == '[') {
        char *close = strchr(s, ']');
        if (!close || close == s + 1 || close[1] != '\0') {
            snprintf(why, n, "'%s' is not a [section] header", cli_escape(s, shown, sizeof shown));
            return -1;
        }
        return 0;
    }
    char *eq = strchr(s, '=');
    if (!eq) {
        snprintf(why, n, "'%s' is not of the form key = value", cli_escape(s, shown, sizeof shown));
        return -1;
    }
    *eq = '\0';
    char *key = trim(s);
    if (!*key) {
        snprintf(why, n, "'= %s' has no key", cli_escape(trim(eq + 1), shown, sizeof shown));
        return -1;
    }
    return assign(spec, key, trim(eq + 1), first_line, lineno, why, n);
}

#define PARAMS_LINE_MAX 4096    /* characters of one line, comment included */

int params_load(const param_spec *table, const char *path, bool allow_missing, char *err,
                size_t errlen)
{
    param_spec spec[CLI_MAX_ROWS];
    size_t nspec = cli_flatten(table, false, spec, CLI_MAX_ROWS);
    char where[600];
    cli_escape(path, where, sizeof where);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", where, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory, not a parameter file", where);
        fclose(f);
        return -1;
    }
    int *first_line = xcalloc(nspec + 1, sizeof(int));     /* where each key was set, 0: not yet */
    char line[PARAMS_LINE_MAX + 1], why[400];
    long len;
    int lineno = 0, rc = 0;
    errno = 0;
    while (rc == 0 && (len = text_line(f, line, sizeof line, lineno == 0, why, sizeof why)) != -1) {
        lineno++;
        if (len == -2) {
            snprintf(err, errlen, "%s:%d: %s", where, lineno, why);
            rc = -1;
        } else {
            char *hash = strpbrk(line, "#;");
            if (hash)
                *hash = '\0';
            char *s = trim(line);
            if (*s && parse_line(spec, s, first_line, lineno, why, sizeof why) != 0) {
                snprintf(err, errlen, "%s:%d: %s", where, lineno, why);
                rc = -1;
            }
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", where, strerror(errno ? errno : EIO));
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && !allow_missing)
        for (size_t i = 0; i < nspec; i++)
            if (!first_line[i]) {
                snprintf(err, errlen, "%s: key '%s' (%s) is missing", where, spec[i].name,
                         spec[i].help);
                rc = -1;
                break;
            }
    free(first_line);
    return rc;
}

int params_load_named(const param_spec *spec, const char *name, char *err, size_t errlen)
{
    if (strchr(name, '/') || access(name, F_OK) == 0 || errno != ENOENT)
        return params_load(spec, name, true, err, errlen);
    char rel[512];
    snprintf(rel, sizeof rel, "lessons/params/%s", name);
    const char *path = repo_file(rel);
    if (access(path, F_OK) == 0)
        return params_load(spec, path, true, err, errlen);
    char shown[300];
    cli_escape(name, shown, sizeof shown);
    snprintf(err, errlen, "%s: no such file here, nor lessons/params/%s", shown, shown);
    return -1;
}

const char *params_path(const char *name)
{
    char rel[512];
    snprintf(rel, sizeof rel, "lessons/params/%s", name);
    return repo_file(rel);
}
