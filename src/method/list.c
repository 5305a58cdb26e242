/* list.c: the method table. A built-in method is its file in src/method/, its extern in method.h
 * and one line here; a student's method is a tableau file (method/tableau.h) that --add-method or
 * --method appends at run time. The lessons loop over method_all and their figures take their
 * series from the data, so either kind then appears in every table and figure. */
#include "method/method.h"
#include "method/tableau.h"
#include <stdio.h>
#include <string.h>

const method *method_all[METHOD_MAX + 1] = {
    &method_euler, &method_backward_euler, &method_trapezoid, &method_heun, &method_rk4, &method_leapfrog, NULL,
};

const method *method_find(const char *name)
{
    for (int i = 0; method_all[i]; i++)
        if (strcmp(method_all[i]->name, name) == 0)
            return method_all[i];
    return NULL;
}

const char *method_names(void)
{
    static char buf[METHOD_MAX * 50];
    buf[0] = '\0';
    for (int i = 0; method_all[i]; i++) {
        if (i)
            strcat(buf, "|");
        strncat(buf, method_all[i]->name, 48);
    }
    return buf;
}

int method_register(const method *m, char *err, size_t errlen)
{
    int n = 0;
    for (; method_all[n]; n++)
        if (method_all[n] == m)
            return 0;
        else if (strcmp(method_all[n]->name, m->name) == 0) {
            snprintf(err, errlen, "the method name '%s' is taken; rename the file", m->name);
            return -1;
        }
    if (n == METHOD_MAX) {
        snprintf(err, errlen, "at most %d methods in one run", METHOD_MAX);
        return -1;
    }
    method_all[n] = m;
    method_all[n + 1] = NULL;
    return 0;
}

/* Load a file and add its method; 0 or -1 with why. */
static const method *load_and_register(const char *path, char *why, size_t whylen)
{
    const method *m = tableau_load(path, why, whylen);
    if (m && method_register(m, why, whylen) != 0)
        return NULL;
    return m;
}

int method_add_parse(const char *text, void *dest, char *why, size_t whylen)
{
    (void)dest;
    return load_and_register(text, why, whylen) ? 0 : -1;
}

static bool is_word(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *c = list; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, w, n) == 0)
            return true;
        c = bar ? bar + 1 : c + len;
    }
    return false;
}

int method_arg_parse(const char *text, void *dest, char *why, size_t whylen)
{
    method_arg *ma = dest;
    if (tableau_is_path(text)) {
        const method *m = load_and_register(text, why, whylen);
        if (!m)
            return -1;
        *ma->name = m->name;
        return 0;
    }
    if (!method_find(text) && !is_word(ma->also, text)) {
        snprintf(why, whylen, "not a method");
        return -1;
    }
    *ma->name = text;
    return 0;
}

const char *method_arg_accepts(method_arg *ma)
{
    snprintf(ma->accepts, sizeof ma->accepts,
             "one of %s%s%s, or a Butcher tableau file (a path with '/' or ending in .tab); default %s", method_names(),
             ma->also ? "|" : "", ma->also ? ma->also : "", *ma->name);
    return ma->accepts;
}
