/* notebook: runs a literate C notebook (notebooks-c/NN-topic.md) and renders it as a web page.
 *
 * A notebook is Markdown. Fenced cells run in order, in one working directory per notebook:
 *   ```c        a complete C program, compiled against libivplab and run
 *   ```sh       shell commands (lesson programs are on PATH, and bin/ links to them;
 *               plots/ links to the lessons' figure scripts, so a gnuplot cell can load one)
 *   ```gnuplot  a figure (the terminal and output file are set for the cell)
 *   ```explore NAME [SETTINGS]   a live "Try it" explorer (oscillator, stability, roots, drop)
 *               computed in the page by ivplab's C as WebAssembly (src/wasm/; --wasm)
 * A cell's standard output appears under it (tab-separated output as a table; the first MiB of
 * each stream, with a note of what was cut), figures in place
 * (embedded), and a WAV the cell writes gets an audio player. Formulas are written $`...`$
 * (inline) and ```math blocks (display), so Markdown never touches the TeX; KaTeX (Debian's
 * libjs-katex, copied beside the pages) typesets them in the browser with no network.
 * Markdown is parsed and rendered by cmark-gfm. The first failing cell stops the run with the
 * notebook, the cell number and its standard error; no page is written then. */
#define _GNU_SOURCE     /* memrchr */
#include "base/cli.h"
#include "io/atomic.h"
#include "base/util.h"
#include "study/workers.h"
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FILES 512

typedef struct {
    char name[256];         /* file name in the working directory */
    double mtime;           /* modification time, s */
    long long size;         /* bytes */
} file_stamp;

typedef struct {
    const char *path;       /* the notebook's Markdown file */
    char stem[256];         /* "01-ode1" */
    char *work;             /* its working directory, absolute (owned) */
    const char *outdir;     /* where pages go, absolute */
    int cell;               /* number of the cell being run, from 1 */
    const char *wasm;       /* the explorers' WebAssembly module (build/wasm/explore.wasm) */
    const char *explore_js; /* their page script (src/wasm/explore.js) */
    int explorers;          /* ```explore blocks on this page so far */
} notebook;

/* A whole file into a NUL-terminated buffer (NULL on failure); *len gets its size. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = xcalloc(cap, 1);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *bigger = xcalloc(cap * 2, 1);
            memcpy(bigger, buf, n);
            free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* What a page shows of each output stream of a cell: the first OUTPUT_MAX bytes (cut back to a
 * whole line), then a line saying how much was cut. The runner never reads more of it. */
#define OUTPUT_MAX (1 << 20)

/* The first cap bytes of a file, cut back to its last whole line if it holds one, NUL-terminated
 * (NULL if unreadable); *total gets the file's size in bytes. */
static char *slurp_head(const char *path, size_t cap, long long *total)
{
    *total = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) == 0)
        *total = (long long)st.st_size;
    char *buf = xcalloc(cap + 1, 1);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    if ((long long)n < *total) {
        char *nl = memrchr(buf, '\n', n);
        if (nl)
            n = (size_t)(nl - buf) + 1;
    }
    buf[n] = '\0';
    return buf;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* A growing string. */
typedef struct {
    char *s;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *text, size_t len)
{
    if (b->n + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->n + len + 1 > cap)
            cap *= 2;
        char *bigger = xcalloc(cap, 1);
        if (b->s)
            memcpy(bigger, b->s, b->n);
        free(b->s);
        b->s = bigger;
        b->cap = cap;
    }
    memcpy(b->s + b->n, text, len);
    b->n += len;
    b->s[b->n] = '\0';
}

static void sb_puts(sbuf *b, const char *text) { sb_add(b, text, strlen(text)); }

static void sb_escape(sbuf *b, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        switch (text[i]) {
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '&': sb_puts(b, "&amp;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        default: sb_add(b, text + i, 1);
        }
    }
}

static void sb_base64(sbuf *b, const unsigned char *data, size_t len)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char quad[4];
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)data[i] << 16 | (i + 1 < len ? (unsigned)data[i + 1] << 8 : 0) |
                     (i + 2 < len ? data[i + 2] : 0);
        quad[0] = tab[v >> 18 & 63];
        quad[1] = tab[v >> 12 & 63];
        quad[2] = i + 1 < len ? tab[v >> 6 & 63] : '=';
        quad[3] = i + 2 < len ? tab[v & 63] : '=';
        sb_add(b, quad, 4);
    }
}

static int list_files(const char *dir, file_stamp *out)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) && n < MAX_FILES;) {
        char p[PATH_MAX];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        snprintf(out[n].name, sizeof out[n].name, "%s", e->d_name);
        out[n].mtime = (double)st.st_mtim.tv_sec + 1e-9 * (double)st.st_mtim.tv_nsec;
        out[n].size = (long long)st.st_size;
        n++;
    }
    closedir(d);
    return n;
}

static const char *extension(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : "";
}

/* The note under a cell's output when it was cut. */
static void note_cut(sbuf *b, const char *what, const char *shown, long long total)
{
    size_t n = shown ? strlen(shown) : 0;
    if (total <= (long long)n)
        return;
    char line[300];
    snprintf(line, sizeof line,
             "<p class=\"cut\">%s cut: %zu of its %lld bytes shown, %lld left out (a cell's output "
             "is shown up to %d bytes)</p>\n",
             what, n, total, total - (long long)n, OUTPUT_MAX);
    sb_puts(b, line);
}

/* Tab-separated output (at least two lines, every line with the same number of tabs, at
 * least one) becomes a table; anything else stays preformatted. */
static void render_stdout(sbuf *b, const char *out)
{
    size_t len = strlen(out);
    while (len && out[len - 1] == '\n')
        len--;
    if (!len)
        return;
    int lines = 0, tabs = -1;
    bool table = true;
    for (const char *p = out; p < out + len && table;) {
        const char *nl = memchr(p, '\n', (size_t)(out + len - p));
        const char *end = nl ? nl : out + len;
        int t = 0;
        for (const char *q = p; q < end; q++)
            t += *q == '\t';
        if (t == 0 || (tabs >= 0 && t != tabs))
            table = false;
        tabs = t;
        lines++;
        p = end + 1;
    }
    if (!table || lines < 2) {
        sb_puts(b, "<pre class=\"out\">");
        sb_escape(b, out, len);
        sb_puts(b, "</pre>\n");
        return;
    }
    sb_puts(b, "<table class=\"out\">\n");
    int row = 0;
    for (const char *p = out; p < out + len; row++) {
        const char *nl = memchr(p, '\n', (size_t)(out + len - p));
        const char *end = nl ? nl : out + len;
        sb_puts(b, "<tr>");
        for (const char *c = p; c <= end;) {
            const char *tab = memchr(c, '\t', (size_t)(end - c));
            const char *stop = tab ? tab : end;
            sb_puts(b, row == 0 ? "<th>" : "<td>");
            sb_escape(b, c, (size_t)(stop - c));
            sb_puts(b, row == 0 ? "</th>" : "</td>");
            c = stop + 1;
        }
        sb_puts(b, "</tr>\n");
        p = end + 1;
    }
    sb_puts(b, "</table>\n");
}

/* The shell command that runs cell k (output into outp and errp), NULL when a C cell cannot be
 * built. */
static char *cell_command(const notebook *nb, const char *lang, const char *outp, const char *errp)
{
    const char *cc = getenv("NB_CC"), *cflags = getenv("NB_CFLAGS"), *libs = getenv("NB_LIBS");
    int k = nb->cell;
    if (strcmp(lang, "c") == 0) {
        if (!cc || !cflags || !libs) {
            fprintf(stderr,
                    "notebook: %s: cell %d (c): NB_CC, NB_CFLAGS and NB_LIBS must be set (make "
                    "notebooks sets them)\n",
                    nb->path, k);
            return NULL;
        }
        return xasprintf("cd '%s' && %s %s .cell-%d.c %s -o .cell-%d >'%s' 2>'%s' && timeout 600 "
                         "./.cell-%d >'%s' 2>'%s'",
                         nb->work, cc, cflags, k, libs, k, outp, errp, k, outp, errp);
    }
    if (strcmp(lang, "sh") == 0)
        return xasprintf("cd '%s' && timeout 600 bash -e -o pipefail .cell-%d.sh >'%s' 2>'%s'",
                         nb->work, k, outp, errp);
    return xasprintf("cd '%s' && timeout 600 gnuplot .cell-%d.gp >'%s' 2>'%s'", nb->work, k, outp,
                     errp);
}

/* The cell's source file (a gnuplot cell gets the terminal and output file first). 0, or -1 said.
 */
static int write_cell_source(const notebook *nb, const char *lang, const char *code)
{
    const char *ext = strcmp(lang, "c") == 0 ? "c" : strcmp(lang, "sh") == 0 ? "sh" : "gp";
    char *src = xasprintf("%s/.cell-%d.%s", nb->work, nb->cell, ext);
    sbuf text = {0};
    if (strcmp(lang, "gnuplot") == 0) {
        char head[512];
        snprintf(
            head, sizeof head,
            "set terminal pngcairo size 860,480 enhanced font 'DejaVu Sans,11' background rgb "
            "'white'\n"
            "set output 'figure-%d.png'\nset datafile separator '\\t'\nset grid lc rgb '#e0e0e0'\n",
            nb->cell);
        sb_puts(&text, head);
    }
    sb_puts(&text, code);
    int wrote = write_text(src, text.s);
    free(text.s);
    if (wrote != 0)
        fprintf(stderr, "notebook: %s: cannot write %s: %s\n", nb->path, src, strerror(errno));
    free(src);
    return wrote != 0 ? -1 : 0;
}

/* A sound the cell wrote: copied beside the page (media/<notebook>-<file>), with a player. */
static int embed_sound(const notebook *nb, const char *path, const char *name, sbuf *out)
{
    char *media = xasprintf("%s/media", nb->outdir);
    mkdir_p(media);
    char *copy = xasprintf("cp '%s' '%s/%s-%s'", path, media, nb->stem, name);
    int copied = system(copy);
    free(copy);
    free(media);
    if (copied != 0) {
        fprintf(stderr, "notebook: %s: cell %d: cannot copy %s into %s/media\n", nb->path, nb->cell,
                path, nb->outdir);
        return -1;
    }
    sb_puts(out, "<p class=\"audio\"><audio controls preload=\"metadata\" src=\"media/");
    sb_escape(out, nb->stem, strlen(nb->stem));
    sb_puts(out, "-");
    sb_escape(out, name, strlen(name));
    sb_puts(out, "\"></audio> ");
    sb_escape(out, name, strlen(name));
    sb_puts(out, "</p>\n");
    return 0;
}

/* Figures (embedded) and sounds the cell made: files new or rewritten since before. */
static int embed_new_files(const notebook *nb, const file_stamp *before, int nb0, sbuf *out)
{
    static file_stamp after[MAX_FILES];
    int na = list_files(nb->work, after);
    for (int i = 0; i < na; i++) {
        bool fresh = true;
        for (int j = 0; j < nb0; j++)
            if (strcmp(before[j].name, after[i].name) == 0 && before[j].mtime == after[i].mtime)
                fresh = false;
        const char *fext = extension(after[i].name);
        if (!fresh || after[i].name[0] == '.' || after[i].size == 0)
            continue;
        char *p = xasprintf("%s/%s", nb->work, after[i].name);
        int rc = 0;
        if (strcmp(fext, "png") == 0) {
            size_t len;
            char *data = slurp(p, &len);
            if (data) {
                sb_puts(out, "<figure><img alt=\"");
                sb_escape(out, after[i].name, strlen(after[i].name));
                sb_puts(out, "\" src=\"data:image/png;base64,");
                sb_base64(out, (const unsigned char *)data, len);
                sb_puts(out, "\"></figure>\n");
                free(data);
            }
        } else if (strcmp(fext, "wav") == 0) {
            rc = embed_sound(nb, p, after[i].name, out);
        }
        free(p);
        if (rc)
            return -1;
    }
    return 0;
}

/* Run one cell; on success its rendered output (HTML) goes into out. */
static int run_cell(notebook *nb, const char *lang, const char *code, sbuf *out)
{
    int k = nb->cell;
    char *outp = xasprintf("%s/.cell-%d.out", nb->work, k),
         *errp = xasprintf("%s/.cell-%d.err", nb->work, k);
    char *cmd = cell_command(nb, lang, outp, errp);
    if (!cmd || write_cell_source(nb, lang, code) != 0) {
        free(cmd);
        free(outp);
        free(errp);
        return -1;
    }
    static file_stamp before[MAX_FILES];
    int nb0 = list_files(nb->work, before);
    int rc = workers_system(cmd);   /* a stop signal to the notebook ends the cell too */
    long long nso, nse;
    char *so = slurp_head(outp, OUTPUT_MAX, &nso), *se = slurp_head(errp, OUTPUT_MAX, &nse);
    free(cmd);
    free(outp);
    free(errp);
    if (rc != 0) {
        int status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
        fprintf(stderr, "notebook: %s: cell %d (%s) failed with exit status %d:\n%s", nb->path, k,
                lang, status, se && *se ? se : "(no standard error)\n");
        free(so);
        free(se);
        return -1;
    }
    render_stdout(out, so ? so : "");
    note_cut(out, "standard output", so, nso);
    if (se && *se) {
        sb_puts(out, "<details class=\"err\"><summary>standard error</summary><pre>");
        sb_escape(out, se, strlen(se));
        sb_puts(out, "</pre></details>\n");
    }
    note_cut(out, "standard error", se, nse);
    free(so);
    free(se);
    return embed_new_files(nb, before, nb0, out);
}

/* Replace the node by raw HTML (block or inline). */
static void replace_with_html(cmark_node *node, const char *html, bool block)
{
    cmark_node *h = cmark_node_new(block ? CMARK_NODE_HTML_BLOCK : CMARK_NODE_HTML_INLINE);
    cmark_node_set_literal(h, html);
    cmark_node_insert_before(node, h);
    cmark_node_free(node);
}

static void math_html(sbuf *b, const char *tex, bool display)
{
    sb_puts(b, display ? "<div class=\"math display\">" : "<span class=\"math\">");
    sb_escape(b, tex, strlen(tex));
    sb_puts(b, display ? "</div>\n" : "</span>");
}

/* $`tex`$: a code span between a text ending in '$' and a text starting with '$'. */
static bool inline_math(cmark_node *code)
{
    cmark_node *prev = cmark_node_previous(code), *next = cmark_node_next(code);
    if (!prev || !next || cmark_node_get_type(prev) != CMARK_NODE_TEXT ||
        cmark_node_get_type(next) != CMARK_NODE_TEXT)
        return false;
    const char *a = cmark_node_get_literal(prev), *z = cmark_node_get_literal(next);
    size_t la = strlen(a);
    if (!la || a[la - 1] != '$' || z[0] != '$')
        return false;
    char *left = xstrdup(a), *right = xstrdup(z + 1);
    left[la - 1] = '\0';
    cmark_node_set_literal(prev, left);
    cmark_node_set_literal(next, right);
    free(left);
    free(right);
    sbuf h = {0};
    math_html(&h, cmark_node_get_literal(code), false);
    replace_with_html(code, h.s, false);
    free(h.s);
    return true;
}

static const char *page_head =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<link rel=\"stylesheet\" href=\"katex/katex.min.css\">\n<script "
    "src=\"katex/katex.min.js\"></script>\n"
    "<style>\n"
    "body{font-family:'DejaVu Sans',sans-serif;max-width:60rem;margin:2rem auto;padding:0 "
    "1rem;line-height:1.5;color:#222}\n"
    "pre{background:#f6f6f6;padding:.6rem;overflow-x:auto;border-radius:4px}\n"
    "pre.cell{border-left:4px solid #1f77b4}\npre.out{background:#fff;border:1px solid #ddd}\n"
    "table{border-collapse:collapse;margin:.6rem 0}td,th{border:1px solid #ccc;padding:.2rem "
    ".5rem;text-align:right}\n"
    "th{background:#f0f0f0}figure{margin:.6rem 0}img{max-width:100%}.math.display{margin:.8rem "
    "0;text-align:center}\n"
    "details.err pre{color:#666;font-size:.85em}nav a{margin-right:1rem}\n"
    ".explorer{border:1px solid #9ecae1;border-left:4px solid #1f77b4;padding:.5rem "
    ".8rem;margin:1rem 0;background:#fbfdff}\n"
    ".explorer canvas{max-width:100%;border:1px solid #eee;background:#fff}.explorer "
    "button{margin:.15rem .3rem .15rem 0}\n"
    ".explorer button.on{background:#1f77b4;color:#fff}.ex-slider{display:block;margin:.3rem "
    "0}.ex-slider input{width:24rem}\n"
    ".ex-info{font-size:.92em;margin:.3rem 0}.ex-note{color:#666;font-style:italic}.explorer "
    ".label{font-weight:bold}\n"
    "</style>\n";

/* Typeset formulas, then check the page: images decoded, sounds found, nothing off this disk. */
static const char *page_tail =
    "<pre id=\"nbcheck\" hidden></pre>\n<script>\n"
    "document.querySelectorAll('.math').forEach(function(e){\n"
    "  if (window.katex) katex.render(e.textContent, e, {displayMode: "
    "e.classList.contains('display'), throwOnError: false});\n"
    "});\n"
    "window.addEventListener('load', function(){\n"
    "  var imgs = Array.from(document.images), bad = imgs.filter(function(i){return !(i.complete "
    "&& i.naturalWidth > 0);});\n"
    "  var net = Array.from(document.querySelectorAll('[src],[href]')).filter(function(e){\n"
    "    var u = e.src || e.href; return !/^(file|data|about):/.test(u);});\n"
    "  var audio = Array.from(document.querySelectorAll('audio'));\n"
    "  var done = 0, audio_bad = 0;\n"
    "  function report(){ document.getElementById('nbcheck').textContent = 'NBCHECK images=' + "
    "(imgs.length - bad.length) +\n"
    "      '/' + imgs.length + ' audio=' + (audio.length - audio_bad) + '/' + audio.length + ' "
    "network=' + net.length +\n"
    "      ' katex=' + (window.katex ? 'yes' : 'no'); }\n"
    "  if (!audio.length) report();\n"
    "  audio.forEach(function(a){\n"
    "    function fin(ok){ if (!ok) audio_bad++; if (++done == audio.length) report(); }\n"
    "    if (a.readyState >= 1) fin(true); else { a.addEventListener('loadedmetadata', "
    "function(){fin(true);});\n"
    "      a.addEventListener('error', function(){fin(false);}); a.load(); }\n"
    "  });\n"
    "});\n</script>\n</body></html>\n";

/* ```explore NAME [SETTINGS]: a live explorer of the lecture's "Try it" (issue 19), computed in
 * the page by ivplab's C as WebAssembly (src/wasm/). The block's text is its caption; SETTINGS, a
 * file an earlier cell wrote or one of the sources (lessons/params/ball.ini), is embedded for the
 * explorer to read. Without the
 * module (no wasm toolchain) a note stands in its place. 0, or -1 said. */
static const char *const explorers[][3] = {
    {"oscillator", "raise h, switch methods", "bin/ivp --method euler --h 0.1"},
    {"stability", "the stability region explorer", "bin/stability --z 0,2.8284"},
    {"roots", "slide sigma0/omega0 from 0 to 2", "bin/oscillator --ratio 1"},
    {"drop", "drop and listen", "bin/audiorate --method rk4 --fs 11025"},
};

static int explorer_html(notebook *nb, const char *info, const char *caption, sbuf *h)
{
    char name[32] = "", settings[PATH_MAX] = "";
    sscanf(info, "%*s %31s %4095s", name, settings);
    int which = -1;
    for (int i = 0; i < (int)(sizeof explorers / sizeof explorers[0]); i++)
        if (strcmp(explorers[i][0], name) == 0)
            which = i;
    if (which < 0) {
        fprintf(stderr,
                "notebook: %s: explore block '%s': unknown explorer; accepted: "
                "oscillator|stability|roots|drop\n",
                nb->path, name);
        return -1;
    }
    bool live = access(nb->wasm, R_OK) == 0;
    sb_puts(h, live ? "<div class=\"explorer\" data-explorer=\""
                    : "<div class=\"explorer off\" data-explorer=\"");
    sb_puts(h, name);
    sb_puts(h, "\"><div class=\"label\">Try it, live: ");
    sb_puts(h, explorers[which][1]);
    sb_puts(h, "</div>\n<p class=\"ex-caption\">");
    sb_escape(h, caption, strlen(caption));
    sb_puts(h, live ? "</p>\n<p class=\"ex-note\">Loading ivplab's C as WebAssembly ...</p>\n"
                    : "</p>\n<p class=\"ex-note\">This page was built without the wasm toolchain "
                      "(Debian: clang lld "
                      "wasi-libc libclang-rt-14-dev-wasm32), so this explorer is not here; the "
                      "lesson program gives "
                      "its numbers: <code>");
    if (!live) {
        sb_puts(h, explorers[which][2]);
        sb_puts(h, "</code></p>\n");
    }
    if (settings[0]) {
        /* a file an earlier cell wrote (the notebook's working folder), else one of the sources */
        char *inwork = xasprintf("%s/%s", nb->work, settings);
        char *text = slurp(inwork, NULL);
        free(inwork);
        if (!text)
            text = slurp(settings, NULL);
        if (!text || strstr(text, "</")) {
            fprintf(stderr,
                    "notebook: %s: explore block '%s': cannot embed the settings file '%s'%s\n",
                    nb->path, name, settings, text ? " (it holds '</')" : "");
            free(text);
            return -1;
        }
        sb_puts(h, "<script type=\"text/plain\" class=\"explore-settings\">\n");
        sb_puts(h, text);
        sb_puts(h, "</script>\n");
        free(text);
    }
    sb_puts(h, "</div>\n");
    nb->explorers += live;
    return 0;
}

/* The module (base64: a page from disk cannot fetch) and the explorers' script, once a page. */
static int explorer_scripts(const notebook *nb, sbuf *page)
{
    size_t len;
    char *wasm = slurp(nb->wasm, &len), *js = slurp(nb->explore_js, NULL);
    int rc = 0;
    if (!wasm || !js || strstr(js, "</script")) {
        fprintf(stderr,
                "notebook: %s: cannot embed the explorers: %s or %s unreadable (or the script "
                "holds '</script')\n",
                nb->path, nb->wasm, nb->explore_js);
        rc = -1;
    } else {
        sb_puts(page, "<script type=\"application/octet-stream\" id=\"ivplab-wasm\">");
        sb_base64(page, (const unsigned char *)wasm, len);
        sb_puts(page, "</script>\n<script>\n");
        sb_puts(page, js);
        sb_puts(page, "</script>\n");
    }
    free(wasm);
    free(js);
    return rc;
}

static cmark_node *parse_markdown(const char *md, size_t len, cmark_parser **parser)
{
    cmark_gfm_core_extensions_ensure_registered();
    *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
    const char *exts[] = {"table", "strikethrough"};
    for (size_t i = 0; i < 2; i++) {
        cmark_syntax_extension *e = cmark_find_syntax_extension(exts[i]);
        if (e)
            cmark_parser_attach_syntax_extension(*parser, e);
    }
    cmark_parser_feed(*parser, md, len);
    return cmark_parser_finish(*parser);
}

/* Every code block and code span of doc, in order (collected first: the tree changes after). */
static cmark_node **collect_code(cmark_node *doc, size_t *count)
{
    size_t n = 0, cap = 256;
    cmark_node **nodes = xcalloc(cap, sizeof *nodes);
    cmark_iter *it = cmark_iter_new(doc);
    for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE;) {
        cmark_node *node = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(node);
        if (ev == CMARK_EVENT_ENTER && (t == CMARK_NODE_CODE_BLOCK || t == CMARK_NODE_CODE)) {
            if (n == cap) {
                cmark_node **bigger = xcalloc(cap * 2, sizeof *bigger);
                memcpy(bigger, nodes, n * sizeof *nodes);
                free(nodes);
                nodes = bigger;
                cap *= 2;
            }
            nodes[n++] = node;
        }
    }
    cmark_iter_free(it);
    *count = n;
    return nodes;
}

/* One code block: math typeset, a cell run with its output, an explorer placed; others left. */
static int render_block(notebook *nb, cmark_node *node)
{
    const char *info = cmark_node_get_fence_info(node);
    char lang[32] = "";
    sscanf(info ? info : "", "%31s", lang);
    const char *code = cmark_node_get_literal(node);
    sbuf h = {0};
    int status = 0;
    if (strcmp(lang, "math") == 0) {
        math_html(&h, code, true);
    } else if (strcmp(lang, "explore") == 0) {
        status = explorer_html(nb, info, code, &h);
    } else if (strcmp(lang, "c") == 0 || strcmp(lang, "sh") == 0 || strcmp(lang, "gnuplot") == 0) {
        nb->cell++;
        fprintf(stderr, "notebook: %s: cell %d (%s)\n", nb->stem, nb->cell, lang);
        char label[64];
        snprintf(label, sizeof label, "<div class=\"cell\"><div class=\"label\">[%d] %s</div>",
                 nb->cell, lang);
        sb_puts(&h, label);
        sb_puts(&h, "<pre class=\"cell\"><code>");
        sb_escape(&h, code, strlen(code));
        sb_puts(&h, "</code></pre>\n");
        status = run_cell(nb, lang, code, &h) != 0 ? -1 : 0;
        sb_puts(&h, "</div>\n");
    } else {
        return 0;
    }
    if (status == 0)
        replace_with_html(node, h.s, true);
    free(h.s);
    return status;
}

/* The page: head, title (the first heading's text), body, the explorers' scripts, the check. */
static int write_page(notebook *nb, cmark_node *doc, cmark_parser *parser)
{
    char title[256] = "";
    for (cmark_node *c = cmark_node_first_child(doc); c; c = cmark_node_next(c))
        if (cmark_node_get_type(c) == CMARK_NODE_HEADING && cmark_node_first_child(c)) {
            const char *t = cmark_node_get_literal(cmark_node_first_child(c));
            snprintf(title, sizeof title, "%s", t ? t : nb->stem);
            break;
        }
    char *body =
        cmark_render_html(doc, CMARK_OPT_UNSAFE, cmark_parser_get_syntax_extensions(parser));
    sbuf page = {0};
    sb_puts(&page, page_head);
    sb_puts(&page, "<title>");
    sb_escape(&page, title, strlen(title));
    sb_puts(&page,
            "</title></head><body>\n<nav><a href=\"index.html\">ivplab notebooks</a></nav>\n");
    sb_puts(&page, body);
    free(body);
    int status = nb->explorers && explorer_scripts(nb, &page) != 0 ? 1 : 0;
    sb_puts(&page, page_tail);
    char *path = xasprintf("%s/%s.html", nb->outdir, nb->stem);
    atomic_file af;
    FILE *f = status ? NULL : atomic_open(&af, path);
    if (!status && (!f || fputs(page.s, f) < 0 || atomic_commit(&af) != 0)) {
        int e = errno;
        fprintf(stderr, "notebook: cannot write %s: %s\n", path, atomic_reason(e));
        status = e == EISDIR ? 2 : 1;      /* a directory where the page goes: the user's input */
    }
    free(path);
    free(page.s);
    char *tpath = xasprintf("%s/.title", nb->work);     /* kept for the index */
    write_text(tpath, title);
    free(tpath);
    return status;
}

static int run_notebook(notebook *nb)
{
    size_t len;
    char *md = slurp(nb->path, &len);
    if (!md) {
        fprintf(stderr, "notebook: cannot read %s: %s\n", nb->path, strerror(errno));
        return 2;
    }
    cmark_parser *parser;
    cmark_node *doc = parse_markdown(md, len, &parser);
    free(md);
    size_t n;
    cmark_node **nodes = collect_code(doc, &n);
    int status = 0;
    nb->cell = 0;
    nb->explorers = 0;
    for (size_t i = 0; i < n && status == 0; i++) {
        if (cmark_node_get_type(nodes[i]) == CMARK_NODE_CODE)
            inline_math(nodes[i]);
        else if (render_block(nb, nodes[i]) != 0)
            status = 1;
    }
    free(nodes);
    if (status == 0)
        status = write_page(nb, doc, parser);
    cmark_node_free(doc);
    cmark_parser_free(parser);
    return status;
}

static int write_index(const char *outdir, char **books, int nbooks, const char *workroot)
{
    sbuf page = {0};
    sb_puts(&page, page_head);
    sb_puts(&page, "<title>ivplab notebooks</title></head><body>\n<h1>ivplab notebooks</h1>\n"
                   "<p>The lessons of <em>Ordinary Differential Equations I</em> and the "
                   "string-pluck-v1 challenge, "
                   "as executable C notebooks: every table, figure and sound below was made by "
                   "running the cells.</p>\n<ol>\n");
    for (int i = 0; i < nbooks; i++) {
        const char *base = strrchr(books[i], '/');
        char *stem = xstrdup(base ? base + 1 : books[i]);
        char *dot = strrchr(stem, '.');
        if (dot)
            *dot = '\0';
        char *tpath = xasprintf("%s/%s/.title", workroot, stem);
        char *title = slurp(tpath, NULL);
        free(tpath);
        sb_puts(&page, "<li><a href=\"");
        sb_escape(&page, stem, strlen(stem));
        sb_puts(&page, ".html\">");
        sb_escape(&page, title ? title : stem, strlen(title ? title : stem));
        sb_puts(&page, "</a></li>\n");
        free(title);
        free(stem);
    }
    sb_puts(&page, "</ol>\n");
    sb_puts(&page, page_tail);
    char *path = xasprintf("%s/index.html", outdir);
    atomic_file af;
    FILE *f = atomic_open(&af, path);
    int rc =
        (!f || fputs(page.s, f) < 0 || atomic_commit(&af) != 0) ? (errno == EISDIR ? 2 : 1) : 0;
    if (rc)
        fprintf(stderr, "notebook: cannot write %s: %s\n", path,
                atomic_reason(rc == 2 ? EISDIR : errno));
    free(path);
    free(page.s);
    return rc;
}

/* One notebook: a fresh working folder OUT/work/STEM with bin/ and plots/ linked to the programs
 * and figure scripts, its cells run, its page written and named. 0, or the failure's status. */
static int run_one(const char *file, const char *out, const char *outabs, const char *binabs,
                   const char *plotabs, const char *workroot, const char *wasm,
                   const char *explore_js)
{
    notebook nb = {.path = file, .wasm = wasm, .explore_js = explore_js};
    const char *base = strrchr(file, '/');
    snprintf(nb.stem, sizeof nb.stem, "%s", base ? base + 1 : file);
    char *dot = strrchr(nb.stem, '.');
    if (dot)
        *dot = '\0';
    nb.outdir = outabs;
    nb.work = xasprintf("%s/%s", workroot, nb.stem);
    char *cmd =
        xasprintf("rm -rf '%s' && mkdir -p '%s' && ln -s '%s' '%s/bin' && ln -s '%s' '%s/plots'",
                  nb.work, nb.work, binabs, nb.work, plotabs, nb.work);
    int made = system(cmd);
    free(cmd);
    if (made != 0) {
        fprintf(stderr, "notebook: cannot prepare %s\n", nb.work);
        free(nb.work);
        return 1;
    }
    int rc = run_notebook(&nb);
    free(nb.work);
    if (rc == 0)
        printf("%s/%s.html (%d cells)\n", out, nb.stem, nb.cell);
    return rc;
}

/* KaTeX beside the pages (OUT/katex); 0, or -1 after one line: no KaTeX here, or why the copy
 * failed (cp's first complaint: a full disk, the file-size limit). */
static int copy_katex(const char *katex, const char *outabs)
{
    char *js = xasprintf("%s/katex.min.js", katex);
    int found = access(js, R_OK);
    free(js);
    if (found != 0) {
        fprintf(stderr, "notebook: no KaTeX in %s (install Debian's libjs-katex)\n", katex);
        return -1;
    }
    char *cmd = xasprintf("mkdir -p '%s/katex' 2>&1 && cp -rL '%s/katex.min.js' '%s/katex.min.css' "
                          "'%s/fonts' '%s/katex/' 2>&1",
                          outabs, katex, katex, katex, outabs);
    fflush(NULL);
    FILE *p = popen(cmd, "r");
    free(cmd);
    char why[600] = "";
    if (p) {
        if (!fgets(why, sizeof why, p))
            why[0] = '\0';
        for (char rest[600]; fgets(rest, sizeof rest, p);)
            ;
    }
    int rc = p ? pclose(p) : -1;
    if (rc == 0)
        return 0;
    why[strcspn(why, "\n")] = '\0';
    fprintf(stderr, "notebook: cannot copy KaTeX into %s/katex: %s\n", outabs,
            why[0] ? why : "cp failed");
    return -1;
}

int main(int argc, char **argv)
{
    workers_guard();        /* before any work: a cell's processes end with the notebook */
    const char *out = "build/notebooks", *bindir = "bin", *plotdir = "plots",
               *katex = "/usr/share/javascript/katex";
    const char *wasm = "build/wasm/explore.wasm", *explore_js = "src/wasm/explore.js";
    bool index = false;
    const cli_opt opts[] = {
        FLAG_TEXT("out", out, "folder for the pages (working folders go in OUT/work/)"),
        FLAG_TEXT("bin", bindir, "folder of the lesson programs, put on PATH for the cells"),
        FLAG_TEXT("plots", plotdir,
            "folder of the figure scripts, linked as plots/ in each working folder"),
        FLAG_TEXT("katex", katex, "KaTeX folder copied beside the pages (Debian's libjs-katex)"),
        FLAG_TEXT("wasm", wasm,
            "the explorers' WebAssembly module, embedded in pages with ```explore blocks "
            "(absent: a note instead)"),
        FLAG_TEXT("explore-js", explore_js, "the explorers' page script"),
        FLAG_BOOL("index", index, "also write OUT/index.html listing the notebooks given"),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = "notebook",
        .summary = "Run every cell of each notebook in order and render it as a web page.",
        .positional = "NOTEBOOK.md [NOTEBOOK.md ...]",
        .min_positional = 1,
        .opts = opts,
    };
    int first = cli_parse(&spec, argc, argv);
    for (int i = first; i < argc; i++)
        if (access(argv[i], R_OK) != 0)
            cli_fail("notebook", "'%s' cannot be read: %s; accepted: a Markdown notebook file",
                     argv[i], strerror(errno));

    if (access(wasm, R_OK) == 0 && access(explore_js, R_OK) != 0)
        cli_fail("notebook",
                 "--explore-js '%s' cannot be read: %s; accepted: the explorers' page script "
                 "(src/wasm/explore.js)",
                 explore_js, strerror(errno));
    char outabs[PATH_MAX], binabs[PATH_MAX], plotabs[PATH_MAX];
    if (mkdir_p(out) != 0 || !realpath(out, outabs)) {
        fprintf(stderr, "notebook: cannot create %s: %s\n", out, strerror(errno));
        return 1;
    }
    if (!realpath(bindir, binabs))
        cli_fail("notebook",
                 "--bin '%s' does not exist; accepted: the folder of the built programs", bindir);
    if (!realpath(plotdir, plotabs))
        cli_fail("notebook",
                 "--plots '%s' does not exist; accepted: the folder of the figure scripts",
                 plotdir);
    char *workroot = xasprintf("%s/work", outabs);
    if (copy_katex(katex, outabs) != 0) {
        free(workroot);
        return 1;
    }
    /* Cells find the lesson programs on PATH. */
    char *path = xasprintf("%s:%s", binabs, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    setenv("PATH", path, 1);
    free(path);

    for (int i = first; i < argc; i++) {
        int rc = run_one(argv[i], out, outabs, binabs, plotabs, workroot, wasm, explore_js);
        if (rc) {
            free(workroot);
            return rc;
        }
    }
    int rc = index ? write_index(outabs, argv + first, argc - first, workroot) : 0;
    free(workroot);
    return rc;
}
