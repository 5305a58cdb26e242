/* replay.c: runs a fuzz target once on each saved input (files, or every file in folders),
 * so the test suite replays the corpora without a fuzzing engine. */
#include "fuzz.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    size_t got = buf ? fread(buf, 1, (size_t)(n > 0 ? n : 0), f) : 0;
    fclose(f);
    if (!buf)
        return -1;
    LLVMFuzzerTestOneInput(buf, got);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    long count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            printf("FAIL: %s: cannot read\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            count += replay_file(argv[i]) == 0;
            continue;
        }
        DIR *d = opendir(argv[i]);
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
            count += replay_file(p) == 0;
        }
        if (d)
            closedir(d);
    }
    printf("%s: replayed %ld inputs without a crash\n", count > 0 ? "pass" : "FAIL", count);
    return count > 0 ? 0 : 1;
}
