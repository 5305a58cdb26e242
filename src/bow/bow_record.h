/* bow_record.h: one bow stroke (bow/bow.h) recorded at every step: the bridge forces, the
 * mean relative velocity, displacement and temperatures over the contact points, the friction
 * over the bowing force and the bow velocity, with the bounds and the energy balance seen on
 * the way. bow_record_sink is a bow_run sink; then what is read off the record: the slips of a
 * span of samples (regime.h) and the force drop of the first slip (Figure 7). */
#ifndef IVPLAB_BOW_RECORD_H
#define IVPLAB_BOW_RECORD_H
#include "base/budget.h"
#include "bow/bow.h"
#include <stddef.h>

typedef struct bow_record {
    const bow_model *m;     /* the model observed (not owned) */
    size_t n, cap;          /* samples recorded, room for */
    double *t;              /* time of each sample, s */
    double *bridge_u;       /* transverse bridge force, N */
    double *bridge_w;       /* torsional bridge force, N */
    double *v_mean;         /* mean relative velocity at the bow, m/s */
    double *z_mean;         /* mean bristle displacement, m */
    double *tau_mean;       /* mean contact temperature rise, K */
    double *tau_max;        /* largest contact temperature rise, K */
    double *friction;       /* friction force over bowing force f/f_b, 1 */
    double *v_b;            /* bow velocity, m/s */
    double z_absmax;        /* largest |z_j| seen, m */
    double tau_min;         /* smallest tau_j seen, K */
    double H0;              /* energy at t = 0, J */
    double residual;        /* largest |H - H0 - int (P - Q)|, J */
    double tick;            /* work units a recorded sample counts in base/budget.h, 1 */
    progress *meter;        /* ticked tick units a sample (NULL: none) */
} bow_record;

/* Room for cap samples of m (not zeroed: sample k is there once n > k); tick 1, no meter. */
void bow_record_init(bow_record *r, const bow_model *m, size_t cap);
void bow_record_free(bow_record *r);
/* bow_run's sink (ctx a bow_record): records one sample; 1 when the record is full. */
int bow_record_sink(double t, const double *x, void *ctx);
/* Slips in samples k0..k1-1 of a run (regime.h's count for a whole stroke); *first gets the
 * time of the first, s (-1 when none). */
long bow_record_slips(const bow_record *r, size_t k0, size_t k1, double *first);
/* The force drop of the first slip at t_slip: the largest force in the 2 ms before it less
 * the smallest in the 3 ms after; *fall how fast (the steepest fall over 20 us differences,
 * the measured signal's spacing in Figure 1b) between the maximum and the minimum. */
double bow_record_first_drop(const bow_record *r, double dt, double t_slip, double *fall);

#endif
