#include "workers.h"
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define MAX_WORKERS 1024
static volatile pid_t live[MAX_WORKERS];
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (int)(sizeof stop_signals / sizeof stop_signals[0])

static void on_stop(int sig)
{
    for (int i = 0; i < MAX_WORKERS; i++)
        if (live[i] > 0)
            kill(live[i], SIGKILL);
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
    for (int i = 0; i < NSTOP; i++)
        sigaction(stop_signals[i], &sa, NULL);
}

pid_t workers_fork(void)
{
    pid_t parent = getpid();
    /* no stop signal between the fork and the parent's note of the new pid */
    sigset_t block, old;
    sigemptyset(&block);
    for (int i = 0; i < NSTOP; i++)
        sigaddset(&block, stop_signals[i]);
    sigprocmask(SIG_BLOCK, &block, &old);
    pid_t pid = fork();
    if (pid == 0) {
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
                live[i] = pid;
                break;
            }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return pid;
}

void workers_forget(pid_t pid)
{
    for (int i = 0; i < MAX_WORKERS; i++)
        if (live[i] == pid)
            live[i] = 0;
}
