/* h5.h: a displacement field u(x_i, t_j) as HDF5 (the "Optional field export" of string-pluck-v1):
 * datasets x (float64, nx), t (float64, nt), u (float32, nt x nx, gzip-compressed in chunks of
 * rows), and string attributes on the root group. Made in memory and written by the output rule
 * of io/atomic.h (a regular file atomically; a device, FIFO or "-" straight through); no object
 * times, so reruns give the same bytes. */
#ifndef IVPLAB_H5_H
#define IVPLAB_H5_H
#include <stddef.h>

typedef struct h5_attr {
    const char *name;       /* attribute name; NULL ends a list */
    const char *value;      /* its text */
} h5_attr;

/* 0 on success; -1 with a one-line reason (naming the path) in err. */
int h5_write_field(const char *path, const double *x, size_t nx, const double *t, size_t nt, const float *u,
                   const h5_attr *attrs, char *err, size_t errlen);

/* Read back (tests): the sizes, and optionally the arrays (caller-sized) and one attribute. */
int h5_read_field(const char *path, size_t *nx, size_t *nt, double *x, double *t, float *u, const char *attr_name,
                  char *attr_value, size_t attr_len, char *err, size_t errlen);

#endif
