/* stages.h: what happens inside one step, for the lecture's "inside one Runge-Kutta step"
 * figure: where each stage of a Runge-Kutta method (explicit or diagonally implicit) samples F,
 * the state it samples at and the slope it finds there, and the step the weighted slopes make. */
#ifndef IVPLAB_STAGES_H
#define IVPLAB_STAGES_H
#include "method/method.h"
#include <stdio.h>

/* Take k steps of h with m from (t0, y0), then open step k + 1 and write it to f as TSV with a
 * header: one row a stage (stage number, t, c_i, b_i, the stage state y_1..y_n and its slope
 * F_1..F_n, the method's label), and a row "step" with (t_k + h, y_{k+1}) and the slope of the whole step
 * (y_{k+1} - y_k) / h. A method without a tableau (leapfrog) gets rows "start" and "end": F at
 * both ends of the step. Rows "from" and "step" bracket the step. 0 on success; nonzero with the reason in why. */
int step_stages_write(const method *m, const ivp *p, double t0, const double *y0, double h, long k, FILE *f,
                      char *why, size_t whylen);

#endif
