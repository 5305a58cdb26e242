#include "base/cli.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef __wasi__
#include <signal.h>
#endif

static const char *started;     /* the program's name, for the check of standard output at exit */

#ifndef __wasi__
/* At a successful exit: the report on standard output reached it (a full disk, the file-size
 * limit or a closed pipe is said, exit 1, not a silent loss). A failing exit has said why already.
 */
static void check_stdout(int status, void *unused)
{
    (void)unused;
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && status == 0) {
        fprintf(stderr, "%s: cannot write standard output: %s\n", started,
                errno ? strerror(errno) : "write error");
        _Exit(1);
    }
}
#endif

/* Every program starts here (cli_peek or cli_parse, before any file is opened). A write over the
 * file-size limit (ulimit -f) is then EFBIG, which the writer reports with the path and removes
 * its temporary, instead of SIGXFSZ killing the process without a word and leaving it. Ignored
 * stays ignored across exec: gnuplot and a notebook's cells get EFBIG too. */
static void start_up(const char *program)
{
    if (started)
        return;
    started = program;
#ifndef __wasi__
    on_exit(check_stdout, NULL);
    signal(SIGXFSZ, SIG_IGN);
#endif
}

/* Is s[0..] the start of a printable UTF-8 sequence (a code point from U+00A0 on)? Its length, or
 * 0. */
static size_t utf8_printable(const unsigned char *s)
{
    size_t len = s[0] >= 0xc2 && s[0] <= 0xdf   ? 2
                 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
                 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
                                                : 0;
    if (!len)
        return 0;
    unsigned long cp = s[0] & (0x7f >> len);
    for (size_t k = 1; k < len; k++) {
        if ((s[k] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[k] & 0x3f);
    }
    static const unsigned long least[] = {0, 0, 0xa0, 0x800, 0x10000};
    if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

const char *cli_escape(const char *text, char *buf, size_t n)
{
    static const char more[] = "...";
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)text;
    if (!n)
        return buf;
    while (*s) {
        char piece[8];
        size_t len = 1;
        if (*s >= 0x20 && *s < 0x7f)
            piece[0] = (char)*s, piece[1] = '\0';
        else if (*s >= 0x80 && (len = utf8_printable(s)) > 0)
            memcpy(piece, s, len), piece[len] = '\0';
        else
            len = 1, snprintf(piece, sizeof piece, "\\x%02x", *s);
        size_t plen = strlen(piece);
        if (o + plen + sizeof more > n) {
            snprintf(buf + o, n - o, "%s", o + sizeof more <= n ? more : "");
            return buf;
        }
        memcpy(buf + o, piece, plen);
        o += plen;
        s += len;
    }
    buf[o] = '\0';
    return buf;
}

_Noreturn void cli_fail(const char *program, const char *fmt, ...)
{
    /* The message may carry what a user typed or a file held: printed escaped, on one line. */
    char msg[4096], safe[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s\n", program, cli_escape(msg, safe, sizeof safe));
    exit(2);
}

const char *cli_number_error(const char *text, double *out)
{
    /* decimal notation only: [+-] digits [. digits] [e [+-] digits], nothing before or after */
    const char *p = text;
    size_t digits = 0, nonzero = 0;
    if (*p == '+' || *p == '-')
        p++;
    for (; isdigit((unsigned char)*p); p++)
        digits++, nonzero += *p != '0';
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits++, nonzero += *p != '0';
    if (digits && (*p == 'e' || *p == 'E')) {
        const char *e = ++p;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            p = e - 1;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (!digits || *p != '\0')
        return "is not a finite number in decimal notation (like 0.1, -2 or 3e-4)";
    errno = 0;
    double v = strtod(text, NULL);
    if (!isfinite(v))
        return "overflows a double (magnitude above 1.8e308)";
    if (v == 0.0 && nonzero)
        return "underflows to zero (magnitude below 4.9e-324)";
    *out = v;   /* a subnormal (ERANGE) is still the nearest double */
    return NULL;
}

int cli_number(const char *text, double *out)
{
    return cli_number_error(text, out) ? -1 : 0;
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
    const char *kind = o->kind == CLI_LONG || (o->open & CLI_WHOLE) ? "an integer" : "a number";
    if (isinf(o->min) && isinf(o->max))
        snprintf(buf, n, "%s%s%s", kind, o->unit[0] ? " in " : "", o->unit);
    else
        snprintf(buf, n, "%s in %c%s, %s%c%s%s", kind,
                 (o->open & CLI_OPEN_MIN) || isinf(o->min) ? '(' : '[', num(o->min, a, sizeof a),
                 num(o->max, b, sizeof b), (o->open & CLI_OPEN_MAX) || isinf(o->max) ? ')' : ']',
                 o->unit[0] ? " " : "", o->unit);
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
    case CLI_TABLE: buf[0] = '\0'; break;
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

size_t cli_flatten(const cli_opt *opts, bool as_flags, cli_opt *out, size_t cap)
{
    size_t n = 0;
    for (const cli_opt *o = opts; !cli_end(o); o++) {
        if (o->kind == CLI_TABLE) {
            n += cli_flatten(o->dest, as_flags, out + n, cap - n);
            continue;
        }
        if (n + 1 >= cap) {
            fprintf(stderr, "cli_flatten: more than %zu rows (CLI_MAX_ROWS)\n", cap - 1);
            abort();
        }
        out[n] = *o;
        if (o->kind != CLI_CUSTOM && o->accepts) {
            out[n].name = as_flags ? o->accepts : o->name;
            out[n].accepts = NULL;
        }
        n++;
    }
    out[n] = (cli_opt)FLAG_END;
    return n;
}

static void help(const cli_spec *s, const cli_opt *rows)
{
    printf("usage: %s [flags]%s%s\n%s\n\nflags (default in brackets):\n", s->program,
           s->positional ? " " : "", s->positional ? s->positional : "", s->summary);
    for (const cli_opt *o = rows; o->name; o++) {
        char flag[64], acc[160], def[96] = "";
        snprintf(flag, sizeof flag, "--%s%s", o->name,
                 o->kind == CLI_FLAG     ? ""
                 : o->kind == CLI_STRING ? " TEXT"
                 : o->kind == CLI_CHOICE ? " NAME"
                                         : " X");
        accepted(o, acc, sizeof acc);
        switch (o->kind) {
        /* A default outside the accepted range (or NaN) means "not given": say so, not the
         * sentinel. */
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
        case CLI_FLAG: snprintf(def, sizeof def, *(bool *)o->dest ? "[on]" : "[off]"); break;
        case CLI_CUSTOM:
        case CLI_TABLE: break;
        }
        printf("  %-22s %s%s%s%s\n", flag, o->help, def[0] ? " " : "", def,
               (o->open & CLI_REPEAT) && !strstr(o->help, "(repeatable)") ? " (repeatable)" : "");
        if (o->kind != CLI_FLAG && o->kind != CLI_STRING)
            printf("  %-22s accepts %s\n", "", acc);
        if (o->kind == CLI_FLAG && *(bool *)o->dest)
            printf("  %-22s --no-%s turns it off\n", "", o->name);
    }
    printf("  %-22s %s\n", "--help", "print this help and exit");
    printf("\nA value follows its flag as --flag VALUE or --flag=VALUE; numbers in decimal "
           "notation (0.1, 2e-3);\n"
           "a flag given twice is refused, except one marked (repeatable).\n");
    if (s->epilogue)
        printf("\n%s", s->epilogue);
}

/* Is a a flag ("--name" or "--name=value")? Its name and the name's length, and the value
 * after '=' (NULL without one). The one place both forms are told apart. */
static bool flag_split(const char *a, const char **name, size_t *len, const char **value)
{
    if (strncmp(a, "--", 2) != 0 || a[2] == '\0')
        return false;
    const char *eq = strchr(a + 2, '=');
    *name = a + 2;
    *len = eq ? (size_t)(eq - *name) : strlen(*name);
    *value = eq ? eq + 1 : NULL;
    return true;
}

const char *cli_peek(const char *program, int argc, char **argv, const char *flag)
{
    start_up(program);
    const char *found = NULL, *name, *value;
    size_t len, n = strlen(flag);
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!flag_split(argv[i], &name, &len, &value) || len != n || strncmp(name, flag, n) != 0)
            continue;
        if (found)
            cli_fail(program, "--%s is given twice; accepted: one --%s", flag, flag);
        found = value ? value : i + 1 < argc ? argv[++i] : NULL;
        if (!found)
            return NULL;    /* cli_parse says what is missing */
    }
    return found;
}

static void set(const cli_spec *s, const cli_opt *o, const char *text)
{
    char acc[160], why[160] = "";
    accepted(o, acc, sizeof acc);
    switch (o->kind) {
    case CLI_DOUBLE:
    case CLI_LONG: {
        double v;
        const char *bad = cli_number_error(text, &v);
        if (bad)
            cli_fail(s->program, "--%s '%s' %s; accepted: %s", o->name, text, bad, acc);
        if ((o->kind == CLI_LONG || (o->open & CLI_WHOLE)) && (v != floor(v) || fabs(v) > 9e15))
            cli_fail(s->program, "--%s '%s' is not a whole number; accepted: %s", o->name, text,
                     acc);
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
            cli_fail(s->program, "--%s '%s' is not accepted%s%s; accepted: %s", o->name, text,
                     why[0] ? ": " : "", why, acc);
        break;
    case CLI_FLAG:
    case CLI_TABLE: break;
    }
}

/* The row of flag name[0..len), or of --no-NAME for a flag that takes no value (*off set);
 * unknown: refused, naming the nearest flag within 3 edits. */
static const cli_opt *find_flag(const cli_spec *s, const cli_opt *rows, const char *name,
                                size_t len, bool *off)
{
    *off = false;
    for (int pass = 0; pass < 2; pass++) {
        if (pass && (len <= 3 || strncmp(name, "no-", 3) != 0))
            break;
        const char *n = pass ? name + 3 : name;
        size_t l = pass ? len - 3 : len;
        for (const cli_opt *o = rows; o->name; o++)
            if (strlen(o->name) == l && strncmp(o->name, n, l) == 0 &&
                (!pass || o->kind == CLI_FLAG)) {
                *off = pass;
                return o;
            }
    }
    const cli_opt *best = NULL;
    size_t best_d = 99;
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(len < 63 ? len : 63), name);
    for (const cli_opt *c = rows; c->name; c++) {
        size_t d = cli_edit_distance(key, c->name);
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    if (best && best_d <= 3)
        cli_fail(s->program, "unknown flag --%.*s; did you mean --%s? (see --help)", (int)len, name,
                 best->name);
    cli_fail(s->program, "unknown flag --%.*s (see --help)", (int)len, name);
}

int cli_parse(const cli_spec *s, int argc, char **argv)
{
    start_up(s->program);
    int i = 1, first_pos = -1, npos = 0;
    cli_opt rows[CLI_MAX_ROWS];
    size_t nopts = cli_flatten(s->opts, true, rows, CLI_MAX_ROWS);
    /* Held by a static as well: help and refusals exit from inside the loop, and memory still
     * reachable at exit is not a leak (LeakSanitizer agrees). */
    static char **volatile pos_held;
    char **pos = pos_held = calloc((size_t)argc + 1, sizeof *pos);
    unsigned char seen[nopts + 1];      /* how often each flag was given */
    memset(seen, 0, sizeof seen);
    if (!pos) {
        fprintf(stderr, "%s: out of memory\n", s->program);
        exit(1);
    }
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++)
                pos[npos++] = argv[i];
            break;
        }
        const char *name, *eq;
        size_t len;
        if (!flag_split(a, &name, &len, &eq)) {
            if (!s->positional)
                cli_fail(s->program,
                         "unexpected argument '%s'; this program takes only flags (see --help)", a);
            pos[npos++] = argv[i];
            continue;
        }
        if (len == 4 && strncmp(name, "help", 4) == 0) {
            help(s, rows);
            exit(0);
        }
        bool off;
        const cli_opt *o = find_flag(s, rows, name, len, &off);
        if (seen[o - rows]++ && !(o->open & CLI_REPEAT))
            cli_fail(s->program, "--%s is given twice; accepted: one --%s (see --help)", o->name,
                     o->name);
        if (o->kind == CLI_FLAG) {
            if (eq)
                cli_fail(s->program, "--%s%s takes no value, got '%s'", off ? "no-" : "", o->name,
                         eq);
            *(bool *)o->dest = !off;
            continue;
        }
        const char *val = eq ? eq : (i + 1 < argc ? argv[++i] : NULL);
        if (!val) {
            char acc[160];
            accepted(o, acc, sizeof acc);
            cli_fail(s->program, "--%s needs a value; accepted: %s", o->name, acc);
        }
        set(s, o, val);
    }
    if (npos < s->min_positional)
        cli_fail(s->program, "expected %s (see --help)",
                 s->positional ? s->positional : "no arguments");
    /* Put the positional arguments at the end of argv, in order. */
    first_pos = argc - npos;
    for (int k = 0; k < npos; k++)
        argv[first_pos + k] = pos[k];
    free(pos);
    pos_held = NULL;
    return first_pos;
}
