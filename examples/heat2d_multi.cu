/* examples/heat2d_multi.cu -- the 2D heat equation of examples/heat2d.cu over several GPUs, or over
 * several virtual ranks on one: the plate is cut into slabs of rows (perks/decomp.h), ghost rows go
 * between neighbours before each pass (perks/exchange.cuh: device copies, or NCCL), and ssam's
 * 5-point stencil runs on each slab.  The result is checked bit for bit against the undivided plate
 * computed on one GPU.
 *
 *   heat2d_multi [--n N] [--steps S] [--ranks P] [--local] [--overlap] [--temporal] [--tt T]
 *                [--timeout SEC] [--no-check]
 *   heat2d_multi --rank R --nranks P --id-file PATH [the options above]
 *   mpirun -np P heat2d_multi --mpi [the options above]   (built with MPI: make mpi-examples)
 *
 * One process (the first form): one rank per visible GPU through NCCL (ncclCommInitAll, at most 8),
 * or --ranks P of them.  With one GPU, without NCCL, with --local or with more ranks than GPUs, P
 * virtual ranks (4 by default) share GPU 0 and the exchange is device copies.
 * One process per rank (the second form; needs NCCL): rank 0 writes NCCL's unique id to PATH
 * (through a temporary file and a rename, so the others never read half a file) and removes it once
 * every rank has joined; the others wait for the file (at most --timeout seconds, 60 by default).
 * PATH must not exist at the start.  Rank R uses GPU R % (visible GPUs).  Each rank computes the
 * undivided plate on its own GPU and compares its slab with it; rank 0 prints the verdict of all.
 *   --overlap   the interior of each slab is updated while the ghost rows travel (exchange.cuh's
 *               OVERLAP recipe: two streams, two events, the edges through a scratch buffer)
 *   --temporal  8 steps per pass through memory (ssam/temporal.cuh), with 8 ghost rows (the
 *               stencil's reach, 1, times 8) and one exchange per pass; --tt T for T = 1..8
 * The ranks first check that they agree on the domain (perks_slab_agree_nccl) and every wait on
 * the GPUs is bounded (perks_nccl_wait): a rank that dies makes the others stop with a message,
 * not hang (but ncclCommInitRank itself waits until every rank has joined).
 * Under MPI (the third form; no id file): rank and size from MPI_COMM_WORLD, the GPU from the
 * node-local rank (perks_mpi_local), NCCL from the communicator (perks_nccl_from_mpi) where every
 * rank of a node has a GPU of its own, else the host-staged MPI exchange
 * (perks_slab_exchange_mpi_staged: any number of ranks may share a GPU); the agreement through MPI.
 * Prints the time, GCells/s and "ok" (or "MISMATCH", exit status 1).
 *
 * Examples:
 *   heat2d_multi                                   # all GPUs, or 4 virtual ranks on one
 *   heat2d_multi --n 8192 --steps 1000 --overlap
 *   rm -f /tmp/h.id; for r in 0 1; do heat2d_multi --rank $r --nranks 2 --id-file /tmp/h.id & done; wait
 *   mpirun -np 4 build/examples/mpi/heat2d_multi --mpi --temporal
 */
#include <perks/exchange.cuh>
#include <perks/mpi.h> /* empty without <mpi.h>: the --mpi form is then refused */
#include <ssam/stencil.cuh>
#include <ssam/temporal.cuh>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

SSAM_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_2D5PT, ssam_stencil_policy<>)
SSAM_STENCIL2D_TEMPORAL_DEFINE(heat_tb, float, ONCHIP_SHAPE_2D5PT, ssam_temporal_policy<8, 128, SSAM_SCHEDULE_REGS>)

/* a failure ends the program; under --mpi every rank (MPI_Abort), so that none is left waiting */
#ifdef PERKS_HAVE_MPI
static int g_mpi;
#endif
static void die(void)
{
#ifdef PERKS_HAVE_MPI
    if (g_mpi) MPI_Abort(MPI_COMM_WORLD, 1);
#endif
    exit(1);
}

#define CK(call)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));              \
            die();                                                                                \
        }                                                                                           \
    } while (0)
#define PK(call)                                                                                    \
    do {                                                                                            \
        int rc_ = (call);                                                                           \
        if (rc_) {                                                                                  \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, perks_strerror(rc_));      \
            die();                                                                                \
        }                                                                                           \
    } while (0)
#ifdef PERKS_HAVE_NCCL
#define NK(call)                                                                                    \
    do {                                                                                            \
        ncclResult_t r_ = (call);                                                                   \
        if (r_ != ncclSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, ncclGetErrorString(r_));   \
            die();                                                                                \
        }                                                                                           \
    } while (0)
#endif

#define MAXRANKS 64 /* ranks one process holds (virtual ranks; NCCL: at most 8 GPUs) */

typedef struct opts {
    int n, steps, tt, overlap; /* tt: steps per pass (0: the one-pass kernel) */
    double timeout;
    float c[5]; /* centre, -x, +x, -y, +y */
} opts;

/* one rank's slab, buffers, streams and events */
typedef struct rank {
    perks_slab s;
    perks_slab_parts q;
    int dev;
    float *cur, *nxt, *scr;
    cudaStream_t cs, xs;       /* compute, exchange */
    cudaEvent_t landed, done;  /* the exchange has landed; the pass is done */
#ifdef PERKS_HAVE_NCCL
    ncclComm_t comm;
#endif
    void *host;               /* the MPI transport's host copy of the buffer (TRANSPORT_MPI) */
} rank;

/* how the ghost rows travel (exchange's `nccl` argument) */
#define TRANSPORT_LOCAL 0 /* device copies between the ranks of this process */
#define TRANSPORT_NCCL 1
#define TRANSPORT_MPI 2   /* one rank a process, through host memory (perks/mpi.h) */

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the initial plate (heat2d.cu's): top edge 1, a few hot squares inside */
static void initial(float *u, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            float v = y == 0 ? 1.0f : 0.0f;
            for (int k = 1; k <= 3; k++) {
                int cx = k * n / 4, cy = (4 - k) * n / 4, h = n / 16;
                if (abs(x - cx) < h && abs(y - cy) < h) v = 1.0f;
            }
            u[(size_t)y * n + x] = v;
        }
}

/* s steps over `rows` rows from src to dst (both at the window's first row) */
static void pass(const opts *o, const float *src, float *dst, int rows, int s, cudaStream_t st)
{
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.src = src; a.dst = dst; a.nx = o->n; a.ny = rows; a.coef = o->c; a.ncoef = 5;
    a.boundary = SSAM_STENCIL_DIRICHLET;
    a.steps = s; /* s <= tt <= TT: one pass (tt 0: s is 1, one step) */
    const int rc = o->tt ? heat_tb_launch(&a, st) : heat_launch(&a, st);
    if (rc) { fprintf(stderr, "stencil launch: %s\n", ssam_stencil_strerror(rc)); die(); }
}

/* rank r of P on GPU dev: its slab, buffers (own rows from the plate), streams and events */
static void rank_init(rank *R, const opts *o, int P, int r, int dev, const float *plate)
{
    const int halo = o->tt ? o->tt : 1; /* the stencil's reach (1) times the steps of a pass */
    const size_t row = (size_t)o->n * sizeof(float);
    int rc = perks_slab_make(&R->s, o->n, P, r, halo, PERKS_SLAB_DIRICHLET);
    if (rc) { fprintf(stderr, "rank %d of %d, %d rows, halo %d: %s\n", r, P, o->n, halo, perks_strerror(rc)); die(); }
    PK(perks_slab_parts_make(&R->s, halo, &R->q));
    R->dev = dev;
    CK(cudaSetDevice(dev));
    CK(cudaMalloc(&R->cur, R->s.buf_planes * row));
    CK(cudaMalloc(&R->nxt, R->s.buf_planes * row));
    CK(cudaMalloc(&R->scr, (R->q.scratch_planes + 1) * row));
    CK(cudaMemset(R->cur, 0, R->s.buf_planes * row)); /* ghosts: exchanged before they are read */
    CK(cudaMemset(R->nxt, 0, R->s.buf_planes * row));
    CK(cudaMemcpy(R->cur + (size_t)R->s.halo * o->n, plate + (size_t)R->s.first * o->n, R->s.own * row,
                  cudaMemcpyHostToDevice));
    /* a copy from pageable memory may return before it lands, and the rank's streams do not wait for
     * the default stream's work (cudaStreamNonBlocking): wait for it here */
    CK(cudaDeviceSynchronize());
    CK(cudaStreamCreateWithFlags(&R->cs, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&R->xs, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&R->landed, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&R->done, cudaEventDisableTiming));
}

static void rank_free(rank *R)
{
    CK(cudaSetDevice(R->dev));
    cudaFree(R->cur);
    cudaFree(R->nxt);
    cudaFree(R->scr);
    cudaStreamDestroy(R->cs);
    cudaStreamDestroy(R->xs);
    cudaEventDestroy(R->landed);
    cudaEventDestroy(R->done);
}

/* the ghost rows of R[0..nr): device copies on R[0]'s exchange stream, NCCL on each rank's, or
 * (nccl TRANSPORT_MPI, one rank) MPI through the host; each exchange waits until its rank's last
 * pass is done, and records `landed` */
static void exchange(rank *R, int nr, int nccl, const opts *o)
{
    const size_t row = (size_t)o->n * sizeof(float);
#ifdef PERKS_HAVE_MPI
    if (nccl == TRANSPORT_MPI) {
        CK(cudaSetDevice(R[0].dev));
        CK(cudaStreamWaitEvent(R[0].xs, R[0].done, 0));
        PK(perks_slab_exchange_mpi_staged(&R[0].s, R[0].cur, R[0].host, row, MPI_COMM_WORLD, R[0].xs, o->timeout));
        CK(cudaEventRecord(R[0].landed, R[0].xs));
        return;
    }
#endif
    if (!nccl) {
        perks_slab S[MAXRANKS];
        void *B[MAXRANKS];
        CK(cudaSetDevice(R[0].dev));
        for (int i = 0; i < nr; i++) {
            S[i] = R[i].s;
            B[i] = R[i].cur;
            CK(cudaStreamWaitEvent(R[0].xs, R[i].done, 0));
        }
        PK(perks_slab_exchange_local(S, B, nr, row, R[0].xs));
        CK(cudaEventRecord(R[0].landed, R[0].xs));
        return;
    }
#ifdef PERKS_HAVE_NCCL
    NK(ncclGroupStart()); /* one thread drives nr communicators: one group */
    for (int i = 0; i < nr; i++) {
        CK(cudaSetDevice(R[i].dev));
        CK(cudaStreamWaitEvent(R[i].xs, R[i].done, 0));
        PK(perks_slab_exchange_nccl(&R[i].s, R[i].cur, row, R[i].comm, R[i].xs));
    }
    NK(ncclGroupEnd());
    for (int i = 0; i < nr; i++) {
        CK(cudaSetDevice(R[i].dev));
        CK(cudaEventRecord(R[i].landed, R[i].xs));
    }
#endif
}

/* `steps` steps on the ranks R[0..nr) of this process (nccl 0: they are all the ranks) */
static void advance(rank *R, int nr, int nccl, const opts *o, int steps)
{
    const int n = o->n;
    for (int done = 0, s; done < steps; done += s) {
        s = o->tt ? (steps - done < o->tt ? steps - done : o->tt) : 1;
        if (o->overlap) /* the interior first: it reads own rows only */
            for (int i = 0; i < nr; i++) {
                const int w0 = R[i].q.inner_win[0], w1 = R[i].q.inner_win[1];
                if (w1 == w0) continue;
                CK(cudaSetDevice(R[i].dev));
                pass(o, R[i].cur + (size_t)w0 * n, R[i].nxt + (size_t)w0 * n, w1 - w0, s, R[i].cs);
            }
        exchange(R, nr, nccl, o);
        for (int i = 0; i < nr; i++) {
            rank *A = &R[i];
            CK(cudaSetDevice(A->dev));
            CK(cudaStreamWaitEvent(A->cs, nccl ? A->landed : R[0].landed, 0));
            if (o->overlap) {
                for (int k = 0; k < 2; k++) { /* each edge from its window into scratch, its rows into nxt */
                    const int e0 = A->q.edge[k][0], e1 = A->q.edge[k][1], w0 = A->q.edge_win[k][0], w1 = A->q.edge_win[k][1];
                    if (e1 == e0) continue;
                    pass(o, A->cur + (size_t)w0 * n, A->scr, w1 - w0, s, A->cs);
                    CK(cudaMemcpyAsync(A->nxt + (size_t)e0 * n, A->scr + (size_t)(e0 - w0) * n, (size_t)(e1 - e0) * n * sizeof(float),
                                       cudaMemcpyDeviceToDevice, A->cs));
                }
            } else { /* the buffer, ghosts included only where there is a neighbour */
                const int r0 = A->s.win[0], r1 = A->s.win[1];
                pass(o, A->cur + (size_t)r0 * n, A->nxt + (size_t)r0 * n, r1 - r0, s, A->cs);
            }
            CK(cudaEventRecord(A->done, A->cs));
            float *x = A->cur; A->cur = A->nxt; A->nxt = x;
        }
    }
}

/* wait for every rank's passes: bounded where NCCL is in use */
static void finish(rank *R, int nr, int nccl, const opts *o)
{
#ifdef PERKS_HAVE_NCCL
    if (nccl == TRANSPORT_NCCL) {
        ncclComm_t comms[MAXRANKS];
        cudaStream_t st[MAXRANKS];
        for (int i = 0; i < nr; i++) { comms[i] = R[i].comm; st[i] = R[i].cs; }
        int rc = perks_nccl_wait(comms, st, nr, o->timeout);
        if (rc) { fprintf(stderr, "heat2d_multi: waiting for the ranks: %s\n", perks_strerror(rc)); die(); }
        return;
    }
#endif
    (void)nccl; (void)o;
    for (int i = 0; i < nr; i++) CK(cudaStreamSynchronize(R[i].cs));
}

/* warm up (two passes, then the plate again), then `steps` steps timed; seconds */
static double timed_run(rank *R, int nr, int nccl, const opts *o, const float *plate)
{
    const int warm = (o->tt ? o->tt : 1) * 2;
    advance(R, nr, nccl, o, warm < o->steps ? warm : o->steps);
    finish(R, nr, nccl, o);
    for (int i = 0; i < nr; i++) {
        CK(cudaSetDevice(R[i].dev));
        CK(cudaMemcpy(R[i].cur + (size_t)R[i].s.halo * o->n, plate + (size_t)R[i].s.first * o->n,
                      (size_t)R[i].s.own * o->n * sizeof(float), cudaMemcpyHostToDevice));
        CK(cudaDeviceSynchronize()); /* landed before the non-blocking streams read it (rank_init) */
    }
    const double t0 = seconds();
    advance(R, nr, nccl, o, o->steps);
    finish(R, nr, nccl, o);
    return seconds() - t0;
}

/* the undivided plate after the steps, on GPU dev, into ref (host) */
static void reference(const opts *o, int dev, const float *plate, float *ref)
{
    const size_t cells = (size_t)o->n * o->n;
    float *d0, *d1;
    ssam_plan p;
    CK(cudaSetDevice(dev));
    CK(cudaMalloc(&d0, cells * sizeof(float)));
    CK(cudaMalloc(&d1, cells * sizeof(float)));
    CK(cudaMemcpy(d0, plate, cells * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemset(d1, 0xFF, cells * sizeof(float))); /* NaN: a cell never written shows */
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.src = d0; a.dst = d1; a.nx = o->n; a.ny = o->n; a.coef = o->c; a.ncoef = 5; a.boundary = SSAM_STENCIL_DIRICHLET;
    a.steps = o->steps;
    int rc = heat_plan(&a, &p); /* one launch per step */
    if (!rc) rc = heat_run(&a, &p, 0);
    if (rc) { fprintf(stderr, "heat: %s (%s)\n", ssam_stencil_strerror(rc), p.why); die(); }
    CK(cudaMemcpy(ref, p.result, cells * sizeof(float), cudaMemcpyDeviceToHost));
    /* the slabs are compared with this plate bit for bit: it must be written (no NaN left) and, after
     * any step, differ from the start (slabs and reference that wrote nothing would agree) */
    size_t unwritten = 0, moved = 0;
    for (size_t i = 0; i < cells; i++) {
        unwritten += !(ref[i] == ref[i]);
        moved += memcmp(&ref[i], &plate[i], sizeof(float)) != 0;
    }
    if (unwritten || (o->steps > 0 && !moved)) {
        fprintf(stderr, "heat2d_multi: the undivided plate: %zu of %zu cells not written, %zu moved from the start\n",
                unwritten, cells, moved);
        die();
    }
    cudaFree(d0);
    cudaFree(d1);
}

/* cells of rank R's own rows that differ from the reference (bit for bit); the first in *first */
static size_t compare(const rank *R, const opts *o, const float *ref, float *tmp, size_t *first)
{
    const size_t cells = (size_t)R->s.own * o->n, off = (size_t)R->s.first * o->n;
    size_t bad = 0;
    CK(cudaSetDevice(R->dev));
    CK(cudaMemcpy(tmp, R->cur + (size_t)R->s.halo * o->n, cells * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < cells; i++)
        if (memcmp(&tmp[i], &ref[off + i], sizeof(float)) && !bad++) *first = off + i;
    return bad;
}

/* one rank's check: the undivided plate on its GPU, compared with its rows (compare's count) */
static size_t check_rank(const rank *R, const opts *o, const float *plate, size_t *first)
{
    float *ref = (float *)malloc((size_t)o->n * o->n * sizeof(float));
    float *tmp = (float *)malloc((size_t)R->s.own * o->n * sizeof(float));
    if (!ref || !tmp) { fprintf(stderr, "out of memory\n"); die(); }
    reference(o, R->dev, plate, ref);
    const size_t bad = compare(R, o, ref, tmp, first);
    free(ref);
    free(tmp);
    return bad;
}

static void report(const opts *o, double sec, size_t bad, size_t first, int check, size_t compared, const char *who)
{
    const double cells = (double)o->n * o->n * o->steps;
    printf("%s%d steps in %.2f ms: %.1f GCells/s (%.3f ms a step)\n", who, o->steps, sec * 1e3,
           sec > 0 ? cells / sec / 1e9 : 0.0, o->steps ? sec * 1e3 / o->steps : 0.0);
    if (!check) printf("%snot checked (--no-check)\n", who);
    else if (!bad) printf("%sthe plate (%zu cells compared) equals the undivided plate bit for bit: ok\n", who, compared);
    else printf("%sMISMATCH: %zu cells differ from the undivided plate, the first at row %zu, column %zu\n", who, bad,
                first / o->n, first % o->n);
}

/* P ranks in this process: virtual ones on GPU 0 (nccl 0) or one per GPU through NCCL */
static int run_one_process(const opts *o, int P, int nccl, int check, const float *plate)
{
    static rank R[MAXRANKS];
    for (int r = 0; r < P; r++) rank_init(&R[r], o, P, r, nccl ? r : 0, plate);
#ifdef PERKS_HAVE_NCCL
    if (nccl) {
        ncclComm_t comms[MAXRANKS];
        cudaStream_t st[MAXRANKS];
        perks_slab S[MAXRANKS];
        int devs[MAXRANKS];
        for (int r = 0; r < P; r++) devs[r] = r;
        NK(ncclCommInitAll(comms, P, devs));
        for (int r = 0; r < P; r++) { R[r].comm = comms[r]; st[r] = R[r].cs; S[r] = R[r].s; }
        PK(perks_slab_agree_nccl(S, P, o->n, comms, st, o->timeout)); /* every rank the same domain */
    }
#endif
    const double sec = timed_run(R, P, nccl, o, plate);
    size_t bad = 0, first = 0, compared = 0;
    if (check) {
        float *ref = (float *)malloc((size_t)o->n * o->n * sizeof(float));
        float *tmp = (float *)malloc((size_t)o->n * o->n * sizeof(float));
        if (!ref || !tmp) { fprintf(stderr, "out of memory\n"); die(); }
        reference(o, 0, plate, ref);
        for (int r = 0; r < P; r++) {
            size_t f = 0, b = compare(&R[r], o, ref, tmp, &f);
            if (b && !bad) first = f;
            bad += b;
            compared += (size_t)R[r].s.own * o->n;
        }
        free(ref);
        free(tmp);
        if (compared != (size_t)o->n * o->n && !bad) { /* the slabs must cover the plate */
            fprintf(stderr, "heat2d_multi: the slabs hold %zu of the plate's %zu cells\n", compared, (size_t)o->n * o->n);
            bad = 1;
        }
    }
    report(o, sec, bad, first, check, compared, "heat2d_multi: ");
    for (int r = 0; r < P; r++) {
#ifdef PERKS_HAVE_NCCL
        if (nccl) ncclCommDestroy(R[r].comm);
#endif
        rank_free(&R[r]);
    }
    return bad ? 1 : 0;
}

#ifdef PERKS_HAVE_NCCL
/* rank 0: NCCL's id into PATH, whole or not at all (a temporary file, then a rename) */
static void write_id(const char *path, const ncclUniqueId *id)
{
    char tmp[4096];
    if (access(path, F_OK) == 0) {
        fprintf(stderr, "heat2d_multi: %s exists (a previous run's id?): remove it first\n", path);
        die();
    }
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(id, sizeof *id, 1, f) != 1 || fflush(f) || fsync(fileno(f)) || fclose(f) || rename(tmp, path)) {
        perror(tmp);
        die();
    }
}

/* the other ranks: wait for PATH, at most timeout seconds */
static void read_id(const char *path, ncclUniqueId *id, double timeout)
{
    const double t0 = seconds();
    for (;;) {
        FILE *f = fopen(path, "rb");
        if (f) {
            const size_t got = fread(id, sizeof *id, 1, f);
            fclose(f);
            if (got == 1) return;
        }
        if (seconds() - t0 > timeout) {
            fprintf(stderr, "heat2d_multi: no id in %s after %.0f s (is rank 0 running?)\n", path, timeout);
            die();
        }
        usleep(20000);
    }
}

/* one rank of P, in a process of its own */
static int run_rank(const opts *o, int r, int P, const char *id_file, int check, const float *plate)
{
    int ngpu = 0;
    ncclUniqueId id;
    rank R;
    char who[64];
    CK(cudaGetDeviceCount(&ngpu));
    snprintf(who, sizeof who, "heat2d_multi [rank %d of %d, GPU %d]: ", r, P, r % ngpu);
    if (r == 0) {
        NK(ncclGetUniqueId(&id));
        write_id(id_file, &id);
    } else {
        read_id(id_file, &id, o->timeout);
    }
    rank_init(&R, o, P, r, r % ngpu, plate);
    NK(ncclCommInitRank(&R.comm, P, id, r)); /* returns once every rank has joined */
    if (r == 0) unlink(id_file);               /* every rank has read it */
    PK(perks_slab_agree_nccl(&R.s, 1, o->n, &R.comm, &R.cs, o->timeout));
    const double sec = timed_run(&R, 1, 1, o, plate);
    size_t bad = 0, first = 0;
    if (check) bad = check_rank(&R, o, plate, &first);
    report(o, sec, bad, first, check, check ? (size_t)R.s.own * o->n : 0, who);
    /* all ranks: the largest time and mismatch count */
    double h[2] = {sec, (double)bad}, *d = NULL;
    CK(cudaSetDevice(R.dev));
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    NK(ncclAllReduce(d, d, 2, ncclFloat64, ncclMax, R.comm, R.cs));
    PK(perks_nccl_wait(&R.comm, &R.cs, 1, o->timeout));
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    cudaFree(d);
    if (r == 0) {
        const double cells = (double)o->n * o->n * o->steps;
        printf("heat2d_multi: all %d ranks: %d steps in %.2f ms (the slowest rank): %.1f GCells/s; %s\n", P, o->steps,
               h[0] * 1e3, h[0] > 0 ? cells / h[0] / 1e9 : 0.0,
               !check ? "not checked" : h[1] > 0 ? "MISMATCH on some rank (see its line)" : "every slab equals the undivided plate: ok");
    }
    ncclCommDestroy(R.comm);
    rank_free(&R);
    return h[1] > 0 ? 1 : 0;
}
#endif

#ifdef PERKS_HAVE_MPI
/* one rank of MPI_COMM_WORLD in this process: NCCL where the node has a GPU a rank, else MPI */
static int run_mpi(const opts *o, int check, const float *plate)
{
    int r = 0, P = 0, local = 0, nlocal = 0, ngpu = 0, transport = TRANSPORT_MPI, dev = 0;
    rank R;
    char who[96];
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    PK(perks_mpi_local(MPI_COMM_WORLD, &local, &nlocal));
    CK(cudaGetDeviceCount(&ngpu));
    dev = local % ngpu;
#if defined(PERKS_MPI_NCCL)
    ncclComm_t comm;
    const int nrc = perks_nccl_from_mpi(MPI_COMM_WORLD, &comm, &dev); /* every rank the same verdict */
    if (nrc == PERKS_SUCCESS) transport = TRANSPORT_NCCL;
    else if (nrc != PERKS_EUNSUPPORTED) PK(nrc);
#endif
    rank_init(&R, o, P, r, dev, plate);
    R.host = NULL;
#if defined(PERKS_MPI_NCCL)
    if (transport == TRANSPORT_NCCL) R.comm = comm;
#endif
    if (transport == TRANSPORT_MPI) CK(cudaMallocHost(&R.host, R.s.buf_planes * (size_t)o->n * sizeof(float)));
    PK(perks_slab_agree_mpi(&R.s, o->n, MPI_COMM_WORLD));
    snprintf(who, sizeof who, "heat2d_multi [rank %d of %d, GPU %d, %s]: ", r, P, dev,
             transport == TRANSPORT_NCCL ? "NCCL" : "MPI through the host");
    MPI_Barrier(MPI_COMM_WORLD); /* the ranks start together */
    const double sec = timed_run(&R, 1, transport, o, plate);
    size_t bad = 0, first = 0;
    if (check) bad = check_rank(&R, o, plate, &first);
    report(o, sec, bad, first, check, check ? (size_t)R.s.own * o->n : 0, who);
    double h[2] = {sec, (double)bad}, all[2] = {0, 0}; /* the slowest rank, the most mismatches */
    MPI_Allreduce(h, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (r == 0) {
        const double cells = (double)o->n * o->n * o->steps;
        printf("heat2d_multi: all %d ranks: %d steps in %.2f ms (the slowest rank): %.1f GCells/s; %s\n", P, o->steps,
               all[0] * 1e3, all[0] > 0 ? cells / all[0] / 1e9 : 0.0,
               !check ? "not checked" : all[1] > 0 ? "MISMATCH on some rank (see its line)" : "every slab equals the undivided plate: ok");
    }
#if defined(PERKS_MPI_NCCL)
    if (transport == TRANSPORT_NCCL) ncclCommDestroy(R.comm);
#endif
    if (R.host) cudaFreeHost(R.host);
    rank_free(&R);
    return all[1] > 0 ? 1 : 0;
}
#endif

static void usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--n N] [--steps S] [--ranks P] [--local] [--overlap] [--temporal] [--tt T] [--timeout SEC] [--no-check]\n"
            "       %s --rank R --nranks P --id-file PATH [the options above]\n"
            "       mpirun -np P %s --mpi [the options above]\n",
            argv0, argv0, argv0);
}

int main(int argc, char **argv)
{
    opts o;
    int P = 0, local = 0, check = 1, rank_arg = -1, nranks_arg = 0, ngpu = 0, mpi = 0;
    const char *id_file = NULL;
    memset(&o, 0, sizeof o);
    o.n = 2048; o.steps = 400; o.timeout = 60;
    for (int i = 1; i < argc; i++) {
        const int more = i + 1 < argc;
        if (!strcmp(argv[i], "--n") && more) o.n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--steps") && more) o.steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ranks") && more) P = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--local")) local = 1;
        else if (!strcmp(argv[i], "--overlap")) o.overlap = 1;
        else if (!strcmp(argv[i], "--temporal")) o.tt = o.tt ? o.tt : 8;
        else if (!strcmp(argv[i], "--tt") && more) o.tt = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--timeout") && more) o.timeout = atof(argv[++i]);
        else if (!strcmp(argv[i], "--no-check")) check = 0;
        else if (!strcmp(argv[i], "--rank") && more) rank_arg = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--nranks") && more) nranks_arg = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--id-file") && more) id_file = argv[++i];
        else if (!strcmp(argv[i], "--mpi")) mpi = 1;
        else { usage(argv[0]); return 2; }
    }
    const int multi = rank_arg >= 0 || nranks_arg || id_file;
    if (o.n < 3 || o.n > 32768 || o.steps < 0 || o.tt < 0 || o.tt > heat_tb_TT || !(o.timeout > 0) || P < 0 ||
        P > MAXRANKS || (multi && (rank_arg < 0 || rank_arg >= nranks_arg || !id_file)) || (mpi && (multi || P || local))) {
        fprintf(stderr, "%s: need 3 <= n <= 32768, steps >= 0, 0 <= tt <= %d (0: one step a pass), timeout > 0, ranks <= %d; "
                "--rank, --nranks and --id-file together, 0 <= rank < nranks; --mpi without them, --ranks and --local\n", argv[0],
                (int)heat_tb_TT, MAXRANKS);
        usage(argv[0]);
        return 2;
    }
    const double r = 0.24; /* alpha dt / h^2: stable up to 1/4 */
    o.c[0] = (float)(1 - 4 * r);
    o.c[1] = o.c[2] = o.c[3] = o.c[4] = (float)r;
    setenv("NCCL_NVLS_ENABLE", "0", 0); /* no NVLink multicast: nothing here needs it */
    float *plate = (float *)malloc((size_t)o.n * o.n * sizeof(float));
    if (!plate) { fprintf(stderr, "out of memory\n"); return 1; }
    initial(plate, o.n);
    const char *how = o.tt ? "temporal blocking" : "one step a pass";
    int status;
    if (mpi) {
#ifdef PERKS_HAVE_MPI
        MPI_Init(&argc, &argv);
        g_mpi = 1;
        int r = 0, P = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
        MPI_Comm_size(MPI_COMM_WORLD, &P);
        if (r == 0)
            printf("heat2d_multi: %d x %d plate, %d steps, %s (%d ghost rows), overlap %s, %d MPI ranks\n", o.n, o.n,
                   o.steps, how, o.tt ? o.tt : 1, o.overlap ? "on" : "off", P);
        status = run_mpi(&o, check, plate);
        MPI_Finalize();
#else
        fprintf(stderr, "%s: --mpi needs a build with MPI (make mpi-examples: nvcc -ccbin mpicxx)\n", argv[0]);
        status = 2;
#endif
    } else if (multi) {
#ifdef PERKS_HAVE_NCCL
        printf("heat2d_multi: %d x %d plate, %d steps, %s (%d ghost rows), overlap %s, rank %d of %d processes\n", o.n, o.n,
               o.steps, how, o.tt ? o.tt : 1, o.overlap ? "on" : "off", rank_arg, nranks_arg);
        status = run_rank(&o, rank_arg, nranks_arg, id_file, check, plate);
#else
        fprintf(stderr, "%s: one process per rank needs NCCL, and this build has no <nccl.h>\n", argv[0]);
        status = 2;
#endif
    } else {
        int nccl = 0;
        CK(cudaGetDeviceCount(&ngpu));
#ifdef PERKS_HAVE_NCCL
        const int most = ngpu < 8 ? ngpu : 8;
        if (!local && ngpu >= 2 && (P == 0 || (P >= 2 && P <= most))) {
            nccl = 1;
            P = P ? P : most;
        }
#endif
        if (!nccl && P == 0) P = 4;
#ifdef PERKS_HAVE_NCCL
        const char *why = local ? "--local" : ngpu < 2 ? "one GPU" : P == 1 ? "one rank" : "more ranks than GPUs";
#else
        const char *why = local ? "--local, built without NCCL" : "built without NCCL";
#endif
        if (nccl)
            printf("heat2d_multi: %d x %d plate, %d steps, %s (%d ghost rows), overlap %s, %d ranks on GPUs 0-%d through NCCL\n",
                   o.n, o.n, o.steps, how, o.tt ? o.tt : 1, o.overlap ? "on" : "off", P, P - 1);
        else
            printf("heat2d_multi: %d x %d plate, %d steps, %s (%d ghost rows), overlap %s, %d virtual ranks on GPU 0 "
                   "(device copies; %s)\n", o.n, o.n, o.steps, how, o.tt ? o.tt : 1, o.overlap ? "on" : "off", P, why);
        status = run_one_process(&o, P, nccl, check, plate);
    }
    free(plate);
    return status;
}
