#include "io/wav.h"
#include "io/atomic.h"
#include "base/util.h"
#include <errno.h>
#include <float.h>
#include <math.h>
#include <fcntl.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file in memory for libsndfile's virtual I/O: the WAV is made here whole (libsndfile seeks
 * back to write the final sizes into the header), then goes out in one piece. */
typedef struct membuf {
    unsigned char *p;
    sf_count_t len, cap, pos;
} membuf;

static sf_count_t mem_length(void *u) { return ((membuf *)u)->len; }
static sf_count_t mem_tell(void *u) { return ((membuf *)u)->pos; }

static sf_count_t mem_seek(sf_count_t offset, int whence, void *u)
{
    membuf *m = u;
    sf_count_t to = offset + (whence == SEEK_CUR ? m->pos : whence == SEEK_END ? m->len : 0);
    if (to < 0)
        return -1;
    m->pos = to;
    return to;
}

static sf_count_t mem_read(void *ptr, sf_count_t n, void *u)
{
    membuf *m = u;
    sf_count_t k = m->pos >= m->len ? 0 : n < m->len - m->pos ? n : m->len - m->pos;
    memcpy(ptr, m->p + m->pos, (size_t)k);
    m->pos += k;
    return k;
}

static sf_count_t mem_write(const void *ptr, sf_count_t n, void *u)
{
    membuf *m = u;
    if (m->pos + n > m->cap) {
        sf_count_t cap = 2 * (m->pos + n);
        unsigned char *p = realloc(m->p, (size_t)cap);
        if (!p)
            return 0;
        memset(p + m->cap, 0, (size_t)(cap - m->cap));
        m->p = p, m->cap = cap;
    }
    memcpy(m->p + m->pos, ptr, (size_t)n);
    m->pos += n;
    if (m->pos > m->len)
        m->len = m->pos;
    return n;
}

static SF_VIRTUAL_IO mem_io = {.get_filelen = mem_length, .seek = mem_seek, .read = mem_read,
                               .write = mem_write, .tell = mem_tell};

/* libsndfile's reason for a failed open: its own message for its own errors (never a stale
 * system error left from an earlier call). */
static const char *sf_reason(void)
{
    int e = sf_error(NULL);
    return e == SF_ERR_SYSTEM ? sf_strerror(NULL) : sf_error_number(e);
}

/* The samples of an open file; check judges the header first. */
static int read_all(SNDFILE *sf, const SF_INFO *info, const char *name, wav_data *out,
                    wav_header_check check, const void *ctx, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (info->channels <= 0 || info->frames < 0 || info->frames > (sf_count_t)1 << 31) {
        snprintf(err, errlen, "%s: implausible header (%d channels, %lld frames)", name,
                 info->channels, (long long)info->frames);
        return -1;
    }
    wav_data hdr = {.rate = info->samplerate, .channels = info->channels, .format = info->format,
                    .frames = (long)info->frames};
    char why[700];
    if (check && check(&hdr, ctx, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", name, why);
        return -1;
    }
    size_t total = (size_t)info->frames * (size_t)info->channels;
    hdr.x = xcalloc(total ? total : 1, sizeof(double));
    sf_count_t got = sf_readf_double(sf, hdr.x, info->frames);
    if (got != info->frames) {
        snprintf(err, errlen, "%s: truncated: header says %lld samples, %lld could be read", name,
                 (long long)info->frames, (long long)got);
        free(hdr.x);
        return -1;
    }
    *out = hdr;
    return 0;
}

int wav_write_back(const char *path, const double *x, size_t n, int fs, double gain, wav_data *back,
                   char *err, size_t errlen)
{
    membuf m = {xcalloc(4 * n + 4096, 1), 0, (sf_count_t)(4 * n + 4096), 0};
    SF_INFO info = {0};
    info.samplerate = fs;
    info.channels = 1;
    info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    int rc = -1;
    SNDFILE *sf = sf_open_virtual(&mem_io, SFM_WRITE, &info, &m);
    if (!sf) {
        snprintf(err, errlen, "cannot write %s: %s", path, sf_reason());
        goto done;
    }
    /* No PEAK chunk: it carries a time stamp, and the same run must give the same bytes. */
    sf_command(sf, SFC_SET_ADD_PEAK_CHUNK, NULL, SF_FALSE);
    float buf[4096];
    for (size_t k = 0; k < n;) {
        size_t c = n - k < 4096 ? n - k : 4096;
        for (size_t j = 0; j < c; j++) {
            buf[j] = (float)(x[k + j] * gain);
            if (!isfinite(buf[j])) {    /* beyond float32 (|value| > FLT_MAX), or not a number */
                snprintf(err, errlen,
                         "cannot write %s: sample %zu is %g times the gain %g = %g, not a finite "
                         "float32 "
                         "(largest %.4g)",
                         path, k + j, x[k + j], gain, x[k + j] * gain, FLT_MAX);
                sf_close(sf);
                errno = ERANGE;
                goto done;
            }
        }
        if (sf_write_float(sf, buf, (sf_count_t)c) != (sf_count_t)c) {
            snprintf(err, errlen, "cannot write %s: %s", path, sf_strerror(sf));
            sf_close(sf);
            goto done;
        }
        k += c;
    }
    if (sf_close(sf) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, sf_error_number(sf_error(NULL)));
        goto done;
    }
    if (atomic_write(path, m.p, (size_t)m.len) != 0) {
        int e = errno;
        snprintf(err, errlen, "cannot write %s: %s",
                 strcmp(path, "-") ? path : "- (standard output)", atomic_reason(e));
        free(m.p);
        errno = e;      /* EISDIR tells the caller it was a directory */
        return -1;
    }
    rc = 0;
    if (back) {
        m.pos = 0;
        memset(&info, 0, sizeof info);
        sf = sf_open_virtual(&mem_io, SFM_READ, &info, &m);
        if (!sf || read_all(sf, &info, path, back, NULL, NULL, err, errlen) != 0) {
            if (!sf)
                snprintf(err, errlen, "%s: cannot read back what was written: %s", path,
                         sf_reason());
            rc = -1;
        }
        if (sf)
            sf_close(sf);
    }
done:
    free(m.p);
    return rc;
}

int wav_write(const char *path, const double *x, size_t n, int fs, double gain, char *err,
              size_t errlen)
{
    return wav_write_back(path, x, n, fs, gain, NULL, err, errlen);
}

int wav_write_file(const char *program, const char *path, const double *x, size_t n, int fs,
                   double gain, wav_data *back, failure *e)
{
    char why[4300];
    errno = 0;
    if (wav_write_back(path, x, n, fs, gain, back, why, sizeof why) != 0) {
        int no = errno;
        return failure_set(e, no == EISDIR || no == ENOTDIR ? 2 : 1, "%s: %s", program, why);
    }
    return 0;
}

int wav_read_checked(const char *path, wav_data *out, wav_header_check check, const void *ctx,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int dash = strcmp(path, "-") == 0;
    const char *name = dash ? "- (standard input)" : path;
    /* Opened here, so that a missing or unreadable file is said as such, by name. */
    int fd = dash ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot open: %s", name, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory", name);
        close(fd);
        return -1;
    }
    SF_INFO info = {0};
    SNDFILE *sf = sf_open_fd(fd, SFM_READ, &info, SF_TRUE);
    if (!sf) {
        snprintf(err, errlen, "%s: not a readable sound file (%s)", name, sf_reason());
        return -1;
    }
    int rc = read_all(sf, &info, name, out, check, ctx, err, errlen);
    sf_close(sf);
    return rc;
}

int wav_read(const char *path, wav_data *out, char *err, size_t errlen)
{
    return wav_read_checked(path, out, NULL, NULL, err, errlen);
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
