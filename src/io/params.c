#include "io/params.h"
#include "cli.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];
    if (la > 62 || lb > 62)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t s = prev[j - 1] + (a[i - 1] != b[j - 1]), d = prev[j] + 1, n = cur[j - 1] + 1;
            cur[j] = s < d ? (s < n ? s : n) : (d < n ? d : n);
        }
        memcpy(prev, cur, (lb + 1) * sizeof(size_t));
    }
    return prev[lb];
}

static const param_spec *find(const param_spec *spec, const char *key, const param_spec **nearest)
{
    size_t best = 99;
    *nearest = NULL;
    for (const param_spec *p = spec; p->key; p++) {
        if (strcmp(p->key, key) == 0)
            return p;
        size_t d = distance(key, p->key);
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
    static char out[PATH_MAX + 64];
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        /* Walk up from the program's folder: bin/ or build/san/bin/ sit below the checkout. */
        for (int up = 0; up < 4; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = '\0';
            snprintf(out, sizeof out, "%s/lessons/params/%s", exe, name);
            if (access(out, R_OK) == 0)
                return out;
        }
    }
    snprintf(out, sizeof out, "lessons/params/%s", name);
    return out;
}
