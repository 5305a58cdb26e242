/* set.h: a program's methods. A method set holds the built-in methods in lecture order, then the
 * tableau files the program loaded (--add-method, --method FILE.tab), whose methods it owns. The
 * lessons loop over a set's all and their figures take their series from the data, so a
 * student's method appears in every table and figure. main makes the set and hands it to the flag
 * table (METHOD_ADD_OPT, METHOD_ARG_OPT) and to the code that loops over the methods. */
#ifndef IVPLAB_METHOD_SET_H
#define IVPLAB_METHOD_SET_H
#include "base/cli.h"
#include "method/method.h"
#include "method/tableau.h"
#include <stddef.h>

/* Most methods a program holds: the built-in ones and the tableau files it was given. */
#define METHOD_MAX 20

typedef struct method_set {
    const method
        *all[METHOD_MAX + 1]; /* the built-in methods, then the loaded ones; NULL-terminated */
    int n;                              /* methods in all */
    int nloaded;                        /* entries of loaded in use */
    tableau_method
        loaded[METHOD_MAX]; /* the tableau files' methods (all points here: do not copy a set) */
} method_set;

/* The built-in methods (method_builtin), nothing loaded. */
void method_set_init(method_set *s);
/* Forget every method; the set is then empty (init makes it usable again). */
void method_set_free(method_set *s);
/* The method of s called name, or NULL. */
const method *method_set_find(const method_set *s, const char *name);
/* Append m to s->all. 0, or -1 with the reason in err (the name is taken, the set full). */
int method_set_add(method_set *s, const method *m, char *err, size_t errlen);
/* Read a tableau file and add its method to s; the same path twice gives the same method. The
 * method, or NULL with "FILE:LINE: reason" (or why it cannot be added) in err. */
const method *method_set_load(method_set *s, const char *path, char *err, size_t errlen);

/* --add-method FILE.tab: load the file into the set dest (cli_parse_fn). The flag repeats; a
 * cli.h that refuses repeated flags marks the ones that may repeat with CLI_REPEAT. */
int method_add_parse(const char *text, void *dest, char *why, size_t whylen);
#ifdef CLI_REPEAT
#define METHOD_ADD_REPEAT CLI_REPEAT
#else
#define METHOD_ADD_REPEAT 0u
#endif
#define METHOD_ADD_OPT(set)                                                                      \
    {.name = "add-method", .kind = CLI_CUSTOM, .dest = &(set), .unit = "",                     \
     .help = "add the method of a Butcher tableau file to every table and figure (repeatable)", \
     .open = METHOD_ADD_REPEAT, .parse = method_add_parse,                                     \
     .accepts = "a tableau file FILE.tab (examples: lessons/methods/)"}

/* --method NAME or --method FILE.tab, for a program that runs one method. */
typedef struct method_arg {
    method_set *set;        /* the program's methods: where a file's method goes */
    const char *
        *name; /* the program's variable: a built-in name, a word of also, or a file's method */
    const char *also; /* other words the program takes, "cvode" or "lecture|all" (NULL: none) */
    char accepts[400];      /* what --help and errors say is accepted (method_arg_accepts) */
} method_arg;
int method_arg_parse(const char *text, void *dest, char *why, size_t whylen);
/* Fill ma->accepts from the set, also and the default (*ma->name); returns it. */
const char *method_arg_accepts(method_arg *ma);
#define METHOD_ARG_OPT(ma, help_)                                                           \
    {.name = "method", .kind = CLI_CUSTOM, .dest = &(ma), .unit = "", .help = (help_),    \
     .parse = method_arg_parse, .accepts = method_arg_accepts(&(ma))}

#endif
