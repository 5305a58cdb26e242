/* fuzz_json.c: the challenge.json reader on any bytes: jansson's parse (json_doc_parse, with the
 * member locator of its errors), then the whole challenge's checks (challenge_load). */
#include "fuzz_file.h"
#include "io/json.h"
#include "string/score.h"
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    json_t *j = json_doc_parse((const char *)data, size, err, sizeof err);
    if (j) {
        double x;
        const char *s;
        json_doc_number(j, "output.signal_scale", &x, err, sizeof err);
        json_doc_string(j, "id", &s, err, sizeof err);
        json_doc_get(j, "fields.t.count");
        json_decref(j);
    }
    challenge ch;
    if (challenge_load(fuzz_file(data, size), &ch, err, sizeof err) == 0 && ch.frame_length > ch.num_samples)
        __builtin_trap();   /* a challenge accepted must be one the programs can run */
    return 0;
}
