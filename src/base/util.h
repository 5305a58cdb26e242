/* util.h: checked allocation and small helpers shared by every module. */
#ifndef IVPLAB_UTIL_H
#define IVPLAB_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Put before a hot function to have it built twice on x86-64, for AVX2 and for any x86-64,
 * the one to run chosen when the program starts (GCC's function multiversioning); elsewhere it
 * is built once. Both clones do the same operations in the same order (-std=c17 keeps
 * -ffp-contract off: no fused multiply-add), so they give the same bits. */
#if defined(__x86_64__) && defined(__GNUC__)
#define AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define AVX2_CLONES
#endif

/* Four doubles in the lanes of one vector (GCC's vector extension: one AVX2 register, or two
 * SSE2 ones), and the same type at any double's address (unaligned loads and stores). */
typedef double f64x4 __attribute__((vector_size(32)));
typedef double f64x4_u __attribute__((vector_size(32), aligned(8)));
/* The four doubles from p (any double's address, const or not), read or written as one f64x4. */
#define F64X4_AT(p) (*(f64x4_u *)(p))
/* The lanes of a comparison of two f64x4 (all ones where it holds, else zero), and the lanes of
 * a where m holds, of b elsewhere (a branch taken in every lane, each lane keeping its own). */
typedef long long i64x4 __attribute__((vector_size(32)));
#define F64X4_PICK(m, a, b) ((f64x4)(((i64x4)(a) & (m)) | ((i64x4)(b) & ~(m))))
/* |x| in each lane: the sign bit cleared, as fabs does. */
#define F64X4_ABS(x) ((f64x4)((i64x4)(x) & ~(i64x4)(f64x4){-0.0, -0.0, -0.0, -0.0}))

/* fmax(a, b) and fmin(a, b) for a running extreme a (never NaN), inline (at -O2 each is a call
 * into libm): b when it is beyond a or equal to it (glibc gives the second of two equal zeros),
 * a when b is NaN (a NaN term is passed over), so the same bits as fmax and fmin. */
static inline double running_max(double a, double b) { return b >= a ? b : a; }
static inline double running_min(double a, double b) { return b <= a ? b : a; }

/* Allocate n bytes, zeroed; prints "out of memory" and exits 1 on failure. */
void *xcalloc(size_t count, size_t size);
/* Room for count elements of size bytes, NOT zeroed, for a large array that is about to be written
 * whole (checked like xcalloc; freed with free). From 512 KB on it is aligned to 2 MB and offered
 * to the kernel for transparent huge pages (madvise; a no-op where they are off), so that writing
 * it takes one page fault a 2 MB, not one a 4 KB: bin/pluck's 768 KB reference took 188 faults,
 * about 0.2 ms. */
void *xmalloc_large(size_t count, size_t size);
/* p (an array of *cap elements of size bytes, or NULL) with room for at least need elements:
 * the capacity doubles (from 1024) and *cap is updated; exits when memory runs out. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);
/* Copy of a string (checked). */
char *xstrdup(const char *s);
/* printf into a new string (checked); free it. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Create directory path and its parents (like mkdir -p); 0 on success, -1 with errno. */
int mkdir_p(const char *path);
/* A file of the checkout the program was built in, e.g. "challenge.json": found by walking up
 * from the program's own folder (bin/, build/san/bin/ sit below the checkout), else relative to
 * the working directory. Each distinct relpath's answer is kept for the program's life, so two
 * answers never overwrite each other (bin/pluck --help showed pluck.ini as --challenge's default).
 */
const char *repo_file(const char *relpath);
/* Wall-clock seconds from a monotonic clock. */
double wall_seconds(void);
/* Processor seconds of the calling thread (what a computation cost, whatever else the machine
 * runs). */
double thread_seconds(void);
/* Largest absolute value of x[0..n-1] (NaN if any entry is NaN). */
double max_abs(const double *x, size_t n);
/* The median of v[0 .. n-1] (v is sorted in place); NAN when n = 0. */
double median_of(double *v, size_t n);
/* Euclidean norm of x[0..n-1]. */
double norm2(const double *x, size_t n);
/* One line of a text file into buf (n bytes: at most n - 1 characters, the newline dropped, the
 * text ended by NUL). Reading stops at the limit: a long line is never read whole. A UTF-8
 * byte-order mark opening the first line (first true) is skipped. Returns the line's length; -1
 * at the end of the file (or a read error: ferror); -2 with the reason in why for a line longer
 * than n - 1 characters or a NUL byte (naming its column). */
long text_line(FILE *f, char *buf, size_t n, bool first, char *why, size_t whylen);

#endif
