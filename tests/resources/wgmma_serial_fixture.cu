/* tests/resources/wgmma_serial_fixture.cu -- a kernel that tools/check-resources must reject: two
 * accumulator sets whose MMAs overlap the other set's reads, with a group still in flight at the loop's
 * back edge.  ptxas cannot prove the reads safe and serialises every wgmma (warning C7514): the overlap
 * the code was written for silently does not happen.  (ksum/wgmma.cuh waits for all MMAs at the end of
 * each tile for this reason.)  Compiled for sm_90a, where the wgmma code exists. */
#include <ksum/wgmma.cuh>

static __device__ __forceinline__ float fixture_use(const float *x)
{
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 64; i++) s += x[i];
    return s;
}
__global__ void wgmma_serial_fixture(float *out, int n, unsigned sa, unsigned sb)
{
    float a0[64], a1[64], s = 0.0f;
#pragma unroll
    for (int i = 0; i < 64; i++) a0[i] = a1[i] = 0.0f;
    for (int t = 0; t < n; t++) {
        ksum_wg_fence();
        ksum_wg_mma_tf32(a0, ksum_wg_desc(sa), ksum_wg_desc(sb), 0);
        ksum_wg_commit();
        KSUM_WG_WAIT(1);
        s += fixture_use(a1);
        ksum_wg_fence();
        ksum_wg_mma_tf32(a1, ksum_wg_desc(sa), ksum_wg_desc(sb), 0);
        ksum_wg_commit();
        KSUM_WG_WAIT(1); /* a1's group left in flight across the back edge */
        s += fixture_use(a0);
    }
    KSUM_WG_WAIT(0);
    out[threadIdx.x] = s + fixture_use(a1);
}
