#include "cli.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void cli_fail(const char *program, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", program);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

int cli_number(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int cli_pair(const char *text, double *a, double *b)
{
    char buf[128];
    const char *comma = strchr(text, ',');
    if (!comma || (size_t)(comma - text) >= sizeof buf)
        return -1;
    memcpy(buf, text, (size_t)(comma - text));
    buf[comma - text] = '\0';
    return cli_number(buf, a) == 0 && cli_number(comma + 1, b) == 0 ? 0 : -1;
}

static const char *num(double v, char *buf, size_t n)
{
    if (isinf(v))
        snprintf(buf, n, "%s", v > 0 ? "inf" : "-inf");
    else
        snprintf(buf, n, "%g", v);
    return buf;
}

/* "(0, 10] s" */
static void range_text(const cli_opt *o, char *buf, size_t n)
{
    char a[32], b[32];
    const char *kind = o->kind == CLI_LONG ? "an integer" : "a number";
    if (isinf(o->min) && isinf(o->max))
        snprintf(buf, n, "%s%s%s", kind, o->unit[0] ? " in " : "", o->unit);
    else
        snprintf(buf, n, "%s in %c%s, %s%c%s%s", kind, (o->open & CLI_OPEN_MIN) || isinf(o->min) ? '(' : '[',
                 num(o->min, a, sizeof a), num(o->max, b, sizeof b),
                 (o->open & CLI_OPEN_MAX) || isinf(o->max) ? ')' : ']', o->unit[0] ? " " : "", o->unit);
}

static void accepted(const cli_opt *o, char *buf, size_t n)
{
    switch (o->kind) {
    case CLI_DOUBLE:
    case CLI_LONG: range_text(o, buf, n); break;
    case CLI_CHOICE: snprintf(buf, n, "one of %s", o->choices); break;
    case CLI_CUSTOM: snprintf(buf, n, "%s", o->accepts ? o->accepts : "see --help"); break;
    case CLI_STRING: snprintf(buf, n, "a non-empty text"); break;
    case CLI_FLAG: snprintf(buf, n, "no value"); break;
    }
}

size_t cli_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];
    if (la > 62 || lb > 62)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, (lb + 1) * sizeof(size_t));
    }
    return prev[lb];
}

static void help(const cli_spec *s)
{
    printf("usage: %s [flags]%s%s\n%s\n\nflags (default in brackets):\n", s->program,
           s->positional ? " " : "", s->positional ? s->positional : "", s->summary);
    for (const cli_opt *o = s->opts; o->name; o++) {
        char flag[64], acc[160], def[96] = "";
        snprintf(flag, sizeof flag, "--%s%s", o->name,
                 o->kind == CLI_FLAG ? "" : o->kind == CLI_STRING ? " TEXT" : o->kind == CLI_CHOICE ? " NAME" : " X");
        accepted(o, acc, sizeof acc);
        switch (o->kind) {
        /* A default outside the accepted range (or NaN) means "not given": say so, not the sentinel. */
        case CLI_DOUBLE: {
            double v = *(double *)o->dest;
            if (!(v >= o->min && v <= o->max))
                snprintf(def, sizeof def, "[none]");
            else
                snprintf(def, sizeof def, "[%g%s%s]", v, o->unit[0] ? " " : "", o->unit);
            break;
        }
        case CLI_LONG: {
            long v = *(long *)o->dest;
            if ((double)v < o->min || (double)v > o->max)
                snprintf(def, sizeof def, "[none]");
            else
                snprintf(def, sizeof def, "[%ld]", v);
            break;
        }
        case CLI_STRING:
        case CLI_CHOICE: {
            const char *v = *(const char **)o->dest;
            snprintf(def, sizeof def, "[%s]", v ? v : "none");
            break;
        }
        case CLI_FLAG: snprintf(def, sizeof def, "[off]"); break;
        case CLI_CUSTOM: break;
        }
        printf("  %-22s %s %s\n", flag, o->help, def);
        if (o->kind != CLI_FLAG && o->kind != CLI_STRING)
            printf("  %-22s accepts %s\n", "", acc);
    }
    printf("  %-22s %s\n", "--help", "print this help and exit");
    if (s->epilogue)
        printf("\n%s", s->epilogue);
}

static void set(const cli_spec *s, const cli_opt *o, const char *text)
{
    char acc[160], why[160] = "";
    accepted(o, acc, sizeof acc);
    switch (o->kind) {
    case CLI_DOUBLE:
    case CLI_LONG: {
        double v;
        if (cli_number(text, &v) != 0)
            cli_fail(s->program, "--%s '%s' is not a finite number; accepted: %s", o->name, text, acc);
        if (o->kind == CLI_LONG && (v != floor(v) || fabs(v) > 9e15))
            cli_fail(s->program, "--%s '%s' is not a whole number; accepted: %s", o->name, text, acc);
        if (v < o->min || v > o->max || ((o->open & CLI_OPEN_MIN) && v == o->min) ||
            ((o->open & CLI_OPEN_MAX) && v == o->max))
            cli_fail(s->program, "--%s %s is out of range; accepted: %s", o->name, text, acc);
        if (o->kind == CLI_DOUBLE)
            *(double *)o->dest = v;
        else
            *(long *)o->dest = (long)v;
        break;
    }
    case CLI_STRING:
        if (!text[0])
            cli_fail(s->program, "--%s is empty; accepted: %s", o->name, acc);
        *(const char **)o->dest = text;
        break;
    case CLI_CHOICE: {
        size_t n = strlen(text);
        for (const char *c = o->choices; c && *c;) {
            const char *bar = strchr(c, '|');
            size_t len = bar ? (size_t)(bar - c) : strlen(c);
            if (len == n && strncmp(c, text, n) == 0) {
                *(const char **)o->dest = text;
                return;
            }
            c = bar ? bar + 1 : c + len;
        }
        cli_fail(s->program, "--%s '%s' is not known; accepted: %s", o->name, text, acc);
    }
    case CLI_CUSTOM:
        if (o->parse(text, o->dest, why, sizeof why) != 0)
            cli_fail(s->program, "--%s '%s' is not accepted%s%s; accepted: %s", o->name, text, why[0] ? ": " : "",
                     why, acc);
        break;
    case CLI_FLAG: break;
    }
}

int cli_parse(const cli_spec *s, int argc, char **argv)
{
    int i = 1, first_pos = -1, npos = 0;
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++)
                pos[npos++] = argv[i];
            break;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            if (!s->positional)
                cli_fail(s->program, "unexpected argument '%s'; this program takes only flags (see --help)", a);
            pos[npos++] = argv[i];
            continue;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        if (len == 4 && strncmp(name, "help", 4) == 0) {
            help(s);
            exit(0);
        }
        const cli_opt *o = s->opts, *best = NULL;
        size_t best_d = 99;
        for (; o->name; o++) {
            if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
                break;
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)(len < 63 ? len : 63), name);
            size_t d = cli_edit_distance(key, o->name);
            if (d < best_d) {
                best_d = d;
                best = o;
            }
        }
        if (!o->name) {
            if (best && best_d <= 3)
                cli_fail(s->program, "unknown flag --%.*s; did you mean --%s? (see --help)", (int)len, name, best->name);
            cli_fail(s->program, "unknown flag --%.*s (see --help)", (int)len, name);
        }
        if (o->kind == CLI_FLAG) {
            if (eq)
                cli_fail(s->program, "--%s takes no value, got '%s'", o->name, eq + 1);
            *(bool *)o->dest = true;
            continue;
        }
        const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!val) {
            char acc[160];
            accepted(o, acc, sizeof acc);
            cli_fail(s->program, "--%s needs a value; accepted: %s", o->name, acc);
        }
        set(s, o, val);
    }
    if (npos < s->min_positional)
        cli_fail(s->program, "expected %s (see --help)", s->positional ? s->positional : "no arguments");
    /* Put the positional arguments at the end of argv, in order. */
    first_pos = argc - npos;
    for (int k = 0; k < npos; k++)
        argv[first_pos + k] = pos[k];
    free(pos);
    return first_pos;
}
