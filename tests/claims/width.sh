# width.sh: what lessons 1-8 print for people fits a projector: no line of their default output
# (and of drop's solver table) is wider than 100 columns; --wide brings the hidden columns back.
. "$(dirname "$0")/../lib.sh"
widest() { awk '{ if (length > m) m = length } END { print m + 0 }' "$1"; }
for cmd in ivp convergence stability stiff work oscillator drop audiorate "drop --method all --T 0.5"; do
    name=${cmd%% *}; [ "$name" = "$cmd" ] || name=${name}_all
    $BIN/$cmd --out "$TMP/$name" >"$TMP/$name.txt" 2>/dev/null   # short folder names: a path is printed
    check_num "bin/$cmd: exit status" "$?" near 0 0
    check_num "bin/$cmd: widest line of its output (columns)" "$(widest "$TMP/$name.txt")" le 100
done
# the hidden columns are there with --wide (and in --tsv)
$BIN/oscillator --wide --out "$TMP/ow" >"$TMP/ow.txt" 2>/dev/null
check_text "oscillator --wide: max_dev and peaks shown" "$(head -40 "$TMP/ow.txt")" "max_dev_undamped"
$BIN/work --wide --out "$TMP/ww" >"$TMP/ww.txt" 2>/dev/null
check_text "work --wide: seconds_to_target shown" "$(cat "$TMP/ww.txt")" "seconds_to_target"
check_text "work: the human table says where the hidden columns are" "$(cat "$TMP/work.txt")" \
    "kind, runs and seconds_to_target: --wide or --tsv."
