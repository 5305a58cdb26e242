/* workers.h: worker processes end with the program that started them. workers_guard(), first in
 * main() before any work, installs handlers for SIGINT, SIGTERM and SIGHUP that kill every live
 * worker and then end the program by the same signal; workers_fork() starts a worker that the
 * kernel also kills when its parent dies in any other way (Linux PR_SET_PDEATHSIG), e.g. by
 * SIGKILL or by another module's handler that ends the process. */
#ifndef IVPLAB_WORKERS_H
#define IVPLAB_WORKERS_H
#include <sys/types.h>

void workers_guard(void);
/* Like fork(): 0 in the worker (with the default signal handlers), its pid in the parent (-1 on
 * failure, errno set). */
pid_t workers_fork(void);
/* The worker pid has been waited for: it is no longer killed on a signal. */
void workers_forget(pid_t pid);
/* Like system(3): runs cmd with /bin/sh -c under a guard process (a worker leading a session of
 * its own, a subreaper: Linux PR_SET_CHILD_SUBREAPER) that kills everything the command started
 * once the command ends (a background job too), on a stop signal to this program, and when this
 * program dies in any other way (SIGKILL included). Returns the wait status of the guard, which
 * exits with the command's status (128 + the signal that ended it); -1 if it could not start. */
int workers_system(const char *cmd);

#endif
