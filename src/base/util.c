#include "base/util.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>
#ifndef __wasi__     /* the page explorers' build (wasm32-wasi) has no mmap */
#include <sys/mman.h>
#endif

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "out of memory (asked for %zu x %zu bytes)\n", count, size);
        exit(1);
    }
    return p;
}

void *xmalloc_large(size_t count, size_t size)
{
    const size_t huge = (size_t)2 << 20;
    if (size && count > SIZE_MAX / size) {
        fprintf(stderr, "out of memory (asked for %zu x %zu bytes)\n", count, size);
        exit(1);
    }
    size_t n = count * size;
    if (n < huge / 4)
        return xcalloc(count, size);
    size_t whole = (n + huge - 1) / huge * huge;       /* aligned_alloc: a multiple of huge */
    void *p = whole >= n ? aligned_alloc(huge, whole) : NULL;
    if (!p) {
        fprintf(stderr, "out of memory (asked for %zu x %zu bytes)\n", count, size);
        exit(1);
    }
#ifdef MADV_HUGEPAGE
    (void)madvise(p, whole, MADV_HUGEPAGE);     /* only advice: EINVAL where THP is off */
#endif
    return p;
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * size);
    if (!q) {
        fprintf(stderr, "out of memory (asked for %zu x %zu bytes)\n", c, size);
        exit(1);
    }
    *cap = c;
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xcalloc(n, 1);
    memcpy(p, s, n);
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = xcalloc((size_t)(n > 0 ? n : 0) + 1, 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

int mkdir_p(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double thread_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median_of(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof(double), by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double max_abs(const double *x, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]))
            return NAN;
        if (fabs(x[i]) > m)
            m = fabs(x[i]);
    }
    return m;
}

double norm2(const double *x, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrt(s);
}

/* Where relpath is: beside the program (up to four folders up), else relative. */
static void locate(const char *relpath, char *out, size_t outlen)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        for (int up = 0; up < 4; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = '\0';
            snprintf(out, outlen, "%s/%s", exe, relpath);
            if (access(out, R_OK) == 0)
                return;
        }
    }
    snprintf(out, outlen, "%s", relpath);
}

const char *repo_file(const char *relpath)
{
    static struct {
        char *rel;          /* the relpath asked for */
        char *path;         /* where it was found */
    } seen[32];
    static size_t nseen;
    for (size_t i = 0; i < nseen; i++)
        if (strcmp(seen[i].rel, relpath) == 0)
            return seen[i].path;
    static char spare[PATH_MAX + 256];  /* once 32 distinct files were asked for: shared */
    locate(relpath, spare, sizeof spare);
    if (nseen == sizeof seen / sizeof seen[0])
        return spare;
    seen[nseen].rel = xstrdup(relpath);
    seen[nseen].path = xstrdup(spare);
    return seen[nseen++].path;
}

long text_line(FILE *f, char *buf, size_t n, bool first, char *why, size_t whylen)
{
    size_t len = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (len + 1 >= n) {
            snprintf(why, whylen, "line longer than %zu characters", n - 1);
            return -2;
        }
        if (c == 0) {
            snprintf(why, whylen, "a NUL byte at column %zu (a binary file?), not text", len + 1);
            return -2;
        }
        buf[len++] = (char)c;
    }
    if (c == EOF && len == 0)
        return -1;
    buf[len] = '\0';
    if (first && len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
        len -= 3;
        memmove(buf, buf + 3, len + 1);
    }
    return (long)len;
}
