/* numfmt.h: printf's "%.Pg" and "%.Pf" of a double, the same characters, without printf's
 * multi-precision arithmetic (which costs more than bin/drop's whole solve step for step:
 * steps.tsv and first_impact.tsv hold 42,000 such numbers, spectrum.tsv 3,400 "%.4f"). */
#ifndef IVPLAB_NUMFMT_H
#define IVPLAB_NUMFMT_H
#include <stddef.h>
#include <stdio.h>

/* v as snprintf(buf, len, "%.*g", prec, v) writes it, and its length (len >= 32 holds any
 * prec <= 17). Exact: the digits come from one correctly rounded long double product
 * v 10^k (10^k exact), and where that product lies too near a rounding tie to decide, and for
 * an exponent beyond 10^+-27 or prec above 15, snprintf writes it. */
int numfmt_g(char *buf, size_t len, double v, int prec);

/* v as snprintf(buf, len, "%.*f", prec, v) writes it, and its length (len >= 32). Exact the
 * same way: the digits come from the correctly rounded long double product |v| 10^prec, and
 * snprintf writes it where that lies too near a rounding tie, where prec is above 15, and where
 * |v| 10^prec reaches 10^18. */
int numfmt_f(char *buf, size_t len, double v, int prec);

/* fmt as "%.Pg" (P one or two digits): P; 0 for any other format. */
int numfmt_g_precision(const char *fmt);

/* fmt as "%.Pf" (P one or two digits): P; -1 for any other format. */
int numfmt_f_precision(const char *fmt);

/* One line of a table: v[0..n-1] tab-separated, v[j] as fprintf's fmt[j] (a format of one
 * double) writes it, by numfmt_g where fmt[j] is "%.Pg" and numfmt_f where it is "%.Pf"; one
 * fwrite a line. */
void numfmt_row(FILE *f, const double *v, size_t n, const char *const *fmt);

#endif
