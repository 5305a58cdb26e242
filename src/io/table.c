#include "io/table.h"
#include <stdarg.h>
#include <string.h>

void table_begin(table *t, FILE *f, int mode, ...)
{
    va_list ap;
    memset(t, 0, sizeof *t);
    t->f = f;
    t->tsv = mode == TABLE_TSV;
    va_start(ap, mode);
    bool first = true;
    for (const char *name; (name = va_arg(ap, const char *)) && t->ncol < TABLE_MAX_COLS; t->ncol++) {
        bool wide = name[0] == '+';
        name += wide;
        t->hidden[t->ncol] = wide && mode == TABLE_HUMAN;
        int w = (int)strlen(name);
        t->width[t->ncol] = w < 12 ? 12 : w;
        if (t->hidden[t->ncol])
            continue;
        if (t->tsv)
            fprintf(f, "%s%s", first ? "" : "\t", name);
        else
            fprintf(f, "%s%*s", first ? "" : "  ", t->width[t->ncol], name);
        first = false;
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
    int shown_before = 0;
    for (int c = 0; c < t->col; c++)
        shown_before += !t->hidden[c];
    if (t->hidden[t->col])
        ;
    else if (t->tsv)
        fprintf(t->f, "%s%s", shown_before ? "\t" : "", buf);
    else
        fprintf(t->f, "%s%*s", shown_before ? "  " : "", t->width[t->col], buf);
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

void table_write_kv(FILE *f, bool header, const table_kv *rows, size_t n)
{
    if (header)
        fprintf(f, "key\tvalue\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\t", rows[i].key);
        if (rows[i].text)
            fputs(rows[i].text, f);
        else
            fprintf(f, rows[i].fmt, rows[i].value);
        fputc('\n', f);
    }
}
