#include <onchip/names_push.h>
/* onchip/check.h -- the span and overlap tests every launcher makes on the user's buffers (C99 host
 * code; also compiles as C++ and CUDA; nothing under NVRTC).
 *
 * WHAT
 *   onchip_span(rows, pitch, width, es)  bytes spanned by `rows` rows, `pitch` elements of es bytes
 *                                        apart, the last holding `width`: ((rows - 1) pitch + width)
 *                                        es; 0 when rows or width <= 0, else -1 when es <= 0, pitch < 0
 *                                        or the span passes 2^60 bytes (no buffer spans that)
 *   onchip_overlap(a, an, b, bn)         1 when the byte ranges [a, a + an) and [b, b + bn) share a
 *                                        byte, else 0; an empty range (n <= 0) or a NULL pointer
 *                                        shares none
 *
 * EXAMPLE
 *   [compile in a function]
 *   static char buf[100];
 *   long long n = onchip_span(4, 10, 8, 2);   // 4 rows of 10 two-byte cells, 8 used: 76 bytes
 *   if (n < 0 || onchip_overlap(buf, n, buf + 70, 10)) return;   // refused: bytes 70..75 meet
 *
 * LIMITS
 *   onchip_overlap compares the addresses as integers (uintptr_t), whatever allocations they come
 *   from, by their difference: no end a + an is formed, so no range wraps past the address space.
 */
#ifndef ONCHIP_CHECK_H
#define ONCHIP_CHECK_H

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
#include <stdint.h>

static inline long long onchip_span(long long rows, long long pitch, long long width, long long es)
{
    long long lim;
    if (rows <= 0 || width <= 0) return 0;
    if (es <= 0 || pitch < 0) return -1;
    lim = (1LL << 60) / es;
    if (width > lim || (pitch > 0 && rows - 1 > (lim - width) / pitch)) return -1;
    return ((rows - 1) * pitch + width) * es;
}
static inline int onchip_overlap(const void *a, long long an, const void *b, long long bn)
{
    const uintptr_t p = (uintptr_t)a, q = (uintptr_t)b;
    if (!a || !b || an <= 0 || bn <= 0) return 0;
    return p <= q ? (unsigned long long)(q - p) < (unsigned long long)an : (unsigned long long)(p - q) < (unsigned long long)bn;
}
#endif /* !__CUDACC_RTC__ */

#endif /* ONCHIP_CHECK_H */
#include <onchip/names_pop.h>
