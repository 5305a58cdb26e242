#include "sweep/workers.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <stdbool.h>
#include <stdio.h>
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

int workers_system(const char *cmd)
{
    fflush(NULL);
    pid_t pid = start(true);
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
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
