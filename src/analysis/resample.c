#include "analysis/resample.h"
#include "base/util.h"
#include <math.h>
#include <samplerate.h>
#include <stdio.h>
#include <stdlib.h>

double *resample(const double *x, size_t n, double fs_in, double fs_out, resample_quality q,
                 size_t *n_out, char *err, size_t errlen)
{
    int converter = q == RESAMPLE_SOUND ? SRC_SINC_MEDIUM_QUALITY : SRC_SINC_BEST_QUALITY;
    double ratio = fs_out / fs_in;
    if (n == 0 || !(fs_in > 0) || !(fs_out > 0) || !src_is_valid_ratio(ratio)) {
        snprintf(err, errlen, "resample: %zu samples from %g Hz to %g Hz; accepted: at least one sample, rates > 0 "
                 "with a ratio from 1/256 to 256", n, fs_in, fs_out);
        return NULL;
    }
    size_t m = (size_t)floor((n - 1) / fs_in * fs_out) + 1;
    /* zeros after the end, so that the converter reaches the last output sample (at or before
     * the last input sample) with its whole kernel, as it does at the start */
    size_t pad = (size_t)ceil(fs_in / fs_out) + 2, nin = n + pad;
    /* written whole here (2 MB pages for a long signal: base/util.h), the padding zeroed */
    float *in = xmalloc_large(nin, sizeof *in), *out = xcalloc(m, sizeof *out);
    for (size_t k = 0; k < n; k++)
        in[k] = (float)x[k];
    for (size_t k = n; k < nin; k++)
        in[k] = 0.0f;
    SRC_DATA d = {.data_in = in, .data_out = out, .input_frames = (long)nin, .output_frames = (long)m,
                  .src_ratio = ratio};
    int rc = src_simple(&d, converter, 1);
    free(in);
    if (rc != 0 || d.output_frames_gen != (long)m) {
        snprintf(err, errlen, "resample: libsamplerate (%s) from %g Hz to %g Hz: %s",
                 src_get_name(converter), fs_in, fs_out,
                 rc != 0 ? src_strerror(rc) : "fewer samples than the span holds");
        free(out);
        return NULL;
    }
    double *y = xcalloc(m, sizeof *y);
    for (size_t j = 0; j < m; j++)
        y[j] = out[j];
    free(out);
    *n_out = m;
    return y;
}
