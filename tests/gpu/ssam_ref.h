/* tests/gpu/ssam_ref.h -- what the ssam tests' CPU references share (include after ssam/base.cuh). */
#ifndef ONCHIP_TEST_SSAM_REF_H
#define ONCHIP_TEST_SSAM_REF_H

/* the reference's own border rule: fold step by step (independent of ssam_border_index) */
static inline int ref_index(int i, int n, int border)
{
    if (i >= 0 && i < n) return i;
    switch (border) {
    case SSAM_BORDER_NEAREST: return i < 0 ? 0 : n - 1;
    case SSAM_BORDER_WRAP: return ((i % n) + n) % n;
    case SSAM_BORDER_REFLECT:
        while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
        return i;
    case SSAM_BORDER_MIRROR:
        if (n == 1) return 0;
        while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
        return i;
    default: return -1;
    }
}

#endif
