/* set.c: a program's method set (set.h) and the two flags that fill it. */
#include "method/set.h"
#include <stdio.h>
#include <string.h>

void method_set_init(method_set *s)
{
    memset(s, 0, sizeof *s);
    for (; method_builtin[s->n]; s->n++)
        s->all[s->n] = method_builtin[s->n];
}

void method_set_free(method_set *s)
{
    memset(s, 0, sizeof *s);
}

const method *method_set_find(const method_set *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->all[i]->name, name) == 0)
            return s->all[i];
    return NULL;
}

int method_set_add(method_set *s, const method *m, char *err, size_t errlen)
{
    for (int i = 0; i < s->n; i++)
        if (s->all[i] == m)
            return 0;
        else if (strcmp(s->all[i]->name, m->name) == 0) {
            snprintf(err, errlen, "the method name '%s' is taken; rename the file", m->name);
            return -1;
        }
    if (s->n == METHOD_MAX) {
        snprintf(err, errlen, "at most %d methods in one run", METHOD_MAX);
        return -1;
    }
    s->all[s->n++] = m;
    s->all[s->n] = NULL;
    return 0;
}

const method *method_set_load(method_set *s, const char *path, char *err, size_t errlen)
{
    for (int i = 0; i < s->nloaded; i++)
        if (strcmp(s->loaded[i].path, path) == 0)
            return &s->loaded[i].m;
    if (s->nloaded == METHOD_MAX) {     /* only a set without its built-in methods gets here */
        snprintf(err, errlen, "at most %d methods in one run", METHOD_MAX);
        return NULL;
    }
    tableau_method *tm = &s->loaded[s->nloaded];
    if (tableau_read_file(tm, path, err, errlen) != 0)
        return NULL;
    if (method_set_add(s, &tm->m, err, errlen) != 0) {
        memset(tm, 0, sizeof *tm);
        return NULL;
    }
    s->nloaded++;
    return &tm->m;
}

int method_add_parse(const char *text, void *dest, char *why, size_t whylen)
{
    return method_set_load(dest, text, why, whylen) ? 0 : -1;
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
        const method *m = method_set_load(ma->set, text, why, whylen);
        if (!m)
            return -1;
        *ma->name = m->name;
        return 0;
    }
    if (!method_set_find(ma->set, text) && !is_word(ma->also, text)) {
        snprintf(why, whylen, "not a method");
        return -1;
    }
    *ma->name = text;
    return 0;
}

const char *method_arg_accepts(method_arg *ma)
{
    char names[METHOD_MAX * 50] = "";       /* "euler|backward-euler|..." */
    for (int i = 0; i < ma->set->n; i++) {
        if (i)
            strcat(names, "|");
        strncat(names, ma->set->all[i]->name, 48);
    }
    snprintf(
        ma->accepts, sizeof ma->accepts,
        "one of %s%s%s, or a Butcher tableau file (a path with '/' or ending in .tab); default %s",
        names, ma->also ? "|" : "", ma->also ? ma->also : "", *ma->name);
    return ma->accepts;
}
