/* test_ssam_queue3d -- ssam/stencil/queue3d.cuh, the 3D z-queue piece, against a CPU reference in
 * double: every update (the plain sum with and without a scale field, leapfrog, damped), both
 * boundary policies it takes (keep-extent, zero-outside), stars of radius 1, 2, 4 and 8 and an
 * asymmetric one with a shared coefficient, float and double, ragged sizes, a pitch and plane that
 * forbid 16-byte copies, z segments shorter than the domain.  Each step is checked against the
 * reference applied to that step's own inputs, with a bound from the arithmetic (eps times the
 * sizes of the terms), over three steps of ping-pong (two under --light); the plain sum's output
 * is poisoned (NaN) first.
 * Fields carry 1000x jumps (layers). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssam/stencil/queue3d.cuh>

#include "gpucheck.h"

#define MY_UPWIND3D(X) X(0, 0, 0, 0) X(1, -2, 0, 0) X(2, 1, 0, 0) X(3, 0, -1, 0) X(4, 0, 3, 0) X(5, 0, 0, -3) X(1, 0, 0, 1)

#define QK(name, T, SHAPE, BY, PD, UPD)                                                                        \
    typedef ONCHIP_SHAPE3D_TYPE(SHAPE) name##_s;                                                          \
    struct name##_c {                                                                                     \
        T c[name##_s::npts];                                                                              \
    };                                                                                                    \
    __global__ void __launch_bounds__(32 * (BY)) name##_k(ssam_queue3d_args<T> a, name##_c c)             \
    {                                                                                                     \
        ssam_queue3d_step<T, name##_s, BY, PD, UPD>(a, c.c);                                                   \
    }
QK(f_s1, float, ONCHIP_SHAPE_STAR3D_R1, 8, 2, -1)
QK(f_s4, float, ONCHIP_SHAPE_STAR3D_R4, 16, 2, -1)
QK(f_s8, float, ONCHIP_SHAPE_STAR3D_R8, 8, 1, -1)
QK(f_up, float, MY_UPWIND3D, 4, 3, -1)
QK(d_s2, double, ONCHIP_SHAPE_STAR3D_R2, 8, 2, -1)
QK(d_up, double, MY_UPWIND3D, 8, 1, -1)
/* the update fixed at compile time */
QK(f_s4l, float, ONCHIP_SHAPE_STAR3D_R4, 8, 2, ONCHIP_UPDATE_LEAPFROG)
QK(d_s4d, double, ONCHIP_SHAPE_STAR3D_R4, 8, 2, ONCHIP_UPDATE_DAMPED)

typedef struct pt { int i, dx, dy, dz; } pt;
struct collect {
    pt *p;
    int *n;
    template <class P>
    __host__ __device__ void operator()(P) const { p[(*n)++] = pt{P::i, P::dx, P::dy, P::dz}; }
};

/* the reference of one step at every cell from the step's inputs (double) and each cell's bound */
static void reference(const pt *pts, int npts, const double *c, int lo[3], int hi[3], const double *u, const double *prev,
                      const double *s, const double *d, int nx, int ny, int nz, long long pitch, long long plane, int update,
                      int boundary, double eps, double *ref, double *bound)
{
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const long long i = z * plane + y * pitch + x;
                const int kept = boundary == ONCHIP_KEEP_EXTENT && (x < -lo[0] || x >= nx - hi[0] || y < -lo[1] ||
                                                                    y >= ny - hi[1] || z < -lo[2] || z >= nz - hi[2]);
                double sum = 0, mag = 0;
                if (kept) { ref[i] = u[i], bound[i] = 0; continue; }
                for (int k = 0; k < npts; k++) {
                    const int xx = x + pts[k].dx, yy = y + pts[k].dy, zz = z + pts[k].dz;
                    const double v = xx >= 0 && xx < nx && yy >= 0 && yy < ny && zz >= 0 && zz < nz ? u[zz * plane + yy * pitch + xx] : 0;
                    sum += c[pts[k].i] * v;
                    mag += fabs(c[pts[k].i] * v);
                }
                const double sc = s ? s[i] : 1.0, dd = d ? d[i] : 0.0;
                if (update == ONCHIP_UPDATE_SUM) ref[i] = sc * sum, mag = fabs(sc) * mag;
                else if (update == ONCHIP_UPDATE_LEAPFROG) ref[i] = 2 * u[i] - prev[i] + sc * sum, mag = 2 * fabs(u[i]) + fabs(prev[i]) + fabs(sc) * mag;
                else ref[i] = (2 * u[i] - (1 - dd) * prev[i] + sc * sum) / (1 + dd),
                     mag = (2 * fabs(u[i]) + fabs((1 - dd) * prev[i]) + fabs(sc) * mag) / (1 + dd);
                bound[i] = (npts + 8) * eps * mag + 1e-30;
            }
}

template <class T, class C, class S, int BY, int PD, int UPD = -1>
static void run(const char *name, void (*kern)(ssam_queue3d_args<T>, C), int light)
{
    typedef ssam__q3<T, S, BY, PD> Q;
    /* --light (compute-sanitizer): the first three (several blocks in x, in y and in z segments), two
     * steps (one ping, one pong) */
    static const int sizes[][3] = {{37, 19, 11}, {130, 19, 18}, {257, 9, 7}, {130, 33, 20}, {64, 64, 40}, {5, 3, 2}, {300, 21, 13}};
    const int nsizes = light ? 3 : 7, nsteps = light ? 2 : 3;
    pt pts[S::npts];
    int npts = 0;
    onchip_shape_each(S(), collect{pts, &npts});
    int lo[3] = {S::xlo, S::ylo, S::zlo}, hi[3] = {S::xhi, S::yhi, S::zhi};
    const double eps = sizeof(T) == 4 ? 1.0 / (1 << 23) : 1.0 / (1LL << 52);
    const size_t smem = ssam_queue3d_smem<T, S, BY, PD>();
    char label[256];
    snprintf(label, sizeof label, "ssam queue3d %s (%s, BY %d, PD %d, %zu B shared): every update and field, keep-extent and zero-outside, ragged sizes, pitch, z segments, %d steps",
             name, sizeof(T) == 4 ? "float" : "double", BY, PD, smem, nsteps);
    if (!case_part(label)) return;
    CUDA_OK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    double worst = 0;
    long long cells = 0;
    for (int si = 0; si < nsizes; si++)
        for (int lay = 0; lay < 2; lay++) /* 0 dense; 1 pitch nx + 3 and plane + 5: cell by cell copies */
            for (int pol = 0; pol < 2; pol++)
                for (int upd = 0; upd < 4; upd++) { /* sum, sum with s, leapfrog with s, damped with s and d */
                    const int nx = sizes[si][0], ny = sizes[si][1], nz = sizes[si][2];
                    const long long pitch = lay ? nx + 3 : nx, plane = lay ? pitch * ny + 5 : pitch * ny;
                    const size_t n = (size_t)(plane * nz);
                    const int update = upd < 2 ? ONCHIP_UPDATE_SUM : upd == 2 ? ONCHIP_UPDATE_LEAPFROG : ONCHIP_UPDATE_DAMPED;
                    const int boundary = pol ? ONCHIP_ZERO_OUTSIDE : ONCHIP_KEEP_EXTENT;
                    T *hb[4], *db[4];
                    for (int k = 0; k < 4; k++) { /* u, prev, s, d */
                        hb[k] = (T *)malloc(n * sizeof(T));
                        CUDA_OK(cudaMalloc(&db[k], n * sizeof(T)));
                    }
                    for (size_t i = 0; i < n; i++) {
                        const long long z = (long long)i / plane;
                        hb[0][i] = (T)gpucheck_uniform();
                        hb[1][i] = (T)gpucheck_uniform();
                        hb[2][i] = (T)((z % 3 == 0 ? 1e-4 : 0.1) * (1.2 + gpucheck_uniform())); /* 1000x jumps */
                        hb[3][i] = (T)(z < 2 || z >= nz - 2 ? 0.3 * (1 + gpucheck_uniform()) : 0.0);
                    }
                    for (int k = 0; k < 4; k++) CUDA_OK(cudaMemcpy(db[k], hb[k], n * sizeof(T), cudaMemcpyHostToDevice));
                    C cf;
                    double cd[S::npts];
                    for (int k = 0; k < S::npts; k++) cf.c[k] = (T)(0.2 * gpucheck_uniform()), cd[k] = (double)cf.c[k];
                    ssam_queue3d_args<T> a;
                    memset(&a, 0, sizeof a);
                    a.nx = nx, a.ny = ny, a.nz = nz, a.pitch = pitch, a.plane = plane, a.update = update, a.boundary = boundary;
                    a.scale = upd >= 1 ? db[2] : NULL;
                    a.damp = upd == 3 ? db[3] : NULL;
                    a.seg = nz > 8 ? (si & 1 ? 5 : nz / 2) : nz;
                    T *cur = db[0], *oth = db[1];
                    double *u = (double *)malloc(n * 8), *pr = (double *)malloc(n * 8), *sd = (double *)malloc(n * 8),
                           *dd = (double *)malloc(n * 8), *ref = (double *)malloc(n * 8), *bnd = (double *)malloc(n * 8);
                    T *out = (T *)malloc(n * sizeof(T));
                    for (size_t i = 0; i < n; i++) sd[i] = hb[2][i], dd[i] = hb[3][i];
                    for (int step = 0; step < nsteps; step++) {
                        T *hu = (T *)malloc(n * sizeof(T)), *hp = (T *)malloc(n * sizeof(T));
                        CUDA_OK(cudaMemcpy(hu, cur, n * sizeof(T), cudaMemcpyDeviceToHost));
                        CUDA_OK(cudaMemcpy(hp, oth, n * sizeof(T), cudaMemcpyDeviceToHost));
                        for (size_t i = 0; i < n; i++) u[i] = hu[i], pr[i] = hp[i];
                        if (update == ONCHIP_UPDATE_SUM) CUDA_OK(cudaMemset(oth, 0xFF, n * sizeof(T))); /* NaN */
                        a.src = cur, a.dst = oth;
                        a.vec = ssam_queue3d_vec(&a);
                        if (UPD >= 0 && update != UPD) { /* a kernel of another update: refused */
                            const int rc = ssam_queue3d_check<T, S, UPD>(&a);
                            CHECK(rc == SSAM_EUPDATE, "update %d, kernel of update %d: the check gave %d", update, UPD, rc);
                            free(hu), free(hp);
                            break;
                        }
                        const int crc = ssam_queue3d_check<T, S, UPD>(&a);
                        CHECK(crc == SSAM_SUCCESS, "%dx%dx%d: the check refused a (%d)", nx, ny, nz, crc);
                        CHECK(a.vec == (pitch % Q::V == 0 && plane % Q::V == 0), "%dx%dx%d layout %d: vec %d", nx, ny, nz, lay, a.vec);
                        kern<<<ssam_queue3d_grid(&a, BY), dim3(32, BY), smem>>>(a, cf);
                        CUDA_OK(cudaGetLastError());
                        CUDA_OK(cudaMemcpy(out, oth, n * sizeof(T), cudaMemcpyDeviceToHost));
                        reference(pts, npts, cd, lo, hi, u, pr, a.scale ? sd : NULL, a.damp ? dd : NULL, nx, ny, nz, pitch, plane,
                                  update, boundary, eps, ref, bnd);
                        int bad = 0;
                        for (int z = 0; z < nz && bad < 3; z++)
                            for (int y = 0; y < ny && bad < 3; y++)
                                for (int x = 0; x < nx && bad < 3; x++) {
                                    const long long i = z * plane + y * pitch + x;
                                    const double e = fabs((double)out[i] - ref[i]);
                                    if (!(e <= bnd[i])) {
                                        CHECK(0, "%s %dx%dx%d layout %d %s update %d step %d: (%d,%d,%d) %.9g, ref %.9g, bound %.3g",
                                              name, nx, ny, nz, lay, pol ? "zero-outside" : "keep-extent", upd, step, x, y, z,
                                              (double)out[i], ref[i], bnd[i]);
                                        bad++;
                                    }
                                    if (bnd[i] > 0 && e / bnd[i] > worst) worst = e / bnd[i];
                                    cells++;
                                }
                        free(hu), free(hp);
                        T *t = cur; cur = oth; oth = t; /* the next step: u' is src, u is u_prev */
                    }
                    free(u), free(pr), free(sd), free(dd), free(ref), free(bnd), free(out);
                    for (int k = 0; k < 4; k++) {
                        free(hb[k]);
                        CUDA_OK(cudaFree(db[k]));
                    }
                }
    printf("  %s: %lld cells checked, largest error %.3g of its bound\n", name, cells, worst);
    CHECK(cells > 0, "no cell checked");
    case_end();
}

template <class S>
static int q3_check(const ssam_queue3d_args<float> *a) { return ssam_queue3d_check<float, S>(a); }
/* ssam_queue3d_check: what the step cannot take is refused with its code */
static void test_check(void)
{
    case_begin("ssam queue3d check: periodic, keep-radius of an asymmetric star, an unknown update, NULL, sizes, pitch, overlap refused");
    float *d;
    CUDA_OK(cudaMalloc(&d, 2 * 64 * 64 * 8 * sizeof(float)));
    ssam_queue3d_args<float> a, b;
    memset(&a, 0, sizeof a);
    a.src = d, a.dst = d + 64 * 64 * 8, a.nx = 64, a.ny = 64, a.nz = 8, a.pitch = 64, a.plane = 64 * 64, a.seg = 8;
    a.update = ONCHIP_UPDATE_LEAPFROG, a.boundary = ONCHIP_KEEP_EXTENT;
#define Q3C(S, stmt, code)                                                                                 \
    do {                                                                                                  \
        b = a;                                                                                            \
        stmt;                                                                                             \
        const int rc_ = q3_check<S>(&b);                                                                  \
        CHECK(rc_ == (code), "%s: %d, not %d", #stmt, rc_, code);                                         \
    } while (0)
    Q3C(f_s4_s, (void)0, SSAM_SUCCESS);
    Q3C(f_s4_s, b.boundary = ONCHIP_ZERO_OUTSIDE, SSAM_SUCCESS);
    Q3C(f_s4_s, b.boundary = ONCHIP_KEEP_RADIUS, SSAM_SUCCESS); /* a symmetric star: the same cells */
    Q3C(f_up_s, b.boundary = ONCHIP_KEEP_RADIUS, SSAM_EBORDER);
    Q3C(f_s4_s, b.boundary = ONCHIP_PERIODIC, SSAM_EBORDER);
    Q3C(f_s4_s, b.boundary = 9, SSAM_EBORDER);
    Q3C(f_s4_s, b.update = 3, SSAM_EUPDATE);
    Q3C(f_s4_s, b.update = -1, SSAM_EUPDATE);
    Q3C(f_s4_s, b.src = NULL, SSAM_ENULL);
    Q3C(f_s4_s, b.nz = 0, SSAM_ESIZE);
    Q3C(f_s4_s, b.seg = 0, SSAM_ESIZE);
    Q3C(f_s4_s, b.pitch = 63, SSAM_EPITCH);
    Q3C(f_s4_s, b.plane = 64 * 63, SSAM_EPITCH);
    Q3C(f_s4_s, b.dst = d + 64 * 64 * 7, SSAM_EOVERLAP);
#undef Q3C
    CHECK((ssam_queue3d_check<float, f_s4_s, ONCHIP_UPDATE_LEAPFROG>(&a) == SSAM_SUCCESS), "the fixed update's check refused its update");
    CHECK((ssam_queue3d_check<float, f_s4_s, ONCHIP_UPDATE_DAMPED>(&a) == SSAM_EUPDATE), "the fixed update's check took another");
    /* ssam_queue3d_seg: all planes while the columns give each SM a block, else <= 2 blocks an SM, >= 16 planes */
    b = a, b.nx = b.ny = b.nz = 512;
    CHECK(ssam_queue3d_seg(&b, 8, 132) == 512, "512^3 BY 8, 132 SMs: seg %d", ssam_queue3d_seg(&b, 8, 132));
    CHECK(ssam_queue3d_seg(&b, 8, 300) == 256, "512^3 BY 8, 300 SMs: seg %d", ssam_queue3d_seg(&b, 8, 300));
    b.nx = b.ny = b.nz = 256;
    CHECK(ssam_queue3d_seg(&b, 8, 132) == 64, "256^3 BY 8, 132 SMs: seg %d", ssam_queue3d_seg(&b, 8, 132));
    b.nx = b.ny = 32, b.nz = 1000;
    CHECK(ssam_queue3d_seg(&b, 8, 132) == 16, "32x32x1000: seg %d", ssam_queue3d_seg(&b, 8, 132));
    b.nz = 9;
    CHECK(ssam_queue3d_seg(&b, 8, 132) == 9, "nz 9: seg %d", ssam_queue3d_seg(&b, 8, 132));
    CUDA_OK(cudaFree(d));
    case_end();
}

/* usage: test_ssam_queue3d [--light] [--part K/N]   (--light: the first three sizes and two steps, for
 * compute-sanitizer; --part: the kernels' cases every N-th from the K-th, the check case in every part) */
int main(int argc, char **argv)
{
    const int light = gpucheck_begin(argc, argv);
    check_plan(9);
    test_check();
    run<float, f_s1_c, f_s1_s, 8, 2>("f_s1 star3d_r1", f_s1_k, light);
    run<float, f_s4_c, f_s4_s, 16, 2>("f_s4 star3d_r4", f_s4_k, light);
    run<float, f_s8_c, f_s8_s, 8, 1>("f_s8 star3d_r8", f_s8_k, light);
    run<float, f_up_c, f_up_s, 4, 3>("f_up upwind", f_up_k, light);
    run<double, d_s2_c, d_s2_s, 8, 2>("d_s2 star3d_r2", d_s2_k, light);
    run<double, d_up_c, d_up_s, 8, 1>("d_up upwind", d_up_k, light);
    run<float, f_s4l_c, f_s4l_s, 8, 2, ONCHIP_UPDATE_LEAPFROG>("f_s4l star3d_r4 leapfrog fixed", f_s4l_k, light);
    run<double, d_s4d_c, d_s4d_s, 8, 2, ONCHIP_UPDATE_DAMPED>("d_s4d star3d_r4 damped fixed", d_s4d_k, light);
    return check_exit();
}
