/* fuzz_file.h: fuzz_file(), included once by each target. */
#include "fuzz.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_path[64];

static void fuzz_file_remove(void) { unlink(fuzz_path); }

const char *fuzz_file(const uint8_t *data, size_t size)
{
    char *path = fuzz_path;
    if (!path[0]) {
        snprintf(path, sizeof fuzz_path, "/tmp/ivplab-fuzz-%ld", (long)getpid());
        atexit(fuzz_file_remove);   /* replays and fuzz runs leave nothing in /tmp */
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return path;
}
