/* score: the challenge's scorer. Checks that every file is the specified deliverable (WAV, 32-bit
 * IEEE float, mono, the rate and the length of challenge.json) and scores each submission against
 * the reference: E_wave (waveform) and E_spec (magnitude spectrogram, GSL's FFT).
 * A file that is not the specified format is refused with every mismatch named, exit status 2. */
#include "base/budget.h"
#include "base/cli.h"
#include "io/table.h"
#include "io/wav.h"
#include "string/score.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The header is judged before any sample is allocated; then the samples (finite). */
static void load_checked(const char *path, const challenge *ch, wav_data *w)
{
    char err[800], why[700];
    if (wav_read_checked(path, w, score_check_header, ch, err, sizeof err) != 0)
        cli_fail("score", "%s; accepted: a %d Hz mono 32-bit float WAV of %ld samples", err,
                 ch->sample_rate, ch->num_samples);
    if (score_check_format(w, ch, why, sizeof why) != 0)
        cli_fail("score", "%s: %s", path, why);
}

int main(int argc, char **argv)
{
    cli_common common = {false, NULL};     /* no --out: the table goes to standard output only */
    const char *chal = challenge_path();
    budget bg;
    budget_init(&bg, "score", "FFT operations", SCORE_SPEC_CAP,
                "challenge.json's E_spec frame_length M and hop, and the submissions (frames x 2 M "
                "log2 M each)");
    const cli_opt opts[] = {
        FLAG_TEXT("challenge", chal, "the challenge file (format, frame length, hop)"),
        FLAG_BOOL("tsv", common.tsv, "print the table as tab-separated values with a header row"),
        BUDGET_OPT(bg),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = "score",
        .summary = "Score submissions against a reference: E_wave and E_spec of string-pluck-v1.",
        .positional = "REF.wav SUB.wav [SUB.wav ...] (one of them may be -: standard input)",
        .min_positional = 2,
        .opts = opts,
    };
    int first = cli_parse(&spec, argc, argv);
    for (int i = first, dash = 0; i < argc; i++)
        if (strcmp(argv[i], "-") == 0 && dash++)
            cli_fail("score",
                     "- (standard input) is given twice; accepted: - for at most one of the files");
    challenge ch;
    char err[600];
    if (challenge_load(chal, &ch, err, sizeof err) != 0)
        cli_fail("score", "--challenge %s: %s", chal, err);
    /* E_spec's work from the challenge alone, before a sample is read: the files hold
     * ch.num_samples samples each (load_checked refuses any other length) */
    int nsub = argc - first - 1;
    double per_sub = score_spec_work((size_t)ch.num_samples, ch.frame_length, ch.hop);
    bg.work = nsub * per_sub;
    bg.bytes_mem = (nsub + 1.0) * ch.num_samples * 8.0;
    failure why;
    if (budget_check(&bg, &why))
        return failure_print(&why);
    wav_data ref;
    load_checked(argv[first], &ch, &ref);
    double energy = 0.0;
    for (long k = 0; k < ref.frames; k++)
        energy += ref.x[k] * ref.x[k];
    if (energy == 0.0)
        cli_fail("score",
                 "%s: the reference is silent (all samples zero); accepted: a nonzero reference",
                 argv[first]);
    /* check every submission before printing anything */
    wav_data sub[nsub];
    for (int i = 0; i < nsub; i++)
        load_checked(argv[first + 1 + i], &ch, &sub[i]);
    table t;
    if (!common.tsv)
        printf("reference %s: %ld samples at %d Hz; E_spec frames %d, hop %d\n\n", argv[first],
               ref.frames, ref.rate, ch.frame_length, ch.hop);
    table_begin(&t, stdout, common.tsv, "file", "E_wave", "E_spec", NULL);
    for (int i = 0; i < nsub; i++) {
        size_t n = (size_t)ref.frames;
        table_cell(&t, "%s", argv[first + 1 + i]);
        table_cell(&t, "%.12e", score_wave(sub[i].x, ref.x, n));
        table_cell(&t, "%.12e", score_spec(sub[i].x, ref.x, n, ch.frame_length, ch.hop));
        wav_data_free(&sub[i]);
        budget_tick(&bg.meter, per_sub);
    }
    budget_finish(&bg.meter);
    wav_data_free(&ref);
    return 0;
}
