# notebooks.sh: every notebook runs, renders, and passes a real browser's check; a broken cell
# stops the run naming the notebook and the cell.
. "$(dirname "$0")/../lib.sh"

# A broken cell: exit 1, the notebook and the cell named with the cell's stderr, no page.
$BIN/notebook --bin "$BIN" --out "$TMP/broken" tests/fixtures/broken-notebook.md >"$TMP/b.out" 2>"$TMP/b.err"
rc=$?
check_num "broken notebook: exit status" "$rc" near 1 0
check_text "broken notebook: names the notebook and the cell" "$(cat "$TMP/b.err")" \
    "tests/fixtures/broken-notebook.md: cell 2 (sh) failed with exit status 3"
check_text "broken notebook: shows the cell's stderr" "$(cat "$TMP/b.err")" "about to fail"
if grep -q "never runs" "$TMP"/broken/work/broken-notebook/.cell-3.out 2>/dev/null || [ -e "$TMP/broken/broken-notebook.html" ]; then
    fail "broken notebook: later cells ran or a page was written"
else
    pass "broken notebook: no later cell ran and no page was written"
fi

# Every notebook of notebooks-c/ runs to the end.
books=$(ls notebooks-c/[0-9][0-9]-*.md)
$BIN/notebook --index --bin "$BIN" --out "$TMP/nb" $books >"$TMP/nb.out" 2>"$TMP/nb.err"
rc=$?
check_num "all notebooks run (see: $(tail -3 "$TMP/nb.err" | tr '\n' ' '))" "$rc" near 0 0
# Notebook 01's third-order example measures the error of the whole state (u, u', u'') at 2 pi,
# so halving h shows each method's order (issue 26 item 16; u(2 pi) = 0 alone showed phase only).
third=$(grep -l "measured order" "$TMP"/nb/work/01-ode1/.cell-*.out 2>/dev/null | head -1)
for mo in euler:1 backward-euler:1 trapezoid:2 heun:2 rk4:4; do
    m=${mo%%:*} o=${mo##*:}
    check_num "notebook 01, third-order example: $m's error of the whole state falls as order $o" \
        "$(awk -F'\t' -v m=$m '$1 == m { print $4 }' "${third:-/dev/null}")" near $o 0.1
done

# A real browser loads each page from disk: every image decodes, every audio source loads,
# nothing refers off the disk, and the formulas are typeset. Screenshots go to build/notebooks/shots/.
mkdir -p build/notebooks/shots
browser() {
    timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --disable-quic --user-data-dir="$TMP/chrome" \
        --allow-file-access-from-files "$@" 2>/dev/null
}
for page in "$TMP"/nb/*.html; do
    name=$(basename "$page" .html)
    verdict=$(browser --virtual-time-budget=10000 --dump-dom "file://$page" | grep -o 'NBCHECK images=[0-9][^<]*')
    set -- $(printf '%s' "$verdict" | sed -E 's/NBCHECK images=([0-9]+)\/([0-9]+) audio=([0-9]+)\/([0-9]+) network=([0-9]+) katex=([a-z]+)/\1 \2 \3 \4 \5 \6/')
    if [ $# -eq 6 ] && [ "$1" = "$2" ] && [ "$3" = "$4" ] && [ "$5" = 0 ] && [ "$6" = yes ]; then
        pass "$name: browser check: $verdict"
    else
        fail "$name: browser check failed: '${verdict:-no verdict}'"
    fi
    if grep -Eq '(src|href)="(https?:)?//' "$page"; then
        fail "$name: the page refers to a network address"
    else
        pass "$name: no network address in the page"
    fi
    browser --window-size=1200,2400 --screenshot="build/notebooks/shots/$name.png" "file://$page" >/dev/null
    if [ -s "build/notebooks/shots/$name.png" ]; then pass "$name: screenshot saved"; else fail "$name: no screenshot"; fi
done
# Notebook 01 holds the lecture's four "Try it" explorers (tests/claims/explore.sh checks their numbers):
# live with the module, else a note in place of each.
live=$(grep -o '<div class="explorer" data-explorer="[a-z]*"' "$TMP/nb/01-ode1.html" | wc -l)
notes=$(grep -o 'built without the wasm toolchain' "$TMP/nb/01-ode1.html" | wc -l)
check_num "01: the four explorers are in the page ($live live, $notes notes)" "$((live + notes))" near 4 0
if [ -s build/wasm/explore.wasm ]; then check_num "01: the module is here, so all four are live" "$live" near 4 0; fi
# Each notebook with figures shows them.
for book in $books; do
    name=$(basename "$book" .md)
    n=$(grep -c '^```gnuplot' "$book")
    imgs=$(grep -o '<img ' "$TMP/nb/$name.html" | wc -l)
    check_num "$name: every gnuplot cell shows a figure ($n cells)" "$imgs" ge "$n"
done
# Notebook 02 says why forward Euler needs many substeps on the modal string, and prints the limit:
# mode 199 is lambda = -1853 +- 1.375e5 j (near the imaginary axis), h <= 2 alpha / |lambda|^2 = 1.96e-7 s.
check_text "02: prints forward Euler's limit from R(z)" "$(cat "$TMP/nb/02-string-pluck.html")" "stable only for h &lt;= 1.959e-07 s"
# Notebook 02's tolerance study (issue 28): the printed stability line beside its figure.
check_text "02: prints the tolerance study's stability line" "$(cat "$TMP/nb/02-string-pluck.html")" \
    "Stability: Adams + band Newton iterates Adams-Moulton to convergence"
check_text "02: shows the pluck_cvode_steps figure" "$(cat "$TMP/nb/02-string-pluck.html")" \
    '<img alt="pluck_cvode_steps.png" src="data:image/png'
# Notebook 02's partials section (issue 30): the method's sound and the reference's, two players.
check_num "02: the partials section's two players" \
    "$(grep -o -e 'src="media/02-string-pluck-trapezoid-partials.wav"' -e 'src="media/02-string-pluck-exact-partials.wav"' "$TMP/nb/02-string-pluck.html" | sort -u | wc -l)" near 2 0
if grep -q "far out on the negative real axis" notebooks-c/02-string-pluck.md; then
    fail "02: still says the eigenvalue is far out on the negative real axis"
else
    pass "02: no longer says the eigenvalue is far out on the negative real axis"
fi

# A stop signal to bin/notebook ends the running cell and what it started (issue 21 item 2).
for sig in TERM HUP; do
    "$BIN/notebook" --bin "$BIN" --out "$TMP/slow-$sig" tests/fixtures/slow-notebook.md >/dev/null 2>&1 &
    nbpid=$!
    sleeper=""
    for _ in $(seq 100); do
        sleeper=$(pgrep -f "^sleep 60$" | while read -r p; do
            pp=$p; while [ "$pp" -gt 1 ]; do pp=$(ps -o ppid= -p "$pp" | tr -d ' '); [ "$pp" = "$nbpid" ] && echo "$p" && break; done
        done | head -1)
        [ -n "$sleeper" ] && break
        sleep 0.05
    done
    kill -s "$sig" "$nbpid"
    wait "$nbpid" 2>/dev/null
    sleep 0.3
    st=$(ps -o stat= -p "$sleeper" 2>/dev/null)
    if [ -n "$sleeper" ] && { [ -z "$st" ] || [ "${st#Z}" != "$st" ]; }; then
        pass "SIG$sig to bin/notebook: the running cell ($sleeper) ends with it"
    else
        fail "SIG$sig to bin/notebook: the cell ${sleeper:-(not found)} is still running ($st)"
        [ -n "$sleeper" ] && kill -9 "$sleeper" 2>/dev/null
    fi
done

# Issue 31 item 1: students read the C cells too; every struct literal in them names its fields
# (designated initialisers) once it has more than four. Only the C cells are read (other lines
# blanked, so that the line numbers are the page's).
for md in notebooks-c/[0-9][0-9]-*.md; do
    awk '/^```/ { inc = /^```c[[:space:]]*$/; print ""; next } { print inc ? $0 : "" }' "$md" >"$TMP/cells.c"
    lit=$(shape_facts "$TMP/cells.c" | cut -d'|' -f3)
    if [ -z "$lit" ]; then pass "$md: no C cell has a struct literal of more than four positional fields"
    else fail "$md: struct literals with more than four positional fields at line:$lit"; fi
done
