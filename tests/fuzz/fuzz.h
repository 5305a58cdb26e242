/* fuzz.h: the contract of a fuzz target (libFuzzer's): take any bytes, never crash. */
#ifndef IVPLAB_FUZZ_H
#define IVPLAB_FUZZ_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes as a file (readers here take paths); the path is reused between calls. */
const char *fuzz_file(const uint8_t *data, size_t size);

#endif
