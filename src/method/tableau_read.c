/* tableau_read.c: a student's tableau file (the format in tableau.h) read into a method: each
 * line a row of A, a rule or the weights; A, c and the weights checked; the method named after the
 * file. A malformed file is refused with one line naming FILE:LINE and what is wrong. */
#include "method/tableau.h"
#include "base/util.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define S_MAX IVP_MAX_STAGES

typedef struct {
    const char *path;
    int line;
    char *err;
    size_t errlen;
} reader;

static int fail(reader *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(reader *r, int line, const char *fmt, ...)
{
    int n = snprintf(r->err, r->errlen, "%s:%d: ", r->path, line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->errlen)
        vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* An entry (tableau_expr.c), or -1 after fail(). */
static int number(reader *r, const char *tok, double *out)
{
    if (!tableau_expr(tok, out))
        return fail(r, r->line,
                    "'%s' is not a number (accepted: 0.25, -1/3, 1/2+sqrt(3)/6, no spaces inside)",
                    tok);
    return 0;
}

/* Split text at blanks into at most max numbers; the count, or -1 after fail(). */
static int numbers(reader *r, char *text, double *v, int max)
{
    int n = 0;
    for (char *tok = strtok(text, " \t\r"); tok; tok = strtok(NULL, " \t\r")) {
        if (n == max)
            return fail(r, r->line, "more than %d entries in a row (at most %d stages)", max, max);
        if (number(r, tok, &v[n]) != 0)
            return -1;
        n++;
    }
    return n;
}

static bool is_rule(const char *s)
{
    bool dash = false;
    for (; *s; s++) {
        if (*s == '-' || *s == '=')
            dash = true;
        else if (!strchr("+| \t\r", *s))
            return false;
    }
    return dash;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* A textbook copied from a PDF writes minus as U+2212 (UTF-8 e2 88 92): read it as '-'. */
static void ascii_minus(char *s)
{
    char *out = s;
    for (const char *in = s; *in;)
        if ((unsigned char)in[0] == 0xe2 && (unsigned char)in[1] == 0x88 &&
            (unsigned char)in[2] == 0x92) {
            *out++ = '-';
            in += 3;
        } else {
            *out++ = *in++;
        }
    *out = '\0';
}

static const char *ordinal_weights(int k)
{
    return k == 0 ? "the weights b" : "the embedded weights b-hat";
}

/* What the file holds, as read: the rows of A (as long as written), the nodes and the weights. */
typedef struct {
    double rows[S_MAX][S_MAX], c[S_MAX], w[2][S_MAX];
    int len[S_MAX];         /* entries written in row i */
    int line_of[S_MAX];     /* the file's line of row i */
    int wline[2];           /* ... of b and b-hat */
    int s, nw, nlines;      /* rows of A, rows of weights, lines read */
} parsed;

/* One line (its comment cut off): a rule, a row of A "c_i | a_i1 ...", or weights "| b_1 ...". */
static int read_line(reader *r, char *buf, parsed *pt)
{
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    ascii_minus(buf);
    char *t = trim(buf);
    if (!*t || is_rule(t))
        return 0;
    char *bar = strchr(t, '|');
    if (!bar)
        return fail(r, r->line,
                    "no '|' (a row is 'c_i | a_i1 ... a_ii', the weights '| b_1 ... b_s')");
    *bar = '\0';
    char *left = trim(t), *right = bar + 1;
    if (strchr(right, '|'))
        return fail(r, r->line, "two '|' in one row");
    if (*left) {                                    /* c_i | a_i1 ... */
        if (pt->nw)
            return fail(
                r, r->line,
                "a row of A after the weights (the weights come last, with nothing left of '|')");
        if (pt->s == S_MAX)
            return fail(r, r->line, "more than %d stages", S_MAX);
        if (number(r, left, &pt->c[pt->s]) != 0 ||
            (pt->len[pt->s] = numbers(r, right, pt->rows[pt->s], S_MAX)) < 0)
            return -1;
        pt->line_of[pt->s++] = r->line;
        return 0;
    }
    if (!pt->s)                                     /* | b_1 ... b_s */
        return fail(r, r->line, "weights before any row of A");
    if (pt->nw == 2)
        return fail(r, r->line,
                    "a third row of weights (accepted: b, and b-hat for an embedded pair)");
    pt->wline[pt->nw] = r->line;
    int n = numbers(r, right, pt->w[pt->nw], S_MAX);
    if (n < 0)
        return -1;
    if (n != pt->s)
        return fail(r, r->line, "%s have %d entries for %d stages", ordinal_weights(pt->nw), n,
                    pt->s);
    pt->nw++;
    return 0;
}

/* Every line of the open file into pt; 0, or -1 after fail(). */
static int read_file(reader *r, FILE *f, parsed *pt)
{
    char buf[1024], why[120];
    int rc = 0;
    long len;
    while (rc == 0 &&
           (len = text_line(f, buf, sizeof buf, pt->nlines == 0, why, sizeof why)) != -1) {
        r->line = ++pt->nlines;
        if (len == -2)
            return fail(r, r->line, "%s", why);
        rc = read_line(r, buf, pt);
    }
    if (rc == 0 && ferror(f)) {
        snprintf(r->err, r->errlen, "%s:%d: cannot read: %s", r->path, pt->nlines + 1,
                 strerror(errno));
        rc = -1;
    }
    return rc;
}

/* A filled in (rows shorter than s padded with 0), each c_i against its row's sum, each weight row
 * against sum = 1. */
static int check_tableau(reader *r, const parsed *pt, tableau_method *sl)
{
    const int s = pt->s;
    if (s == 0)
        return fail(r, pt->nlines ? pt->nlines : 1,
                    "empty: no tableau rows (example: lessons/methods/kutta38.tab)");
    if (pt->nw == 0)
        return fail(r, pt->nlines,
                    "no weights b after the %d rows of A (a last row '| b_1 ... b_%d')", s, s);
    for (int i = 0; i < s; i++) {
        int len = pt->len[i];
        if (len != i && len != i + 1 && len != s) {
            char full[40] = "";
            if (s > i + 1)
                snprintf(full, sizeof full, " or %d (all: fully implicit)", s);
            return fail(r, pt->line_of[i],
                        "row %d of A has %d entries; accepted: %d (explicit), %d (diagonally "
                        "implicit)%s",
                        i + 1, len, i, i + 1, full);
        }
        double sum = 0.0;
        for (int j = 0; j < s; j++) {
            sl->a[i * s + j] = j < len ? pt->rows[i][j] : 0.0;
            sum += sl->a[i * s + j];
        }
        if (fabs(sum - pt->c[i]) > TABLEAU_TOL)
            return fail(r, pt->line_of[i], "c_%d = %.6g but row %d of A sums to %.6g (off by %.3g)",
                        i + 1, pt->c[i], i + 1, sum, pt->c[i] - sum);
    }
    for (int k = 0; k < pt->nw; k++) {
        double sum = 0.0;
        for (int j = 0; j < s; j++)
            sum += pt->w[k][j];
        if (fabs(sum - 1.0) > TABLEAU_TOL)
            return fail(r, pt->wline[k], "%s sum to %.10g, not 1 (off by %.3g): not even order 1",
                        ordinal_weights(k), sum, sum - 1.0);
    }
    bool same = pt->nw == 2;
    for (int j = 0; same && j < s; j++)
        same = pt->w[0][j] == pt->w[1][j];
    if (same)
        return fail(r, pt->wline[1],
                    "b-hat equals b: no error estimate (the estimate is h times the sum of "
                    "(b_i - b-hat_i) k_i, zero at every step)");
    return 0;
}

/* The method's name: the file's name without its folder and ".tab". */
static int name_from(reader *r, const char *path, tableau_method *sl)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t nlen = strlen(base);
    if (nlen > 4 && strcmp(base + nlen - 4, ".tab") == 0)
        nlen -= 4;
    if (nlen == 0 || nlen >= sizeof sl->name || strlen(path) >= sizeof sl->path)
        return fail(r, 1, "the file's name gives no method name of 1 to %zu characters",
                    sizeof sl->name - 1);
    for (size_t i = 0; i < nlen;
         i++) /* the name is a cell of every table: a tab or newline breaks rows */
        if ((unsigned char)base[i] < 0x20 || base[i] == 0x7f)
            return fail(
                r, 1,
                "the file's name holds a control character (byte 0x%02x), which would break the "
                "rows of --tsv; rename the file",
                (unsigned char)base[i]);
    memcpy(sl->name, base, nlen);
    snprintf(sl->path, sizeof sl->path, "%s", path);
    return 0;
}

/* Read a tableau from f (closed here) into tm; path names it and its messages. */
static int read_tableau(tableau_method *tm, FILE *f, const char *path, char *err, size_t errlen)
{
    reader r = {path, 0, err, errlen};
    memset(tm, 0, sizeof *tm);
    parsed pt;
    memset(&pt, 0, sizeof pt);
    int rc = read_file(&r, f, &pt);
    fclose(f);
    if (rc != 0 || check_tableau(&r, &pt, tm) != 0 || name_from(&r, path, tm) != 0) {
        memset(tm, 0, sizeof *tm);
        return -1;
    }
    memcpy(tm->b, pt.w[0], sizeof tm->b);
    if (pt.nw == 2)
        memcpy(tm->bhat, pt.w[1], sizeof tm->bhat);
    memcpy(tm->c, pt.c, sizeof tm->c);
    tm->tab = (rk_tableau){.stages = pt.s, .a = tm->a, .b = tm->b, .c = tm->c,
                           .bhat = pt.nw == 2 ? tm->bhat : NULL};
    tm->m = (method){.name = tm->name, .label = tm->name, .order = tableau_order(&tm->tab, tm->b),
                     .stages = pt.s, .implicit = !tableau_explicit(&tm->tab), .R = rk_method_R,
                     .step = rk_method_step, .tableau = &tm->tab, .file = tm->path};
    return 0;
}

int tableau_read_file(tableau_method *tm, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s:0: cannot open: %s", path, strerror(errno));
        return -1;
    }
    return read_tableau(tm, f, path, err, errlen);
}

int tableau_read_text(tableau_method *tm, const char *name, const char *text, char *err,
                      size_t errlen)
{
    /* an empty text reads as one blank line (fmemopen takes no empty buffer) */
    size_t len = strlen(text);
    FILE *f = fmemopen(len ? (void *)text : (void *)"\n", len ? len : 1, "r");
    if (!f) {
        snprintf(err, errlen, "%s:0: cannot read the text: %s", name, strerror(errno));
        return -1;
    }
    return read_tableau(tm, f, name, err, errlen);
}

bool tableau_is_path(const char *arg)
{
    size_t n = strlen(arg);
    return strchr(arg, '/') != NULL || (n > 4 && strcmp(arg + n - 4, ".tab") == 0);
}
