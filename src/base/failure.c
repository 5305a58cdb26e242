#include "base/failure.h"
#include "base/cli.h"
#include <stdarg.h>
#include <stdio.h>

int failure_set(failure *e, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->line, sizeof e->line, fmt, ap);
    va_end(ap);
    return e->status = status;
}

int failure_input(failure *e, const char *program, const char *fmt, ...)
{
    char msg[4096], safe[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return failure_set(e, 2, "%s: %s", program, cli_escape(msg, safe, sizeof safe));
}

int failure_print(const failure *e)
{
    if (e->line[0])
        fprintf(stderr, "%s\n", e->line);
    return e->status;
}
