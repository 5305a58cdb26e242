#include "io/atomic.h"
#include "util.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporaries in flight, removed by the signal handler. */
#define MAX_LIVE 64
static char live[MAX_LIVE][4096];
static volatile sig_atomic_t live_used[MAX_LIVE];

static void on_signal(int sig)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live_used[i])
            unlink(live[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* At exit, a temporary nobody committed is removed: an error path that forgot it leaves nothing. */
static void remove_uncommitted(void)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live_used[i]) {
            unlink(live[i]);
            live_used[i] = 0;
        }
}

static void track(const char *tmp)
{
    static int installed;
    if (!installed) {
        atexit(remove_uncommitted);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        installed = 1;
    }
    for (int i = 0; i < MAX_LIVE; i++)
        if (!live_used[i]) {
            snprintf(live[i], sizeof live[i], "%s", tmp);
            live_used[i] = 1;
            return;
        }
}

static void untrack(const char *tmp)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live_used[i] && strcmp(live[i], tmp) == 0)
            live_used[i] = 0;
}

char *path_join(char *buf, size_t n, const char *dir, const char *name)
{
    if (!dir || !dir[0])
        snprintf(buf, n, "%s", name);
    else
        snprintf(buf, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
    return buf;
}

const char *atomic_reserve(atomic_file *a, const char *path)
{
    memset(a, 0, sizeof *a);
    if (strlen(path) + 16 >= sizeof a->path) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    snprintf(a->path, sizeof a->path, "%s", path);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (mkdir_p(dir) != 0)
            return NULL;
    }
    /* A unique name in the same folder, so that rename is atomic. */
    snprintf(a->tmp, sizeof a->tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        a->tmp[0] = '\0';
        return NULL;
    }
    /* mkstemp makes the file private (0600); an output file gets the usual 0666 less the umask. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    track(a->tmp);
    return a->tmp;
}

FILE *atomic_open(atomic_file *a, const char *path)
{
    if (!atomic_reserve(a, path))
        return NULL;
    a->f = fopen(a->tmp, "w");
    if (!a->f) {
        int e = errno;
        atomic_abort(a);
        errno = e;
    }
    return a->f;
}

FILE *atomic_open_in(atomic_file *a, const char *dir, const char *name)
{
    char path[4096];
    return atomic_open(a, path_join(path, sizeof path, dir, name));
}

int atomic_commit(atomic_file *a)
{
    if (!a->tmp[0]) {
        errno = EINVAL;
        return -1;
    }
    if (a->f) {
        int bad = ferror(a->f);
        if (fclose(a->f) != 0 || bad) {
            int e = errno ? errno : EIO;
            a->f = NULL;
            atomic_abort(a);
            errno = e;
            return -1;
        }
        a->f = NULL;
    }
    if (rename(a->tmp, a->path) != 0) {
        int e = errno;
        atomic_abort(a);
        errno = e;
        return -1;
    }
    untrack(a->tmp);
    a->tmp[0] = '\0';
    return 0;
}

void atomic_abort(atomic_file *a)
{
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
    }
    if (a->tmp[0]) {
        unlink(a->tmp);
        untrack(a->tmp);
        a->tmp[0] = '\0';
    }
}

FILE *atomic_open_or_exit(atomic_file *a, const char *program, const char *dir, const char *name)
{
    FILE *f = atomic_open_in(a, dir, name);
    if (!f) {
        char path[4096];
        fprintf(stderr, "%s: cannot write %s: %s\n", program, path_join(path, sizeof path, dir, name), strerror(errno));
        exit(1);
    }
    return f;
}

void atomic_commit_or_exit(atomic_file *a, const char *program)
{
    char path[sizeof a->path];
    snprintf(path, sizeof path, "%s", a->path);
    if (atomic_commit(a) != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", program, path, strerror(errno));
        exit(1);
    }
}
