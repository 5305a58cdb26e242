#include "io/h5.h"
#include "io/atomic.h"
#include "base/util.h"
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int put_string_attr(hid_t loc, const char *name, const char *value)
{
    hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR);
    int rc = -1;
    if (type >= 0 && space >= 0 && H5Tset_size(type, strlen(value) + 1) >= 0 && H5Tset_strpad(type, H5T_STR_NULLTERM) >= 0) {
        hid_t a = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
        if (a >= 0) {
            rc = H5Awrite(a, type, value) >= 0 ? 0 : -1;
            H5Aclose(a);
        }
    }
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    return rc;
}

/* dcpl: a dataset creation list without object times (see h5_write_field). */
static int put_vector(hid_t file, hid_t dcpl, const char *name, const double *v, size_t n)
{
    hsize_t dims[1] = {n};
    hid_t space = H5Screate_simple(1, dims, NULL);
    if (space < 0)
        return -1;
    hid_t d = H5Dcreate2(file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int rc = d >= 0 && H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0 ? 0 : -1;
    if (d >= 0)
        H5Dclose(d);
    H5Sclose(space);
    return rc;
}

/* The file is made in memory (HDF5's core driver, no backing store) and its image written out by
 * the output rule of io/atomic.h: a regular file atomically, a device, FIFO or "-" straight
 * through (HDF5 itself needs to seek). Objects carry no modification times, so the same run gives
 * the same bytes. */
int h5_write_field(const char *path, const double *x, size_t nx, const double *t, size_t nt, const float *u,
                   const h5_attr *attrs, char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);      /* errors are reported here, in one line */
    const char *step = "cannot make the file";
    int rc = -1;
    void *image = NULL;
    ssize_t size = -1;
    hid_t fapl = -1, fcpl = -1, file = -1, space = -1, vcpl = -1, dcpl = -1, d = -1;
    size_t guess = nx * nt * sizeof(float) + (nx + nt) * sizeof(double) + 65536;
    if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0 || H5Pset_fapl_core(fapl, guess < (1u << 20) ? guess : 1u << 20, 0) < 0 ||
        (fcpl = H5Pcreate(H5P_FILE_CREATE)) < 0 || H5Pset_obj_track_times(fcpl, 0) < 0 ||
        (file = H5Fcreate("ivplab-field.h5", H5F_ACC_TRUNC, fcpl, fapl)) < 0)
        goto done;
    step = "cannot store the datasets";
    if ((vcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 || H5Pset_obj_track_times(vcpl, 0) < 0 ||
        put_vector(file, vcpl, "x", x, nx) || put_vector(file, vcpl, "t", t, nt))
        goto done;
    hsize_t dims[2] = {nt, nx}, chunk[2] = {nt < 64 ? nt : 64, nx};
    if ((space = H5Screate_simple(2, dims, NULL)) < 0 || (dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
        H5Pset_obj_track_times(dcpl, 0) < 0 || H5Pset_chunk(dcpl, 2, chunk) < 0 || H5Pset_shuffle(dcpl) < 0 ||
        H5Pset_deflate(dcpl, 6) < 0)
        goto done;
    if ((d = H5Dcreate2(file, "u", H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0 ||
        H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, u) < 0)
        goto done;
    step = "cannot store the attributes";
    for (const h5_attr *at = attrs; at && at->name; at++)
        if (put_string_attr(file, at->name, at->value))
            goto done;
    step = "cannot take the file image";
    if (H5Fflush(file, H5F_SCOPE_GLOBAL) < 0 || (size = H5Fget_file_image(file, NULL, 0)) < 0)
        goto done;
    image = xcalloc((size_t)size + 1, 1);
    if (H5Fget_file_image(file, image, (size_t)size) != size)
        goto done;
    rc = 0;
done:
    if (d >= 0)
        H5Dclose(d);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (vcpl >= 0)
        H5Pclose(vcpl);
    if (space >= 0)
        H5Sclose(space);
    if (file >= 0 && H5Fclose(file) < 0)
        rc = -1;
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (fapl >= 0)
        H5Pclose(fapl);
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
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    if (d < 0)
        return -1;
    hid_t s = H5Dget_space(d);
    int ok = s >= 0 && H5Sget_simple_extent_ndims(s) == rank && H5Sget_simple_extent_dims(s, dims, NULL) == rank;
    if (s >= 0)
        H5Sclose(s);
    H5Dclose(d);
    return ok ? 0 : -1;
}

static int read_all(hid_t file, const char *name, hid_t memtype, void *buf)
{
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    if (d < 0)
        return -1;
    int rc = H5Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0 ? 0 : -1;
    H5Dclose(d);
    return rc;
}

int h5_read_field(const char *path, size_t *nx, size_t *nt, double *x, double *t, float *u, const char *attr_name,
                  char *attr_value, size_t attr_len, char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
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
        hid_t at = H5Aopen(file, attr_name, H5P_DEFAULT);
        hid_t type = at >= 0 ? H5Aget_type(at) : -1;
        size_t sz = type >= 0 ? H5Tget_size(type) : 0;
        int ok = at >= 0 && type >= 0 && sz < attr_len;
        if (ok) {
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, sz);
            ok = H5Aread(at, mt, attr_value) >= 0;
            attr_value[sz] = '\0';
            H5Tclose(mt);
        }
        if (type >= 0)
            H5Tclose(type);
        if (at >= 0)
            H5Aclose(at);
        if (!ok) {
            snprintf(err, errlen, "%s: no string attribute %s", path, attr_name);
            goto done;
        }
    }
    rc = 0;
done:
    H5Fclose(file);
    return rc;
}
