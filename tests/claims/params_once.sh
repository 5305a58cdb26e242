# params_once.sh: a model's parameter is declared once (base/cli.h, io/params.h). Every key of
# cello-g.ini is settable by --set KEY=VALUE (bin/bow --list shows the value set); every key of
# ball.ini, pluck.ini, spring2.ini, stroke-fig6.ini and schelleng.ini that a program takes as a
# flag shows the file's value as its --help default (the flag and the key are one row, one
# variable). Seconds.
. "$(dirname "$0")/../lib.sh"
BIN=${BIN:-bin}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# --set: each key to a value inside its range (whole for N), shown by --list.
$BIN/bow --list --tsv | tail -n +2 >"$TMP/keys.tsv"
n=0 bad=""
while IFS=$'\t' read -r key value unit min max meaning; do
    v=$(awk -v a="$min" -v b="$max" -v k="$key" 'BEGIN { v = a + (b - a) * 0.375;
        if (k == "N") v = int(v); printf "%.6g", v }')
    got=$($BIN/bow --set "$key=$v" --list --tsv 2>&1 | awk -F'\t' -v k="$key" '$1 == k { print $2 }')
    if awk -v a="$got" -v b="$v" 'BEGIN { exit !(a != "" && a + 0 == b + 0) }'; then n=$((n + 1))
    else bad="$bad $key=$v (got '$got')"; fi
done <"$TMP/keys.tsv"
total=$(wc -l <"$TMP/keys.tsv")
check_num "bin/bow: keys of cello-g.ini set by --set KEY=VALUE and shown by --list${bad:+ (not:$bad)}" \
    "$n" near "$total" 0
check_num "bin/bow: cello-g.ini has keys" "$total" ge 20

# A flag's --help default is its key's value in the .ini (KEY, or KEY with - for _).
# defaults PROG INI: how many keys of INI are flags of PROG, and how many show the file's value.
defaults() {
    "$BIN/$1" --help >"$TMP/$1.help"
    sed 's/[#;].*//' "$ROOT/lessons/params/$2" | awk -F= 'NF == 2 { gsub(/ /, ""); print $1, $2 }' |
    while read -r key value; do
        for flag in "$key" "${key//_/-}"; do
            line=$(grep -E -- "^  --$flag( X)? " "$TMP/$1.help" | head -1)
            [ -n "$line" ] || continue
            shown=$(printf '%s' "$line" | sed -n 's/.*\[\([^] ]*\)[] ].*/\1/p')
            case "$value:$shown" in true:on | false:off) echo same; break;; esac
            if awk -v a="$shown" -v b="$value" 'BEGIN { exit !(a + 0 == b + 0 && a != "") }'; then
                echo same
            else
                echo "differs: --$flag [$shown], $2: $key = $value"
            fi
            break
        done
    done
}
for pi in "drop ball.ini 12" "audiorate ball.ini 14" "pluck pluck.ini 19" "stiff spring2.ini 7" \
    "bow stroke-fig6.ini 6" "schelleng schelleng.ini 10"; do
    set -- $pi
    defaults "$1" "$2" >"$TMP/d.txt"
    flags=$(wc -l <"$TMP/d.txt")
    same=$(grep -c '^same$' "$TMP/d.txt")
    check_num "bin/$1: keys of $2 that are flags (spelled alike)" "$flags" ge "$3"
    check_num "bin/$1: each shows $2's value as its --help default$(grep -v '^same$' "$TMP/d.txt" |
        sed 's/^/; /' | tr '\n' ' ')" "$same" near "$flags" 0
done
# The booleans of pluck.ini are flags: on by default (cvode_modal = true), --no-NAME turns it off.
check_text "bin/pluck: --cvode-modal is a flag, on as pluck.ini says" \
    "$(grep -E -- '^  --cvode-modal ' "$TMP/pluck.help")" "--cvode-modal          CVODE on the Galerkin system too [on]"
check_text "bin/pluck: --cvode-stab-lim is a flag, off as pluck.ini says" \
    "$(grep -E -- '^  --cvode-stab-lim ' "$TMP/pluck.help")" "[off]"
