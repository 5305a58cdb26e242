# lesson_shape.sh: issue 31's measures of a lesson that reads as a small program (lib.sh's
# lesson_shape: no function over 80 lines, main at most 120; no line over 100 columns and no struct
# literal of more than four positional fields, flag declarations included), held for every lesson;
# and only main ends the program (lib.sh's exits_below_main).
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.."
for f in lessons/01-ivp.c lessons/02-convergence.c lessons/03-stability.c lessons/04-stiff.c \
         lessons/05-work.c lessons/06-oscillator.c lessons/07-drop.c lessons/08-audiorate.c \
         lessons/09-pluck.c lessons/10-bow.c lessons/11-schelleng.c; do
    lesson_shape "$f"
done

# Libraries return, only main exits (issue 31): nothing below a lesson's main ends the program.
for f in lessons/[0-9][0-9]-*.c; do
    at=$(exits_below_main "$f")
    if [ -z "$at" ]; then pass "$f: only main ends the program (no exit, exit_on or *_or_exit below it)"
    else fail "$f: the program ends below main (exit, exit_on or *_or_exit) at line:$at"; fi
done
