/* manifest.h: the files a run wrote, so that a figure draws exactly the data of the run that made
 * it. Every data file committed by atomic_commit_or_exit is noted (and what a program writes by
 * other means, by manifest_note); before --plot draws and at exit, each folder that received one
 * gets MANIFEST_NAME: their names, one a line, under a comment line naming the program and the
 * time. A later run replaces it with its own list, so a file an older run left in the folder is
 * listed by none; plot_render draws from the listed files alone. */
#ifndef IVPLAB_MANIFEST_H
#define IVPLAB_MANIFEST_H
#include <stddef.h>

#define MANIFEST_NAME "manifest.txt"

/* path was written whole by this run (its folder's manifest will list its name). */
void manifest_note(const char *path);
/* Write (replace) the manifest of every folder this run wrote into; 0, or -1 with errno. */
int manifest_write(void);
/* The names dir's manifest lists, into names (up to max, each under 256 bytes); how many, or -1
 * when dir has no manifest (data from before manifests, or copied by hand: every file counts). */
int manifest_read(const char *dir, char names[][256], int max);

#endif
