/* gesture.h: the player's part of a bowed-string run ("score"), kept apart from the
 * instrument: bow velocity and bow force as breakpoints in time (piecewise linear, held
 * after the last breakpoint), and the bowing position. */
#ifndef IVPLAB_GESTURE_H
#define IVPLAB_GESTURE_H
#include <stddef.h>

#define GESTURE_MAX_POINTS 32

/* A piecewise-linear signal: value[k] at time[k], k < n, times increasing; constant before
 * the first and after the last breakpoint. */
typedef struct gesture_track {
    int n;                              /* number of breakpoints (>= 1) */
    double time[GESTURE_MAX_POINTS];    /* breakpoint times, s */
    double value[GESTURE_MAX_POINTS];   /* values at the breakpoints (unit of the track) */
} gesture_track;

typedef struct gesture {
    gesture_track velocity;     /* bow velocity v_b(t), m/s */
    gesture_track force;        /* bowing force f_b(t), N (> 0) */
    double position;            /* bow-bridge distance x_b (centre of the hair), m */
    double duration;            /* length of the stroke, s */
} gesture;

/* Value and slope of a track at t (the slope to the right of a breakpoint). */
double gesture_value(const gesture_track *tr, double t);
double gesture_slope(const gesture_track *tr, double t);
/* The breakpoint times in (t0, t1), at most max, into out; returns how many. */
int gesture_breaks(const gesture *g, double t0, double t1, double *out, int max);

/* The steady part of a stroke, [*w0, *w1] in s: the last two thirds of the longest segment
 * of the velocity track that is constant and positive (the first third left to the
 * transient), clipped to the duration; the last third of the stroke when there is none. */
void gesture_steady_window(const gesture *g, double *w0, double *w1);

/* The article's stroke (section 3.2): from rest, constant acceleration accel (m/s^2) up to
 * v_hold (m/s), hold for t_hold (s), then constant deceleration decel (m/s^2; 0: no
 * deceleration, the hold lasts to the end) back to rest; constant force f_b (N) at x_b (m).
 * The duration is the end of the deceleration, or of the hold. */
gesture gesture_stroke(double accel, double v_hold, double t_hold, double decel, double f_b, double x_b);

/* Parse "t:value,t:value,..." (s : unit) into a track; 0 on success, else -1 with a reason. */
int gesture_track_parse(const char *text, gesture_track *tr, char *why, size_t whylen);

#endif
