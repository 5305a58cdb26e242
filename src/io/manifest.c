/* manifest.c: the files this run wrote, a list a folder (see manifest.h). */
#define _GNU_SOURCE
#include "io/manifest.h"
#include "io/atomic.h"
#include "base/util.h"
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct { char dir[PATH_MAX]; char name[256]; } noted;

static noted *notes;
static size_t nnotes, room;
static pid_t owner;     /* the process that noted first: a forked worker writes no manifest */

static void write_at_exit(void) { manifest_write(); }

void manifest_note(const char *path)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    char dir[PATH_MAX], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (slash == path)
        snprintf(dir, sizeof dir, "/");
    if (!realpath(dir, real) || strlen(base) >= sizeof notes[0].name || strcmp(base, MANIFEST_NAME) == 0)
        return;
    if (owner == 0) {
        owner = getpid();
        atexit(write_at_exit);
    }
    if (getpid() != owner)
        return;
    for (size_t i = 0; i < nnotes; i++)
        if (strcmp(notes[i].dir, real) == 0 && strcmp(notes[i].name, base) == 0)
            return;
    notes = xgrow(notes, &room, nnotes + 1, sizeof *notes);
    snprintf(notes[nnotes].dir, sizeof notes[0].dir, "%s", real);
    snprintf(notes[nnotes].name, sizeof notes[0].name, "%s", base);
    nnotes++;
}

int manifest_write(void)
{
    int rc = 0;
    if (owner == 0 || getpid() != owner)
        return 0;
    time_t now = time(NULL);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    for (size_t i = 0; i < nnotes; i++) {
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            first = strcmp(notes[k].dir, notes[i].dir) != 0;
        if (!first)
            continue;
        char *text = xasprintf("# the files %s wrote here in its run of %s (its figures draw these alone)\n",
                               program_invocation_short_name, when);
        for (size_t k = i; k < nnotes; k++)
            if (strcmp(notes[k].dir, notes[i].dir) == 0) {
                char *more = xasprintf("%s%s\n", text, notes[k].name);
                free(text);
                text = more;
            }
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", notes[i].dir, MANIFEST_NAME);
        if (atomic_write(path, text, strlen(text)) != 0)
            rc = -1;
        free(text);
    }
    return rc;
}

int manifest_read(const char *dir, char names[][256], int max)
{
    char path[PATH_MAX + 32], line[512];
    snprintf(path, sizeof path, "%s/%s", dir, MANIFEST_NAME);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || !line[0] || strchr(line, '/') || strcmp(line, "..") == 0 || strlen(line) >= 256)
            continue;
        snprintf(names[n++], 256, "%s", line);
    }
    fclose(f);
    return n;
}
