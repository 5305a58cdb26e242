/* json.h: JSON files such as challenge.json, read by jansson (Debian's libjansson-dev): strict
 * JSON only (no NaN, Infinity, hex numbers or text after the value), a member name given twice
 * in one object refused, nesting bounded by jansson. Members are found by a dotted path
 * ("output.signal_scale"), and every error names the member: a syntax error the member it is in
 * (with its line and column), a lookup the path. Free a document with json_decref. */
#ifndef IVPLAB_JSON_H
#define IVPLAB_JSON_H
#include <jansson.h>
#include <stddef.h>

#define JSON_DOC_MAX_BYTES (1 << 20)    /* larger files are refused before parsing */

/* Parse len bytes; NULL with "line L, column C, in MEMBER: reason" in err. */
json_t *json_doc_parse(const char *text, size_t len, char *err, size_t errlen);
/* Read and parse a file (a regular file, FIFO or device; not a directory, at most
 * JSON_DOC_MAX_BYTES); NULL with "FILE: reason" in err. */
json_t *json_doc_load(const char *path, char *err, size_t errlen);

/* The value at a dotted path of object members ("fields.t.count"), or NULL. */
json_t *json_doc_get(const json_t *root, const char *path);
/* The number at path: 0, or -1 with "PATH is missing" or "PATH is a string, expected a number" in err. */
int json_doc_number(const json_t *root, const char *path, double *out, char *err, size_t errlen);
/* The string at path: 0 (*out NULL when absent and optional), or -1 with the reason in err. */
int json_doc_string(const json_t *root, const char *path, const char **out, char *err, size_t errlen);

#endif
