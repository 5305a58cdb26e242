#include "io/table.h"
#include <stdarg.h>
#include <string.h>

void table_begin(table *t, FILE *f, int tsv, ...)
{
    va_list ap;
    memset(t, 0, sizeof *t);
    t->f = f;
    t->tsv = tsv != 0;
    va_start(ap, tsv);
    for (const char *name; (name = va_arg(ap, const char *)) && t->ncol < TABLE_MAX_COLS; t->ncol++) {
        int w = (int)strlen(name);
        t->width[t->ncol] = w < 12 ? 12 : w;
        if (tsv)
            fprintf(f, "%s%s", t->ncol ? "\t" : "", name);
        else
            fprintf(f, "%s%*s", t->ncol ? "  " : "", t->width[t->ncol], name);
    }
    va_end(ap);
    fputc('\n', f);
}

void table_cell(table *t, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (t->tsv)
        fprintf(t->f, "%s%s", t->col ? "\t" : "", buf);
    else
        fprintf(t->f, "%s%*s", t->col ? "  " : "", t->width[t->col], buf);
    if (++t->col == t->ncol) {
        fputc('\n', t->f);
        t->col = 0;
    }
}

void table_cell_or(table *t, bool ok, const char *fmt, double v, const char *word)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    table_cell(t, "%s", ok ? buf : word);
}
