/* fuzz_params.c: the parameter-file parser and key=value overrides on any bytes. */
#include "base/cli.h"
#include "fuzz_file.h"
#include "io/params.h"
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    double m1 = 1, k = 1;
    const param_spec spec[] = {
        FLAG_REAL("m1", m1, "kg", 0, 1e3, CLI_OPEN_MIN, "mass"),
        FLAG_REAL("k", k, "N/m", 0, 1e12, CLI_CLOSED, "spring"),
        FLAG_END,
    };
    char err[512], text[600];
    params_load(spec, fuzz_file(data, size), false, err, sizeof err);
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    params_set(spec, text, err, sizeof err);
    return 0;
}
