/* fuzz_file.h: fuzz_file(), included once by each target. */
#include "fuzz.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

const char *fuzz_file(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/ivplab-fuzz-%ld", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return path;
}
