/* table.h: the tables programs print: aligned columns for people, or with --tsv
 * tab-separated values with a header row, for tests, gnuplot and pipes. */
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
} table;

/* Start a table with the named columns (NULL-terminated) and print its header. */
void table_begin(table *t, FILE *f, int tsv, ...);   /* int: va_start needs a promoted type */
/* Add one cell to the current row (printf format); the row ends after the last column. */
void table_cell(table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The cell of the number v (printf format fmt, one double) when ok, else the word ("none", "-"). */
void table_cell_or(table *t, bool ok, const char *fmt, double v, const char *word);

#endif
