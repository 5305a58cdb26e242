#include "io/h5.h"
#include "io/atomic.h"
#include "base/util.h"
#include <dlfcn.h>
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* HDF5 is loaded when a field is first written or read, not when a program starts: libhdf5 and
 * the ~35 libraries it pulls in (curl, TLS, Kerberos, LDAP...) cost every run of bin/pluck about
 * 10 ms of start-up though only --field uses them (issue 14, bench row 1). The header gives the
 * types and constants; each call goes through the table below, filled by dlsym. IVPLAB_HDF5_SO
 * (set by the Makefile from the library pkg-config names) is the soname to open. */
#ifndef IVPLAB_HDF5_SO
#define IVPLAB_HDF5_SO "libhdf5_serial.so.103"
#endif
#define H5_FUNCS(X)                                                                                          \
    X(open) X(check_version) X(Aclose) X(Acreate2) X(Aget_type) X(Aopen) X(Aread) X(Awrite) X(Dclose)         \
    X(Dcreate2) X(Dget_space) X(Dopen2) X(Dread) X(Dwrite) X(Eset_auto2) X(Fclose) X(Fcreate) X(Fflush)       \
    X(Fget_file_image) X(Fopen) X(Pclose) X(Pcreate) X(Pset_chunk) X(Pset_deflate) X(Pset_fapl_core)          \
    X(Pset_obj_track_times) X(Pset_shuffle) X(Sclose) X(Screate) X(Screate_simple) X(Sget_simple_extent_dims) \
    X(Sget_simple_extent_ndims) X(Tclose) X(Tcopy) X(Tget_size) X(Tset_size) X(Tset_strpad)
/* the library's global ids behind H5T_NATIVE_DOUBLE, H5P_FILE_ACCESS, ... */
#define H5_IDS(X)                                                                                            \
    X(H5T_C_S1_g) X(H5T_IEEE_F64LE_g) X(H5T_IEEE_F32LE_g) X(H5T_NATIVE_DOUBLE_g) X(H5T_NATIVE_FLOAT_g)        \
    X(H5P_CLS_FILE_ACCESS_ID_g) X(H5P_CLS_FILE_CREATE_ID_g) X(H5P_CLS_DATASET_CREATE_ID_g)
#define H5_FN_FIELD(f) __typeof__(&H5##f) f;
#define H5_ID_FIELD(g) __typeof__(&g) id_##g;
static struct {
    H5_FUNCS(H5_FN_FIELD)          /* the library's functions, H5 prefix dropped: h5.Fcreate */
    H5_IDS(H5_ID_FIELD)            /* pointers to its global ids */
    int state;                     /* 0 not tried, 1 loaded, -1 failed */
    char why[160];                 /* the loader's reason when state is -1 */
} h5;
/* The header's constants call H5open()/H5check_version() inline and read the globals by name:
 * here they read the table instead (h5_load has opened the library). */
#undef H5OPEN
#define H5OPEN
#undef H5CHECK
#define H5CHECK
#define H5T_C_S1_g (*h5.id_H5T_C_S1_g)
#define H5T_IEEE_F64LE_g (*h5.id_H5T_IEEE_F64LE_g)
#define H5T_IEEE_F32LE_g (*h5.id_H5T_IEEE_F32LE_g)
#define H5T_NATIVE_DOUBLE_g (*h5.id_H5T_NATIVE_DOUBLE_g)
#define H5T_NATIVE_FLOAT_g (*h5.id_H5T_NATIVE_FLOAT_g)
#define H5P_CLS_FILE_ACCESS_ID_g (*h5.id_H5P_CLS_FILE_ACCESS_ID_g)
#define H5P_CLS_FILE_CREATE_ID_g (*h5.id_H5P_CLS_FILE_CREATE_ID_g)
#define H5P_CLS_DATASET_CREATE_ID_g (*h5.id_H5P_CLS_DATASET_CREATE_ID_g)

/* 0 once the library is loaded and open; -1 with the reason in err. The library stays loaded
 * (HDF5 closes itself at exit). */
static int h5_load(char *err, size_t errlen)
{
    if (h5.state == 0) {
        void *lib = dlopen(IVPLAB_HDF5_SO, RTLD_NOW | RTLD_LOCAL);
        const char *missing = NULL;
        if (!lib) {
            snprintf(h5.why, sizeof h5.why, "cannot load HDF5 (%s): %s", IVPLAB_HDF5_SO, dlerror());
            h5.state = -1;
        } else {
#define H5_FN_LOAD(f)                                                                                        \
    if (!missing && !(*(void **)&h5.f = dlsym(lib, "H5" #f)))                                                 \
        missing = "H5" #f;
#define H5_ID_LOAD(g)                                                                                        \
    if (!missing && !(*(void **)&h5.id_##g = dlsym(lib, #g)))                                                      \
        missing = #g;
            H5_FUNCS(H5_FN_LOAD)
            H5_IDS(H5_ID_LOAD)
            if (missing)
                snprintf(h5.why, sizeof h5.why, "%s has no symbol %s", IVPLAB_HDF5_SO, missing);
            else if (h5.check_version(H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE) < 0 || h5.open() < 0)
                snprintf(h5.why, sizeof h5.why, "%s does not open (version %d.%d.%d expected)", IVPLAB_HDF5_SO,
                         H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE);
            h5.state = h5.why[0] ? -1 : 1;
        }
    }
    if (h5.state < 0)
        snprintf(err, errlen, "%s", h5.why);
    return h5.state > 0 ? 0 : -1;
}

static int put_string_attr(hid_t loc, const char *name, const char *value)
{
    hid_t type = h5.Tcopy(H5T_C_S1), space = h5.Screate(H5S_SCALAR);
    int rc = -1;
    if (type >= 0 && space >= 0 && h5.Tset_size(type, strlen(value) + 1) >= 0 && h5.Tset_strpad(type, H5T_STR_NULLTERM) >= 0) {
        hid_t a = h5.Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
        if (a >= 0) {
            rc = h5.Awrite(a, type, value) >= 0 ? 0 : -1;
            h5.Aclose(a);
        }
    }
    if (space >= 0)
        h5.Sclose(space);
    if (type >= 0)
        h5.Tclose(type);
    return rc;
}

/* dcpl: a dataset creation list without object times (see h5_write_field). */
static int put_vector(hid_t file, hid_t dcpl, const char *name, const double *v, size_t n)
{
    hsize_t dims[1] = {n};
    hid_t space = h5.Screate_simple(1, dims, NULL);
    if (space < 0)
        return -1;
    hid_t d = h5.Dcreate2(file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int rc = d >= 0 && h5.Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0 ? 0 : -1;
    if (d >= 0)
        h5.Dclose(d);
    h5.Sclose(space);
    return rc;
}

/* The file is made in memory (HDF5's core driver, no backing store) and its image written out by
 * the output rule of io/atomic.h: a regular file atomically, a device, FIFO or "-" straight
 * through (HDF5 itself needs to seek). Objects carry no modification times, so the same run gives
 * the same bytes. */
int h5_write_field(const char *path, const double *x, size_t nx, const double *t, size_t nt, const float *u,
                   const h5_attr *attrs, char *err, size_t errlen)
{
    if (h5_load(err, errlen))
        return -1;
    h5.Eset_auto2(H5E_DEFAULT, NULL, NULL);      /* errors are reported here, in one line */
    const char *step = "cannot make the file";
    int rc = -1;
    void *image = NULL;
    ssize_t size = -1;
    hid_t fapl = -1, fcpl = -1, file = -1, space = -1, vcpl = -1, dcpl = -1, d = -1;
    size_t guess = nx * nt * sizeof(float) + (nx + nt) * sizeof(double) + 65536;
    if ((fapl = h5.Pcreate(H5P_FILE_ACCESS)) < 0 || h5.Pset_fapl_core(fapl, guess < (1u << 20) ? guess : 1u << 20, 0) < 0 ||
        (fcpl = h5.Pcreate(H5P_FILE_CREATE)) < 0 || h5.Pset_obj_track_times(fcpl, 0) < 0 ||
        (file = h5.Fcreate("ivplab-field.h5", H5F_ACC_TRUNC, fcpl, fapl)) < 0)
        goto done;
    step = "cannot store the datasets";
    if ((vcpl = h5.Pcreate(H5P_DATASET_CREATE)) < 0 || h5.Pset_obj_track_times(vcpl, 0) < 0 ||
        put_vector(file, vcpl, "x", x, nx) || put_vector(file, vcpl, "t", t, nt))
        goto done;
    hsize_t dims[2] = {nt, nx}, chunk[2] = {nt < 64 ? nt : 64, nx};
    if ((space = h5.Screate_simple(2, dims, NULL)) < 0 || (dcpl = h5.Pcreate(H5P_DATASET_CREATE)) < 0 ||
        h5.Pset_obj_track_times(dcpl, 0) < 0 || h5.Pset_chunk(dcpl, 2, chunk) < 0 || h5.Pset_shuffle(dcpl) < 0 ||
        h5.Pset_deflate(dcpl, 6) < 0)
        goto done;
    if ((d = h5.Dcreate2(file, "u", H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0 ||
        h5.Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, u) < 0)
        goto done;
    step = "cannot store the attributes";
    for (const h5_attr *at = attrs; at && at->name; at++)
        if (put_string_attr(file, at->name, at->value))
            goto done;
    step = "cannot take the file image";
    if (h5.Fflush(file, H5F_SCOPE_GLOBAL) < 0 || (size = h5.Fget_file_image(file, NULL, 0)) < 0)
        goto done;
    image = xcalloc((size_t)size + 1, 1);
    if (h5.Fget_file_image(file, image, (size_t)size) != size)
        goto done;
    rc = 0;
done:
    if (d >= 0)
        h5.Dclose(d);
    if (dcpl >= 0)
        h5.Pclose(dcpl);
    if (vcpl >= 0)
        h5.Pclose(vcpl);
    if (space >= 0)
        h5.Sclose(space);
    if (file >= 0 && h5.Fclose(file) < 0)
        rc = -1;
    if (fcpl >= 0)
        h5.Pclose(fcpl);
    if (fapl >= 0)
        h5.Pclose(fapl);
    if (rc != 0) {
        snprintf(err, errlen, "cannot write the HDF5 file %s: HDF5 %s", path, step);
    } else if (atomic_write(path, image, (size_t)size) != 0) {
        snprintf(err, errlen, "cannot write the HDF5 file %s: %s", strcmp(path, "-") ? path : "- (standard output)",
                 atomic_reason(errno));
        rc = -1;
    }
    free(image);
    return rc;
}

static int dataset_size(hid_t file, const char *name, int rank, hsize_t *dims)
{
    hid_t d = h5.Dopen2(file, name, H5P_DEFAULT);
    if (d < 0)
        return -1;
    hid_t s = h5.Dget_space(d);
    int ok = s >= 0 && h5.Sget_simple_extent_ndims(s) == rank && h5.Sget_simple_extent_dims(s, dims, NULL) == rank;
    if (s >= 0)
        h5.Sclose(s);
    h5.Dclose(d);
    return ok ? 0 : -1;
}

static int read_all(hid_t file, const char *name, hid_t memtype, void *buf)
{
    hid_t d = h5.Dopen2(file, name, H5P_DEFAULT);
    if (d < 0)
        return -1;
    int rc = h5.Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0 ? 0 : -1;
    h5.Dclose(d);
    return rc;
}

int h5_read_field(const char *path, size_t *nx, size_t *nt, double *x, double *t, float *u, const char *attr_name,
                  char *attr_value, size_t attr_len, char *err, size_t errlen)
{
    if (h5_load(err, errlen))
        return -1;
    h5.Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = h5.Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) {
        snprintf(err, errlen, "%s: not a readable HDF5 file", path);
        return -1;
    }
    int rc = -1;
    hsize_t dx[1], dt[1], du[2];
    if (dataset_size(file, "x", 1, dx) || dataset_size(file, "t", 1, dt) || dataset_size(file, "u", 2, du) ||
        du[0] != dt[0] || du[1] != dx[0]) {
        snprintf(err, errlen, "%s: datasets x, t, u missing or of inconsistent shapes", path);
        goto done;
    }
    *nx = dx[0];
    *nt = dt[0];
    if ((x && read_all(file, "x", H5T_NATIVE_DOUBLE, x)) || (t && read_all(file, "t", H5T_NATIVE_DOUBLE, t)) ||
        (u && read_all(file, "u", H5T_NATIVE_FLOAT, u))) {
        snprintf(err, errlen, "%s: cannot read the datasets", path);
        goto done;
    }
    if (attr_name) {
        hid_t at = h5.Aopen(file, attr_name, H5P_DEFAULT);
        hid_t type = at >= 0 ? h5.Aget_type(at) : -1;
        size_t sz = type >= 0 ? h5.Tget_size(type) : 0;
        int ok = at >= 0 && type >= 0 && sz < attr_len;
        if (ok) {
            hid_t mt = h5.Tcopy(H5T_C_S1);
            h5.Tset_size(mt, sz);
            ok = h5.Aread(at, mt, attr_value) >= 0;
            attr_value[sz] = '\0';
            h5.Tclose(mt);
        }
        if (type >= 0)
            h5.Tclose(type);
        if (at >= 0)
            h5.Aclose(at);
        if (!ok) {
            snprintf(err, errlen, "%s: no string attribute %s", path, attr_name);
            goto done;
        }
    }
    rc = 0;
done:
    h5.Fclose(file);
    return rc;
}
