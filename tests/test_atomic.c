/* test_atomic: the output rule of io/atomic.h, both ways in: atomic_open (a stream) and
 * atomic_reserve (a name a library writes, then commit). A regular file is replaced and no
 * temporary is left; a symlink stays a link and its target gets the bytes; a FIFO's reader gets
 * them; a directory is EISDIR; a full device (made here with mknod, root only) is ENOSPC and stays
 * a device; a whole buffer over the size limit is EFBIG and leaves the old file. Everything in a
 * scratch folder. */
#include "check.h"
#include "io/atomic.h"
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/ivplab-atomic-XXXXXX";

static const char *at(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static int slurp_is(const char *path, const char *want)
{
    char got[256] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = '\0';
    fclose(f);
    return strcmp(got, want) == 0;
}

/* Files in dir whose name holds ".tmp." */
static int temporaries(const char *d)
{
    DIR *dd = opendir(d);
    int n = 0;
    for (struct dirent *e; dd && (e = readdir(dd));)
        n += strstr(e->d_name, ".tmp.") != NULL;
    if (dd)
        closedir(dd);
    return n;
}

/* Write text by one of the two ways in. 0, or -1 with errno. */
static int put(const char *path, const char *text, int by_name)
{
    atomic_file a;
    if (by_name) {
        const char *tmp = atomic_reserve(&a, path);
        if (!tmp)
            return -1;
        FILE *f = fopen(tmp, "w");      /* as gnuplot or libsndfile would, by name */
        if (!f)
            return -1;
        fputs(text, f);
        fclose(f);
        return atomic_commit(&a);
    }
    FILE *f = atomic_open(&a, path);
    if (!f)
        return -1;
    fputs(text, f);
    return atomic_commit(&a);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        printf("FAIL: no scratch folder\n");
        return 1;
    }
    char tmpdir[600];
    snprintf(tmpdir, sizeof tmpdir, "%s/tmpdir", dir);
    mkdir(tmpdir, 0700);
    setenv("TMPDIR", tmpdir, 1);
    for (int by_name = 0; by_name < 2; by_name++) {
        const char *how = by_name ? "atomic_reserve" : "atomic_open";
        char name[64];

        snprintf(name, sizeof name, "regular-%d", by_name);
        FILE *f = fopen(at(name), "w");
        fputs("old", f);
        fclose(f);
        chmod(at(name), 0640);
        struct stat st;
        check(put(at(name), "new", by_name) == 0 && slurp_is(at(name), "new") && stat(at(name), &st) == 0 &&
                  (st.st_mode & 0777) == 0640 && temporaries(dir) == 0,
              "%s: a regular file is replaced, keeps its permissions, no temporary left", how);

        snprintf(name, sizeof name, "target-%d", by_name);
        char link[64];
        snprintf(link, sizeof link, "link-%d", by_name);
        if (symlink(name, at(link)) != 0)
            perror("symlink");
        struct stat ls;
        check(put(at(link), "through", by_name) == 0 && lstat(at(link), &ls) == 0 && S_ISLNK(ls.st_mode) &&
                  slurp_is(at(name), "through") && temporaries(dir) == 0,
              "%s: a (dangling) symlink stays a link, its target is made with the bytes", how);

        snprintf(name, sizeof name, "fifo-%d", by_name);
        mkfifo(at(name), 0600);
        int p[2];
        if (pipe(p) != 0)
            return 1;
        pid_t kid = fork();
        if (kid == 0) {
            close(p[0]);
            FILE *r = fopen(at(name), "r");
            char got[64] = "";
            size_t n = r ? fread(got, 1, sizeof got - 1, r) : 0;
            if (write(p[1], got, n) < 0)
                _exit(1);
            _exit(0);
        }
        close(p[1]);
        int rc = put(at(name), "piped", by_name);
        char got[64] = "";
        ssize_t n = read(p[0], got, sizeof got - 1);
        got[n > 0 ? n : 0] = '\0';
        close(p[0]);
        waitpid(kid, NULL, 0);
        check(rc == 0 && strcmp(got, "piped") == 0 && stat(at(name), &st) == 0 && S_ISFIFO(st.st_mode) &&
                  temporaries(tmpdir) == 0,
              "%s: a FIFO's reader gets the bytes (%s), the FIFO stays, no temporary left", how, got);

        snprintf(name, sizeof name, "dir-%d", by_name);
        mkdir(at(name), 0700);
        errno = 0;
        check(put(at(name), "x", by_name) != 0 && errno == EISDIR, "%s: a directory is EISDIR", how);

        snprintf(name, sizeof name, "full-%d", by_name);
        if (mknod(at(name), S_IFCHR | 0600, makedev(1, 7)) == 0) {
            errno = 0;
            rc = put(at(name), "nowhere", by_name);
            check(rc != 0 && errno == ENOSPC && stat(at(name), &st) == 0 && S_ISCHR(st.st_mode) &&
                      temporaries(tmpdir) == 0 && temporaries(dir) == 0,
                  "%s: a full device is ENOSPC (%s) and stays a device", how, strerror(errno));
        } else {
            printf("note: not root (mknod refused): the full-device case of %s is skipped\n", how);
        }
    }
    /* atomic_write preallocates its temporary: a file too large for the process's size limit
     * (EFBIG, as a full disk is ENOSPC) fails before a byte is written, the old file keeps its
     * bytes and no temporary is left. In a child, whose limit ends with it. */
    FILE *old = fopen(at("limited"), "w");
    fputs("old", old);
    fclose(old);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {1024, 1024};
        setrlimit(RLIMIT_FSIZE, &lim);
        static char big[4096];
        memset(big, 'x', sizeof big);
        errno = 0;
        int rc = atomic_write(at("limited"), big, sizeof big);
        _exit(rc != 0 && errno == EFBIG ? 0 : 1);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0 && slurp_is(at("limited"), "old") && temporaries(dir) == 0,
          "atomic_write: a file over the size limit is EFBIG, the old file keeps its bytes, no temporary left");

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return check_done();
}
