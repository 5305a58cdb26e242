/* string.h: the plucked Kelvin-Voigt damped string of string-pluck-v1,
 *     u_tt = c^2 u_xx - 2 sigma0 u_t + kappa u_xxt,  u(0) = u(L) = 0,  u(x, 0) = u0(x), u_t = 0,
 * released from the static shape under a raised-cosine finger load. Three views of it:
 *   - the modal series (the exact answer): every sine mode is a damped oscillator;
 *   - the truncated modal (Galerkin) system with M modes, an IVP where only time stepping errs;
 *   - centred finite differences in space (3-point and 5-point), an IVP of 2(N-1) unknowns.
 * Both semi-discrete systems are again sums of damped sine modes (the fixed ends make sin(k x)
 * an exact eigenvector of both stencils), so their exact solutions are modal sums too. */
#ifndef IVPLAB_STRING_H
#define IVPLAB_STRING_H
#include "io/h5.h"
#include "problem/ivp.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct string_params {
    double L;               /* string length, m */
    double c;               /* wave speed, m/s */
    double sigma0;          /* frequency-independent loss rate, 1/s */
    double kappa;           /* Kelvin-Voigt viscosity, m^2/s */
    double height;          /* pluck height u0(xp), m */
    double xp;              /* pluck centre, m */
    double w;               /* half-width of the finger load, m */
    double xm;              /* pickup position, m */
} string_params;

/* The spec's constraints: positive values (sigma0, kappa >= 0), w < xp < L - w, 0 < xm < L and
 * (pi/w)^2 != k_n^2 for every n (L/w not an integer). 0 if met, else -1 with the reason. */
int string_check(const string_params *s, char *why, size_t whylen);

/* Total load as a slope, Q (dimensionless), fixed by u0(xp) = height. */
double string_load(const string_params *s);
/* The initial shape u0(x), m (closed form). */
double string_u0(const string_params *s, double x);
/* A_n = (2/L) int u0 sin(k_n x) dx, m (closed form of the appendix). */
double string_mode_amplitude(const string_params *s, int n);

/* One damped sine mode: a'' + 2 alpha a' + omega0sq a = 0, a(0) = amplitude, a'(0) = 0, seen at
 * the pickup through the weight pickup (so its share of the signal is pickup * a'(t)). */
typedef struct string_mode {
    double amplitude;       /* a(0), m */
    double alpha;           /* decay rate, 1/s */
    double omega0sq;        /* undamped angular frequency squared, 1/s^2 */
    double pickup;          /* weight of the mode at the pickup, 1 (e.g. sin(k xm)) */
} string_mode;

/* a(t), m, and a'(t), m/s, exactly, in every regime (under-, critically and over-damped). */
void string_mode_eval(const string_mode *m, double t, double *a, double *adot);
/* Mode n (1-based) of the exact series: A_n, alpha_n = sigma0 + kappa beta_n^2 / 2, omega0^2 =
 * c^2 beta_n^2 (beta_n = n pi / L) and the pickup weight sin(beta_n xm). Mode n of the Galerkin
 * system is this one. */
string_mode string_exact_mode(const string_params *s, int n);
/* An upper bound on |pickup * a'(t)| valid for all t' >= t, m/s. */
double string_mode_velocity_bound(const string_mode *m, double t);

/* The modes of the exact series that the tolerance needs: mode n is in the list when the
 * omitted tail (modes past the last one) is bounded, at the first sample t1 > 0 and hence at
 * every later time, by tol/2 m/s (s(0) = 0 needs no modes). Returns the number of modes, or -1
 * when more than max_modes would be needed. *modes is allocated (free it). */
int string_reference_modes(const string_params *s, double t1, double tol, int max_modes,
                           string_mode **modes);

/* What a modal-sum evaluation did. */
typedef struct string_sum_info {
    int modes;              /* modes summed */
    long mode_samples;      /* mode-sample products evaluated (the cost) */
    int overdamped;         /* modes with alpha >= omega0 */
} string_sum_info;

/* out[k] = sum over modes of pickup * a'(k / fs), k < n. A mode stops once its velocity bound has
 * fallen below tol * 3/(pi^2 j^2) (j its place in the list), so the time-truncated remainders add
 * up to at most tol/2 m/s at any sample. An underdamped mode's samples follow the damped sine's
 * two-term recurrence, re-anchored every 4096 samples from its phasor, which is carried from one
 * 4096-sample tile to the next by the mode's factor over a tile. */
void string_pickup_signal(const string_mode *modes, int nmodes, double fs, long n, double tol,
                          double *out, string_sum_info *info);

/* The field u(x_i, t_j), m, as float (row j, column i: u[j * nx + i]) from the exact series with
 * the given modes; t = 0 rows use the closed-form u0. */
void string_field(const string_params *s, const string_mode *modes, int nmodes, const double *x,
                  size_t nx, const double *t, size_t nt, float *u);

/* The field of string_field on the grid x_i = i L / (nx - 1), t_j = j t_stop / (nt - 1), written
 * to path as HDF5 (io/h5, gzip float32) with the attributes attrs. 0, or -1 with the reason. */
int string_field_write(const char *path, const string_params *s, const string_mode *modes,
                       int nmodes, size_t nx, size_t nt, double t_stop, const h5_attr *attrs,
                       char *err, size_t errlen);

/* ---- The truncated modal (Galerkin) system: mode n alone as y = (a_n, a_n'). ---- */
typedef struct string_mode_problem {
    string_mode mode;       /* the mode stepped */
} string_mode_problem;
/* y' = (a', -omega0sq a - 2 alpha a'): linear, with its Jacobian. */
ivp string_mode_ivp(string_mode_problem *mp);

/* The whole Galerkin system of nmodes modes at once, interleaved y = (a_1, a_1', a_2, a_2', ...):
 * its Jacobian is block diagonal (band half-widths 1), for CVODE. */
typedef struct string_galerkin {
    const string_mode *modes; /* the modes, owned by the caller */
    int nmodes;
} string_galerkin;
ivp string_galerkin_ivp(string_galerkin *g);
/* y0 of the Galerkin system, and its pickup velocity sum_n pickup_n a_n'(t), m/s. */
void string_galerkin_initial(const string_galerkin *g, double *y);
double string_galerkin_pickup(const string_galerkin *g, const double *y);

/* ---- Finite differences (method of lines) on N intervals, grid x_i = i L / N. ---- */
typedef enum {
    STRING_FD3 = 3, /* (u_{i-1} - 2u_i + u_{i+1}) / dx^2, order 2 */
    STRING_FD5 = 5  /* (-u_{i-2} + 16u_{i-1} - 30u_i + 16u_{i+1} - u_{i+2}) / (12 dx^2), order 4,
                       ghosts u_{-1} = -u_1, u_{N+1} = -u_{N-1} (exact for the odd extension) */
} string_stencil;

typedef struct string_fd {
    string_params s;        /* the string */
    string_stencil stencil;
    long N;                 /* intervals */
    double dx;              /* grid spacing L/N, m */
    bool interleaved; /* y = (u_1, v_1, u_2, v_2, ...) (banded, for CVODE) instead of (u, v) halves
                       */
    long pick_first;        /* first interior index of the pickup interpolation */
    int pick_count;         /* 1 when xm is a grid point, else 4 (cubic Lagrange) */
    double pick_weight[4];  /* interpolation weights, 1 */
} string_fd;

/* Set up the grid; 0, or -1 with the reason (N too small for the stencil). */
int string_fd_init(string_fd *fd, const string_params *s, string_stencil st, long N,
                   bool interleaved, char *why, size_t whylen);
/* y' = F(y): u' = v, v' = c^2 D2 u - 2 sigma0 v + kappa D2 v. Linear, with its Jacobian. */
ivp string_fd_ivp(string_fd *fd);
size_t string_fd_dim(const string_fd *fd);
/* Half-widths of the Jacobian's band in the interleaved layout. */
long string_fd_bandwidth(const string_fd *fd);
/* y0: u_i = u0(x_i) sampled, v = 0. */
void string_fd_initial(const string_fd *fd, double *y);
/* The pickup velocity (interpolated from the grid when xm is not a grid point), m/s. */
double string_fd_pickup(const string_fd *fd, const double *y);
/* The exact solution of the semi-discrete system as N - 1 modes (discrete sine transform of the
 * sampled u0, the stencil's eigenvalues): no time-stepping error at all. *modes is allocated. */
int string_fd_modes(const string_fd *fd, string_mode **modes);
/* y = the exact semi-discrete state at time t from the grid's modes (string_fd_modes, nm = N - 1):
 * u_i = sum_n a_n(t) sin(pi n i / N), v_i likewise with a_n'(t). */
void string_fd_state(const string_fd *fd, const string_mode *modes, int nm, double t, double *y);

#endif
