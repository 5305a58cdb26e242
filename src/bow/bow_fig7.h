/* bow_fig7.h: Figure 7 of the bowed-string article, the nine first-slip transients (three
 * scales of b_tau by three mu_d, bow/bow_figures.h's fig7_* values), independent strokes
 * run over sweep.h's workers. Each is recorded (bow/bow_record.h) and what it shows sent
 * back: its first slip, that slip's force drop and steepest fall, the bristle bound and the
 * smallest temperature rise, and its bridge force every 4th step. */
#ifndef IVPLAB_BOW_FIG7_H
#define IVPLAB_BOW_FIG7_H
#include "bow/bow_figures.h"
#include "bow/bow.h"

/* Runs the nine transients on jobs workers and writes fig7.tsv and fig7_drops.tsv into dir;
 * t_slip, drop and fall (9 each, run c = 3 b + d for b_tau scale b and mu_d d) get each run's
 * first slip (s, 0: none), its force drop (N) and steepest fall (N/s); slipped the number that
 * slipped. 0, or the status with e (prog names the program): parameters the model refuses 2,
 * a failed run or file 1 (a failed sweep: e's line is empty, the sweep printed why). */
int bow_fig7_write(const char *prog, const bow_instrument *in0, const bow_figure_params *fp,
                   const char *dir, long jobs, double *t_slip, double *drop, double *fall,
                   int *slipped, failure *e);
/* Whether the model takes all nine transients' parameters (before any work or file): 0, or -1
 * with the model's reason in err. */
int bow_fig7_check(const bow_instrument *in0, const bow_figure_params *fp, char *err,
                   size_t errlen);

#endif
