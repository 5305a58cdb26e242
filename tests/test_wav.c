/* test_wav: a WAV's samples are float32 (issue 27 item 11): a sample that is not a finite float32
 * after the gain (beyond FLT_MAX, or NaN) is refused with the sample named, errno ERANGE, and no
 * file is left; the largest finite sample is written and read back exactly. In a scratch folder. */
#include "check.h"
#include "io/wav.h"
#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    char dir[] = "/tmp/ivplab-wav-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[64], err[600];
    snprintf(path, sizeof path, "%s/x.wav", dir);
    double x[4] = {0.5, -1.0, 2.0, 0.25};

    int rc = wav_write(path, x, 4, 48000, FLT_MAX, err, sizeof err);
    int e = errno;
    check(rc != 0 && e == ERANGE, "sample 2 times the gain FLT_MAX (above FLT_MAX): refused (rc %d, errno %s)", rc, strerror(e));
    check(strstr(err, "sample 2 is 2 times the gain") != NULL && strstr(err, "not a finite float32") != NULL,
          "the message names the sample: %s", err);
    check(access(path, F_OK) != 0, "no file is left behind");

    x[2] = NAN;
    rc = wav_write(path, x, 4, 48000, 1.0, err, sizeof err);
    check(rc != 0 && strstr(err, "sample 2 is nan") != NULL, "a NaN sample is refused: %s", err);

    x[2] = 2.0;
    wav_data back = {0};
    rc = wav_write_back(path, x, 4, 48000, FLT_MAX / 2.0, &back, err, sizeof err);
    check(rc == 0 && back.frames == 4 && back.x[2] == FLT_MAX, "FLT_MAX itself is written and read back (rc %d, %g)",
          rc, rc == 0 ? back.x[2] : 0.0);
    wav_data_free(&back);
    unlink(path);
    rmdir(dir);
    return check_done();
}
