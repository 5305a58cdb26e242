#include "io/wav.h"
#include "io/atomic.h"
#include "util.h"
#include <errno.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wav_write(const char *path, const double *x, size_t n, int fs, double gain, char *err, size_t errlen)
{
    atomic_file a;
    const char *tmp = atomic_reserve(&a, path);
    if (!tmp) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    SF_INFO info = {0};
    info.samplerate = fs;
    info.channels = 1;
    info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    SNDFILE *sf = sf_open(tmp, SFM_WRITE, &info);
    if (!sf) {
        snprintf(err, errlen, "cannot write %s: %s", path, sf_strerror(NULL));
        atomic_abort(&a);
        return -1;
    }
    /* No PEAK chunk: it carries a time stamp, and the same run must give the same bytes. */
    sf_command(sf, SFC_SET_ADD_PEAK_CHUNK, NULL, SF_FALSE);
    float buf[4096];
    for (size_t k = 0; k < n;) {
        size_t m = n - k < 4096 ? n - k : 4096;
        for (size_t j = 0; j < m; j++)
            buf[j] = (float)(x[k + j] * gain);
        if (sf_write_float(sf, buf, (sf_count_t)m) != (sf_count_t)m) {
            snprintf(err, errlen, "cannot write %s: %s", path, sf_strerror(sf));
            sf_close(sf);
            atomic_abort(&a);
            return -1;
        }
        k += m;
    }
    if (sf_close(sf) != 0 || atomic_commit(&a) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
        atomic_abort(&a);
        return -1;
    }
    return 0;
}

int wav_read(const char *path, wav_data *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    SF_INFO info = {0};
    SNDFILE *sf = sf_open(path, SFM_READ, &info);
    if (!sf) {
        snprintf(err, errlen, "%s: not a readable sound file (%s)", path, sf_strerror(NULL));
        return -1;
    }
    if (info.channels <= 0 || info.frames < 0 || info.frames > (sf_count_t)1 << 31) {
        snprintf(err, errlen, "%s: implausible header (%d channels, %lld frames)", path, info.channels,
                 (long long)info.frames);
        sf_close(sf);
        return -1;
    }
    size_t total = (size_t)info.frames * (size_t)info.channels;
    out->x = xcalloc(total ? total : 1, sizeof(double));
    sf_count_t got = sf_readf_double(sf, out->x, info.frames);
    sf_close(sf);
    if (got != info.frames) {
        snprintf(err, errlen, "%s: truncated: header says %lld samples, %lld could be read", path,
                 (long long)info.frames, (long long)got);
        wav_data_free(out);
        return -1;
    }
    out->rate = info.samplerate;
    out->channels = info.channels;
    out->format = info.format;
    out->frames = (long)info.frames;
    return 0;
}

void wav_data_free(wav_data *w)
{
    free(w->x);
    memset(w, 0, sizeof *w);
}

const char *wav_format_name(int format)
{
    static char buf[64];
    const char *major = (format & SF_FORMAT_TYPEMASK) == SF_FORMAT_WAV ? "WAV" : "non-WAV";
    const char *sub;
    switch (format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_PCM_16: sub = "16-bit PCM"; break;
    case SF_FORMAT_PCM_24: sub = "24-bit PCM"; break;
    case SF_FORMAT_PCM_32: sub = "32-bit PCM"; break;
    case SF_FORMAT_PCM_U8: sub = "8-bit PCM"; break;
    case SF_FORMAT_FLOAT: sub = "32-bit float"; break;
    case SF_FORMAT_DOUBLE: sub = "64-bit float"; break;
    default: sub = "other encoding"; break;
    }
    snprintf(buf, sizeof buf, "%s %s", major, sub);
    return buf;
}
