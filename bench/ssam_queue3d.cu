/* bench/ssam_queue3d -- the 3D acoustic wave step (leapfrog, a velocity field s, stars of radius 1, 4
 * and 8) through ssam/stencil/queue3d.cuh beside the kernel a user writes by hand (one thread a cell,
 * the fields through the caches), in one run, each beside its floor: 16 bytes a cell and step for
 * float (u, u_prev, s read, u' written; 32 for double) over the copy bandwidth measured here.  Every
 * result of the piece is compared with the hand kernel's (the same sums in the same order: equal
 * within a few ulps).
 *   bench/ssam_queue3d [N [STEPS [sweep]]]   (default 512 10; sweep: the schedule's choices at R 4) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssam/base.cuh>
#include <ssam/stencil/queue3d.cuh>

#include "gpucheck.h"

template <class T, int R>
struct coefs {
    T c[6 * R + 1];
};
/* the hand kernel: one thread a cell, keep-extent (the cells within R of a face keep u) */
template <class T, int R>
__global__ void __launch_bounds__(256) naive(const T *__restrict__ u, T *__restrict__ up, const T *__restrict__ s, int nx,
                                             int ny, int nz, coefs<T, R> c)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
    if (x >= nx || y >= ny) return;
    const long long P = (long long)nx * ny, i = z * P + (long long)y * nx + x;
    if (x < R || x >= nx - R || y < R || y >= ny - R || z < R || z >= nz - R) {
        up[i] = u[i];
        return;
    }
    T sum = c.c[0] * u[i];
#pragma unroll
    for (int r = 1; r <= R; r++) /* the star's order: -x, +x, -y, +y, -z, +z at each distance */
        sum += c.c[6 * r - 5] * u[i - r] + c.c[6 * r - 4] * u[i + r] + c.c[6 * r - 3] * u[i - r * nx] +
               c.c[6 * r - 2] * u[i + r * nx] + c.c[6 * r - 1] * u[i - r * P] + c.c[6 * r] * u[i + r * P];
    up[i] = T(2) * u[i] - up[i] + s[i] * sum;
}

template <class T, int R>
struct star;
template <> struct star<float, 1> { typedef ONCHIP_SHAPE3D_TYPE(ONCHIP_SHAPE_STAR3D_R1) type; };
template <> struct star<float, 4> { typedef ONCHIP_SHAPE3D_TYPE(ONCHIP_SHAPE_STAR3D_R4) type; };
template <> struct star<float, 8> { typedef ONCHIP_SHAPE3D_TYPE(ONCHIP_SHAPE_STAR3D_R8) type; };
template <> struct star<double, 4> { typedef ONCHIP_SHAPE3D_TYPE(ONCHIP_SHAPE_STAR3D_R4) type; };

template <class T, int R, int BY, int PD, int UPD>
__global__ void __launch_bounds__(32 * BY) queue(ssam_queue3d_args<T> a, coefs<T, R> c)
{
    ssam_queue3d_step<T, typename star<T, R>::type, BY, PD, UPD>(a, c.c);
}

template <class F>
static float time_ms(F f, int reps)
{
    cudaEvent_t a, b;
    float best = 1e30f;
    CUDA_OK(cudaEventCreate(&a));
    CUDA_OK(cudaEventCreate(&b));
    f();
    CUDA_OK(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++) {
        float ms;
        CUDA_OK(cudaEventRecord(a));
        f();
        CUDA_OK(cudaEventRecord(b));
        CUDA_OK(cudaEventSynchronize(b));
        CUDA_OK(cudaEventElapsedTime(&ms, a, b));
        best = ms < best ? ms : best;
    }
    CUDA_OK(cudaEventDestroy(a));
    CUDA_OK(cudaEventDestroy(b));
    return best;
}

template <class T>
__global__ void fill(T *p, size_t n, unsigned seed, double lo, double hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned long long h = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
        h ^= h >> 31, h *= 0xBF58476D1CE4E5B9ull, h ^= h >> 29;
        p[i] = (T)(lo + (hi - lo) * ((double)(h >> 11) * (1.0 / 9007199254740992.0)));
    }
}

template <class T, int R, int BY, int PD, int UPD = ONCHIP_UPDATE_LEAPFROG>
static void row(int n, int steps, double bw, int seg = 0)
{
    const size_t N = (size_t)n * n * n;
    const double floor_g = bw / (4.0 * sizeof(T)) / 1e9;
    T *u, *up, *s, *w0, *w1;
    CUDA_OK(cudaMalloc(&u, N * sizeof(T)));
    CUDA_OK(cudaMalloc(&up, N * sizeof(T)));
    CUDA_OK(cudaMalloc(&s, N * sizeof(T)));
    CUDA_OK(cudaMalloc(&w0, N * sizeof(T)));
    CUDA_OK(cudaMalloc(&w1, N * sizeof(T)));
    fill<<<1024, 256>>>(u, N, 1, -1, 1);
    fill<<<1024, 256>>>(up, N, 2, -1, 1);
    fill<<<1024, 256>>>(s, N, 3, 0.001, 0.01);
    coefs<T, R> c;
    c.c[0] = 0;
    for (int r = 1; r <= R; r++)
        for (int k = 0; k < 6; k++) c.c[6 * r - 5 + k] = (T)(1.0 / (r * r + 1)), c.c[0] -= c.c[6 * r - 5 + k];
    /* the hand kernel */
    const dim3 gn((n + 31) / 32, (n + 7) / 8, n), bn(32, 8);
    auto hand = [&](T *a, T *b) {
        for (int t = 0; t < steps; t++) naive<T, R><<<gn, bn>>>(t & 1 ? b : a, t & 1 ? a : b, s, n, n, n, c);
    };
    /* the piece */
    const size_t smem = ssam_queue3d_smem<T, typename star<T, R>::type, BY, PD>();
    CUDA_OK(cudaFuncSetAttribute(queue<T, R, BY, PD, UPD>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    ssam_queue3d_args<T> a;
    memset(&a, 0, sizeof a);
    a.nx = a.ny = a.nz = n, a.pitch = n, a.plane = (long long)n * n, a.scale = s, a.update = ONCHIP_UPDATE_LEAPFROG;
    int sms = 0;
    CUDA_OK(onchip_device_sms(0, &sms));
    a.boundary = ONCHIP_KEEP_EXTENT, a.seg = seg > 0 ? seg : ssam_queue3d_seg(&a, BY, sms);
    auto piece = [&](T *p0, T *p1) {
        for (int t = 0; t < steps; t++) {
            a.src = t & 1 ? p1 : p0, a.dst = t & 1 ? p0 : p1, a.vec = ssam_queue3d_vec(&a);
            if (ssam_queue3d_check<T, typename star<T, R>::type>(&a)) {
                fprintf(stderr, "the step refuses its arguments: %s\n", ssam_strerror(ssam_queue3d_check<T, typename star<T, R>::type>(&a)));
                exit(1);
            }
            queue<T, R, BY, PD, UPD><<<ssam_queue3d_grid(&a, BY), dim3(32, BY), smem>>>(a, c);
        }
    };
    /* the same steps from the same state: compare */
    CUDA_OK(cudaMemcpy(w0, u, N * sizeof(T), cudaMemcpyDeviceToDevice));
    CUDA_OK(cudaMemcpy(w1, up, N * sizeof(T), cudaMemcpyDeviceToDevice));
    hand(w0, w1);
    T *hr = (T *)malloc(N * sizeof(T)), *hq = (T *)malloc(N * sizeof(T));
    CUDA_OK(cudaMemcpy(hr, steps & 1 ? w1 : w0, N * sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(w0, u, N * sizeof(T), cudaMemcpyDeviceToDevice));
    CUDA_OK(cudaMemcpy(w1, up, N * sizeof(T), cudaMemcpyDeviceToDevice));
    piece(w0, w1);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(hq, steps & 1 ? w1 : w0, N * sizeof(T), cudaMemcpyDeviceToHost));
    double e = 0, d = 0;
    for (size_t i = 0; i < N; i++) e = fmax(e, fabs((double)hq[i] - hr[i])), d = fmax(d, fabs((double)hr[i]));
    const float mh = time_ms([&] { hand(w0, w1); }, 5), mq = time_ms([&] { piece(w0, w1); }, 5);
    const double gh = (double)N * steps / (mh * 1e-3) / 1e9, gq = (double)N * steps / (mq * 1e-3) / 1e9;
    printf("%-6s R %d %d^3 %3d steps  hand %7.1f GCells/s (%5.1f%%)  queue3d BY %2d PD %d seg %3d%s %7.1f GCells/s (%5.1f%%)  %.2fx  "
           "floor %.1f  max |queue - hand| %.2g of %.2g\n",
           sizeof(T) == 4 ? "float" : "double", R, n, steps, gh, 100 * gh / floor_g, BY, PD, a.seg, UPD < 0 ? " (update at run time)" : "", gq, 100 * gq / floor_g, gq / gh,
           floor_g, e, d);
    free(hr), free(hq);
    CUDA_OK(cudaFree(u));
    CUDA_OK(cudaFree(up));
    CUDA_OK(cudaFree(s));
    CUDA_OK(cudaFree(w0));
    CUDA_OK(cudaFree(w1));
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 512, steps = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 32 || n % 4 || steps < 1) {
        fprintf(stderr, "usage: bench/ssam_queue3d [N (a multiple of 4, >= 32) [STEPS]]\n");
        return 2;
    }
    cudaDeviceProp p;
    CUDA_OK(cudaGetDeviceProperties(&p, 0));
    float *a, *b;
    const size_t M = (size_t)1 << 28;
    CUDA_OK(cudaMalloc(&a, M * 4));
    CUDA_OK(cudaMalloc(&b, M * 4));
    const float ms = time_ms([&] { CUDA_OK(cudaMemcpy(b, a, M * 4, cudaMemcpyDeviceToDevice)); }, 5);
    const double bw = 2.0 * M * 4 / (ms * 1e-3);
    CUDA_OK(cudaFree(a));
    CUDA_OK(cudaFree(b));
    printf("%s, copy %.2f TB/s; floor = bytes a cell-step (4 arrays) over it\n", p.name, bw / 1e12);
    if (argc > 3) { /* the schedule's choices: update at run time or fixed, BY, z segments */
        row<float, 4, 8, 2, -1>(n, steps, bw);
        row<float, 4, 8, 2>(n, steps, bw);  /* ssam_queue3d_seg's choice */
        row<float, 4, 16, 2>(n, steps, bw);
        for (int seg = n; seg >= 16; seg /= 2) row<float, 4, 8, 2>(n, steps, bw, seg);
        return 0;
    }
    row<float, 1, 8, 2>(n, steps, bw);
    row<float, 4, 16, 2>(n, steps, bw);
    row<float, 4, 8, 2>(n, steps, bw);
    row<float, 4, 8, 2, -1>(n, steps, bw);
    row<float, 8, 8, 1>(n, steps, bw);
    row<double, 4, 8, 2>(n, steps, bw);
    return 0;
}
