# docs.sh: what the documents and programs of the repository name exists in it. Every path under
# one of the repository's own folders (shared, lessons, src, plots, tests, notebooks-c) that a
# tracked file names is a file or folder of the checkout (a user's checkout has no shared/: the
# spec folder of the workshop is not in it); placeholders (NAME, NN-topic, X, name), prefixes
# (ending in _) and what git ignores (generated: plots/out/, build/) aside, and the tests' own names of files that
# must not exist. Nothing generated is tracked. And the README's table of figures lists every
# figure script of each program.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1

missing=$(git ls-files 2>/dev/null | grep -v -e '^tests/fixtures/' -e '^tests/claims/' -e '^tests/test_' |
    xargs grep -oIhE '(^|[^A-Za-z0-9_./-])(shared|lessons|src|plots|tests|notebooks-c)/[A-Za-z0-9_./+-]*[A-Za-z0-9_]' |
    sed -E 's/^[^a-z]//' | sort -u |
    grep -v -E '(NAME|NN-|/X\.|/name$|_$|^plots/out/)' |
    while read -r p; do [ -e "$p" ] || git check-ignore -q "$p" || git check-ignore -q "$p/" || compgen -G "$p.*" >/dev/null || echo "$p"; done)
if [ -z "$missing" ] && [ "$(git ls-files | wc -l)" -gt 100 ]; then
    pass "every repository path a tracked file names exists ($(git ls-files | wc -l) files read)"
else
    fail "paths named but not in the repository: $(echo $missing)"
fi

# Nothing generated is committed: no tracked file that git's ignore rules would leave out (build
# output, objects, WAVs, figures, Python's byte code).
generated=$(git ls-files -ci --exclude-standard 2>/dev/null | tr '\n' ' ')
if [ -z "$generated" ]; then pass "no tracked file is one that .gitignore calls generated"
else fail "generated files are committed: $generated"; fi

# The README's table "lesson | command | figures": each program's figure scripts (plots/NAME.gp
# reading datadir("PROGRAM")) are all in its row.
lost=""
for gp in plots/*.gp; do
    name=$(basename "$gp" .gp)
    [ "$name" = common ] && continue
    prog=$(grep -o 'datadir("[a-z]*")' "$gp" | head -1 | sed 's/datadir("\(.*\)")/\1/')
    [ -n "$prog" ] || continue
    row=$(grep -E "^\| [0-9]+\. .*\| \`bin/$prog --plot\`" README.md | head -1)
    case "$row" in
        *"\`$name\`"*) ;;
        *) lost="$lost $prog:$name";;
    esac
done
if [ -z "${lost:-}" ]; then
    pass "README's figure table lists every figure script of each program ($(ls plots/*.gp | wc -l) scripts)"
else
    fail "figures missing from README's figure table:$lost"
fi
