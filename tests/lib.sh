# lib.sh: helpers for the lesson-claim tests (sourced). Each check prints one line,
# "pass: ..." or "FAIL: ...", like the C harness.
set -u
BIN=${BIN:-bin}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { echo "pass: $*"; }
fail() { echo "FAIL: $*"; }

# check_num DESC ACTUAL OP EXPECTED [TOL]: OP is lt, le, gt, ge, or near (|a - e| <= TOL).
check_num() {
    local desc=$1 a=$2 op=$3 e=$4 tol=${5:-0}
    if awk -v a="$a" -v e="$e" -v t="$tol" -v op="$op" 'BEGIN {
        if (a == "" || a !~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/) exit 1
        d = a - e; if (d < 0) d = -d
        ok = (op == "lt" && a < e) || (op == "le" && a <= e) || (op == "gt" && a > e) ||
             (op == "ge" && a >= e) || (op == "near" && d <= t)
        exit !ok }'; then
        pass "$desc: $a $op $e${5:+ (tol $tol)}"
    else
        fail "$desc: got '$a', wanted $op $e${5:+ (tol $tol)}"
    fi
}

# check_text DESC HAYSTACK NEEDLE: the text contains the needle.
check_text() {
    case "$2" in *"$3"*) pass "$1";; *) fail "$1: '$3' not in: $(printf '%s' "$2" | head -c 300)";; esac
}

# tsv_get FILE KEYCOL KEY COL: the value in column COL of the row whose column KEYCOL is KEY.
tsv_get() {
    awk -F'\t' -v kc="$2" -v k="$3" -v c="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h[kc] == k { print $h[c]; exit }' "$1"
}

# expect_bad_input DESC CMD...: exits 2 with exactly one line on stderr, creates no file in $TMP/out.
expect_bad_input() {
    local desc=$1; shift
    rm -rf "$TMP/out"; mkdir -p "$TMP/out"
    "$@" >"$TMP/stdout" 2>"$TMP/stderr"
    local rc=$? lines
    lines=$(wc -l <"$TMP/stderr")
    local files
    files=$(find "$TMP/out" -type f | wc -l)
    if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ "$files" -eq 0 ]; then
        pass "$desc: exit 2, one line: $(cat "$TMP/stderr")"
    else
        fail "$desc: exit $rc, $lines stderr lines, $files files: $(head -c 300 "$TMP/stderr")"
    fi
}

# exercise_output PROG N: what the Nth exercise's check command of bin/PROG prints (its stdout), run
# in a scratch folder with bin/ and lessons/ of this checkout, as a student types it.
exercise_output() {
    local cmd bd root
    cmd=$($BIN/$1 --help | sed -n 's/^     check: //p' | sed 's/   (.*$//' | sed -n "${2}p")
    bd=$(cd "$BIN" && pwd); root=$(pwd)
    mkdir -p "$TMP/ex-$1-$2" && ln -sfn "$bd" "$TMP/ex-$1-$2/bin" && ln -sfn "$root/lessons" "$TMP/ex-$1-$2/lessons"
    ( cd "$TMP/ex-$1-$2" && bash -o pipefail -c "$cmd" 2>/dev/null )
}

# shape_facts FILE [MAIN]: "LONG|WIDE|LITERALS", the line numbers of functions over 80 lines (main
# over MAIN: 120 unless given, a lesson's), of lines over 100 columns and of struct literals with
# more than four positional fields, flag declarations included (lesson_shape reads them; layers.sh
# reads LONG and LITERALS for src/, main held to 80 there). An array of numbers or of pointers
# (double a[4][5] = {{...}}, const char *ex[][5]) holds no struct: its rows are not counted.
shape_facts() {
    awk -v mainlim="${2:-120}" '
        function literal(s,    i, c, d, n, pos, el, first) {   # s from its "{": positional fields
            d = 0; n = 0; pos = 0; el = ""
            for (i = 1; i <= length(s); i++) {
                c = substr(s, i, 1)
                if (c == "{" || c == "(" || c == "[") { d++; if (d == 1) continue }
                if (c == "}" || c == ")" || c == "]") { d--; if (d == 0) break }
                if (d == 1 && c == ",") {
                    first = el; sub(/^[ \t]+/, "", first)
                    if (first != "") { n++; pos += first !~ /^\./ }
                    el = ""; continue
                }
                el = el c
            }
            first = el; sub(/^[ \t]+/, "", first); if (first != "") { n++; pos += first !~ /^\./ }
            return pos
        }
        function rows(s,    i, c, d, m) {   # an array literal: the widest row of positional fields
            d = 0; m = 0
            for (i = 1; i <= length(s); i++) {
                c = substr(s, i, 1)
                if (c == "{") { d++; if (d == 2 && literal(substr(s, i)) > m) m = literal(substr(s, i)) }
                if (c == "}") { d--; if (d == 0) break }
            }
            return m
        }
        BEGIN {     # an array of these holds numbers, no struct
            scalar = "(^|[^a-z_0-9])(double|float|complex|int|long|short|char|unsigned|signed|bool|" \
                     "size_t|u?int[0-9]+_t)[ \t]+[a-z_][a-z_0-9]*[ \t]*$"
        }
        /^[a-z].*\(/ && !/;[[:space:]]*$/ && !/^static const/ { name = $0; start = NR }
        /^}/ && start { n = NR - start; lim = name ~ /^int main\(/ ? mainlim : 80
                        if (n > lim) long = long sprintf(" %d (%d lines)", start, n); start = 0 }
        length($0) > 100 { wide = wide " " NR }
        {
            line = $0
            gsub(/"([^"\\]|\\.)*"/, "\"\"", line); gsub(/\047([^\047\\]|\\.)*\047/, "0", line)
            if (incomment) { if (line !~ /\*\//) next; sub(/^.*\*\//, "", line); incomment = 0 }
            gsub(/\/\*([^*]|\*[^\/])*\*\//, "", line)
            if (line ~ /\/\*/) { sub(/\/\*.*$/, "", line); incomment = 1 }
            if (collecting) { text = text " " line }
            else if (line ~ /= *\{/ || line ~ /(=|return|,|\() *\([a-z_]+\) *\{/) {
                collecting = 1; at = NR
                isarray = line ~ /\] *= *\{/
                decl = line; sub(/\[.*$/, "", decl)
                plain = isarray && (decl ~ /\*/ || decl ~ scalar)
                text = line; sub(/^[^{]*\{/, "{", text)
                if (line ~ /\([a-z_]+\) *\{/ && line !~ /= *\{/) { text = line; sub(/^.*\([a-z_]+\) *\{/, "{", text) }
            }
            if (collecting) {
                o = gsub(/\{/, "{", text); cl = gsub(/\}/, "}", text)
                if (cl >= o) {
                    p = plain ? 0 : isarray ? rows(text) : literal(text)
                    if (p > 4) lit = lit sprintf(" %d (%d fields)", at, p)
                    collecting = 0
                }
            }
        }
        END { printf "%s|%s|%s\n", long, wide, lit }' "$1"
}

# lesson_shape FILE: a lesson a student reads (issue 31): no function over 80 lines (main over 120),
# no line over 100 columns and no struct literal with more than four positional fields, outside the
# flag declarations. Three checks, one line each.
lesson_shape() {
    local f=$1 out
    out=$(shape_facts "$f")
    local long=${out%%|*} rest=${out#*|}
    local wide=${rest%%|*} lit=${rest#*|}
    if [ -z "$long" ]; then pass "$f: no function over 80 lines (main at most 120)"
    else fail "$f: functions over 80 lines (main 120) at line:$long"; fi
    if [ -z "$wide" ]; then pass "$f: no line over 100 columns"
    else fail "$f: lines over 100 columns at:$wide"; fi
    if [ -z "$lit" ]; then pass "$f: no struct literal with more than four positional fields"
    else fail "$f: struct literals with more than four positional fields at line:$lit"; fi
}

# exits_below_main FILE: the line numbers (strings and comments aside) where FILE ends the program
# below main (issue 31: libraries return, only main exits): exit( in any function but main, and
# every call of a wrapper that exits for its caller (exit_on, *_or_exit), main's included.
# The flag parser's refusals (cli_fail) and a forked child's _exit are not counted.
exits_below_main() {
    awk '
        /^[a-z].*\(/ && !/;[[:space:]]*$/ && !/^static const/ { inmain = /^int main\(/ }
        /^}/ { inmain = 0 }
        /^[[:space:]]*\*/ { next }     # the inside of a block comment
        {
            line = $0
            gsub(/"([^"\\]|\\.)*"/, "\"\"", line); gsub(/\/\*([^*]|\*[^\/])*\*\//, "", line)
            sub(/\/\*.*$/, "", line)
            if (line ~ /(^|[^_A-Za-z0-9])exit_on\(|_or_exit\(/ ||
                (!inmain && line ~ /(^|[^_A-Za-z0-9])exit\(/))
                printf " %d", NR
        }' "$1"
}
