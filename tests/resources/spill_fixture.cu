/* tests/resources/spill_fixture.cu -- a kernel that must FAIL tools/check-resources: a register array
 * written and read with run-time indices goes to local memory (stack frame > 0).  make test checks
 * that the resource check reports it, so the check is known to be able to fail. */
__global__ void onchip_fixture_dynamic_index(const float *in, float *out, int k)
{
    float a[32];
#pragma unroll
    for (int i = 0; i < 32; i++) a[i] = in[threadIdx.x + i * blockDim.x];
    for (int i = 0; i < k; i++) a[(i * 7 + k) & 31] += a[(i + threadIdx.x) & 31]; /* run-time indices */
    out[threadIdx.x] = a[k & 31];
}
