/* failure.h: how the library reports an error (issue 31). A function that can fail returns a
 * status, 0 or the exit status its program ends with (2: bad input; 1: a numerical or I/O
 * failure), and fills a failure with the one line the program prints on stderr. The library
 * never prints it and never exits: main does (return failure_print(&e);). */
#ifndef IVPLAB_FAILURE_H
#define IVPLAB_FAILURE_H

typedef struct failure {
    int status;         /* 0: none; 2: bad input; 1: a numerical or I/O failure */
    char line[4400];    /* what main prints on stderr (without the newline): "program: ..." */
} failure;

/* e gets status and the line fmt makes; returns status. */
int failure_set(failure *e, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A refusal of bad input, worded as cli_fail words it: "program: message", the message escaped
 * (what a user typed or a file held cannot steer the terminal); status 2, returned. */
int failure_input(failure *e, const char *program, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prints e's line on stderr (an empty line: none, the failure was reported as it happened, as a
 * sweep's workers are); returns e's status (main's exit status). */
int failure_print(const failure *e);

#endif
