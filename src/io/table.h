/* table.h: the tables programs print: aligned columns for people, or with --tsv
 * tab-separated values with a header row, for tests, gnuplot and pipes. A column whose name
 * starts with '+' is a wide one: in the TSV (named without the '+') and in TABLE_WIDE, left out
 * of the human table so that it fits a projector (100 columns). */
#ifndef IVPLAB_TABLE_H
#define IVPLAB_TABLE_H
#include <stdbool.h>
#include <stdio.h>

#define TABLE_MAX_COLS 32

typedef struct table {
    FILE *f;                        /* where rows go */
    bool tsv;                       /* tab-separated instead of aligned */
    int ncol;                       /* number of columns */
    int col;                        /* next column of the current row */
    int width[TABLE_MAX_COLS];      /* aligned column widths, characters */
    bool hidden[TABLE_MAX_COLS];    /* a wide column left out of this (human) table */
} table;

/* The modes of table_begin: aligned without the wide columns, TSV, aligned with all of them. */
enum { TABLE_HUMAN = 0, TABLE_TSV = 1, TABLE_WIDE = 2 };

/* The mode of a program's table from its --tsv and --wide flags. */
static inline int table_mode(bool tsv, bool wide)
{
    return tsv ? TABLE_TSV : wide ? TABLE_WIDE : TABLE_HUMAN;
}

/* Start a table with the named columns (NULL-terminated) and print its header; mode is
 * TABLE_HUMAN (or false), TABLE_TSV (or true) or TABLE_WIDE. */
void table_begin(table *t, FILE *f, int mode, ...);   /* int: va_start needs a promoted type */
/* Add one cell to the current row (printf format); the row ends after the last column. */
void table_cell(table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The cell of the number v (printf format fmt, one double) when ok, else the word ("none", "-"). */
void table_cell_or(table *t, bool ok, const char *fmt, double v, const char *word);

/* One row of a key/value file (a lesson's summary.tsv): the key and its value, a number printed
 * with fmt (one double; a count as "%.0f") or, when text is not NULL, that text. */
typedef struct table_kv {
    const char *key;
    const char *fmt;
    double value;
    const char *text;
} table_kv;

/* A row of a number, and a row of text. */
#define TABLE_KV(KEY, FMT, VALUE) {.key = (KEY), .fmt = (FMT), .value = (VALUE)}
#define TABLE_KV_TEXT(KEY, TEXT) {.key = (KEY), .text = (TEXT)}

/* The n rows "key<TAB>value", after the header row "key<TAB>value" when header is true. */
void table_write_kv(FILE *f, bool header, const table_kv *rows, size_t n);

#endif
