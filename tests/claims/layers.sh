# layers.sh: src/ keeps its layers (src/README.md): a file includes headers of its own folder and
# of the folders below it, never above; no loop of includes between files; every folder has a
# README; no source sits loose at src/.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.."

order=$(sed -n 's/^layers, bottom to top: //p' src/README.md)
check_text "src/README.md states the layer order" "$order" "base"
# Folders in parentheses share a rank: they stand side by side, and none may include another.
declare -A rank
i=0 group=0
for l in $order; do
    case $l in "("*) group=1; l=${l#(};; esac
    case $l in *")") rank[${l%)}]=$i; group=0; i=$((i + 1)); continue;; esac
    rank[$l]=$i
    [ "$group" = 1 ] || i=$((i + 1))
done

for d in src/*/; do
    d=${d%/}; d=${d#src/}
    if [ -n "${rank[$d]:-}" ]; then pass "src/$d is a layer (rank ${rank[$d]})"; else fail "src/$d is not in src/README.md's layer line"; fi
    if [ -f "src/$d/README.md" ]; then pass "src/$d/README.md exists"; else fail "src/$d has no README.md"; fi
done
loose=$(find src -maxdepth 1 -name '*.[ch]' | tr '\n' ' ')
if [ -z "$loose" ]; then pass "no source file loose at src/"; else fail "source files outside a layer: $loose"; fi

# Every include between folders, as "from -> to"; an arrow up a layer fails.
up=0 arrows=0 edges=$TMP/edges
: >"$edges"
for f in $(find src -name '*.[ch]' | sort); do
    from=$(echo "$f" | cut -d/ -f2)
    for h in $(sed -n 's/^#include "\([a-z_0-9]*\/[a-z_0-9]*\.h\)".*/\1/p' "$f"); do
        to=${h%%/*}
        echo "$f src/$h" >>"$edges"
        [ "$to" = "$from" ] && continue
        arrows=$((arrows + 1))
        if [ "${rank[$to]:-99}" -gt "${rank[$from]:-0}" ]; then
            fail "$f includes $h: $from -> $to runs up a layer"
            up=$((up + 1))
        elif [ "${rank[$to]:-99}" = "${rank[$from]:-0}" ]; then
            fail "$f includes $h: $from -> $to, two systems side by side"
            up=$((up + 1))
        fi
    done
done
check_num "include arrows between folders that run up a layer or across to another system (of $arrows)" "$up" near 0 0

# A loop of includes between files (a.c/a.h count as one module), found by tsort.
sed 's/\.[ch]\b//g' "$edges" | awk '$1 != $2' >"$TMP/mods"
if tsort "$TMP/mods" >/dev/null 2>"$TMP/loop"; then
    pass "no loop of includes between modules ($(wc -l <"$TMP/mods") edges)"
else
    fail "a loop of includes: $(tr '\n' ' ' <"$TMP/loop")"
fi

# The browser build behind a seam (issue 31): no header under src/wasm/ has the name of a system
# header (it would shadow it on an include path), and no build puts src/wasm/ on the include path
# of a file below it: newton.c reaches its LU through method/lu.h in both builds.
shadow=$(cd src/wasm && find . -name '*.h' | sed 's|^\./||' | while read -r h; do
    [ -e "/usr/include/$h" ] || [ -n "$(find /usr/include /usr/lib/gcc -path "*/include/$h" 2>/dev/null | head -1)" ] &&
        printf '%s ' "src/wasm/$h"
done)
if [ -z "$shadow" ]; then pass "no header under src/wasm/ has a system header's name"; else fail "headers under src/wasm/ shadow system headers: $shadow"; fi
inc=$(grep -n -- '-I *src/wasm' Makefile | tr '\n' ' ')
if [ -z "$inc" ]; then pass "no build puts src/wasm/ on an include path"; else fail "src/wasm/ on an include path: $inc"; fi
if grep -q '^#include <gsl/' src/method/newton.c; then fail "method/newton.c includes a GSL header (its LU is method/lu.h)"; else pass "method/newton.c reaches its LU through method/lu.h"; fi

# Libraries return, they never exit (issue 31): a library error comes back to main as a status
# and a failure (base/failure.h). The only exits below main are the flag parser's (base/cli.c:
# --help and its refusals) and the checked allocator's (base/util.c); a forked child ends with
# _exit. src/tools/ holds programs, their own main level.
exits=$(grep -rnE '\bexit\(|_or_exit\b|\bcli_fail\(' src --include='*.[ch]' |
        grep -vE '^src/(tools/[^:]*|base/cli\.[ch]|base/util\.c):' | cut -c1-100 | tr '\n' ' ')
if [ -z "$exits" ]; then pass "no exit in src/ below main outside the flag parser and the checked allocator"
else fail "exits in the library: $exits"; fi

# Flags and parameters are declared one FLAG_ macro a row (base/cli.h), not as positional rows of
# a cli_opt (name, kind, &variable, ...) or of a parameter table (key, &variable, "unit", ...).
# The macros of the method set and the budget (method/set.h, base/budget.h) are rows of
# designated fields too.
positional=$(grep -nE '\{"[^"]*", *(CLI_[A-Z]+, |&[^,]*, *")' lessons/*.c src/*/*.[ch] tests/*.c \
    tests/*/*.c | cut -c1-120)
if [ -z "$positional" ]; then pass "no positional flag or parameter row in lessons/, src/, tests/"
else fail "positional flag or parameter rows: $positional"; fi
# (A lesson's lines, flag tables included, are held to 100 columns by lesson_shape.sh.)

# No struct literal in src/ with more than four positional fields (issue 31): a longer one names
# its fields (.field = value), as the lessons do (lib.sh's shape_facts, which lesson_shape.sh
# uses). First shape_facts itself on a scratch file: it counts a positional literal, a compound
# literal and a positional row of a table, and not a designated literal or a table of numbers.
cat >"$TMP/shape.c" <<'C'
solve_opts a = {m, 0.0, h, n, 1e6, 1, sink, NULL};
solve_opts b = {.m = m, .t0 = 0.0, .h = h, .n = n, .bound = 1e6, .every = 1, .sink = sink};
static const double tab[2][5] = {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}};
row rows[] = {{"a", 1, 2, 3, 4}};
ivp f(void) { return (ivp){2, rhs, NULL, NULL, p}; }
C
got=$(shape_facts "$TMP/shape.c"); got=${got##*|}
want=" 1 (8 fields) 4 (5 fields) 5 (5 fields)"
if [ "$got" = "$want" ]; then pass "shape_facts finds the scratch file's positional struct literals:$got"
else fail "shape_facts on the scratch file: got '$got', wanted '$want'"; fi
# One pass of shape_facts over src/ gives both measures: functions over 80 lines (a tool's main
# included; from its opening line to its closing brace at column 0, as for a lesson) and
# positional literals.
long="" lits=""
for f in $(find src -name '*.[ch]' | sort); do
    out=$(shape_facts "$f" 80)
    [ -z "${out%%|*}" ] || long="$long$f:${out%%|*} "
    [ -z "${out##*|}" ] || lits="$lits$f:${out##*|}; "
done
if [ -z "$long" ]; then pass "no function in src/ over 80 lines"; else fail "functions in src/ over 80 lines: $long"; fi
nsrc=$(find src -name '*.[ch]' | wc -l)
if [ -z "$lits" ]; then pass "no struct literal in src/ with more than four positional fields ($nsrc files)"
else fail "struct literals in src/ with more than four positional fields at line: $lits"; fi
