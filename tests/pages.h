/* pages.h: what a test needs to count the page faults of writing a large buffer: the kernel's
 * counters (/proc/vmstat) and whether it offers transparent huge pages, with which a 2 MB
 * aligned buffer (base/util.h's xmalloc_large) is written in one fault a 2 MB. */
#ifndef IVPLAB_TEST_PAGES_H
#define IVPLAB_TEST_PAGES_H
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A counter of /proc/vmstat (-1 if absent). */
static long vmstat(const char *name)
{
    FILE *f = fopen("/proc/vmstat", "r");
    char key[64];
    long v, found = -1;
    while (f && fscanf(f, "%63s %ld", key, &v) == 2)
        if (strcmp(key, name) == 0)
            found = v;
    if (f)
        fclose(f);
    return found;
}

/* Transparent huge pages on, for every mapping or those advised (madvise). */
static bool thp_on(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char mode[80] = "";
    if (f) {
        if (!fgets(mode, sizeof mode, f))
            mode[0] = 0;
        fclose(f);
    }
    return strstr(mode, "[always]") || strstr(mode, "[madvise]");
}

#endif
