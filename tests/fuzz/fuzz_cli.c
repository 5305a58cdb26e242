/* fuzz_cli.c: what the flag parser does with any text: numbers (decimal notation only, finite
 * when accepted), "A,B" pairs, and the escaping of messages (no control byte survives, the
 * result fits its buffer). */
#include "base/cli.h"
#include "fuzz.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    double v, a, b;
    if (cli_number_error(text, &v) == NULL && (!isfinite(v) || strspn(text, "+-0123456789.eE") != strlen(text)))
        __builtin_trap();   /* accepted must mean a finite decimal number */
    if (cli_pair(text, &a, &b) == 0 && !(isfinite(a) && isfinite(b)))
        __builtin_trap();
    size_t sizes[] = {1, 5, 16, 4096};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        char *buf = malloc(sizes[k]);
        cli_escape(text, buf, sizes[k]);
        size_t n = strlen(buf);
        if (n >= sizes[k])
            __builtin_trap();
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] == 0x7f)
                __builtin_trap();   /* a control byte reached the message */
        free(buf);
    }
    free(text);
    return 0;
}
