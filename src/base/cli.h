/* cli.h: the one command-line parser every program uses. A program lists its flags as a
 * table (name, kind, destination, unit, help, accepted range); --help is made from it and
 * every bad value is refused with one line naming the flag, the value and what is accepted,
 * exit status 2. */
#ifndef IVPLAB_CLI_H
#define IVPLAB_CLI_H
#include <stdbool.h>
#include <stddef.h>

typedef enum {
    CLI_DOUBLE,     /* dest: double*, checked against [min, max] */
    CLI_LONG,       /* dest: long*, an integer in [min, max] */
    CLI_STRING,     /* dest: const char** */
    CLI_FLAG,       /* dest: bool*, takes no value */
    CLI_CHOICE,     /* dest: const char**, one of choices "a|b|c" */
    CLI_CUSTOM      /* dest: anything; parse() converts the text */
} cli_kind;

#define CLI_OPEN_MIN 1u     /* min itself is not accepted */
#define CLI_OPEN_MAX 2u     /* max itself is not accepted */
#define CLI_REPEAT   4u     /* the flag may be given more than once (each given value applied in turn);
                             * any other flag given twice is refused */

/* Converts text into dest; nonzero with a reason in why when the text is not accepted. */
typedef int (*cli_parse_fn)(const char *text, void *dest, char *why, size_t whylen);

typedef struct cli_opt {
    const char *name;       /* the flag without dashes: "h" for --h; NULL ends the table */
    cli_kind kind;
    void *dest;             /* where the value goes (its value before parsing is the default) */
    const char *unit;       /* SI unit shown in --help, "" for none */
    const char *help;       /* one line */
    double min, max;        /* accepted range of numbers */
    unsigned open;          /* CLI_OPEN_MIN | CLI_OPEN_MAX, and CLI_REPEAT */
    const char *choices;    /* CLI_CHOICE: "a|b|c" */
    cli_parse_fn parse;     /* CLI_CUSTOM */
    const char *accepts;    /* CLI_CUSTOM: what is accepted, in words */
} cli_opt;

typedef struct cli_spec {
    const char *program;    /* "ivp" */
    const char *summary;    /* one line: what the program shows */
    const char *positional; /* e.g. "REF.wav SUB.wav [SUB.wav ...]", NULL if none */
    int min_positional;     /* how many positional arguments are required */
    const cli_opt *opts;
    const char *epilogue;   /* printed after the flags: the lesson's exercises; NULL for none */
} cli_spec;

/* The flags every program has: --tsv and --out DIR. */
typedef struct cli_common {
    bool tsv;               /* print tab-separated values with a header row */
    const char *out;        /* folder for data files */
} cli_common;

#define CLI_COMMON_OPTS(c)                                                                          \
    {"tsv", CLI_FLAG, &(c).tsv, "", "print the table as tab-separated values with a header row",   \
     0, 0, 0, NULL, NULL, NULL},                                                                    \
    {"out", CLI_STRING, &(c).out, "", "folder for data files (figures read them from here)", 0, 0, \
     0, NULL, NULL, NULL}

/* --wide, for a program whose human table leaves out wide columns (io/table.h) to fit 100 columns. */
#define CLI_WIDE_OPT(flag)                                                                          \
    {"wide", CLI_FLAG, &(flag), "", "print every column (the human table shows those that fit 100 columns)", \
     0, 0, 0, NULL, NULL, NULL}

/* Parse argv; returns the index of the first positional argument (argc if none).
 * A value is given as --flag VALUE or --flag=VALUE. Prints help and exits 0 on --help; prints
 * one line and exits 2 on any bad input, a flag given twice included (unless CLI_REPEAT). */
int cli_parse(const cli_spec *spec, int argc, char **argv);

/* The value of --flag in argv before cli_parse runs, in either form, or NULL if absent: for the
 * one flag a program must read before its table's defaults exist (bin/pluck's --challenge).
 * A repeat is refused as cli_parse refuses it (one line, exit 2). */
const char *cli_peek(const char *program, int argc, char **argv, const char *flag);

/* "program: message" on stderr, exit status 2 (for checks across several flags). The message
 * is printed escaped (cli_escape): what a user typed or a file held cannot steer the terminal. */
_Noreturn void cli_fail(const char *program, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Levenshtein distance (for naming the nearest flag or key); 99 for very long names. */
size_t cli_edit_distance(const char *a, const char *b);

/* Parse "A,B": two finite numbers separated by one comma; 0 on success. */
int cli_pair(const char *text, double *a, double *b);

/* Parse a finite number in decimal notation ([+-]digits[.digits][e[+-]digits], the whole text,
 * no spaces, no hex, no inf or nan); 0 on success. A subnormal is accepted as the nearest double. */
int cli_number(const char *text, double *out);
/* The same, with the reason when refused ("is not a finite number in decimal notation ...",
 * "overflows a double ...", "underflows to zero ..."); NULL on success. */
const char *cli_number_error(const char *text, double *out);

/* text for a message: printable ASCII and printable UTF-8 kept, every other byte as \xHH, cut
 * with "..." to fit n bytes. Returns buf. */
const char *cli_escape(const char *text, char *buf, size_t n);

#endif
