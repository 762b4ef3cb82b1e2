/* examples/seismic.cu -- acoustic modelling of one shot: a layered velocity model (generated, no
 * download), the 8th-order 3D wave equation u' = (2u - (1 - d) u_prev + s L u) / (1 + d) with
 * s = (v dt / h)^2 per cell and an absorbing sponge d near the faces, a Ricker source and a line of
 * receivers.  The step is ssam_queue3d_step (ssam/stencil/queue3d.cuh), the source and receivers
 * ssam_point_add / ssam_point_read (ssam/stencil/points.cuh), the weights, the time step and the
 * wavelet ssam/wave.h's.  Writes the shot gather and a wavefield slice as PGM images, prints
 * GCells/s beside the bytes floor, and first checks a small grid against a CPU reference in double.
 *   seismic [--n N] [--steps S] [--out PREFIX]     (N a multiple of 4, >= 64; default 256, 1200) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssam/base.cuh>
#include <ssam/stencil/points.cuh>
#include <ssam/stencil/queue3d.cuh>
#include <ssam/wave.h>

#define CK(call)                                                                                         \
    do {                                                                                                 \
        cudaError_t e_ = (call);                                                                         \
        if (e_ != cudaSuccess) {                                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

typedef ONCHIP_SHAPE3D_TYPE(ONCHIP_SHAPE_STAR3D_R4) star4;
enum { BY = 8, PD = 2, M = 4 };
struct coef4 {
    float c[star4::npts];
};
__global__ void __launch_bounds__(32 * BY) step_k(ssam_queue3d_args<float> a, coef4 c)
{
    ssam_queue3d_step<float, star4, BY, PD, ONCHIP_UPDATE_DAMPED>(a, c.c);
}
__global__ void shot_k(float *u, long long pitch, long long plane, ssam_trilinear_pt src, float amp,
                       const ssam_trilinear_pt *rec, float *trace, int nrec)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) ssam_point_add(u, pitch, plane, src, amp);
    if (i < nrec) trace[i] = ssam_point_read((const float *)u, pitch, plane, rec[i]);
}

typedef struct model {
    int nx, ny, nz, steps, nrec;
    double h, dt, f, t0;
    float *s, *d;                /* host: (v dt / h)^2 and the sponge */
    ssam_trilinear_pt src, *rec; /* the source and the receivers */
} model;

/* the layers: 1500 m/s above a gently curved interface at a fifth of the depth, 2500 below it, 3500
 * below a flat one at three fifths; the sponge: 0.12 ((L - dist) / L)^2 within L = 16 cells of a face */
static void make_model(model *m, int nx, int ny, int nz, int steps)
{
    const double vmax = 3500, L = 16;
    double w[M + 1];
    ssam_fd2_weights(M, w);
    m->nx = nx, m->ny = ny, m->nz = nz, m->steps = steps, m->h = 10.0;
    m->dt = 0.8 * ssam_wave_courant_max(w, M, 3) * m->h / vmax;
    m->f = 10.0, m->t0 = 1.2 / m->f;
    const size_t n = (size_t)nx * ny * nz;
    m->s = (float *)malloc(n * 4), m->d = (float *)malloc(n * 4);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const double top = nz * (0.2 + 0.03 * sin(6.2831853 * x / nx) * cos(6.2831853 * y / ny));
                const double v = z < top ? 1500 : z < 0.6 * nz ? 2500 : 3500;
                const double c = v * m->dt / m->h;
                int e = x < nx - 1 - x ? x : nx - 1 - x;
                e = y < e ? y : e, e = ny - 1 - y < e ? ny - 1 - y : e, e = z < e ? z : e, e = nz - 1 - z < e ? nz - 1 - z : e;
                const size_t i = ((size_t)z * ny + y) * nx + x;
                m->s[i] = (float)(c * c);
                m->d[i] = (float)(e < L ? 0.12 * (L - e) / L * (L - e) / L : 0.0);
            }
    ssam_trilinear_in(nx / 2 + 0.3, ny / 2 + 0.6, 20.0, nx, ny, nz, &m->src);
    m->nrec = nx > 2 * (int)L ? nx - 2 * (int)L : 1;
    m->rec = (ssam_trilinear_pt *)malloc((size_t)m->nrec * sizeof *m->rec);
    for (int r = 0; r < m->nrec; r++) ssam_trilinear_in(L + r, ny / 2, 12.0, nx, ny, nz, &m->rec[r]);
}

/* the stencil's coefficients in star4's order: the centre 3 w0, then each distance's six arms w[r] */
static coef4 coefs(void)
{
    double w[M + 1];
    coef4 c;
    ssam_fd2_weights(M, w);
    c.c[0] = (float)(3 * w[0]);
    for (int r = 1; r <= M; r++)
        for (int k = 0; k < 6; k++) c.c[6 * r - 5 + k] = (float)w[r];
    return c;
}

/* steps of the shot on the GPU: the traces (steps x nrec) and the final field; returns the seconds of
 * the whole shot (steps, source and receivers; events around the loop), and in *bare those of the
 * same steps without source and receivers */
static double shot_gpu(const model *m, float *trace, float *field, double *bare)
{
    const size_t n = (size_t)m->nx * m->ny * m->nz;
    float *u0, *u1, *s, *d, *tr;
    ssam_trilinear_pt *rec;
    CK(cudaMalloc(&u0, n * 4)); CK(cudaMalloc(&u1, n * 4)); CK(cudaMalloc(&s, n * 4)); CK(cudaMalloc(&d, n * 4));
    CK(cudaMalloc(&tr, (size_t)m->steps * m->nrec * 4)); CK(cudaMalloc(&rec, m->nrec * sizeof *rec));
    CK(cudaMemset(u0, 0, n * 4)); CK(cudaMemset(u1, 0, n * 4));
    CK(cudaMemcpy(s, m->s, n * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(d, m->d, n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(rec, m->rec, m->nrec * sizeof *rec, cudaMemcpyHostToDevice));
    const size_t smem = ssam_queue3d_smem<float, star4, BY, PD>();
    CK(cudaFuncSetAttribute(step_k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    ssam_queue3d_args<float> a;
    memset(&a, 0, sizeof a);
    a.nx = m->nx, a.ny = m->ny, a.nz = m->nz, a.pitch = m->nx, a.plane = (long long)m->nx * m->ny;
    a.scale = s, a.damp = d, a.update = ONCHIP_UPDATE_DAMPED, a.boundary = ONCHIP_KEEP_EXTENT;
    int sms = 0;
    CK(onchip_device_sms(0, &sms));
    a.seg = ssam_queue3d_seg(&a, BY, sms);
    const coef4 c = coefs();
    int vec = 1;
    for (int t = 0; t < 2; t++) { /* both parities of the ping-pong, once */
        a.src = t ? u1 : u0, a.dst = t ? u0 : u1, vec &= ssam_queue3d_vec(&a);
        const int rc = ssam_queue3d_check<float, star4, ONCHIP_UPDATE_DAMPED>(&a);
        if (rc) fprintf(stderr, "the step refuses its arguments: %s\n", ssam_strerror(rc)), exit(1);
    }
    a.vec = vec;
    cudaEvent_t e0, e1;
    float ms;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    for (int t = 0; t < m->steps; t++) {
        a.src = t & 1 ? u1 : u0, a.dst = t & 1 ? u0 : u1;
        step_k<<<ssam_queue3d_grid(&a, BY), dim3(32, BY), smem>>>(a, c);
        shot_k<<<(m->nrec + 127) / 128, 128>>>(a.dst, a.pitch, a.plane, m->src,
                                                (float)ssam_ricker(m->f, m->t0, t * m->dt), rec, tr + (size_t)t * m->nrec, m->nrec);
    }
    CK(cudaEventRecord(e1));
    CK(cudaGetLastError());
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    const double sec = ms * 1e-3;
    CK(cudaMemcpy(trace, tr, (size_t)m->steps * m->nrec * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(field, m->steps & 1 ? u1 : u0, n * 4, cudaMemcpyDeviceToHost));
    /* the same number of steps again, without the source and receivers */
    CK(cudaEventRecord(e0));
    for (int t = 0; t < m->steps; t++) {
        a.src = t & 1 ? u1 : u0, a.dst = t & 1 ? u0 : u1;
        step_k<<<ssam_queue3d_grid(&a, BY), dim3(32, BY), smem>>>(a, c);
    }
    CK(cudaEventRecord(e1));
    CK(cudaGetLastError());
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (bare) *bare = ms * 1e-3;
    CK(cudaEventDestroy(e0)); CK(cudaEventDestroy(e1));
    CK(cudaFree(u0)); CK(cudaFree(u1)); CK(cudaFree(s)); CK(cudaFree(d)); CK(cudaFree(tr)); CK(cudaFree(rec));
    return sec;
}

/* the same shot in double on the CPU: the traces */
static void shot_cpu(const model *m, double *trace)
{
    const int nx = m->nx, ny = m->ny, nz = m->nz;
    const size_t n = (size_t)nx * ny * nz, P = (size_t)nx * ny;
    double *u = (double *)calloc(n, 8), *up = (double *)calloc(n, 8), *un = (double *)calloc(n, 8), w[M + 1];
    ssam_fd2_weights(M, w);
    const coef4 c = coefs();
    for (int t = 0; t < m->steps; t++) {
        for (int z = 0; z < nz; z++)
            for (int y = 0; y < ny; y++)
                for (int x = 0; x < nx; x++) {
                    const size_t i = z * P + (size_t)y * nx + x;
                    if (x < M || x >= nx - M || y < M || y >= ny - M || z < M || z >= nz - M) { un[i] = u[i]; continue; }
                    double L = (double)c.c[0] * u[i];
                    for (int r = 1; r <= M; r++)
                        L += (double)c.c[6 * r - 5] * (u[i - r] + u[i + r] + u[i - r * nx] + u[i + r * nx] + u[i - r * P] + u[i + r * P]);
                    const double dd = m->d[i];
                    un[i] = (2 * u[i] - (1 - dd) * up[i] + (double)m->s[i] * L) / (1 + dd);
                }
        double *tmp = up;
        up = u, u = un, un = tmp;
        const double amp = (double)(float)ssam_ricker(m->f, m->t0, t * m->dt);
        for (int k = 0; k < 8; k++)
            u[(size_t)(m->src.z0 + (k >> 2 & 1)) * P + (size_t)(m->src.y0 + (k >> 1 & 1)) * nx + m->src.x0 + (k & 1)] +=
                (double)(float)m->src.w[k] * amp;
        for (int r = 0; r < m->nrec; r++) {
            double v = 0;
            for (int k = 0; k < 8; k++)
                v += (double)(float)m->rec[r].w[k] *
                     u[(size_t)(m->rec[r].z0 + (k >> 2 & 1)) * P + (size_t)(m->rec[r].y0 + (k >> 1 & 1)) * nx + m->rec[r].x0 + (k & 1)];
            trace[(size_t)t * m->nrec + r] = v;
        }
    }
    free(u), free(up), free(un);
}

/* a PGM of w x h values, gray 128 at 0, clipped at +-clip */
static int write_pgm(const char *path, const float *v, int w, int h, double clip)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    fprintf(f, "P5\n%d %d\n255\n", w, h);
    for (int i = 0; i < w * h; i++) {
        double g = 128 + 127 * v[i] / clip;
        fputc(g < 0 ? 0 : g > 255 ? 255 : (int)g, f);
    }
    return fclose(f) != 0;
}
static double clip_of(const float *v, size_t n) /* the 99th percentile of |v| by a 1000-bin histogram */
{
    double big = 0;
    for (size_t i = 0; i < n; i++) big = fabs(v[i]) > big ? fabs(v[i]) : big;
    if (big == 0) return 1;
    size_t hist[1000] = {0}, acc = 0;
    for (size_t i = 0; i < n; i++) hist[(int)(fabs(v[i]) / big * 999)]++;
    for (int b = 0; b < 1000; b++)
        if ((acc += hist[b]) >= 0.99 * n) return (b + 1) * big / 1000;
    return big;
}

int main(int argc, char **argv)
{
    int n = 256, steps = 1200;
    const char *out = "seismic";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n")) n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--steps")) steps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--out")) out = argv[i + 1];
        else return fprintf(stderr, "usage: seismic [--n N] [--steps S] [--out PREFIX]\n"), 2;
    }
    if (n < 64 || n % 4 || n > 1024 || steps < 1) return fprintf(stderr, "seismic: N a multiple of 4 in 64 .. 1024, S >= 1\n"), 2;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));

    /* 1. a small grid against the CPU in double: the traces */
    {
        model m;
        make_model(&m, 68, 52, 44, 150);
        float *tr = (float *)malloc((size_t)m.steps * m.nrec * 4), *fd = (float *)malloc((size_t)68 * 52 * 44 * 4);
        double *ref = (double *)malloc((size_t)m.steps * m.nrec * 8), e = 0, big = 0;
        shot_gpu(&m, tr, fd, NULL);
        shot_cpu(&m, ref);
        for (size_t i = 0; i < (size_t)m.steps * m.nrec; i++) e = fmax(e, fabs(tr[i] - ref[i])), big = fmax(big, fabs(ref[i]));
        printf("check: 68x52x44, %d steps, %d receivers: max |gpu - cpu| = %.3g of max |trace| %.3g: %s\n", m.steps, m.nrec, e,
               big, e <= 1e-4 * big && big > 0 ? "ok" : "FAILED");
        if (!(e <= 1e-4 * big && big > 0)) return 1;
        free(tr), free(fd), free(ref), free(m.s), free(m.d), free(m.rec);
    }

    /* 2. the shot */
    model m;
    make_model(&m, n, n, n, steps);
    float *tr = (float *)malloc((size_t)steps * m.nrec * 4), *fd = (float *)malloc((size_t)n * n * n * 4);
    double bare = 1;
    const double sec = shot_gpu(&m, tr, fd, &bare);
    float *a, *b;
    const size_t MB = (size_t)1 << 28;
    CK(cudaMalloc(&a, MB * 4)); CK(cudaMalloc(&b, MB * 4));
    cudaEvent_t e0, e1;
    float ms;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    CK(cudaMemcpy(b, a, MB * 4, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e0));
    CK(cudaMemcpy(b, a, MB * 4, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    const double bw = 2.0 * MB * 4 / (ms * 1e-3), gc = (double)n * n * n * steps / sec / 1e9;
    printf("%s: %d^3, %d steps of %.3g ms (dt %.3g s, %.2f s of shot), %d receivers\n", p.name, n, steps, m.dt * 1e3, m.dt,
           steps * m.dt, m.nrec);
    printf("shot (steps, source, receivers): %.1f GCells/s; floor %.1f GCells/s (20 bytes a cell and step: u, u_prev, s, d read, u' "
           "written, at the copy bandwidth %.2f TB/s measured here)\n",
           gc, bw / 20 / 1e9, bw / 1e12);
    printf("the same steps without source and receivers: %.1f GCells/s (the shot takes %.1f %% longer)\n",
           (double)n * n * n * steps / bare / 1e9, 100 * (sec / bare - 1));
    char path[512];
    snprintf(path, sizeof path, "%s_gather.pgm", out);
    if (write_pgm(path, tr, m.nrec, steps, clip_of(tr, (size_t)steps * m.nrec))) return fprintf(stderr, "cannot write %s\n", path), 1;
    printf("wrote %s (%d receivers across, %d steps down)\n", path, m.nrec, steps);
    float *sl = (float *)malloc((size_t)n * n * 4);
    for (int z = 0; z < n; z++)
        for (int x = 0; x < n; x++) sl[(size_t)z * n + x] = fd[((size_t)z * n + n / 2) * n + x];
    snprintf(path, sizeof path, "%s_slice.pgm", out);
    if (write_pgm(path, sl, n, n, clip_of(sl, (size_t)n * n))) return fprintf(stderr, "cannot write %s\n", path), 1;
    printf("wrote %s (the x-z slice through the source at the last step)\n", path);
    free(tr), free(fd), free(sl), free(m.s), free(m.d), free(m.rec);
    CK(cudaFree(a)); CK(cudaFree(b));
    return 0;
}
