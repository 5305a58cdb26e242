#include "io/json.h"
#include "util.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *p;          /* next character */
    const char *start;      /* the whole text, for line numbers */
    char *err;
    size_t errlen;
    int depth;              /* nesting, bounded */
} parser;

static int fail(parser *ps, const char *what)
{
    int line = 1;
    for (const char *q = ps->start; q < ps->p; q++)
        line += *q == '\n';
    snprintf(ps->err, ps->errlen, "line %d: %s", line, what);
    return -1;
}

static void skip(parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static int parse_value(parser *ps, json *out);

static int parse_string(parser *ps, char **out)
{
    ps->p++;    /* opening quote */
    size_t cap = 16, n = 0;
    char *s = xcalloc(cap, 1);
    for (;;) {
        char ch = *ps->p++;
        if (ch == '\0' || ch == '\n') {
            free(s);
            ps->p--;
            return fail(ps, "unterminated string");
        }
        if (ch == '"')
            break;
        if (ch == '\\') {
            char e = *ps->p++;
            switch (e) {
            case '"': case '\\': case '/': ch = e; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'n': ch = '\n'; break;
            case 'r': ch = '\r'; break;
            case 't': ch = '\t'; break;
            case 'u': {
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    char h = *ps->p++;
                    if (!isxdigit((unsigned char)h)) {
                        free(s);
                        return fail(ps, "bad \\u escape");
                    }
                    v = v * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0' : (tolower((unsigned char)h) - 'a' + 10));
                }
                ch = v < 0x80 ? (char)v : '?';
                break;
            }
            default:
                free(s);
                return fail(ps, "bad escape in string");
            }
        }
        if (n + 1 >= cap) {
            s = realloc(s, cap *= 2);
            if (!s) {
                fprintf(stderr, "out of memory\n");
                exit(1);
            }
        }
        s[n++] = ch;
    }
    s[n] = '\0';
    *out = s;
    return 0;
}

static int parse_value(parser *ps, json *out)
{
    memset(out, 0, sizeof *out);
    skip(ps);
    if (++ps->depth > 64)
        return fail(ps, "nesting deeper than 64");
    int rc = 0;
    char ch = *ps->p;
    if (ch == '{' || ch == '[') {
        bool obj = ch == '{';
        out->type = obj ? JSON_OBJECT : JSON_ARRAY;
        ps->p++;
        skip(ps);
        json **tail = &out->child;
        if (*ps->p == (obj ? '}' : ']')) {
            ps->p++;
        } else {
            for (;;) {
                char *key = NULL;
                skip(ps);
                if (obj) {
                    if (*ps->p != '"')
                        return fail(ps, "expected a member name in quotes");
                    if (parse_string(ps, &key))
                        return -1;
                    skip(ps);
                    if (*ps->p != ':') {
                        free(key);
                        return fail(ps, "expected ':' after a member name");
                    }
                    ps->p++;
                }
                json *v = xcalloc(1, sizeof *v);
                *tail = v;
                tail = &v->next;
                if (parse_value(ps, v)) {
                    free(key);
                    return -1;
                }
                v->key = key;
                skip(ps);
                if (*ps->p == ',') {
                    ps->p++;
                    continue;
                }
                if (*ps->p == (obj ? '}' : ']')) {
                    ps->p++;
                    break;
                }
                return fail(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
            }
        }
    } else if (ch == '"') {
        out->type = JSON_STRING;
        rc = parse_string(ps, &out->string);
    } else if (strncmp(ps->p, "true", 4) == 0 || strncmp(ps->p, "false", 5) == 0) {
        out->type = JSON_BOOL;
        out->number = ch == 't';
        ps->p += ch == 't' ? 4 : 5;
    } else if (strncmp(ps->p, "null", 4) == 0) {
        out->type = JSON_NULL;
        ps->p += 4;
    } else if (ch == '-' || isdigit((unsigned char)ch)) {
        char *end;
        errno = 0;
        out->type = JSON_NUMBER;
        out->number = strtod(ps->p, &end);
        if (end == ps->p || errno == ERANGE)
            return fail(ps, "bad number");
        ps->p = end;
    } else {
        return fail(ps, ch ? "unexpected character" : "unexpected end of text");
    }
    ps->depth--;
    return rc;
}

void json_free(json *j)
{
    while (j) {
        json *next = j->next;
        json_free(j->child);
        free(j->string);
        free(j->key);
        free(j);
        j = next;
    }
}

json *json_parse(const char *text, char *err, size_t errlen)
{
    parser ps = {text, text, err, errlen, 0};
    json *root = xcalloc(1, sizeof *root);
    if (parse_value(&ps, root) == 0) {
        skip(&ps);
        if (*ps.p == '\0')
            return root;
        fail(&ps, "text after the value");
    }
    json_free(root);
    return NULL;
}

json *json_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0, got;
    char *text = xcalloc(cap, 1);
    while ((got = fread(text + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 >= cap) {
            text = realloc(text, cap *= 2);
            if (!text) {
                fprintf(stderr, "out of memory\n");
                exit(1);
            }
        }
    }
    fclose(f);
    text[n] = '\0';
    char why[200];
    json *j = json_parse(text, why, sizeof why);
    free(text);
    if (!j)
        snprintf(err, errlen, "%s: %s", path, why);
    return j;
}

const json *json_get(const json *root, const char *path)
{
    const json *cur = root;
    const char *p = path;
    while (cur && *p) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        const json *found = NULL;
        if (cur->type == JSON_OBJECT)
            for (const json *m = cur->child; m; m = m->next)
                if (strlen(m->key) == len && strncmp(m->key, p, len) == 0)
                    found = m;      /* the last of duplicate names wins, as in most readers */
        cur = found;
        p += len + (dot ? 1 : 0);
    }
    return cur;
}

int json_number(const json *root, const char *path, double *out, char *err, size_t errlen)
{
    const json *v = json_get(root, path);
    if (!v) {
        snprintf(err, errlen, "no member %s", path);
        return -1;
    }
    if (v->type != JSON_NUMBER) {
        snprintf(err, errlen, "%s is not a number", path);
        return -1;
    }
    *out = v->number;
    return 0;
}

const char *json_string(const json *root, const char *path)
{
    const json *v = json_get(root, path);
    return v && v->type == JSON_STRING ? v->string : NULL;
}
