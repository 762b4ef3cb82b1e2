/* tests/common/ksum_ref.h -- the CPU reference of ksum's one-pass TF32 Gaussian (ksum/tc.cuh,
 * ksum/wgmma.cuh) and its per-output error bound; plain C99 on the host (include after math.h,
 * stdlib.h, string.h).
 *
 * The one-pass kernels round the dot product's operands to TF32 (cvt.rna.tf32.f32: to nearest, ties
 * away from zero, 10 mantissa bits kept) and do everything else in fp32.  Which operands are rounded
 * depends on where the targets live (m2s = (float)(-2 s), s = (float)s, s the Gaussian's log2(e)/2h^2):
 *   KSUM_REF_RESIDENT   A_c = tf32(fl(m2s a_c)), B_c = tf32(b_c);  t = s|a|^2 + s|b|^2 + sum_c A_c B_c
 *                       (the wgmma kernel, KSUM_REGS_DEFINE's ksum_tf32, the staged mma.sync kernel's resident
 *                       targets: stored times -2s, rounded)
 *   KSUM_REF_STREAMED   A_c = tf32(a_c), B_c = tf32(b_c);  t = m2s (-(|a|^2 + |b|^2)/2 + sum_c A_c B_c)
 *                       (the staged mma.sync kernel's streamed targets: rounded unscaled, t = -2s acc)
 * The reference takes exactly these operands and sums in double, so what is left between it and a
 * correct kernel is fp32 arithmetic only.  With S = s|a|^2 + s|b|^2 + |g| sum_c |A_c B_c| (g = 1
 * resident, m2s streamed), the error of a pair's t is at most
 *   dt = (dim + 8) 2^-22 S = (4 dim + 32) 2^-24 S,
 * which covers: the tensor-core sums (the products of TF32 operands are exact in fp32; an mma of k
 * products and its accumulator aligns them to the largest and truncates, at most (k + 2) 2^-23 of the
 * largest term, k >= 4: at most 1.5 (dim + 7) 2^-23 S over the padded dot product), the fp32 norms (a
 * chain of dim FMAs and the scale: (dim + 2) 2^-24 of s|x|^2), and three more fp32 roundings (the norms'
 * sum, acc + s|b|^2, and + s|a|^2 or the product by m2s): (4 dim + 26) 2^-24 S in all.
 * Per output (row i, right-hand side r), K_j = 2^-max(t_j, 0):
 *   |v - ref| <= sum_j |w_j| (ln2 2^-(t_j - dt_j) dt_j + c_j)
 *              + (n/4 + n/128 + 50) 2^-24 sum_j |K_j w_j| + (n/128 + 2) 2^-24 |v0| + 2^-123 sum_j |w_j|
 * ln2 2^-(t - dt) is the steepest slope of 2^-t within dt of t; c_j = 4 (2^-t_j - 1) where t_j < 0, else
 * 0: the reference clamps t at 0 as the mma.sync kernels do, the factorised wgmma Gaussian does not
 * (t_j < 0 only for nearly coincident points, whose TF32 rounding leaves t_j a little below 0; the
 * factor 4 is the margin the other terms have).
 * The second line: the kernel value (two ex2.approx of 2^-22 each where the wgmma kernel factorises
 * 2^-t = 2^-(t - s|a|^2) 2^-s|a|^2, and one product: 9 2^-24, counted as 10), the fp32 sum of a row (at
 * most n/4 + 32 terms in one thread's FMA chain, 2 quad shuffles, 2 adds of the warps of a row band,
 * one atomic per source tile, the factor 2^-s|a|^2 and KSUM_ACCUMULATE's add: n/4 + n/128 + 40), the
 * accumulated v0 (one rounding per atomic), and the flush to zero of values below 2^-126 (ftz), at most
 * 2^-126 per term, counted 8 times. */
#ifndef ONCHIP_TEST_KSUM_REF_H
#define ONCHIP_TEST_KSUM_REF_H

#define KSUM_REF_RESIDENT 0
#define KSUM_REF_STREAMED 1

/* x rounded to TF32 as cvt.rna.tf32.f32 does: to nearest on the magnitude, ties away from zero, the
 * 13 low mantissa bits cleared (infinities and NaNs as they are) */
static inline float ksum_ref_tf32(float x)
{
    unsigned u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;
    memcpy(&x, &u, sizeof u);
    return x;
}

/* the one-pass TF32 Gaussian sum v_i,r = v0_i,r + sum_j 2^-t_ij w_j,r (model: KSUM_REF_RESIDENT or
 * KSUM_REF_STREAMED) for targets a (m x dim, rows ld apart), sources b (n x dim, ld), weights w (n x R),
 * v0 (m x R, or NULL: 0), every value already a float; s the scale in double (rounded to float here as
 * the launcher does); ref and bound (m x R) as above.  Returns 0, or -1 when out of memory. */
static inline int ksum_ref_tc1_gauss(int model, int m, int n, int dim, long long ld, const double *a, const double *b,
                                     const double *w, int R, const double *v0, double s, double *ref,
                                     double *bound)
{
    const float sf = (float)s, m2s = -2.0f * sf;
    const double u = 5.9604644775390625e-08; /* 2^-24 */
    const double g = model == KSUM_REF_RESIDENT ? 1.0 : (double)m2s, ag = fabs(g);
    double *A = (double *)malloc((size_t)m * dim * sizeof(double));
    double *B = (double *)malloc((size_t)n * dim * sizeof(double));
    double *na = (double *)malloc((size_t)m * sizeof(double)), *nb = (double *)malloc((size_t)n * sizeof(double));
    double *acc = (double *)malloc((size_t)R * 4 * sizeof(double));
    if (!A || !B || !na || !nb || !acc) {
        free(A); free(B); free(na); free(nb); free(acc);
        return -1;
    }
    for (int i = 0; i < m; i++) {
        double q = 0;
        for (int c = 0; c < dim; c++) {
            const float x = (float)a[i * ld + c];
            const float p = m2s * x; /* fp32 product, as the kernel stages it */
            A[(size_t)i * dim + c] = model == KSUM_REF_RESIDENT ? ksum_ref_tf32(p) : ksum_ref_tf32(x);
            q += (double)x * x;
        }
        na[i] = q;
    }
    for (int j = 0; j < n; j++) {
        double q = 0;
        for (int c = 0; c < dim; c++) {
            const float x = (float)b[j * ld + c];
            B[(size_t)j * dim + c] = ksum_ref_tf32(x);
            q += (double)x * x;
        }
        nb[j] = q;
    }
    const double csum = n / 4.0 + n / 128.0 + 50, cv0 = n / 128.0 + 2;
    for (int i = 0; i < m; i++) {
        double *sum = acc, *mag = acc + R, *sl = acc + 2 * R, *wabs = acc + 3 * R;
        for (int q = 0; q < 4 * R; q++) acc[q] = 0;
        for (int j = 0; j < n; j++) {
            double dot = 0, dabs = 0;
            for (int c = 0; c < dim; c++) {
                const double p = A[(size_t)i * dim + c] * B[(size_t)j * dim + c];
                dot += p;
                dabs += fabs(p);
            }
            const double nrm = (double)sf * (na[i] + nb[j]);
            const double t = model == KSUM_REF_RESIDENT ? nrm + dot : g * (-0.5 * (na[i] + nb[j]) + dot);
            const double S = nrm + ag * dabs, dt = (dim + 8) * 4 * u * S;
            const double kv = exp2(-(t > 0 ? t : 0));
            const double slope = 0.6931471805599453 * exp2(-(t - dt)) * dt + (t < 0 ? 4 * (exp2(-t) - 1) : 0);
            for (int r = 0; r < R; r++) {
                const double wj = w[j * R + r];
                sum[r] += kv * wj;
                mag[r] += fabs(kv * wj);
                sl[r] += fabs(wj) * slope;
                wabs[r] += fabs(wj);
            }
        }
        for (int r = 0; r < R; r++) {
            const double x0 = v0 ? v0[i * R + r] : 0;
            ref[i * R + r] = x0 + sum[r];
            bound[i * R + r] = sl[r] + csum * u * mag[r] + cv0 * u * fabs(x0) + 9.4039548065783e-38 * wabs[r];
        }
    }
    free(A); free(B); free(na); free(nb); free(acc);
    return 0;
}

#endif
