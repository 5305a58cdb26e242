#include "io/params.h"
#include "cli.h"
#include "util.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const param_spec *find(const param_spec *spec, const char *key, const param_spec **nearest)
{
    size_t best = 99;
    *nearest = NULL;
    for (const param_spec *p = spec; p->key; p++) {
        if (strcmp(p->key, key) == 0)
            return p;
        size_t d = cli_edit_distance(key, p->key);
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
    if (lo && hi)
        return 0;
    snprintf(err, errlen, "%s = %g is out of range; accepted: %c%g, %g%c %s", ps->key, v,
             (ps->open & CLI_OPEN_MIN) ? '(' : '[', ps->min, ps->max, (ps->open & CLI_OPEN_MAX) ? ')' : ']', ps->unit);
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

static int assign(const param_spec *spec, char *key, char *text, bool *seen, char *err, size_t errlen)
{
    const param_spec *near, *ps = find(spec, key, &near);
    if (!ps) {
        if (near)
            snprintf(err, errlen, "unknown key '%s'; did you mean '%s'?", key, near->key);
        else
            snprintf(err, errlen, "unknown key '%s'", key);
        return -1;
    }
    double v;
    if (cli_number(text, &v) != 0) {
        snprintf(err, errlen, "%s = '%s' is not a finite number", key, text);
        return -1;
    }
    if (params_check(ps, v, err, errlen) != 0)
        return -1;
    *ps->dest = v;
    if (seen)
        seen[ps - spec] = true;
    return 0;
}

int params_set(const param_spec *spec, const char *assignment, char *err, size_t errlen)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", assignment);
    char *eq = strchr(buf, '=');
    if (!eq) {
        snprintf(err, errlen, "'%s' is not of the form key=value", assignment);
        return -1;
    }
    *eq = '\0';
    return assign(spec, trim(buf), trim(eq + 1), NULL, err, errlen);
}

int params_load(const param_spec *spec, const char *path, bool allow_missing, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    size_t nspec = 0;
    while (spec[nspec].key)
        nspec++;
    bool seen[256] = {false};
    if (nspec > 256) {
        snprintf(err, errlen, "%s: too many keys", path);
        fclose(f);
        return -1;
    }
    char line[1024], why[300];
    int lineno = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s:%d: line longer than %zu characters", path, lineno, sizeof line - 2);
            rc = -1;
            break;
        }
        char *hash = strpbrk(line, "#;");
        if (hash)
            *hash = '\0';
        char *s = trim(line);
        if (!*s || *s == '[')
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            snprintf(err, errlen, "%s:%d: '%s' is not of the form key = value", path, lineno, s);
            rc = -1;
            break;
        }
        *eq = '\0';
        if (assign(spec, trim(s), trim(eq + 1), seen, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
            rc = -1;
            break;
        }
    }
    fclose(f);
    if (rc == 0 && !allow_missing)
        for (size_t i = 0; i < nspec; i++)
            if (!seen[i]) {
                snprintf(err, errlen, "%s: key '%s' (%s) is missing", path, spec[i].key, spec[i].help);
                return -1;
            }
    return rc;
}

const char *params_path(const char *name)
{
    char rel[512];
    snprintf(rel, sizeof rel, "lessons/params/%s", name);
    return repo_file(rel);
}
