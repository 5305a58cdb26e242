# lesson_failures.sh: what issue 31's "Libraries return, they never exit" leaves to lessons 7 to 11
# (lesson_shape.sh holds every lesson to no exit below main): summary.tsv and fig13-params.tsv
# written by one key/value writer (io/table.h, table_write_kv), not by hand; lesson 11 keeps no
# mutable state at file level. Then the failure paths that now come back to main: a file that cannot be written (a folder where it goes) ends the run with status 2 and one
# line naming it, no temporary left; under make test SAN=1 a leak would add a report and change
# the status, so these runs also hold main's one way out to freeing what it holds.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.."

# The key/value files: table_write_kv, and no "key\tvalue" header written by hand.
for f in lessons/07-drop.c lessons/08-audiorate.c lessons/10-bow.c lessons/11-schelleng.c; do
    by_hand=$(grep -n 'key\\tvalue' "$f" | cut -d: -f1 | tr '\n' ' ')
    if grep -q 'table_write_kv(' "$f" && [ -z "$by_hand" ]; then
        pass "$f: its key/value file through table_write_kv"
    else
        fail "$f: key/value rows by hand at lines: ${by_hand:-none} (table_write_kv used: $(grep -c 'table_write_kv(' "$f"))"
    fi
done

# Lesson 11: no mutable file-level state (a static or global variable outside a function, a
# pointer to const included; const tables and functions are fine).
state=$(awk '/^[A-Za-z]/ && !/\(/ && !/^(typedef|struct|enum|union|extern|#)/ &&
             (!/const/ || /\*[[:space:]]*[A-Za-z_][A-Za-z_0-9]*[[:space:]]*(=|;)/) &&
             /;/ { printf " %d", FNR }' lessons/11-schelleng.c)
if [ -z "$state" ]; then pass "lessons/11-schelleng.c: no mutable file-level state"
else fail "lessons/11-schelleng.c: file-level variables at lines:$state"; fi

# fails_cleanly DESC NAME CMD...: with a folder at out/NAME the run ends with status 2, one line on
# stderr naming NAME, and no temporary left in out/ (the command runs in a scratch folder).
fails_cleanly() {
    local desc=$1 name=$2; shift 2
    local d="$TMP/fail-$RANDOM"
    mkdir -p "$d/out/$name"
    (cd "$d" && "$@" >stdout 2>stderr)
    local rc=$? lines tmps
    lines=$(grep -cv 'elapsed' "$d/stderr")
    tmps=$(find "$d/out" -name '*.tmp.*' | wc -l)
    if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q "$name" "$d/stderr" && [ "$tmps" -eq 0 ]; then
        pass "$desc: exit 2, one line: $(grep -v elapsed "$d/stderr")"
    else
        fail "$desc: exit $rc, $lines stderr lines, $tmps temporaries: $(head -c 400 "$d/stderr")"
    fi
}
bin=$(cd "$BIN" && pwd)
fails_cleanly "drop, summary.tsv a folder" summary.tsv "$bin/drop" --T 0.3 --out out --sound snd
fails_cleanly "drop --method all, solvers.tsv a folder" solvers.tsv \
    "$bin/drop" --method all --T 0.3 --out out --sound snd
fails_cleanly "audiorate, impact_errors.tsv a folder (four files open)" impact_errors.tsv \
    "$bin/audiorate" --method rk4 --T 0.3 --out out --sound snd
fails_cleanly "pluck --partials, partials-note.txt a folder" partials-note.txt \
    "$bin/pluck" --partials --method rk4 --partials-max-hz 1000 --out out
fails_cleanly "bow --quick, summary.tsv a folder (the stroke held)" summary.tsv \
    "$bin/bow" --quick --duration 0.1 --out out --wav out/bow.wav
fails_cleanly "schelleng, fig13-params.tsv a folder" fig13-params.tsv \
    "$bin/schelleng" --stand_in --what fig13 --nx 2 --nf 2 --jobs 1 --out out
