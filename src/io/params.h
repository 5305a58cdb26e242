/* params.h: named parameter sets (lessons/params/NAME.ini). A model declares its parameters
 * once, as a table of the descriptors of base/cli.h (FLAG_REAL: key, variable, unit, accepted
 * range, help; FLAG_BOOL: on or off); params_load fills the variables from a file, refusing
 * unknown keys (naming the nearest), missing keys, non-numbers and out-of-range values. A
 * program's flag table includes the same table (FLAG_TABLE): each row is then also --KEY (or its
 * .flag), overriding the file, and --help shows the file's values as defaults.
 *
 * File format, one value a line:   key = value    # unit; where the value comes from
 * A number for FLAG_REAL (whole where PARAM_WHOLE), true or false for FLAG_BOOL.
 * Blank lines and lines starting with # or ; are comments; [section] headers are ignored.
 * Refused, with the file and line named: a key given twice, a line that is neither, an unclosed
 * [section, a NUL byte, a line over 4096 characters (never read further), a directory, a value
 * not whole where a whole number is required (PARAM_WHOLE). A UTF-8 byte-order mark opening the
 * file is skipped. What a message echoes from the file is escaped (cli_escape). */
#ifndef IVPLAB_PARAMS_H
#define IVPLAB_PARAMS_H
#include "base/cli.h"
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define PARAM_WHOLE CLI_WHOLE   /* in .open of FLAG_REAL: a whole number */

/* A parameter: the key is .name (as written in the file, and --set KEY=VALUE); the rows a table
 * includes (FLAG_TABLE) are keys too. Kinds: CLI_DOUBLE (a double variable) and CLI_FLAG. */
typedef cli_opt param_spec;

/* Fill dst, an array of param_spec, with the rows given and FLAG_END (its size is checked when
 * compiled): a model's table of keys bound at run time to the fields of its settings. */
#define PARAMS_FILL(dst, ...)                                                                     \
    do {                                                                                          \
        const param_spec rows_[] = {__VA_ARGS__, FLAG_END};                                       \
        _Static_assert(sizeof rows_ == sizeof(dst), "PARAMS_FILL: the table's size");             \
        memcpy(dst, rows_, sizeof rows_);                                                         \
    } while (0)

/* Read path into the destinations of spec. Every key of spec must appear unless
 * allow_missing. 0 on success; -1 with one line in err ("FILE:LINE: ..."). */
int params_load(const param_spec *spec, const char *path, bool allow_missing, char *err,
                size_t errlen);
/* The one rule of every --params flag: a path is a path (a bare name is first looked for in the
 * working folder); a bare name (no '/') not found there is looked up in lessons/params/. Reads
 * any subset of spec's keys. 0, or -1 with one line in err. */
int params_load_named(const param_spec *spec, const char *name, char *err, size_t errlen);
/* The rule in words, for --help. */
#define PARAMS_NAME_RULE "a path; a bare name not found here is looked up in lessons/params/"

/* Apply one "key=value" override (any length). 0 on success; -1 with a reason in err. */
int params_set(const param_spec *spec, const char *assignment, char *err, size_t errlen);
/* Check value against a key's range; 0 if accepted, else -1 with a reason in err. */
int params_check(const param_spec *ps, double value, char *err, size_t errlen);

/* Where lessons/params/name is: found from the program's own location (bin/../lessons/params),
 * else relative to the working directory. Returns a static buffer. */
const char *params_path(const char *name);

#endif
