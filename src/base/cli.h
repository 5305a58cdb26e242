/* cli.h: the one command-line parser every program uses. A program lists its flags as a
 * table of descriptors (name, kind, variable, unit, accepted range, help), one FLAG_ macro a
 * row; --help is made from it and every bad value is refused with one line naming the flag, the
 * value and what is accepted, exit status 2. The same descriptor is a key of a parameter file
 * (io/params.h): a model declares its parameters once, and a program's table includes them
 * (FLAG_TABLE) to make them flags. */
#ifndef IVPLAB_CLI_H
#define IVPLAB_CLI_H
#include <stdbool.h>
#include <stddef.h>

typedef enum {
    CLI_DOUBLE,     /* dest: double*, checked against [min, max] */
    CLI_LONG,       /* dest: long*, an integer in [min, max] */
    CLI_STRING,     /* dest: const char** */
    CLI_FLAG,       /* dest: bool*, takes no value: --NAME turns it on, --no-NAME off */
    CLI_CHOICE,     /* dest: const char**, one of choices "a|b|c" */
    CLI_CUSTOM,     /* dest: anything; parse() converts the text */
    CLI_TABLE       /* no flag itself: table's rows are included here */
} cli_kind;

#define CLI_CLOSED   0u     /* both ends of the range accepted */
#define CLI_OPEN_MIN 1u     /* min itself is not accepted */
#define CLI_OPEN_MAX 2u     /* max itself is not accepted */
#define CLI_REPEAT                                                                                 \
    4u /* the flag may be given more than once (each given value applied in turn);                 \
        * any other flag given twice is refused */
#define CLI_WHOLE    8u     /* CLI_DOUBLE: only a whole number (said and refused as CLI_LONG is) */

/* Converts text into dest; nonzero with a reason in why when the text is not accepted. */
typedef int (*cli_parse_fn)(const char *text, void *dest, char *why, size_t whylen);

typedef struct cli_opt {
    const char *name;       /* the flag without dashes: "h" for --h; NULL ends the table */
    cli_kind kind;
    void *dest;             /* where the value goes (its value before parsing is the default);
                             * CLI_TABLE: the rows included (ended by FLAG_END) */
    const char *unit;       /* SI unit shown in --help, "" for none */
    const char *help;       /* one line */
    double min, max;        /* accepted range of numbers */
    unsigned open;          /* CLI_OPEN_MIN | CLI_OPEN_MAX, and CLI_REPEAT */
    const char *choices;    /* CLI_CHOICE: "a|b|c" */
    cli_parse_fn parse;     /* CLI_CUSTOM */
    const char *accepts;    /* CLI_CUSTOM: what is accepted, in words; a parameter (any other
                             * kind): its --flag when spelled otherwise than its key, the name
                             * (FLAG_SPELLED("max-step") for the key max_step) */
} cli_opt;

/* One descriptor a row. var is the variable itself (its address is taken and its type checked);
 * open is CLI_CLOSED or CLI_OPEN_MIN | CLI_OPEN_MAX (and CLI_WHOLE). The help is last, and may
 * be followed by more designated fields, e.g. FLAG_SPELLED:
 *     FLAG_REAL("max_step", s->max_step, "s", 0, 1, CLI_OPEN_MIN, "CVODE largest step",
 *               FLAG_SPELLED("max-step"))     the key max_step, the flag --max-step */
#define CLI_DEST(type, var) ((void *)(1 ? &(var) : (type *)0))
#define FLAG_REAL(name_, var, unit_, lo, hi, open_, ...)                                           \
    {.name = (name_), .kind = CLI_DOUBLE, .dest = CLI_DEST(double, var), .unit = (unit_),          \
     .min = (lo), .max = (hi), .open = (open_), .help = __VA_ARGS__}
#define FLAG_WHOLE(name_, var, lo, hi, ...)                                                        \
    {.name = (name_), .kind = CLI_LONG, .dest = CLI_DEST(long, var), .unit = "", .min = (lo),     \
     .max = (hi), .help = __VA_ARGS__}
#define FLAG_BOOL(name_, var, ...)                                                                 \
    {                                                                                              \
        .name = (name_), .kind = CLI_FLAG, .dest = CLI_DEST(bool, var), .unit = "",                \
        .help = __VA_ARGS__                                                                        \
    }
#define FLAG_TEXT(name_, var, ...)                                                                 \
    {.name = (name_), .kind = CLI_STRING, .dest = CLI_DEST(const char *, var), .unit = "",        \
     .help = __VA_ARGS__}
#define FLAG_CHOICE(name_, var, choices_, ...)                                                     \
    {.name = (name_), .kind = CLI_CHOICE, .dest = CLI_DEST(const char *, var), .unit = "",        \
     .choices = (choices_), .help = __VA_ARGS__}
/* dest: a pointer handed to parse as it is (NULL if parse keeps its own state). */
#define FLAG_CUSTOM(name_, dest_, unit_, parse_, accepts_, ...)                                    \
    {.name = (name_), .kind = CLI_CUSTOM, .dest = (dest_), .unit = (unit_), .parse = (parse_),    \
     .accepts = (accepts_), .help = __VA_ARGS__}
#define FLAG_SPELLED(flag) .accepts = (flag)
/* The rows of another table (a model's parameters) included here, each the flag of its key or
 * FLAG_SPELLED. */
#define FLAG_TABLE(rows) {.kind = CLI_TABLE, .dest = (void *)(rows)}
#define FLAG_END {.name = NULL}

/* Is o the end of its table? */
static inline bool cli_end(const cli_opt *o) { return !o->name && o->kind != CLI_TABLE; }

/* The rows of opts with every FLAG_TABLE replaced by its rows, into out (room for cap rows, the
 * FLAG_END included); as_flags: each row named by its flag (FLAG_SPELLED if set). Returns the
 * count without FLAG_END; more than cap - 1 rows is a program error (abort). */
size_t cli_flatten(const cli_opt *opts, bool as_flags, cli_opt *out, size_t cap);
#define CLI_MAX_ROWS 160

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

#define CLI_COMMON_OPTS(c)                                                                  \
    FLAG_BOOL("tsv", (c).tsv, "print the table as tab-separated values with a header row"),  \
    FLAG_TEXT("out", (c).out, "folder for data files (figures read them from here)")

/* --wide, for a program whose human table leaves out wide columns (io/table.h) to fit 100 columns.
 */
#define CLI_WIDE_OPT(flag)                                                                  \
    FLAG_BOOL("wide", flag,                                                                 \
        "print every column (the human table shows those that fit 100 columns)")

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
 * no spaces, no hex, no inf or nan); 0 on success. A subnormal is accepted as the nearest double.
 */
int cli_number(const char *text, double *out);
/* The same, with the reason when refused ("is not a finite number in decimal notation ...",
 * "overflows a double ...", "underflows to zero ..."); NULL on success. */
const char *cli_number_error(const char *text, double *out);

/* text for a message: printable ASCII and printable UTF-8 kept, every other byte as \xHH, cut
 * with "..." to fit n bytes. Returns buf. */
const char *cli_escape(const char *text, char *buf, size_t n);

#endif
