/* json.h: a small reader for JSON files such as challenge.json: the whole text is parsed into a
 * tree of values; members are found by a dotted path ("output.signal_scale"). Strings keep only
 * ASCII escapes (\uXXXX above 0x7f becomes '?'): enough for a specification file. */
#ifndef IVPLAB_JSON_H
#define IVPLAB_JSON_H
#include <stdbool.h>
#include <stddef.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json {
    json_type type;
    double number;          /* JSON_NUMBER; JSON_BOOL: 0 or 1 */
    char *string;           /* JSON_STRING (owned) */
    char *key;              /* member name when inside an object (owned), else NULL */
    struct json *child;     /* first element or member */
    struct json *next;      /* next sibling */
} json;

/* Parse text; NULL with "line L: reason" in err on a syntax error. */
json *json_parse(const char *text, char *err, size_t errlen);
/* Read and parse a file; NULL with "FILE: reason" in err. */
json *json_load(const char *path, char *err, size_t errlen);
void json_free(json *j);    /* NULL is fine */

/* The value at a dotted path of object members ("fields.t.count"), or NULL. */
const json *json_get(const json *root, const char *path);
/* The number at path; 0 on success, -1 with the reason in err (missing, or not a number). */
int json_number(const json *root, const char *path, double *out, char *err, size_t errlen);
/* The string at path, or NULL. */
const char *json_string(const json *root, const char *path);

#endif
