/* ball_model.h: a ball dropped on a damped oscillator (lecture "A Ball on a Damped Oscillator").
 *     m1 u1'' = -K u1 - R u1' - f_c,      m2 u2'' = -m2 g + f_c,
 * with the Hertz contact f_c = kc delta^(3/2) (1 + lambda delta'), delta = u1 - u2, while
 * delta > 0 and 1 + lambda delta' > 0, else 0. State y = (u1, u1', u2, u2'); up is positive,
 * u2 is the ball's height above m1's resting top. K and R are tuned so that m1 alone rings
 * at f0 with the 60 dB decay time T60: omega0 = 2 pi f0, sigma0 = 6 ln 10 / T60,
 * K = m1 omega0^2, R = 2 m1 sigma0.
 *
 * Also here: the impact detector for a fixed-step run (from the samples) and the rhythm
 * comparison of two impact lists. No GSL, no SUNDIALS: the page explorers (src/wasm/) build
 * this as it is; the adaptive run is in ball.h. */
#ifndef IVPLAB_BALL_MODEL_H
#define IVPLAB_BALL_MODEL_H
#include "io/params.h"
#include "problem/ivp.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct ball {
    double m1;              /* oscillator mass, kg */
    double m2;              /* ball mass, kg */
    double K;               /* oscillator spring, N/m */
    double R;               /* oscillator damper, kg/s */
    double kc;              /* Hertz contact stiffness, N/m^(3/2) */
    double lambda;          /* contact loss (Hunt-Crossley), s/m */
    double g;               /* gravity, m/s^2 */
    double omega0;          /* lossless angular frequency of m1 alone, rad/s */
    double sigma0;          /* decay rate of m1's envelope, 1/s */
} ball;

/* Everything a ball lesson reads from lessons/params/ball.ini (one table for both lessons). */
typedef struct ball_settings {
    double m1, m2;          /* masses, kg */
    double h0;              /* drop height of the ball (at rest), m */
    double f0;              /* pitch of m1 alone, Hz */
    double t60;             /* 60 dB decay time of m1 alone, s */
    double kc;              /* contact stiffness, N/m^(3/2) */
    double lambda;          /* contact loss, s/m */
    double g;               /* gravity, m/s^2 */
    double T;               /* duration of a run, s */
    double rtol;            /* CVODE relative tolerance */
    double atol;            /* CVODE absolute tolerance, m and m/s */
    double max_step;        /* CVODE largest step, s */
    double fs_audio;        /* audio rate: reference samples, spectrum, WAV, Hz */
    double fs_mid, fs_low;  /* the two lower rates of the RK4 rhythm runs, Hz */
    double dense_rate;      /* sampling of the dense window around the first impact, Hz */
    double window_before;   /* dense window before the first impact's centre, s */
    double window_after;    /* dense window after it, s */
    double blowup; /* a fixed-step run has blown up when max |y_i| exceeds this, m or m/s */
    double wav_peak;        /* the reference run's peak in the WAVs, of full scale 1 */
    double rhythm_impacts;  /* how many leading impacts a rhythm is judged on (0: every impact the
                               reference is sure of, its horizon) */
    double keep_ms;         /* rhythm kept: each of those starts within this of the reference, ms */
    double lose_ms;         /* rhythm lost: one of them off by more than this, or missing, ms */
    double check_tol;       /* the reference is checked against one at rtol, atol times this */
    double hear_abs_ms;     /* what a listener hears as a shifted impact: this, ms, ... */
    double hear_rel; /* ... or this fraction of the interval before it, whichever is larger */
} ball_settings;

/* The keys of ball.ini, each declared once (io/params.h) and bound to a field of a ball_settings,
 * in the groups the programs take as flags (FLAG_TABLE): model, the model and the run's length
 * (bin/drop and bin/audiorate); cvode, the adaptive run (bin/drop); rhythm, the fixed-step runs'
 * judges (bin/audiorate); rest, the file only. all: every key (BALL_NPARAMS). */
#define BALL_NPARAMS 26
typedef struct ball_params {
    param_spec model[10], cvode[4], rhythm[7], rest[9];
    param_spec all[5];
} ball_params;
void ball_params_bind(ball_settings *s, ball_params *p);

/* The model from the settings (K and R from f0, T60 and m1). */
ball ball_from_settings(const ball_settings *s);
/* The problem for b (b must outlive it): dim 4, analytic Jacobian, energy. */
ivp ball_ivp(ball *b);
/* The same problem with the state as positions, then velocities, x = (u1, u2, u1', u2'): the
 * layout leapfrog (Stormer-Verlet) steps, u' = v in the first half (no Jacobian: differences).
 * ball_to_uv and ball_from_uv convert a state between the two layouts. */
ivp ball_ivp_uv(ball *b);
void ball_to_uv(const double y[4], double x[4]);
void ball_from_uv(const double x[4], double y[4]);
/* y(0) = (0, 0, h0, 0). */
void ball_initial(const ball_settings *s, double y[4]);

/* The contact force f_c, N (0 out of contact). */
double ball_contact_force(const ball *b, const double *y);
/* Total energy: kinetic + spring + gravity (of the ball, above m1's rest) + contact potential
 * kc (2/5) delta^(5/2), J. The damper and the contact loss only remove it. */
double ball_energy(double t, const double *y, void *params);
/* The damped angular frequency omega1 = sqrt(omega0^2 - sigma0^2) of m1 alone, rad/s. */
double ball_omega1(const ball *b);
/* u1 at time t after an impulse J (N s) at t = 0 on m1 at rest: -J/(m1 omega1) e^{-sigma0 t}
 * sin(omega1 t). */
double ball_impulse_response(const ball *b, double J, double t);

/* One impact: the interval where the contact force is on. */
typedef struct ball_impact {
    double start, end;      /* contact on and off, s */
    double impulse;         /* J = integral of f_c dt over the contact, N s (NAN if not measured) */
    double centre; /* integral of t f_c dt / J: the impulse's centre, s (NAN if not measured) */
    double v_in, v_out;     /* the ball's velocity u2' when the contact turns on and off, m/s */
} ball_impact;

/* Coefficient of restitution of an impact, -v_out / v_in (NAN while the contact is open). */
double ball_restitution(const ball_impact *e);

typedef struct ball_impacts {
    size_t n, cap;          /* impacts held, room */
    ball_impact *v;         /* in time order */
} ball_impacts;

void ball_impacts_free(ball_impacts *l);     /* leaves it empty; safe twice */

/* What a run's impacts say about its rhythm (lesson 7's summary). */
enum { BALL_QUARTERS = 4 };
typedef struct ball_impact_summary {
    double dur_min, dur_max; /* shortest and longest contact, s (INFINITY, 0 without impacts) */
    size_t intervals;               /* start-to-start intervals, n - 1 */
    size_t shorter;                 /* intervals shorter than the one before */
    size_t per_quarter[BALL_QUARTERS];  /* impacts starting in each quarter of [0, T] */
} ball_impact_summary;
ball_impact_summary ball_impacts_summarise(const ball_impacts *im, double T);

/* Output times of a drop: the audio grid k / fs on [0, T] merged with the dense grid of the given
 * rate on [w0, w1]; tag[k] says which grid each time belongs to (BALL_TAG_AUDIO, BALL_TAG_DENSE,
 * or both). Both arrays allocated (free them); returns their length. */
enum { BALL_TAG_AUDIO = 1, BALL_TAG_DENSE = 2 };
size_t ball_output_times(double T, double fs, double w0, double w1, double rate, double **tout,
                         unsigned char **tag);

/* Room for one more impact at the end of l (its fields NAN), grown as needed. */
ball_impact *ball_impacts_push(ball_impacts *l);

/* Impacts of a sampled run, from the samples: a contact starts where the sampled force turns
 * on (its start placed where the gap delta crosses 0 by linear interpolation between the
 * samples) and ends where it turns off. Feed samples in time order. */
typedef struct ball_detector {
    const ball *b;
    bool started;           /* at least one sample seen */
    bool on;                /* the force was on at the last sample */
    double t_prev;          /* last sample's time, s */
    double gap_prev;        /* last sample's delta = u1 - u2, m */
    double v2_prev;         /* last sample's ball velocity u2', m/s */
    ball_impacts *out;      /* where impacts go */
} ball_detector;

void ball_detector_init(ball_detector *d, const ball *b, ball_impacts *out);
void ball_detector_sample(ball_detector *d, double t, const double *y);

/* How far the start times of run lie from those of ref over their first `upto` impacts,
 * paired in order. The later impacts of this system are chaotic: the ringing m1 multiplies
 * a timing error at each bounce, so a rhythm is judged on the first few impacts. */
typedef struct ball_rhythm {
    size_t compared;        /* pairs compared: min(upto, impacts of ref, impacts of run) */
    bool complete;          /* run has at least min(upto, impacts of ref) impacts */
    double max_error;       /* largest start-time difference over the pairs, s (0 when ref has no
                               impact, INFINITY when run has none to pair) */
} ball_rhythm;

ball_rhythm ball_rhythm_compare(const ball_impacts *ref, const ball_impacts *run, size_t upto);
/* "keeps" (complete and max error <= keep), "loses" (incomplete or max error > lose), else
 * "drifts". */
const char *ball_rhythm_verdict(const ball_rhythm *r, double keep_s, double lose_s);
/* What a listener hears as a shifted impact i (0-based) of ref, s: the larger of abs_s and rel
 * times the interval from impact i - 1 to i (abs_s alone for the first impact). */
double ball_audible_shift(const ball_impacts *ref, size_t i, double abs_s, double rel);
/* The first of the leading `upto` impacts of ref (1-based) at which run is off by more than a
 * listener hears (ball_audible_shift) or has no impact at all; 0 when none is. */
size_t ball_rhythm_heard(const ball_impacts *ref, const ball_impacts *run, size_t upto,
                         double abs_s, double rel);
/* How many leading impacts of a and b start within tol (s) of each other. */
size_t ball_impacts_agree(const ball_impacts *a, const ball_impacts *b, double tol);

/* Largest start-time difference of the impacts a and b both have from index `from` on, s (0 when
 * they have none there): how far two runs part past the impacts they agree on. */
double ball_impacts_max_diff(const ball_impacts *a, const ball_impacts *b, size_t from);
/* The rhythm of run against ref in words, for a listener (heard: ball_rhythm_heard; compared: the
 * pairs ball_rhythm_compare compared): "a listener hears no change ...", "... impact N never
 * comes ...", or "... hears it from impact N on (X ms off there, Y ms heard)". */
void ball_rhythm_words(char *buf, size_t n, const ball_impacts *ref, const ball_impacts *run,
                       size_t heard, size_t compared, double abs_s, double rel);

#endif
