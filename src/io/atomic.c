/* fopencookie: the stream keeps the reason of the first failed write or close. */
#define _GNU_SOURCE
#include "io/atomic.h"
#include "base/cli.h"
#include "base/util.h"
#include <errno.h>
#include <time.h>
#include <stdio.h>
#include <stdbool.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
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

/* The real standard output once a file named "-" took it (fd 1 then points at standard
 * error, so that the program's report cannot mix into the file); -2 once that file is closed. */
static int stdout_fd = -1;
static const char *stdout_flag;     /* the flag that took it */

static int take_stdout(void)
{
    if (stdout_fd != -1)
        return 0;
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    if (fd < 0)
        return -1;
    if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        close(fd);
        return -1;
    }
    stdout_fd = fd;
    return 0;
}

/* Follow path's symlinks, hop by hop, to the name at their end (which may not exist yet).
 * 0, or -1 with errno (ELOOP, ENAMETOOLONG, or what readlink said). */
static int follow_links(const char *path, char *out, size_t n)
{
    char cur[4096], link[4096];
    if ((size_t)snprintf(cur, sizeof cur, "%s", path) >= sizeof cur) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
            if ((size_t)snprintf(out, n, "%s", cur) >= n) {
                errno = ENAMETOOLONG;
                return -1;
            }
            return 0;
        }
        ssize_t len = readlink(cur, link, sizeof link - 1);
        if (len < 0)
            return -1;
        link[len] = '\0';
        char *slash = strrchr(cur, '/');
        if (link[0] == '/' || !slash) {
            memcpy(cur, link, (size_t)len + 1);
        } else {
            /* relative to the folder holding the link */
            slash[1] = '\0';
            if (strlen(cur) + (size_t)len >= sizeof cur) {
                errno = ENAMETOOLONG;
                return -1;
            }
            strcat(cur, link);
        }
    }
    errno = ELOOP;
    return -1;
}

/* A device, FIFO or socket: opened for writing as it is (no O_CREAT, no O_TRUNC). */
static int open_special(const char *path, mode_t mode)
{
    if (S_ISSOCK(mode)) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        if (strlen(path) >= sizeof sa.sun_path) {
            errno = ENAMETOOLONG;
            return -1;
        }
        strcpy(sa.sun_path, path);
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        return fd;
    }
    return open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
}

/* A new file next to target: a temporary in the same folder, so that rename is atomic. It gets
 * the replaced file's permissions, or the usual 0666 less the umask for a new file (mkstemp's
 * are private). For a target written straight (copy), the temporary goes in $TMPDIR instead:
 * nothing is ever created beside a device or a FIFO. */
static int open_temporary(atomic_file *a, const struct stat *old, bool copy)
{
    char dir[4096];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s", copy ? (tmpdir && tmpdir[0] ? tmpdir : "/tmp") : a->target);
    char *slash = copy ? NULL : strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (mkdir_p(dir) != 0)
            return -1;
    }
    int n = copy ? snprintf(a->tmp, sizeof a->tmp, "%s/ivplab-out.tmp.XXXXXX", dir)
                 : snprintf(a->tmp, sizeof a->tmp, "%s.tmp.XXXXXX", a->target);
    if ((size_t)n >= sizeof a->tmp) {
        a->tmp[0] = '\0';
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        a->tmp[0] = '\0';
        return -1;
    }
    track(a->tmp);
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, old ? old->st_mode & 07777 : 0666 & ~mask);
    return fd;
}

/* All n bytes to fd (a pipe may take fewer at a time). 0, or -1 with errno. */
static int write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        buf += w, n -= (size_t)w;
    }
    return 0;
}

/* Every output stream writes through these, which keep the first failure's errno: stdio's own
 * error flag forgets why (a full disk or /dev/full, a reader gone from a FIFO). */
static ssize_t stream_write(void *cookie, const char *buf, size_t n)
{
    atomic_file *a = cookie;
    if (write_all(a->fd, buf, n) != 0) {
        if (!a->error)
            a->error = errno;
        return -1;
    }
    return (ssize_t)n;
}

static int stream_close(void *cookie)
{
    atomic_file *a = cookie;
    int rc = close(a->fd);
    if (rc != 0 && !a->error)
        a->error = errno;
    a->fd = -1;
    return rc;
}

/* The rule: where path's bytes go. Sets a->path and a->target ("-" for standard output), and
 * a->mode to the target's type when it is written straight (0 for a regular or new file, which
 * is renamed over). -1 with errno (EISDIR for a directory). */
static int resolve(atomic_file *a, const char *path, struct stat *old, bool *exists)
{
    memset(a, 0, sizeof *a);
    a->fd = -1;
    *exists = false;
    if ((size_t)snprintf(a->path, sizeof a->path, "%s", path) >= sizeof a->path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (strcmp(path, "-") == 0) {
        if (take_stdout() != 0)
            return -1;
        if (stdout_fd < 0) {
            errno = EBADF;      /* standard output was already written and closed */
            return -1;
        }
        strcpy(a->target, "-");
        a->mode = S_IFIFO;
        signal(SIGPIPE, SIG_IGN);       /* a reader gone is EPIPE, reported, not a silent death */
        return 0;
    }
    if (follow_links(path, a->target, sizeof a->target) != 0)
        return -1;
    if (stat(a->target, old) != 0)
        return errno == ENOENT ? 0 : -1;
    *exists = true;
    if (S_ISDIR(old->st_mode)) {
        errno = EISDIR;
        return -1;
    }
    if (!S_ISREG(old->st_mode)) {
        a->mode = old->st_mode & S_IFMT;
        signal(SIGPIPE, SIG_IGN);
    }
    return 0;
}

/* A descriptor on a target written straight: the real standard output, or the device, FIFO or
 * socket opened as it is. */
static int open_straight(atomic_file *a)
{
    if (strcmp(a->target, "-") == 0) {
        int fd = stdout_fd;
        stdout_fd = -2;
        return fd;
    }
    return open_special(a->target, a->mode);
}

FILE *atomic_open(atomic_file *a, const char *path)
{
    struct stat old;
    bool exists;
    if (resolve(a, path, &old, &exists) != 0)
        return NULL;
    int fd = a->mode ? open_straight(a) : open_temporary(a, exists ? &old : NULL, false);
    if (fd < 0) {
        int e = errno;
        atomic_abort(a);
        errno = e;
        return NULL;
    }
    a->fd = fd;
    a->f = fopencookie(a, "w", (cookie_io_functions_t){NULL, stream_write, NULL, stream_close});
    if (!a->f) {
        int e = errno;
        close(fd);
        atomic_abort(a);
        errno = e;
    }
    return a->f;
}

const char *atomic_reserve(atomic_file *a, const char *path)
{
    struct stat old;
    bool exists;
    if (resolve(a, path, &old, &exists) != 0)
        return NULL;
    int fd = open_temporary(a, exists && !a->mode ? &old : NULL, a->mode != 0);
    if (fd < 0)
        return NULL;
    close(fd);
    return a->tmp;
}

/* A reserved temporary's bytes, copied into a target written straight. */
static int copy_out(atomic_file *a)
{
    int in = open(a->tmp, O_RDONLY | O_CLOEXEC), out = in < 0 ? -1 : open_straight(a), rc = 0;
    char buf[65536];
    ssize_t got = 0;
    while (in >= 0 && out >= 0 && rc == 0 && (got = read(in, buf, sizeof buf)) != 0)
        rc = got < 0 && errno != EINTR ? -1 : got > 0 ? write_all(out, buf, (size_t)got) : 0;
    int e = errno;
    if (in < 0 || out < 0)
        rc = -1;
    if (out >= 0 && close(out) != 0 && rc == 0)
        rc = -1, e = errno;
    if (in >= 0)
        close(in);
    errno = e;
    return rc;
}

FILE *atomic_open_in(atomic_file *a, const char *dir, const char *name)
{
    char path[4096];
    return atomic_open(a, path_join(path, sizeof path, dir, name));
}

int atomic_commit(atomic_file *a)
{
    int bad = 0, e = 0;
    if (a->f) {
        /* a short write anywhere, or a failed close, is an error with its first reason (ENOSPC on
         * a full disk or /dev/full, EPIPE when a FIFO's reader left) */
        bad = fflush(a->f) != 0 || ferror(a->f);
        bad |= fclose(a->f) != 0;
        a->f = NULL;
        e = a->error;
    } else if (!a->tmp[0]) {
        errno = EINVAL;
        return -1;
    }
    if (!bad && a->tmp[0]) {
        /* a reserved temporary goes into a target written straight by copy; else it is renamed */
        if (a->mode ? copy_out(a) != 0 : rename(a->tmp, a->target) != 0)
            bad = 1, e = errno;
    }
    if (bad) {
        atomic_abort(a);
        errno = e ? e : EIO;
        return -1;
    }
    if (a->mode)
        atomic_abort(a);        /* the copied temporary is removed */
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

int atomic_write(const char *path, const void *bytes, size_t n)
{
    atomic_file a;
    FILE *f = atomic_open(&a, path);
    if (!f)
        return -1;
    /* A temporary is given its n bytes up front: a full disk is found before a byte is written,
     * and the blocks exist when rename replaces an old file (ext4 would otherwise allocate and
     * start writing them out inside rename). Only ENOSPC matters: a file system without
     * preallocation is written as before. */
    if (!a.mode && n > 0) {
        int e = posix_fallocate(a.fd, 0, (off_t)n);
        if (e == ENOSPC || e == EFBIG) {
            atomic_abort(&a);
            errno = e;
            return -1;
        }
    }
    fwrite(bytes, 1, n, f);         /* a short write is reported by the commit, with its reason */
    return atomic_commit(&a);
}

const char *atomic_reason(int e)
{
    return e == EISDIR ? "it is a directory; accepted: " ATOMIC_ACCEPTS
           : e == ENOTDIR
               ? "a part of the path is a file, not a folder; accepted: a folder (made if missing)"
               : strerror(e);
}

/* A directory where a file goes, or a file where a folder goes, is the user's input (status 2);
 * anything else a failure (status 1). */
static int cannot_write(const char *program, const char *path, int why, failure *e)
{
    return failure_set(e, why == EISDIR || why == ENOTDIR ? 2 : 1, "%s: cannot write %s: %s",
                       program, strcmp(path, "-") ? path : "- (standard output)",
                       atomic_reason(why));
}

FILE *atomic_open_file(atomic_file *a, const char *program, const char *dir, const char *name,
                       failure *e)
{
    FILE *f = atomic_open_in(a, dir, name);
    if (!f) {
        int why = errno;
        char path[4096];
        cannot_write(program, path_join(path, sizeof path, dir, name), why, e);
    }
    return f;
}

int atomic_commit_file(atomic_file *a, const char *program, failure *e)
{
    char path[sizeof a->path];
    snprintf(path, sizeof path, "%s", a->path);
    if (atomic_commit(a) != 0)
        return cannot_write(program, path, errno, e);
    manifest_note(path);
    return 0;
}

int atomic_check_output(const char *program, const char *flag, const char *path, bool dash_ok,
                        failure *e)
{
    const char *accepts = dash_ok ? ATOMIC_ACCEPTS_DASH : ATOMIC_ACCEPTS;
    if (strcmp(path, "-") == 0) {
        if (!dash_ok)
            return failure_input(e, program,
                                 "--%s -: standard output is not accepted here; accepted: %s", flag,
                                 accepts);
        if (stdout_flag)
            return failure_input(e, program,
                                 "--%s -: standard output already carries --%s; accepted: %s", flag,
                                 stdout_flag, accepts);
        if (take_stdout() != 0)
            return failure_input(e, program,
                                 "--%s -: standard output cannot be used (%s); accepted: %s", flag,
                                 strerror(errno), accepts);
        stdout_flag = flag;
        return 0;
    }
    char target[4096];
    struct stat st;
    if (follow_links(path, target, sizeof target) != 0)
        return failure_input(e, program, "--%s %s: %s; accepted: %s", flag, path, strerror(errno),
                             accepts);
    if (stat(target, &st) == 0 && S_ISDIR(st.st_mode))
        return failure_input(e, program, "--%s %s is a directory; accepted: %s", flag, path,
                             accepts);
    return 0;
}

int atomic_check_folder(const char *program, const char *flag, const char *dir, failure *e)
{
    struct stat st;
    if (stat(dir, &st) == 0 ? !S_ISDIR(st.st_mode) : errno == ENOTDIR)
        return failure_input(
            e, program,
            "--%s %s: it is a file, or a part of it is, not a folder; accepted: a folder "
            "(made if missing)",
            flag, dir);
    return 0;
}

/* ---- the manifest: the files this run wrote, a list a folder ---- */

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
    if (!realpath(dir, real) || strlen(base) >= sizeof notes[0].name ||
        strcmp(base, MANIFEST_NAME) == 0)
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
        char *text =
            xasprintf("# the files %s wrote here in its run of %s (its figures draw these alone)\n",
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
        if (line[0] == '#' || !line[0] || strchr(line, '/') || strcmp(line, "..") == 0 ||
            strlen(line) >= 256)
            continue;
        snprintf(names[n++], 256, "%s", line);
    }
    fclose(f);
    return n;
}
