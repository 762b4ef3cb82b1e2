/* tests/gpu/probe.cu -- exit 0 and print the device when a CUDA device is usable, else exit 1. */
#include <cstdio>
#include <cuda_runtime.h>
int main(void)
{
    int n = 0;
    cudaDeviceProp p;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) return 1;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return 1;
    printf("gpu: %s, sm_%d%d, %d SMs, %.0f MB L2\n", p.name, p.major, p.minor, p.multiProcessorCount,
           p.l2CacheSize / 1048576.0);
    return 0;
}
