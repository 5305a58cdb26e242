/* tableau_expr.c: an entry of a tableau file, a number or a short expression without spaces:
 * 0.25, -1/3, 1/2+sqrt(3)/6 (tableau.h). A small recursive-descent parser:
 * expr = term {(+|-) term}; term = unary {(*|/) unary}; unary = (+|-) unary | primary;
 * primary = decimal | ( expr ) | sqrt( expr ). */
#include "method/tableau.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double expr(const char **p, bool *ok);

static double primary(const char **p, bool *ok)
{
    const char *s = *p;
    if (*s == '(') {
        *p = s + 1;
        double v = expr(p, ok);
        if (**p != ')')
            *ok = false;
        else
            (*p)++;
        return v;
    }
    if (strncmp(s, "sqrt(", 5) == 0) {
        *p = s + 4;
        double v = primary(p, ok);
        if (v < 0)
            *ok = false;
        return sqrt(v);
    }
    /* a decimal: digits, a point, digits, an exponent (no hex, inf or nan) */
    const char *q = s;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q == '.')
        for (q++; isdigit((unsigned char)*q);)
            q++;
    if (q == s || (q == s + 1 && *s == '.')) {
        *ok = false;
        return 0.0;
    }
    if (*q == 'e' || *q == 'E') {
        const char *e = q + 1;
        if (*e == '+' || *e == '-')
            e++;
        if (isdigit((unsigned char)*e)) {
            while (isdigit((unsigned char)*e))
                e++;
            q = e;
        }
    }
    char buf[64];
    if ((size_t)(q - s) >= sizeof buf) {
        *ok = false;
        return 0.0;
    }
    memcpy(buf, s, (size_t)(q - s));
    buf[q - s] = '\0';
    *p = q;
    return strtod(buf, NULL);
}

static double unary(const char **p, bool *ok)
{
    if (**p == '-' || **p == '+') {
        double sign = **p == '-' ? -1.0 : 1.0;
        (*p)++;
        return sign * unary(p, ok);
    }
    return primary(p, ok);
}

static double term(const char **p, bool *ok)
{
    double v = unary(p, ok);
    while (*ok && (**p == '*' || **p == '/')) {
        char op = *(*p)++;
        double u = unary(p, ok);
        v = op == '*' ? v * u : v / u;
    }
    return v;
}

static double expr(const char **p, bool *ok)
{
    double v = term(p, ok);
    while (*ok && (**p == '+' || **p == '-')) {
        char op = *(*p)++;
        double u = term(p, ok);
        v = op == '+' ? v + u : v - u;
    }
    return v;
}


bool tableau_expr(const char *text, double *out)
{
    const char *p = text;
    bool ok = true;
    double v = expr(&p, &ok);
    if (!ok || *p != '\0' || !isfinite(v))
        return false;
    *out = v;
    return true;
}
