/* tests/fuzz/fuzz.h -- what every fuzz target shares.  A target is a C99 file fuzz_NAME.c that
 * defines LLVMFuzzerTestOneInput and asserts the contract of what it calls with FUZZ_ASSERT; its
 * seed corpus (and every input that ever failed, kept as crash-*) lives in tests/fuzz/corpus/NAME/.
 * The same file builds two ways: with clang's -fsanitize=fuzzer (libFuzzer drives it) and with
 * tests/fuzz/replay.c under gcc (every file of the corpus fed once, as make test does). */
#ifndef ONCHIP_FUZZ_H
#define ONCHIP_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a broken promise: say which and where, then abort (libFuzzer keeps the input as a crash) */
#define FUZZ_ASSERT(cond, ...)                                                             \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: contract broken: %s: ", __FILE__, __LINE__, #cond);    \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, "\n");                                                         \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

/* the input as a stream of integers: each call takes the next bytes (zeros past the end) */
typedef struct fuzz_bytes {
    const uint8_t *p;
    size_t n, at;
} fuzz_bytes;
static inline uint64_t fuzz_u64(fuzz_bytes *b, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v = v << 8 | (b->at < b->n ? b->p[b->at++] : 0);
    return v;
}
/* an int that is often an edge value (0, 1, -1, INT_MAX, INT_MIN, powers of two) */
static inline int fuzz_int(fuzz_bytes *b)
{
    static const int64_t edge[] = {0, 1, -1, 2, 3, 31, 32, 33, 1024, 65535, 65536, 2147483647, -2147483647 - 1,
                                   2147483646, 46341, 1 << 30};
    uint64_t sel = fuzz_u64(b, 1);
    if (sel < 96) return edge[sel % (sizeof edge / sizeof *edge)];
    if (sel < 192) return (int)(fuzz_u64(b, 1) % 300);
    return (int)(uint32_t)fuzz_u64(b, 4);
}
#endif
