# lesson_shape.sh: issue 31's measures of a lesson that reads as a small program, held for the
# lessons rewritten so far (2, 7, 8): no function over 80 lines, main at most 120 (from its opening
# line to its closing brace at column 0), and no line over 100 columns outside the flag
# declarations (the option table through cli_parse, or a parse_flags function: engineer `params`
# rewrites those as descriptors).
. "$(dirname "$0")/../lib.sh"

for f in lessons/02-convergence.c lessons/07-drop.c lessons/08-audiorate.c; do
    long=$(awk '/^[a-z].*\(/ && !/;[[:space:]]*$/ && !/^static const/ { name = $0; start = NR; main = /^int main/ }
        /^}/ && start { n = NR - start; if (n > (main ? 120 : 80)) printf "%d (%d lines) ", start, n; start = 0 }' "$f")
    check_text "$f: no function over 80 lines, main at most 120${long:+: $long}" "${long:-none}" "none"
    wide=$(awk '/^static void parse_flags/ { pf = 1 } pf && /^}/ { pf = 0; next }
        /const cli_opt opts\[\] = \{/ { fl = 1 } fl && /cli_parse\(/ { fl = 0; next }
        !pf && !fl && length($0) > 100 { printf "%d ", NR }' "$f")
    check_text "$f: no line over 100 columns outside the flag declarations${wide:+: lines $wide}" "${wide:-none}" "none"
done
