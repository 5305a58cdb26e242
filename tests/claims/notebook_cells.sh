# notebook_cells.sh: what a notebook cell may not do to the runner or the machine (issue 27
# items 6 and 9): print without bound into the page, or leave processes running after its cell,
# whether bin/notebook ends normally or is killed.
. "$(dirname "$0")/../lib.sh"

nb() { "$BIN/notebook" --bin "$BIN" --wasm /nonexistent "$@"; }

# A process the test started, still running (not a zombie)? Ended by the test if so.
still_running() {
    local st
    st=$(ps -o stat= -p "$1" 2>/dev/null)
    [ -n "$st" ] && [ "${st#Z}" = "$st" ] && { kill -9 "$1" 2>/dev/null; return 0; }
    return 1
}

# A cell printing 30 MB (300000 lines of 100 bytes): the page shows the first MiB and says how much it left out; the runner's
# memory stays small (it reads no more of the output than it shows).
cat >"$TMP/loud.md" <<'EOF'
# A loud cell

```sh
awk 'BEGIN { s = sprintf("%099d", 0); for (i = 0; i < 300000; i++) print s }'
```
EOF
/usr/bin/time -f '%M' -o "$TMP/loud.rss" "$BIN/notebook" --bin "$BIN" --wasm /nonexistent --out "$TMP/loud" \
    "$TMP/loud.md" >/dev/null 2>"$TMP/loud.err"
rc=$?
check_num "a cell printing 30 MB: bin/notebook exit status" "$rc" near 0 0
page=$(wc -c <"$TMP/loud/loud.html" 2>/dev/null || echo missing)
check_num "a cell printing 30 MB: page bytes (1 MiB of output and the page around it)" "$page" lt 1200000
check_text "a cell printing 30 MB: the page says what it cut" "$(cat "$TMP/loud/loud.html" 2>/dev/null)" \
    "standard output cut: 1048500 of its 30000000 bytes shown, 28951500 left out (a cell's output is shown up to 1048576 bytes)"
check_num "a cell printing 30 MB: runner's peak RSS, kB" "$(tail -1 "$TMP/loud.rss")" lt 30000

# A cell's background job ends with its cell (it outlived even a normal run).
cat >"$TMP/bg.md" <<'EOF'
# A cell with a background job

```sh
sleep 300 &
echo $! >bg.pid
echo started
```
EOF
nb --out "$TMP/bg" "$TMP/bg.md" >/dev/null 2>&1
rc=$?
check_num "a cell with a background job: exit status" "$rc" near 0 0
bg=$(cat "$TMP/bg/work/bg/bg.pid" 2>/dev/null)
sleep 0.2
if [ -z "$bg" ]; then fail "a cell with a background job: its pid was not written"
elif still_running "$bg"; then fail "a cell's background job ($bg) outlives bin/notebook"
else pass "a cell's background job ($bg) ends with its cell"; fi

# bin/notebook killed by SIGKILL (no handler runs): the cell's shell and its sleep end too.
cat >"$TMP/hold.md" <<'EOF'
# A cell that holds

```sh
sleep 300 &
echo $! >sleep.pid
echo $$ >bash.pid
wait
```
EOF
"$BIN/notebook" --bin "$BIN" --wasm /nonexistent --out "$TMP/hold" "$TMP/hold.md" >/dev/null 2>&1 &
nbpid=$!
for _ in $(seq 200); do [ -s "$TMP/hold/work/hold/bash.pid" ] && [ -s "$TMP/hold/work/hold/sleep.pid" ] && break; sleep 0.05; done
kill -9 "$nbpid"
wait "$nbpid" 2>/dev/null
sleep 0.5
for f in bash sleep; do
    p=$(cat "$TMP/hold/work/hold/$f.pid" 2>/dev/null)
    if [ -z "$p" ]; then fail "SIGKILL to bin/notebook: the cell's $f pid was not written"
    elif still_running "$p"; then fail "SIGKILL to bin/notebook: the cell's $f ($p) lives on"
    else pass "SIGKILL to bin/notebook: the cell's $f ($p) ends with it"; fi
done
