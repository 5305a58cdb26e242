#include "io/json.h"
#include "base/cli.h"
#include "base/util.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The dotted path of the member that text[pos] lies in, for an error message: a walk over the
 * brackets, quotes, colons and commas before pos (jansson has said where the text is wrong,
 * not in which member). Array elements show as [i]. */
static void member_at(const char *text, size_t pos, char *out, size_t n)
{
    enum { DEPTH = 16, KEY = 48 };
    struct { bool object, want_key; char key[KEY]; long index; } st[DEPTH];
    int depth = 0;
    for (size_t i = 0; i < pos; i++) {
        char c = text[i];
        bool top = depth > 0 && depth <= DEPTH;
        if (c == '"') {
            size_t k = 0, start = ++i;
            for (; i < pos && text[i] != '"'; i++)
                if (text[i] == '\\' && i + 1 < pos)
                    i++;
            if (top && st[depth - 1].object && st[depth - 1].want_key) {
                k = i - start < KEY - 1 ? i - start : KEY - 1;
                memcpy(st[depth - 1].key, text + start, k);
                st[depth - 1].key[k] = '\0';
            }
        } else if (c == '{' || c == '[') {
            if (depth < DEPTH)
                st[depth].object = c == '{', st[depth].want_key = c == '{', st[depth].key[0] = '\0',
                st[depth].index = 0;
            depth++;
        } else if ((c == '}' || c == ']') && depth > 0) {
            depth--;
        } else if (c == ':' && top) {
            st[depth - 1].want_key = false;
        } else if (c == ',' && top) {
            if (st[depth - 1].object)
                st[depth - 1].want_key = true, st[depth - 1].key[0] = '\0';
            else
                st[depth - 1].index++;
        }
    }
    size_t o = 0;
    out[0] = '\0';
    for (int d = 0; d < depth && d < DEPTH && o + 1 < n; d++) {
        if (st[d].object && st[d].key[0])
            o += (size_t)snprintf(out + o, n - o, "%s%s", o ? "." : "", st[d].key);
        else if (!st[d].object)
            o += (size_t)snprintf(out + o, n - o, "[%ld]", st[d].index);
        if (o >= n)
            o = n - 1;
    }
}

json_t *json_doc_parse(const char *text, size_t len, char *err, size_t errlen)
{
    json_error_t e;
    json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &e);
    if (j)
        return j;
    char member[200], shown[400], why[240];
    /* jansson points just past the token it refused: look at what came before it */
    size_t pos = (size_t)e.position < len ? (size_t)e.position : len;
    pos = pos > 0 ? pos - 1 : 0;
    member_at(text, pos, member, sizeof member);
    snprintf(err, errlen, "line %d, column %d%s%s: %s", e.line, e.column, member[0] ? ", in " : "",
             cli_escape(member, shown, sizeof shown), cli_escape(e.text, why, sizeof why));
    return NULL;
}

json_t *json_doc_load(const char *path, char *err, size_t errlen)
{
    char where[600];
    cli_escape(path, where, sizeof where);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", where, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory, not a JSON file", where);
        fclose(f);
        return NULL;
    }
    size_t cap = 4096, n = 0, got;
    char *text = xcalloc(cap, 1);
    while ((got = fread(text + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n > JSON_DOC_MAX_BYTES)
            break;
        if (n == cap)
            text = xgrow(text, &cap, cap + 1, 1);
    }
    int rerr = ferror(f) ? errno : 0;
    fclose(f);
    json_t *j = NULL;
    char why[400];
    if (rerr)
        snprintf(err, errlen, "%s: cannot read: %s", where, strerror(rerr));
    else if (n > JSON_DOC_MAX_BYTES)
        snprintf(err, errlen,
                 "%s: larger than %d bytes; accepted: a JSON file of at most that size", where,
                 JSON_DOC_MAX_BYTES);
    else if (!(j = json_doc_parse(text, n, why, sizeof why)))
        snprintf(err, errlen, "%s: %s", where, why);
    free(text);
    return j;
}

json_t *json_doc_get(const json_t *root, const char *path)
{
    json_t *cur = (json_t *)root;
    const char *p = path;
    while (cur && *p) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(len < sizeof key - 1 ? len : sizeof key - 1), p);
        cur = json_is_object(cur) ? json_object_get(cur, key) : NULL;
        p += len + (dot ? 1 : 0);
    }
    return cur;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "unknown";
}

int json_doc_number(const json_t *root, const char *path, double *out, char *err, size_t errlen)
{
    const json_t *v = json_doc_get(root, path);
    if (!v) {
        snprintf(err, errlen, "%s is missing; accepted: a number", path);
        return -1;
    }
    if (!json_is_number(v)) {
        snprintf(err, errlen, "%s is %s; accepted: a number", path, type_name(v));
        return -1;
    }
    *out = json_number_value(v);
    return 0;
}

int json_doc_string(const json_t *root, const char *path, const char **out, char *err,
                    size_t errlen)
{
    const json_t *v = json_doc_get(root, path);
    *out = NULL;
    if (!v)
        return 0;
    if (!json_is_string(v)) {
        snprintf(err, errlen, "%s is %s; accepted: a string", path, type_name(v));
        return -1;
    }
    *out = json_string_value(v);
    return 0;
}
