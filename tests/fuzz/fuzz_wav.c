/* fuzz_wav.c: the WAV reader (what bin/score reads from strangers) on any bytes. */
#include "fuzz_file.h"
#include "io/wav.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    wav_data w;
    if (wav_read(fuzz_file(data, size), &w, err, sizeof err) == 0) {
        double sum = 0;
        for (long i = 0; i < w.frames * w.channels; i++)
            sum += w.x[i];          /* touch every sample */
        (void)sum;
        wav_data_free(&w);
    }
    return 0;
}
