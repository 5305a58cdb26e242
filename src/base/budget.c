#include "base/budget.h"
#include "base/util.h"
#include "base/failure.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

void budget_bytes_text(char *buf, size_t n, double bytes)
{
    const char *units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    int u = 0;
    while (bytes >= 1000.0 && u < 5)
        bytes /= 1000.0, u++;
    snprintf(buf, n, "%.3g %s", bytes, units[u]);
}

void budget_init(budget *b, const char *program, const char *unit, double cap, const char *from)
{
    memset(b, 0, sizeof *b);
    b->program = program;
    b->unit = unit;
    b->cap = cap;
    b->from = from;
    char out[32], mem[32];
    budget_bytes_text(out, sizeof out, BUDGET_OUT_CAP);
    budget_bytes_text(mem, sizeof mem, BUDGET_MEM_CAP);
    snprintf(b->help, sizeof b->help,
             "run work estimated above the caps (%.3g %s, %s written, %s of memory; the estimate "
             "comes from %s)",
             cap, unit, out, mem, from);
}

/* ---- the progress meter ---- */

void budget_meter(progress *meter, const char *label, const char *unit, double total, bool always)
{
    *meter = (progress){.label = label,
                        .unit = unit,
                        .total = total,
                        .t0 = wall_seconds(),
                        .last = -1.0,
                        .tenth = -1,
                        .always = always,
                        .active = total > 0};
}

static void clock_text(char *buf, size_t n, double s)
{
    long t = lround(s);
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

static void count_text(const progress *meter, char *buf, size_t n, double v)
{
    if (meter->total < 1e6)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.3g", v);
}

static void draw(progress *meter, bool final)
{
    bool tty = isatty(2);
    double now = wall_seconds(), el = now - meter->t0;
    double frac = meter->total > 0 ? meter->done / meter->total : 1.0;
    if (!final && frac > 0.999)
        frac = 0.999;       /* the estimate was low: never claim the end before it */
    if (final)
        frac = 1.0;
    char bar[31], elapsed[32], eta[32], end[48] = "", done[32], total[32];
    int fill = (int)(30 * frac);
    for (int k = 0; k < 30; k++)
        bar[k] = k < fill ? '#' : '.';
    bar[30] = 0;
    clock_text(elapsed, sizeof elapsed, el);
    if (frac > 0) {
        double left = el / frac * (1.0 - frac);
        clock_text(eta, sizeof eta, left);
        time_t at = time(NULL) + (time_t)lround(left);
        struct tm tm;
        if (!final && localtime_r(&at, &tm))
            strftime(end, sizeof end, " (ends about %H:%M:%S)", &tm);
    } else {
        snprintf(eta, sizeof eta, "?");
    }
    count_text(meter, done, sizeof done, final ? meter->total : fmin(meter->done, meter->total));
    count_text(meter, total, sizeof total, meter->total);
    fprintf(stderr, "%s%s [%s] %s/%s %s %3.0f%%  elapsed %s  ETA %s%s%s", tty ? "\r" : "",
            meter->label, bar, done, total, meter->unit, 100.0 * frac, elapsed, eta, end,
            tty && !final ? "" : "\n");
    meter->shown = true;
    meter->last = now;
}

/* stderr may carry the progress line: a terminal, or a file that is not stdout's (a line in a
 * table redirected with 2>&1 would break it) */
static bool progress_ok(void)
{
    if (isatty(2))
        return true;
    struct stat a, b;
    if (fstat(1, &a) != 0 || fstat(2, &b) != 0)
        return true;
    return a.st_dev != b.st_dev || a.st_ino != b.st_ino;
}

static void poll_meter(progress *meter)
{
    double el = wall_seconds() - meter->t0;
    if (meter->silent || (!meter->always && el < BUDGET_QUIET_S) || !progress_ok())
        return;
    if (isatty(2)) {
        if (meter->last < 0 || wall_seconds() - meter->last >= 0.25)
            draw(meter, false);
        return;
    }
    int tenth = meter->total > 0 ? (int)(10 * fmin(meter->done / meter->total, 0.999)) : 9;
    if (tenth != meter->tenth) {
        meter->tenth = tenth;
        draw(meter, false);
    }
}

void budget_tick(progress *meter, double units)
{
    if (!meter || !meter->active)
        return;
    meter->done += units;
    /* the clock is read every 256th call, or at once for a large share of the work */
    if ((++meter->calls & 255) == 0 || units * 1000.0 >= meter->total)
        poll_meter(meter);
}

int budget_tick_sink(long k, double t, const double *y, void *ctx)
{
    (void)t, (void)y;
    if (k > 0)
        budget_tick(ctx, 1.0);
    return 0;
}

void budget_finish(progress *meter)
{
    if (!meter)
        return;
    if (meter->active && (meter->shown || meter->always) && progress_ok())
        draw(meter, true);
    meter->active = false;
}

void budget_stop(progress *meter)
{
    if (!meter)
        return;
    if (meter->active && meter->shown)
        draw(meter, false), fputs(isatty(2) ? "\n" : "", stderr);
    meter->active = false;
}

long budget_stride(long n)
{
    return n > BUDGET_ROWS ? (n + BUDGET_ROWS - 1) / BUDGET_ROWS : 1;
}

/* ---- the check ---- */

int budget_check(budget *b, failure *e)
{
    bool over_work = b->work > b->cap, over_out = b->bytes_out > BUDGET_OUT_CAP,
         over_mem = b->bytes_mem > BUDGET_MEM_CAP;
    if ((over_work || over_out || over_mem) && !b->allow_long) {
        char out[32], mem[32], caps[160] = "", cap[48];
        budget_bytes_text(out, sizeof out, b->bytes_out);
        budget_bytes_text(mem, sizeof mem, b->bytes_mem);
        if (over_work) {
            snprintf(cap, sizeof cap, "%.3g %s", b->cap, b->unit);
            strcat(caps, cap);
        }
        if (over_out) {
            budget_bytes_text(cap, sizeof cap, BUDGET_OUT_CAP);
            snprintf(caps + strlen(caps), sizeof caps - strlen(caps), "%s%s written",
                     caps[0] ? ", " : "", cap);
        }
        if (over_mem) {
            budget_bytes_text(cap, sizeof cap, BUDGET_MEM_CAP);
            snprintf(caps + strlen(caps), sizeof caps - strlen(caps), "%s%s of memory",
                     caps[0] ? ", " : "", cap);
        }
        return failure_set(e, 2,
                           "%s: %s ask for an estimated %.3g %s, %s written and %s of memory, "
                           "above the cap of %s; "
                           "accepted: smaller values, or --allow-long to run it anyway",
                           b->program, b->from, b->work, b->unit, out, mem, caps);
    }
    budget_meter(&b->meter, b->program, b->unit, b->work, false);
    b->meter.silent = b->work < BUDGET_LONG * b->cap;
    return 0;
}
