# filelimits.sh: every program (each lesson and bin/score, bin/plot, bin/notebook), at its cheapest
# flags, under a small file-size limit (ulimit -f) and on a full disk (a tmpfs mounted here and
# filled): exit 1 with one line naming the path and the reason, no temporary (*.tmp.*) and no torn
# row left (issue 27 item 7 and its "Done when"). SIGXFSZ used to kill four of them without a word.
. "$(dirname "$0")/../lib.sh"

# Scratch inputs the runs read (outside the limited places): a reference WAV to score, a
# program's data to plot, a notebook with one small cell, a tiny KaTeX folder to copy.
"$BIN/pluck" --reference --wav "$TMP/ref.wav" >/dev/null 2>&1
"$BIN/ivp" --out "$TMP/ivpdata" >/dev/null 2>&1
{ printf '# A notebook\n\n'; for _ in $(seq 80); do printf 'Some prose, long enough to fill a page. '; done
  printf '\n\n```sh\nseq 1 20\n```\n'; } >"$TMP/nb.md"      # a page of about 8 KB
mkdir -p "$TMP/katex/fonts"
echo '/* katex */' >"$TMP/katex/katex.min.js"
echo '/* katex */' >"$TMP/katex/katex.min.css"
echo font >"$TMP/katex/fonts/f.woff2"

# NAME, then the command with @ for the folder its files go to.
programs=(
    "ivp|ivp --out @"
    "convergence|convergence --out @"
    "stability|stability --out @"
    "stiff|stiff --out @"
    "work|work --out @"
    "oscillator|oscillator --out @"
    "drop|drop --T 0.5 --out @ --sound @"
    "audiorate|audiorate --T 0.2 --out @ --sound @"
    "pluck|pluck --reference --wav @/r.wav --out @"
    "pluck|pluck --reference --wav @/r.wav --field @/u.h5"
    "bow|bow --quick --out @"
    "schelleng|schelleng --stand_in --nx 2 --nf 2 --out @"
    "plot|plot --out $TMP/ivpdata --figures @ ivp"
    "notebook|notebook --bin $BIN --wasm /nonexistent --katex $TMP/katex --out @ $TMP/nb.md"
    "score|score $TMP/ref.wav $TMP/ref.wav"
)

# run_one DESC KB DIR STDOUT: runs the program's command with its files in DIR and standard
# output into STDOUT, under a file-size limit of KB KiB ("unlimited" for none); standard error
# comes through a pipe (not limited), progress lines dropped. Sets rc; the lines in $TMP/err.
run_one() {
    local kb=$2 dir=$3 stdout=$4
    read -r -a argv <<<"${cmd//@/$dir}"
    { bash -c 'ulimit -f "$0"; exec "$@"' "$kb" "$BIN/${argv[0]}" "${argv[@]:1}" 2>&1 >"$stdout" </dev/null
      echo $? >"$TMP/rc"; } |
      grep -v '^[a-z0-9]* \[[#.]*\] \|^notebook: [^:]*: cell [0-9]* ([a-z]*)$' >"$TMP/err"
    rc=$(cat "$TMP/rc")
}

# What a failed run owes: exit 1, one line naming a path and why, no temporary, no torn row.
judge() {
    local desc=$1 where=$2 lines tmps torn
    lines=$(wc -l <"$TMP/err")
    if [ "$rc" -eq 1 ] && [ "$lines" -eq 1 ] && grep -q "No space left on device\|File too large\|cut short" "$TMP/err" &&
       grep -q "$where\|standard output" "$TMP/err"; then
        pass "$desc: exit 1, one line: $(cat "$TMP/err")"
    else
        fail "$desc: exit $rc, $lines lines: $(head -c 400 "$TMP/err")"
    fi
    mkdir -p "$where"
    tmps=$(find "$where" -name '*.tmp.*' | head -3)
    if [ -z "$tmps" ]; then pass "$desc: no temporary left"; else fail "$desc: temporaries left: $tmps"; fi
    # a torn row: a table whose last byte is not a newline, or whose last row has fewer fields than
    # the row before it (the header aside: bin/schelleng's has a column more than its rows)
    torn=$(find "$where" -name '*.tsv' -size +0 | while read -r f; do
        if [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" != '\n' ] ||
           ! awk -F'\t' 'NF { p = n; pl = l; n = NF; l = NR } END { exit !(pl < 2 || n == p) }' "$f"; then
            echo "$f"; fi
    done | head -3)
    if [ -z "$torn" ]; then pass "$desc: no torn row"; else fail "$desc: torn rows in: $torn"; fi
}

# Under ulimit -f 4 (4 KiB; bin/score writes only its table: 0 KiB for it; the HDF5 field 1000 KiB,
# past the WAV's 375 KiB).
for entry in "${programs[@]}"; do
    name=${entry%%|*} cmd=${entry#*|}
    kb=4; out=/dev/null
    [ "$name" = score ] && { kb=0; out="$TMP/lim-score.txt"; }
    case $cmd in *--field*) kb=1000; name=pluck-field;; esac
    mkdir -p "$TMP/lim/$name"
    run_one "$name" "$kb" "$TMP/lim/$name" "$out"
    judge "ulimit -f $kb: bin/$name" "$TMP/lim/$name"
done

# On a full disk: a 256 KiB tmpfs, filled; the files and the standard output go there.
full="$TMP/full"
mkdir -p "$full"
if mount -t tmpfs -o size=256k tmpfs "$full" 2>/dev/null; then
    dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null
    for entry in "${programs[@]}"; do
        name=${entry%%|*} cmd=${entry#*|}
        run_one "$name" unlimited "$full/$name" "$full/$name.stdout"
        judge "full disk: bin/$name" "$full/$name"
    done
    # the standard output alone on the full disk: the report is not lost in silence
    cmd="ivp --out @"
    run_one "ivp" unlimited "$TMP/ok" "$full/ivp.stdout"
    check_text "full disk: bin/ivp's table on standard output, lost: said" "$(cat "$TMP/err")" \
        "ivp: cannot write standard output: No space left on device"
    check_num "full disk: bin/ivp's table on standard output, lost: exit status" "$rc" near 1 0
    umount "$full"
else
    fail "full disk: could not mount a tmpfs (tests run as root)"
fi
