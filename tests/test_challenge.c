/* test_challenge.c: challenge.json read by jansson and checked whole at load: JSON that is not
 * JSON, duplicates, wrong types and values out of the flags' ranges refused, each naming the member. */
#include "check.h"
#include "io/json.h"
#include "string/score.h"
#include "base/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *original;      /* challenge.json as shipped */

/* challenge.json with the first `from` replaced by `to`, loaded; the return of challenge_load. */
static int load_with(const char *from, const char *to, challenge *ch, char *err, size_t n)
{
    const char *at = strstr(original, from);
    if (!at) {
        snprintf(err, n, "test: '%s' not in challenge.json", from);
        return -2;
    }
    char path[] = "/tmp/ivplab-challenge-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%.*s%s%s", (int)(at - original), original, to, at + strlen(from));
    fclose(f);
    int rc = challenge_load(path, ch, err, n);
    unlink(path);
    return rc;
}

int main(void)
{
    char err[1200];
    FILE *f = fopen(challenge_path(), "rb");
    if (!f) {
        printf("FAIL: cannot read %s\n", challenge_path());
        return 1;
    }
    original = xcalloc(1 << 16, 1);
    size_t n = fread(original, 1, (1 << 16) - 1, f);
    fclose(f);
    original[n] = '\0';
    challenge ch;
    int rc = load_with("\"hop\": 512", "\"hop\": 512", &ch, err, sizeof err);
    check(rc == 0 && ch.num_samples == 96000 && ch.field_nx == 201 && strcmp(ch.id, "string-pluck-v1") == 0,
          "the shipped challenge loads: %ld samples, field x %ld, id %s %s", ch.num_samples, ch.field_nx, ch.id,
          rc ? err : "");

    /* what JSON is not */
    const char *not_json[] = {"-Infinity", "Infinity", "-nan", "NaN", "0x1p-3", "1e999", "+2.5", "2.5.1", "02.5", ".5"};
    for (size_t i = 0; i < sizeof not_json / sizeof not_json[0]; i++) {
        char to[64];
        snprintf(to, sizeof to, "\"signal_scale\": %s", not_json[i]);
        rc = load_with("\"signal_scale\": 2.5", to, &ch, err, sizeof err);
        check(rc == -1 && strstr(err, "in output.signal_scale: ") && strstr(err, "line 31, column"),
              "signal_scale %s is not JSON: %s", not_json[i], err);
    }
    check(load_with("\"signal_scale\": 2.5", "\"signal_scale\": 2.5, \"signal_scale\": 5", &ch, err, sizeof err) == -1 &&
              strstr(err, "output.signal_scale") && strstr(err, "duplicate"),
          "a member name twice is refused: %s", err);
    check(load_with("\"L\": {\"value\": 0.65", "\"L\": {\"value\": 0.65, \"value\": 0.7", &ch, err, sizeof err) == -1 &&
              strstr(err, "parameters.L.value"),
          "a duplicate deep inside is named by its path: %s", err);
    check(load_with("\"shape\": [4001, 201]", "\"shape\": [4001, 201,]", &ch, err, sizeof err) == -1 &&
              strstr(err, "fields.u.shape[2]"),
          "an error inside an array names the element: %s", err);
    check(load_with("\"reference_solution\": null\n}", "\"reference_solution\": null\n} x", &ch, err, sizeof err) == -1,
          "text after the document is refused: %s", err);
    char *deep = xcalloc(300001, 1);
    memset(deep, '[', 300000);
    f = fopen("/tmp/ivplab-challenge-deep", "w");
    fputs(deep, f);
    fclose(f);
    check(challenge_load("/tmp/ivplab-challenge-deep", &ch, err, sizeof err) == -1 && strstr(err, "depth"),
          "300000-deep nesting stops at jansson's depth limit: %.120s", err);
    unlink("/tmp/ivplab-challenge-deep");
    free(deep);

    /* types and values, each naming the member */
    check(load_with("\"signal_scale\": 2.5", "\"signal_scale\": \"2.5\"", &ch, err, sizeof err) == -1 &&
              strstr(err, "output.signal_scale is a string; accepted: a number"),
          "a number as a string: %s", err);
    check(load_with("\"num_samples\": 96000,", "", &ch, err, sizeof err) == -1 && strstr(err, "output.num_samples is missing"),
          "a missing member: %s", err);
    struct { const char *from, *to, *says; } bad[] = {
        {"\"num_samples\": 96000", "\"num_samples\": 1e9", "output.num_samples"},
        {"\"num_samples\": 96000", "\"num_samples\": 96000.5", "output.num_samples = 96000.5"},
        {"\"sample_rate\": 48000", "\"sample_rate\": 10000000", "output.sample_rate"},
        {"\"sample_rate\": 48000", "\"sample_rate\": 48000.5", "output.sample_rate"},
        {"\"num_samples\": 96000", "\"num_samples\": 3000000", "at most 60 s"},
        {"\"frame_length\": 2048", "\"frame_length\": 131072", "error_measures.E_spec.frame_length = 131072"},
        {"\"frame_length\": 2048", "\"frame_length\": 2000", "power of two"},
        {"\"hop\": 512", "\"hop\": 0", "error_measures.E_spec.hop"},
        {"\"count\": 201", "\"count\": 1000000", "fields.x.count"},
        {"\"count\": 4001", "\"count\": 10000000", "fields.t.count"},
        {"\"count\": 4001", "\"count\": 300000", "fields.x.count x fields.t.count"},
        {"\"stop\": 0.65", "\"stop\": 0.7", "fields.x.stop = 0.7 is not parameters.L.value"},
        {"\"stop\": 2.0", "\"stop\": 1e6", "fields.t.stop"},
        {"\"value\": 0.65", "\"value\": -0.65", "parameters.L.value"},
        {"\"value\": 0.1625", "\"value\": 0.003", "parameters: --xp"},
        {"\"gain_db\": 10", "\"gain_db\": 1e6", "playback.gain_db"},
        {"\"channels\": 1", "\"channels\": 2", "output.channels"},
        {"\"id\": \"string-pluck-v1\"", "\"id\": \"\\u001b[2J\"", "id '\\x1b[2J'"},
        {"\"id\": \"string-pluck-v1\"", "\"id\": 7", "id is a number"},
        {"\"id\": \"string-pluck-v1\"", "\"id\": \"an id far longer than the sixty-three characters an id may have here\"",
         "printable ASCII"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = load_with(bad[i].from, bad[i].to, &ch, err, sizeof err);
        check(rc == -1 && strstr(err, bad[i].says) && !strchr(err, '\033'), "%s is refused naming '%s': %s", bad[i].to,
              bad[i].says, err);
    }
    check(challenge_load("/tmp", &ch, err, sizeof err) == -1 && strstr(err, "is a directory"), "a directory: %s", err);
    check(challenge_load("/nonexistent.json", &ch, err, sizeof err) == -1 && strstr(err, "No such file"),
          "a missing file: %s", err);
    free(original);
    return check_done();
}
