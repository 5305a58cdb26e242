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
