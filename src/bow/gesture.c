#include "bow/gesture.h"
#include "base/cli.h"
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int segment(const gesture_track *tr, double t)
{
    int k = 0;
    while (k + 1 < tr->n && t >= tr->time[k + 1])
        k++;
    return k;
}

double gesture_value(const gesture_track *tr, double t)
{
    if (tr->n <= 0)
        return 0.0;
    if (t <= tr->time[0])
        return tr->value[0];
    int k = segment(tr, t);
    if (k + 1 >= tr->n)
        return tr->value[tr->n - 1];
    double s = (t - tr->time[k]) / (tr->time[k + 1] - tr->time[k]);
    return tr->value[k] + s * (tr->value[k + 1] - tr->value[k]);
}

double gesture_slope(const gesture_track *tr, double t)
{
    if (tr->n <= 1 || t < tr->time[0])
        return 0.0;
    int k = segment(tr, t);
    if (k + 1 >= tr->n)
        return 0.0;
    return (tr->value[k + 1] - tr->value[k]) / (tr->time[k + 1] - tr->time[k]);
}

int gesture_breaks(const gesture *g, double t0, double t1, double *out, int max)
{
    int m = 0;
    const gesture_track *tr[2] = {&g->velocity, &g->force};
    for (int j = 0; j < 2; j++)
        for (int k = 0; k < tr[j]->n && m < max; k++)
            if (tr[j]->time[k] > t0 && tr[j]->time[k] < t1)
                out[m++] = tr[j]->time[k];
    for (int a = 1; a < m; a++)         /* insertion sort: a handful of points */
        for (int b = a; b > 0 && out[b - 1] > out[b]; b--) {
            double x = out[b];
            out[b] = out[b - 1];
            out[b - 1] = x;
        }
    return m;
}

gesture gesture_stroke(double accel, double v_hold, double t_hold, double decel, double f_b, double x_b)
{
    gesture g;
    memset(&g, 0, sizeof g);
    double t_up = v_hold / accel;
    gesture_track *v = &g.velocity;
    v->time[0] = 0.0, v->value[0] = 0.0;
    v->time[1] = t_up, v->value[1] = v_hold;
    v->time[2] = t_up + t_hold, v->value[2] = v_hold;
    v->n = 3;
    g.duration = t_up + t_hold;
    if (decel > 0.0) {
        v->time[3] = g.duration + v_hold / decel, v->value[3] = 0.0;
        v->n = 4;
        g.duration = v->time[3];
    }
    g.force.n = 1;
    g.force.time[0] = 0.0, g.force.value[0] = f_b;
    g.position = x_b;
    return g;
}

int gesture_track_parse(const char *text, gesture_track *tr, char *why, size_t whylen)
{
    char buf[2048];
    if (strlen(text) >= sizeof buf) {
        snprintf(why, whylen, "too long");
        return -1;
    }
    strcpy(buf, text);
    gesture_track out;
    memset(&out, 0, sizeof out);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(item, ':');
        if (!colon) {
            snprintf(why, whylen, "breakpoint '%s' is not TIME:VALUE", item);
            return -1;
        }
        *colon = '\0';
        double t, x;
        if (cli_number(item, &t) != 0 || cli_number(colon + 1, &x) != 0) {
            snprintf(why, whylen, "breakpoint '%s:%s' is not two numbers", item, colon + 1);
            return -1;
        }
        if (out.n == GESTURE_MAX_POINTS) {
            snprintf(why, whylen, "more than %d breakpoints", GESTURE_MAX_POINTS);
            return -1;
        }
        if (t < 0.0 || (out.n > 0 && t <= out.time[out.n - 1])) {
            snprintf(why, whylen, "breakpoint times must be >= 0 and increasing (at %g s)", t);
            return -1;
        }
        out.time[out.n] = t;
        out.value[out.n] = x;
        out.n++;
    }
    if (out.n == 0) {
        snprintf(why, whylen, "no breakpoints");
        return -1;
    }
    *tr = out;
    return 0;
}

void gesture_steady_window(const gesture *g, double *w0, double *w1)
{
    const gesture_track *v = &g->velocity;
    double best = 0.0;
    *w0 = g->duration * 2.0 / 3.0, *w1 = g->duration;
    for (int k = 0; k < v->n; k++) {
        double a = v->time[k], b = k + 1 < v->n ? v->time[k + 1] : g->duration;
        b = fmin(b, g->duration);
        bool flat = k + 1 < v->n ? v->value[k + 1] == v->value[k] : true;
        if (flat && v->value[k] > 0.0 && b - a > best) {
            best = b - a;
            *w0 = a + (b - a) / 3.0, *w1 = b;
        }
    }
}
