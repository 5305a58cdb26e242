/* fuzz_json.c: the challenge.json reader on any bytes: parse, then look up the paths the
 * programs read. */
#include "io/json.h"
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char err[256];
    json *j = json_parse(text, err, sizeof err);
    if (j) {
        double x;
        json_number(j, "output.signal_scale", &x, err, sizeof err);
        json_number(j, "output.sample_rate", &x, err, sizeof err);
        json_string(j, "id");
        json_get(j, "fields.t.count");
        json_free(j);
    }
    free(text);
    return 0;
}
