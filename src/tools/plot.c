/* plot: redraw a program's figures from data it wrote earlier, without running it again, by the
 * same mechanism as the programs' --plot (src/io/plot.c). With no PROGRAM, every program that has
 * figure scripts: what `make render-plots` runs after `make run-lessons`. */
#include "base/cli.h"
#include "io/plot.h"
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    cli_common common = {false, NULL};
    plot_opts plot = {true, false, NULL};
    const char *data = "build/data";
    const cli_opt opts[] = {
        FLAG_TEXT("data", data, "folder holding every program's data folder (PROGRAM/ inside)"),
        FLAG_BOOL("show", plot.show,
            "also open the figures in a gnuplot window (needs a display)"),
        FLAG_TEXT("figures", plot.figures,
            "folder for the figures (none given: plots/out/ in the checkout)"),
        FLAG_BOOL("tsv", common.tsv, "write the figures' paths on stderr, keeping stdout empty"),
        FLAG_TEXT("out", common.out,
            "one program's data folder, as that program's own --out (default: --data/PROGRAM)"),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = "plot",
        .summary = "Draw the figures of PROGRAM (default: every program with figure scripts) "
            "from the data it wrote, PNG and SVG, without running it again.",
        .positional = "[PROGRAM ...]",
        .opts = opts,
    };
    int first = cli_parse(&spec, argc, argv);
    char progs[64][64];
    int n = 0;
    if (first < argc) {
        for (int i = first; i < argc && n < 64; i++, n++)
            snprintf(progs[n], sizeof progs[n], "%.63s", argv[i]);
    } else {
        n = plot_programs(progs, 64);
        if (n < 0) {
            fprintf(stderr, "plot: cannot find the figure scripts (plots/) of the checkout\n");
            return 1;
        }
    }
    if (common.out && n != 1)
        cli_fail("plot",
                 "--out %s names one program's data folder; accepted: with exactly one PROGRAM",
                 common.out);
    int failed = 0, total = 0;
    for (int i = 0; i < n; i++) {
        char names[1][64];
        if (plot_scripts(progs[i], names, 1) <= 0)
            cli_fail("plot",
                     "'%s' has no figure script (plots/*.gp reading datadir(\"%s\")); accepted: a "
                     "program with figures",
                     progs[i], progs[i]);
        char dir[8192];
        if (common.out)
            snprintf(dir, sizeof dir, "%s", common.out);
        else
            snprintf(dir, sizeof dir, "%.4000s/%s", data, progs[i]);
        total++;
        if (plot_render(&plot, progs[i], dir, common.tsv) != 0)
            failed++;
    }
    if (failed && total > 1)    /* one program: its own line said why */
        fprintf(stderr, "plot: %d of %d programs' figures failed\n", failed, total);
    return failed ? 1 : 0;
}
