/* test_ssam_points -- ssam/stencil/points.cuh against the CPU: ssam_point_add of random amplitudes at
 * random off-grid points (several sharing cells, points on the domain's last cells) into a zeroed
 * field, every cell against a double reference within its rounding bound (a cell no point reaches
 * stays 0); ssam_point_read of a trilinear function at the same points, exact to rounding, the
 * padding between rows and planes 1e30 (a read of it fails).  float and double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssam/stencil/points.cuh>

#include "gpucheck.h"

template <class T>
__global__ void add_k(T *u, long long pitch, long long plane, const ssam_trilinear_pt *p, const T *v, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) ssam_point_add(u, pitch, plane, p[i], v[i]);
}
template <class T>
__global__ void read_k(const T *u, long long pitch, long long plane, const ssam_trilinear_pt *p, T *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = ssam_point_read(u, pitch, plane, p[i]);
}

static double lin(double x, double y, double z) { return 1 + 2 * x - 3 * y + 0.5 * z + 0.25 * x * y + 0.01 * x * y * z; }

template <class T>
static void run(const char *name)
{
    const int nx = 37, ny = 21, nz = 9, n = 300;
    const long long pitch = nx + 3, plane = pitch * ny + 7, cells = plane * nz;
    const double eps = sizeof(T) == 4 ? 1.0 / (1 << 23) : 1.0 / (1LL << 52);
    char label[160];
    snprintf(label, sizeof label, "ssam points %s: add (shared cells, the last cells) and read against a double reference", name);
    case_begin(label);
    ssam_trilinear_pt *hp = (ssam_trilinear_pt *)malloc(n * sizeof *hp), *dp;
    T *hv = (T *)malloc(n * sizeof(T)), *hu = (T *)malloc(cells * sizeof(T)), *ho = (T *)malloc(n * sizeof(T)), *du, *dv, *dout;
    double *ref = (double *)calloc(cells, 8), *mag = (double *)calloc(cells, 8);
    for (int i = 0; i < n; i++) {
        double x = (gpucheck_uniform() + 1) / 2 * (nx - 1), y = (gpucheck_uniform() + 1) / 2 * (ny - 1),
               z = (gpucheck_uniform() + 1) / 2 * (nz - 1);
        if (i % 10 == 1) x = nx - 1, y = ny - 1, z = nz - 1; /* the last cell */
        if (i % 10 == 2) x = hp[i - 1].x0 + 0.5, y = hp[i - 1].y0 + 0.5, z = hp[i - 1].z0 + 0.5; /* shared cells */
        CHECK(ssam_trilinear_in(x, y, z, nx, ny, nz, &hp[i]) == SSAM_SUCCESS, "point %d (%g %g %g)", i, x, y, z);
        hv[i] = (T)gpucheck_uniform();
        for (int k = 0; k < 8; k++) {
            const long long c = (long long)(hp[i].z0 + (k >> 2 & 1)) * plane + (long long)(hp[i].y0 + (k >> 1 & 1)) * pitch + hp[i].x0 + (k & 1);
            ref[c] += (double)(T)hp[i].w[k] * hv[i];
            mag[c] += fabs((double)(T)hp[i].w[k] * hv[i]);
        }
    }
    CUDA_OK(cudaMalloc(&dp, n * sizeof *dp));
    CUDA_OK(cudaMalloc(&du, cells * sizeof(T)));
    CUDA_OK(cudaMalloc(&dv, n * sizeof(T)));
    CUDA_OK(cudaMalloc(&dout, n * sizeof(T)));
    CUDA_OK(cudaMemcpy(dp, hp, n * sizeof *dp, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dv, hv, n * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(du, 0, cells * sizeof(T)));
    add_k<T><<<(n + 127) / 128, 128>>>(du, pitch, plane, dp, dv, n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(hu, du, cells * sizeof(T), cudaMemcpyDeviceToHost));
    int bad = 0;
    double worst = 0;
    for (long long c = 0; c < cells && bad < 3; c++) {
        const double e = fabs((double)hu[c] - ref[c]), b = 16 * eps * mag[c];
        if (!(e <= b)) {
            CHECK(0, "cell %lld: %.9g, ref %.9g, bound %.3g", c, (double)hu[c], ref[c], b);
            bad++;
        }
        if (b > 0 && e / b > worst) worst = e / b;
    }
    /* read: a trilinear function at the points */
    for (long long c = 0; c < cells; c++) {
        const long long z = c / plane, y = c % plane / pitch, x = c % plane % pitch;
        hu[c] = (T)(x < nx && y < ny ? lin(x, y, z) : 1e30);
    }
    CUDA_OK(cudaMemcpy(du, hu, cells * sizeof(T), cudaMemcpyHostToDevice));
    read_k<T><<<(n + 127) / 128, 128>>>(du, pitch, plane, dp, dout, n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(ho, dout, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n && bad < 6; i++) {
        double want = 0, m = 0;
        for (int k = 0; k < 8; k++) {
            const double v = (double)hu[(long long)(hp[i].z0 + (k >> 2 & 1)) * plane + (long long)(hp[i].y0 + (k >> 1 & 1)) * pitch + hp[i].x0 + (k & 1)];
            want += (double)(T)hp[i].w[k] * v, m += fabs((double)(T)hp[i].w[k] * v);
        }
        if (!(fabs(ho[i] - want) <= 16 * eps * m)) {
            CHECK(0, "read %d: %.9g, ref %.9g", i, (double)ho[i], want);
            bad++;
        }
    }
    printf("  %s: add's largest error %.3g of its bound\n", name, worst);
    CUDA_OK(cudaFree(dp));
    CUDA_OK(cudaFree(du));
    CUDA_OK(cudaFree(dv));
    CUDA_OK(cudaFree(dout));
    free(hp), free(hv), free(hu), free(ho), free(ref), free(mag);
    case_end();
}

/* usage: test_ssam_points [--light]   (the same small case either way) */
int main(int argc, char **argv)
{
    (void)gpucheck_begin(argc, argv);
    check_plan(2);
    run<float>("float");
    run<double>("double");
    return check_exit();
}
