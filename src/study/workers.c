#include "study/workers.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define MAX_WORKERS 1024
static volatile pid_t live[MAX_WORKERS];
static volatile sig_atomic_t group[MAX_WORKERS];  /* live[i] leads a session of its own */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (int)(sizeof stop_signals / sizeof stop_signals[0])

static struct sigaction prev[NSTOP];   /* what was installed before: called after ours */

/* SIGTERM to every process of the session sid (a command and all it started, whatever process
 * groups they made, e.g. timeout(1)'s): found in /proc with system calls only (signal-safe). */
static void end_session(pid_t sid)
{
    int dir = open("/proc", O_RDONLY | O_DIRECTORY);
    if (dir < 0) {
        kill(-sid, SIGTERM);
        return;
    }
    char buf[4096];
    long n;
    while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0)
        for (long off = 0; off < n;) {
            struct { unsigned long long ino; long long off; unsigned short reclen; unsigned char type; char name[]; } *d =
                (void *)(buf + off);
            pid_t pid = 0;
            const char *c = d->name;
            while (*c >= '0' && *c <= '9')
                pid = pid * 10 + (*c++ - '0');
            if (!*c && pid > 0 && getsid(pid) == sid)
                kill(pid, SIGTERM);
            off += d->reclen;
        }
    close(dir);
}

static void on_stop(int sig)
{
    for (int i = 0; i < MAX_WORKERS; i++)
        if (live[i] > 0) {
            if (group[i])
                end_session(live[i]);
            else
                kill(live[i], SIGKILL);
        }
    for (int i = 0; i < NSTOP; i++)
        if (stop_signals[i] == sig && prev[i].sa_handler != SIG_DFL && prev[i].sa_handler != SIG_IGN &&
            !(prev[i].sa_flags & SA_SIGINFO))
            prev[i].sa_handler(sig);   /* e.g. io/atomic's: removes its temporaries, ends the program */
    signal(sig, SIG_DFL);
    raise(sig);
}

void workers_guard(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NSTOP; i++)
        sigaddset(&sa.sa_mask, stop_signals[i]);
    for (int i = 0; i < NSTOP; i++) {
        struct sigaction cur;
        sigaction(stop_signals[i], NULL, &cur);
        if (cur.sa_handler == on_stop)
            continue;
        prev[i] = cur;
        sigaction(stop_signals[i], &sa, NULL);
    }
}

static pid_t start(bool own_group)
{
    workers_guard();    /* on top again if another module installed its handler since */
    pid_t parent = getpid();
    /* no stop signal between the fork and the parent's note of the new pid */
    sigset_t block, old;
    sigemptyset(&block);
    for (int i = 0; i < NSTOP; i++)
        sigaddset(&block, stop_signals[i]);
    sigprocmask(SIG_BLOCK, &block, &old);
    pid_t pid = fork();
    if (pid == 0) {
        if (own_group)
            setsid();       /* a session of its own: end_session finds all it starts */
        for (int i = 0; i < NSTOP; i++)
            signal(stop_signals[i], SIG_DFL);
        for (int i = 0; i < MAX_WORKERS; i++)
            live[i] = 0;
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)    /* the parent died before prctl */
            _exit(1);
        sigprocmask(SIG_SETMASK, &old, NULL);
        return 0;
    }
    if (pid > 0)
        for (int i = 0; i < MAX_WORKERS; i++)
            if (live[i] <= 0) {
                group[i] = own_group;
                live[i] = pid;
                break;
            }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return pid;
}

pid_t workers_fork(void) { return start(false); }

/* SIGKILL to every child of this process until none is left. The caller is a subreaper
 * (PR_SET_CHILD_SUBREAPER): a killed child's own children come to it, and are killed in turn;
 * waitpid's ECHILD then means no descendant is left, whatever sessions or groups they made. */
static void kill_descendants(void)
{
    char me[32];
    snprintf(me, sizeof me, "%d", (int)getpid());
    for (;;) {
        DIR *d = opendir("/proc");
        for (struct dirent *e; d && (e = readdir(d));) {
            char path[300], stat[512];
            snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            int fd = e->d_name[0] >= '1' && e->d_name[0] <= '9' ? open(path, O_RDONLY) : -1;
            ssize_t n = fd < 0 ? -1 : read(fd, stat, sizeof stat - 1);
            if (fd >= 0)
                close(fd);
            if (n <= 0)
                continue;
            stat[n] = '\0';
            char *paren = strrchr(stat, ')');       /* "pid (comm) state ppid ..." */
            char ppid[32];
            if (paren && sscanf(paren + 1, " %*c %31s", ppid) == 1 && strcmp(ppid, me) == 0)
                kill((pid_t)atol(e->d_name), SIGKILL);
        }
        if (d)
            closedir(d);
        if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
            return;
    }
}

/* The guard between this program and a command: a subreaper that runs cmd, waits for it, then
 * kills whatever it left running (a background job); on a stop signal, or when the program dies
 * (PR_SET_PDEATHSIG, SIGKILL included), it kills everything the command started and exits.
 * Exits with the command's status (128 + its signal when one ended it). */
static _Noreturn void guard(const char *cmd, pid_t parent)
{
    sigset_t wait_for, old;
    sigemptyset(&wait_for);
    for (int i = 0; i < NSTOP; i++)
        sigaddset(&wait_for, stop_signals[i]);
    sigaddset(&wait_for, SIGCHLD);
    sigprocmask(SIG_BLOCK, &wait_for, &old);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    int code = 128 + SIGTERM;
    pid_t c = getppid() == parent ? fork() : -1;
    if (c == 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    for (int sig = 0, st; c > 0;) {
        if (waitpid(c, &st, WNOHANG) == c) {
            code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            break;
        }
        if (sig != SIGCHLD && sig != 0)     /* a stop signal, or the program died */
            break;
        sig = sigwaitinfo(&wait_for, NULL);
    }
    kill_descendants();
    _exit(code);
}

int workers_system(const char *cmd)
{
    fflush(NULL);
    pid_t parent = getpid(), pid = start(true);
    if (pid < 0)
        return -1;
    if (pid == 0)
        guard(cmd, parent);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            status = -1;
            break;
        }
    workers_forget(pid);
    return status;
}

void workers_forget(pid_t pid)
{
    for (int i = 0; i < MAX_WORKERS; i++)
        if (live[i] == pid)
            live[i] = 0;
}
