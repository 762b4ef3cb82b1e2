/* tests/gpu/test_perks_pieces.cu -- perks' pieces in kernels of one's own: perks/tile.cuh (the tile
 * split, the tile geometry, the halo exchange of radius 1 and 2, torus and constant border, over
 * several grid barriers with ping-pong buffers) and a persistent kernel built on the planner
 * (perks_tile_plan_make) and the plan-taking pieces: an integer automaton on 4-byte and 1-byte
 * cells, radius 1 and 2, torus and constant border, ragged domains, 0, 1, 2, 7 and 50 steps, in
 * place, an exact match with the CPU, outputs poisoned first; the planner's errors and its max_h (a
 * refused split or plan writes none of its outputs: they are poisoned and compared after).
 * --light: small sizes for compute-sanitizer. */
#include <perks/grid.cuh>
#include <perks/tile.cuh>

#include "gpucheck.h"

/* ---- perks_tile2d_split / perks_tile2d_at (host) ------------------------------------------- */
static void test_split(void)
{
    case_begin("perks tile: perks_tile2d_split covers the domain, tiles >= r, errors");
    int tx = -1, ty = -1, th = -1, rc;
    rc = perks_tile2d_split(4096, 4096, 512, 396, 1, &tx, &ty, &th);
    CHECK(rc == 0 && tx == 8 && ty == 49 && th == 84, "4096^2 / 396: rc %d, %d x %d tiles of %d rows", rc, tx, ty, th);
    rc = perks_tile2d_split(3, 7, 3, 3, 3, &tx, &ty, &th); /* 3 rows a tile would leave 1 in the last: 2 tiles of 4 */
    CHECK(rc == 0 && tx == 1 && ty == 2 && th == 4, "H 7, r 3: rc %d, %d x %d tiles of %d rows", rc, tx, ty, th);
    /* a refused split writes none of its outputs (poisoned with -12345 before each call) */
#define SPLIT_REFUSED(code, what, W_, H_, TW_, G_, R_)                                                     \
    do {                                                                                                  \
        tx = ty = th = -12345;                                                                            \
        const int rc__ = perks_tile2d_split(W_, H_, TW_, G_, R_, &tx, &ty, &th);                          \
        CHECK(rc__ == (code), "%s: rc %d, want %s", what, rc__, #code);                                   \
        CHECK(tx == -12345 && ty == -12345 && th == -12345, "%s: refused and wrote %d x %d tiles of %d rows", \
              what, tx, ty, th);                                                                          \
    } while (0)
    ty = th = -12345;
    CHECK(perks_tile2d_split(8, 8, 4, 4, 1, NULL, &ty, &th) == PERKS_ENULL, "NULL");
    CHECK(ty == -12345 && th == -12345, "NULL: refused and wrote %d, %d", ty, th);
    SPLIT_REFUSED(PERKS_ESIZE, "W 0", 0, 8, 4, 4, 1);
    SPLIT_REFUSED(PERKS_ESIZE, "grid 0", 8, 8, 4, 0, 1);
    SPLIT_REFUSED(PERKS_ESIZE, "W < r", 1, 8, 4, 4, 2);
    SPLIT_REFUSED(PERKS_ESIZE, "last tile column narrower than r", 513, 8, 512, 4, 2);
    SPLIT_REFUSED(PERKS_ECORESIDENT, "11 tile columns, grid 10", 512 * 10 + 1, 8, 512, 10, 1);
#undef SPLIT_REFUSED
    /* every small case: either an error it must give, or a tiling that covers the domain */
    static const int tws[] = {1, 3, 5, 32}, grids[] = {1, 2, 3, 7, 64};
    long tilings = 0; /* the small cases whose tiling was walked (the refused ones are skipped) */
    for (int W = 1; W <= 40 && !check__failed_case; W++)
        for (int H = 1; H <= 40 && !check__failed_case; H++)
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 5; b++)
                    for (int r = 0; r <= 2; r++) {
                        const int tw = tws[a], G = grids[b], ntx = (W + tw - 1) / tw;
                        tx = ty = th = -12345; /* a refusal writes none of them */
                        rc = perks_tile2d_split(W, H, tw, G, r, &tx, &ty, &th);
                        const int want = (W < r || H < r || W - (ntx - 1) * tw < r) ? PERKS_ESIZE
                                         : ntx > G                                   ? PERKS_ECORESIDENT
                                                                                     : 0;
                        CHECK(rc == want, "W %d H %d tile_w %d grid %d r %d: rc %d, want %d", W, H, tw, G, r, rc, want);
                        if (rc) {
                            CHECK(tx == -12345 && ty == -12345 && th == -12345, "W %d H %d tile_w %d grid %d r %d: "
                                  "refused and wrote %d x %d tiles of %d rows", W, H, tw, G, r, tx, ty, th);
                            continue;
                        }
                        long long cells = 0;
                        int minw = 1 << 30, minh = 1 << 30;
                        for (int id = 0; id < tx * ty; id++) {
                            perks_tile2d t = perks_tile2d_at(id, tx, tw, th, W, H);
                            cells += (long long)t.w * t.h;
                            minw = t.w < minw ? t.w : minw;
                            minh = t.h < minh ? t.h : minh;
                            CHECK(t.tx == id % tx && t.ty == id / tx && t.x0 == t.tx * tw && t.y0 == t.ty * th,
                                  "tile %d geometry", id);
                        }
                        CHECK(tx * ty <= G && tx == ntx, "W %d H %d tw %d G %d: %d x %d tiles", W, H, tw, G, tx, ty);
                        CHECK(cells == (long long)W * H, "W %d H %d tw %d G %d r %d: tiles cover %lld cells", W, H, tw,
                              G, r, cells);
                        CHECK(minw >= (r > 1 ? r : 1) && minh >= (r > 1 ? r : 1), "W %d H %d tw %d G %d r %d: a tile"
                              " of %d x %d", W, H, tw, G, r, minw, minh);
                        /* as many tile rows as the grid allows, unless r forced fewer */
                        if (r <= 1) {
                            const int q = G / tx < H ? G / tx : H, rows = (H + q - 1) / q;
                            CHECK(ty == (H + rows - 1) / rows && th == rows, "W %d H %d G %d: %d tile rows of %d", W, H,
                                  G, ty, th);
                        }
                        tilings++;
                    }
    CHECK(tilings > 0, "%ld small tilings walked", tilings);
    printf("    %ld small tilings walked\n", tilings);
    case_end();
}

/* ---- the halo exchange, on its own ------------------------------------------------------------
 * Each block loads its tile of `in` (cell values index + 1), then for every step publishes its
 * edges, passes the grid barrier, loads its frame and adds STEP_ADD to its interior; at the end it
 * dumps its whole shared-memory tile (frame included, the rest poisoned with -7 first).  A frame
 * read from the wrong buffer, before a neighbour published, or from the wrong neighbour shows as a
 * value off by STEP_ADD or from another cell. */
#define STEP_ADD 1000000
__global__ void halo_kernel(const int *in, int *dump, int *rows, int *cols, int W, int H, int tw, int th, int tiles_x,
                            int tiles_y, int r, int wrap, int steps)
{
    extern __shared__ int hs[];
    const int P = tw + 2 * r, cells = (th + 2 * r) * P;
    const perks_tile2d t = perks_tile2d_at((int)blockIdx.x, tiles_x, tw, th, W, H);
    const size_t rn = perks_tile_rows_elems(tiles_y, r, W), cn = perks_edge_elems(tiles_x * tiles_y, r, th);
    for (int i = (int)threadIdx.x; i < cells; i += (int)blockDim.x) hs[i] = -7;
    __syncthreads();
    PERKS_TILE_LOAD(hs, P, r, t, in, W);
    __syncthreads();
    PERKS_FOR_STEPS(g, steps) {
        int *rb = rows + (g & 1) * rn, *cb = cols + (g & 1) * cn;
        PERKS_TILE_PUBLISH(hs, P, r, t, rb, cb, W, th);
        PERKS_GRID_SYNC();
        PERKS_TILE_LOAD_FRAME(hs, P, r, t, rb, cb, W, H, tiles_x, tiles_y, th, wrap, -1);
        __syncthreads();
        if (g < steps - 1)
            for (int i = (int)threadIdx.x; i < t.w * t.h; i += (int)blockDim.x)
                hs[PERKS_TILE_AT(P, r, i / t.w, i % t.w)] += STEP_ADD;
        __syncthreads();
    }
    for (int i = (int)threadIdx.x; i < cells; i += (int)blockDim.x) dump[(size_t)blockIdx.x * cells + i] = hs[i];
}

static void test_halo(int W, int H, int tw, int gcap, int r, int wrap, int steps)
{
    char name[160];
    snprintf(name, sizeof name, "perks tile: halo exchange %dx%d, tiles %d wide, grid <= %d, r %d, %s, %d steps", W, H,
             tw, gcap, r, wrap ? "torus" : "constant border", steps);
    case_begin(name);
    int tx = 0, ty = 0, th = 0;
    int rc = perks_tile2d_split(W, H, tw, gcap, r, &tx, &ty, &th);
    CHECK(rc == 0, "split: %s", perks_strerror(rc));
    if (rc) { case_end(); return; }
    const int P = tw + 2 * r, cells = (th + 2 * r) * P, tiles = tx * ty;
    const size_t n = (size_t)W * H, rn = perks_tile_rows_elems(ty, r, W), cn = perks_edge_elems(tiles, r, th);
    int *h = (int *)malloc(n * sizeof(int)), *dump = (int *)malloc((size_t)tiles * cells * sizeof(int));
    int *d_in = NULL, *d_dump = NULL, *d_rows = NULL, *d_cols = NULL;
    for (size_t i = 0; i < n; i++) h[i] = (int)i + 1;
    CUDA_OK(cudaMalloc((void **)&d_in, n * sizeof(int)));
    CUDA_OK(cudaMalloc((void **)&d_dump, (size_t)tiles * cells * sizeof(int)));
    CUDA_OK(cudaMalloc((void **)&d_rows, 2 * rn * sizeof(int)));
    CUDA_OK(cudaMalloc((void **)&d_cols, 2 * cn * sizeof(int)));
    CUDA_OK(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(d_dump, 0x7f, (size_t)tiles * cells * sizeof(int)));
    CUDA_OK(cudaMemset(d_rows, 0x7e, 2 * rn * sizeof(int))); /* stale-looking values, never a real cell */
    CUDA_OK(cudaMemset(d_cols, 0x7e, 2 * cn * sizeof(int)));
    void *args[] = {&d_in, &d_dump, &d_rows, &d_cols, &W, &H, &tw, &th, &tx, &ty, &r, &wrap, &steps};
    if (!check__failed_case) {
        rc = perks_launch((const void *)halo_kernel, dim3((unsigned)tiles), dim3(64), args, (size_t)cells * sizeof(int), 0);
        CHECK(rc == 0, "perks_launch (%d tiles): %s (%s)", tiles, perks_strerror(rc), cudaGetErrorString(cudaGetLastError()));
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(dump, d_dump, (size_t)tiles * cells * sizeof(int), cudaMemcpyDeviceToHost));
    }
    const int add = (steps - 1) * STEP_ADD;
    long long bad = 0;
    for (int id = 0; id < tiles && !check__failed_case; id++) {
        perks_tile2d t = perks_tile2d_at(id, tx, tw, th, W, H);
        for (int y = -r; y < th + r; y++)
            for (int x = -r; x < tw + r; x++) {
                int want = -7;
                if (y < t.h + r && x < t.w + r) {
                    int gy = t.y0 + y, gx = t.x0 + x;
                    if (!wrap && (gy < 0 || gy >= H || gx < 0 || gx >= W)) want = -1;
                    else {
                        gy = (gy + H) % H;
                        gx = (gx + W) % W;
                        want = h[(size_t)gy * W + gx] + add;
                    }
                }
                const int got = dump[(size_t)id * cells + PERKS_TILE_AT(P, r, y, x)];
                if (got != want && bad++ == 0)
                    CHECK(0, "tile %d (%d, %d) %dx%d, cell y %d x %d: got %d, want %d", id, t.tx, t.ty, t.w, t.h, y, x,
                          got, want);
            }
    }
    CHECK(bad == 0, "%lld cells wrong", bad);
    cudaFree(d_in);
    cudaFree(d_dump);
    cudaFree(d_rows);
    cudaFree(d_cols);
    free(h);
    free(dump);
    case_end();
}

/* ---- a persistent kernel of one's own on the plan (perks_tile_plan_make and the plan-taking pieces)
 * An automaton on T cells (int: 4 bytes, uint8_t: 1), frame r = 1 or 2, torus or a constant border
 * `fill`: new = (3 * (sum of the (2r+1)^2 box) + 1) mod 2^16 (mod 2^8 for bytes), exact in integers.
 * The block keeps two framed tiles side by side in each shared-memory row (pitch 2 (tile_w + 2r)),
 * the current one and the next, and swaps them every step. */
#define AUT_BLOCK 64
template <class T>
__global__ void __launch_bounds__(AUT_BLOCK) aut_kernel(const T *in, T *out, void *work, const perks_tile_plan p,
                                                        int gens, int wrap, int fill)
{
    extern __shared__ __align__(16) unsigned char aut_smem[];
    T *cur = (T *)aut_smem, *nxt = cur + (p.tile_w + 2 * p.r);
    const perks_tile2d t = perks_tile_of(p, (int)blockIdx.x);
    const int r = p.r;
    const unsigned mask = sizeof(T) == 1 ? 0xffu : 0xffffu;
    perks_tile_load(cur, p, t, in);
    __syncthreads();
    PERKS_FOR_STEPS(g, gens) {
        perks_tile_publish(cur, p, t, work, g);
        PERKS_GRID_SYNC();
        perks_tile_load_frame(cur, p, t, work, g, wrap, (T)fill);
        __syncthreads();
        for (int i = (int)threadIdx.x; i < t.w * t.h; i += (int)blockDim.x) {
            const int y = i / t.w, x = i - y * t.w;
            unsigned sum = 0;
            for (int dy = -r; dy <= r; dy++)
                for (int dx = -r; dx <= r; dx++) sum += (unsigned)cur[PERKS_TILE_AT(p.pitch, r, y + dy, x + dx)];
            nxt[PERKS_TILE_AT(p.pitch, r, y, x)] = (T)((3u * sum + 1u) & mask);
        }
        __syncthreads();
        T *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    perks_tile_store(cur, p, t, out);
}

template <class T>
static void aut_cpu(const T *in, T *out, int W, int H, int r, int wrap, int fill, int gens)
{
    const size_t n = (size_t)W * H;
    const unsigned mask = sizeof(T) == 1 ? 0xffu : 0xffffu;
    T *a = (T *)malloc(n * sizeof(T)), *b = (T *)malloc(n * sizeof(T));
    memcpy(a, in, n * sizeof(T));
    for (int g = 0; g < gens; g++) {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                unsigned sum = 0;
                for (int dy = -r; dy <= r; dy++)
                    for (int dx = -r; dx <= r; dx++) {
                        int gy = y + dy, gx = x + dx;
                        if (gy < 0 || gy >= H || gx < 0 || gx >= W) {
                            if (!wrap) { sum += (unsigned)(T)fill; continue; }
                            gy = (gy % H + H) % H;
                            gx = (gx % W + W) % W;
                        }
                        sum += (unsigned)a[(size_t)gy * W + gx];
                    }
                b[(size_t)y * W + x] = (T)((3u * sum + 1u) & mask);
            }
        T *t = a;
        a = b;
        b = t;
    }
    memcpy(out, a, n * sizeof(T));
    free(a);
    free(b);
}

/* the plan's kernel against the CPU, outputs poisoned; inplace: in == out */
template <class T>
static void run_aut(int W, int H, int r, int wrap, int gens, int gcap, int inplace)
{
    char name[200];
    snprintf(name, sizeof name, "perks tile plan: %d-byte cells %dx%d, r %d, %s, %d steps%s%s", (int)sizeof(T), W, H, r,
             wrap ? "torus" : "constant border", gens, gcap ? ", grid capped" : "", inplace ? ", in place" : "");
    case_begin(name);
    const size_t n = (size_t)W * H;
    const int fill = 7;
    T *h = (T *)malloc(n * sizeof(T)), *ref = (T *)malloc(n * sizeof(T)), *got = (T *)malloc(n * sizeof(T));
    T *d_in = NULL, *d_out = NULL;
    void *work = NULL;
    perks_tile_plan p;
    for (size_t i = 0; i < n; i++) h[i] = (T)((unsigned)((gpucheck_uniform() + 1) * 30000) & (sizeof(T) == 1 ? 0xffu : 0xffffu));
    aut_cpu(h, ref, W, H, r, wrap, fill, gens);
    perks_tile_opts o = {AUT_BLOCK, 2 * (AUT_BLOCK + 2 * r), 0, 0, gcap};
    int rc = perks_tile_plan_make(&p, (const void *)aut_kernel<T>, AUT_BLOCK, W, H, r, sizeof(T), &o);
    CHECK(rc == 0, "perks_tile_plan_make: %s", perks_strerror(rc));
    if (!rc) {
        CHECK(gcap == 0 || p.grid <= gcap, "grid %d above the cap %d", p.grid, gcap);
        CHECK(p.smem == (size_t)(p.tile_h + 2 * r) * p.pitch * sizeof(T), "smem %zu", p.smem);
        CHECK(p.rows_bytes >= perks_tile_rows_elems(p.tiles_y, r, W) * sizeof(T) &&
                  p.cols_bytes >= perks_edge_elems(p.grid, r, p.tile_h) * sizeof(T) &&
                  p.work_bytes == 2 * (p.rows_bytes + p.cols_bytes),
              "buffers in bytes: rows %zu, cols %zu, work %zu", p.rows_bytes, p.cols_bytes, p.work_bytes);
        CHECK(p.max_h >= H, "max_h %lld below H %d", p.max_h, H);
        CUDA_OK(cudaMalloc((void **)&d_in, n * sizeof(T)));
        CUDA_OK(cudaMalloc((void **)&d_out, n * sizeof(T)));
        CUDA_OK(cudaMalloc(&work, p.work_bytes));
    }
    if (!check__failed_case) {
        CUDA_OK(cudaMemcpy(inplace ? d_out : d_in, h, n * sizeof(T), cudaMemcpyHostToDevice));
        if (!inplace) CUDA_OK(cudaMemset(d_out, 0xab, n * sizeof(T))); /* poison */
        CUDA_OK(cudaMemset(work, 0x5c, p.work_bytes));
        const T *src = inplace ? d_out : d_in;
        int wr = wrap, fl = fill;
        void *args[] = {(void *)&src, (void *)&d_out, (void *)&work, (void *)&p, (void *)&gens, (void *)&wr, (void *)&fl};
        rc = perks_launch((const void *)aut_kernel<T>, dim3((unsigned)p.grid), dim3(AUT_BLOCK), args, p.smem, 0);
        CHECK(rc == 0, "perks_launch (%d blocks, %zu B shared): %s (%s)", p.grid, p.smem, perks_strerror(rc),
              cudaGetErrorString(cudaGetLastError()));
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(got, d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
        size_t d = 0, first = 0;
        for (size_t i = 0; i < n; i++)
            if (got[i] != ref[i] && d++ == 0) first = i;
        CHECK(d == 0, "%d x %d tiles of %d rows: %zu of %zu cells differ, first (x %d, y %d): %d, want %d", p.tiles_x,
              p.tiles_y, p.tile_h, d, n, (int)(first % W), (int)(first / W), (int)got[first], (int)ref[first]);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(work);
    free(h);
    free(ref);
    free(got);
    case_end();
}

static void test_plan_errors(void)
{
    case_begin("perks tile plan: errors (NULL, sizes, pitch, too wide, too tall) and max_h is the largest H that plans");
    perks_tile_plan p;
    const void *k = (const void *)aut_kernel<int>;
    perks_tile_opts o = {AUT_BLOCK, 0, 0, 0, 0};
    perks_tile_plan poison;
    memset(&poison, 0xA5, sizeof poison);
    /* a refused plan writes nothing: p keeps its poison */
#define PLAN_REFUSED(code, what, ...)                                                                  \
    do {                                                                                              \
        memcpy(&p, &poison, sizeof p);                                                                \
        const int rc__ = perks_tile_plan_make(__VA_ARGS__);                                           \
        CHECK(rc__ == (code), "%s: rc %d (%s), want %s", what, rc__, perks_strerror(rc__), #code);    \
        CHECK(memcmp(&p, &poison, sizeof p) == 0, "%s: refused and wrote the plan", what);            \
    } while (0)
    CHECK(perks_tile_plan_make(NULL, k, AUT_BLOCK, 8, 8, 1, 4, &o) == PERKS_ENULL, "NULL plan");
    PLAN_REFUSED(PERKS_ENULL, "NULL kernel", &p, NULL, AUT_BLOCK, 8, 8, 1, 4, &o);
    PLAN_REFUSED(PERKS_ESIZE, "W 0", &p, k, AUT_BLOCK, 0, 8, 1, 4, &o);
    PLAN_REFUSED(PERKS_ESIZE, "H -1", &p, k, AUT_BLOCK, 8, -1, 1, 4, &o);
    PLAN_REFUSED(PERKS_ESIZE, "r -1", &p, k, AUT_BLOCK, 8, 8, -1, 4, &o);
    PLAN_REFUSED(PERKS_ESIZE, "0-byte cells", &p, k, AUT_BLOCK, 8, 8, 1, 0, &o);
    PLAN_REFUSED(PERKS_ESIZE, "block 0", &p, k, 0, 8, 8, 1, 4, &o);
    o.pitch = AUT_BLOCK + 1;
    PLAN_REFUSED(PERKS_ESIZE, "pitch below tile_w + 2r", &p, k, AUT_BLOCK, 8, 8, 1, 4, &o);
    o.pitch = 0;
    PLAN_REFUSED(PERKS_ECORESIDENT, "64 000 000 columns", &p, k, AUT_BLOCK, AUT_BLOCK * 1000000, 1, 1, 4, &o);
    PLAN_REFUSED(PERKS_ERESOURCE, "100 x 20 000 000", &p, k, AUT_BLOCK, 100, 2000000000 / 100, 1, 4, &o);
#undef PLAN_REFUSED
    int rc;
    rc = perks_tile_plan_make(&p, k, AUT_BLOCK, 100, 50, 2, 4, &o);
    CHECK(rc == 0 && p.max_h > 50, "100 x 50: %s, max_h %lld", perks_strerror(rc), p.max_h);
    if (!rc) {
        const long long mh = p.max_h;
        rc = perks_tile_plan_make(&p, k, AUT_BLOCK, 100, (int)mh, 2, 4, &o);
        CHECK(rc == 0, "100 x max_h %lld: %s", mh, perks_strerror(rc));
        memcpy(&p, &poison, sizeof p);
        rc = perks_tile_plan_make(&p, k, AUT_BLOCK, 100, (int)mh + 1, 2, 4, &o);
        CHECK(rc == PERKS_ERESOURCE, "100 x (max_h + 1) %lld: %s", mh + 1, perks_strerror(rc));
        CHECK(memcmp(&p, &poison, sizeof p) == 0, "100 x (max_h + 1): refused and wrote the plan");
        printf("    100 columns of 4-byte cells, r 2: max_h %lld rows (%.1f M cells on chip)\n", mh, 100.0 * mh / 1e6);
    }
    case_end();
}

int main(int argc, char **argv)
{
    const int light = gpucheck_begin(argc, argv);
    /* halo: (W, H, tile_w, grid cap, r, wrap, steps) -- ragged tiles, one tile row or column,
       corners across the torus seam, a constant border */
    static const int halo[][7] = {
        {45, 37, 13, 12, 1, 1, 3}, {45, 37, 13, 12, 1, 0, 3}, {45, 37, 13, 12, 2, 1, 3}, {45, 37, 13, 12, 2, 0, 3},
        {8, 7, 3, 6, 2, 1, 4},     {1, 1, 1, 1, 1, 1, 2},     {100, 3, 32, 8, 1, 1, 3}, {130, 70, 64, 40, 2, 1, 5},
    };
    const int nhalo = (int)(sizeof halo / sizeof halo[0]);
    static const int gens[] = {1, 2, 7, 50};
    /* (W, H, grid cap): 1x1 (its own neighbours), one tile column of one-row tiles, two tile columns
       the second 3 wide, tall tiles (grid capped), larger ragged domains */
    static const int full[][3] = {{1, 1, 0}, {37, 29, 0}, {67, 77, 0}, {67, 77, 3}, {200, 150, 8}, {1000, 333, 0},
                                  {1531, 1027, 96}};
    static const int lite[][3] = {{1, 1, 0}, {37, 29, 0}, {67, 77, 3}, {200, 150, 8}};
    const int ncases = light ? (int)(sizeof lite / sizeof lite[0]) : (int)(sizeof full / sizeof full[0]);
    /* the automaton cases: domain c at step count g (50 steps on the smaller domains only), 4-byte
     * cells at radius r and 1-byte cells at 3 - r where the domain is at least that wide and tall */
#define AUT_STEPS(s, g) (!((g) == 3 && (s)[0] * (s)[1] > (light ? 4000 : 400000)))
#define AUT_R(c, g) (1 + ((c) + (g)) % 2)
#define AUT_FITS(s, r) ((s)[0] >= (r) && (s)[1] >= (r))
    int naut = 0;
    for (int c = 0; c < ncases; c++)
        for (int g = 0; g < 4; g++) {
            const int *s = light ? lite[c] : full[c];
            if (AUT_STEPS(s, g)) naut += AUT_FITS(s, AUT_R(c, g)) + AUT_FITS(s, 3 - AUT_R(c, g));
        }
    /* test_split, the halo table, test_plan_errors, the automata, 0 steps and in place */
    check_plan(1 + nhalo + 1 + naut + 2);
    test_split();
    for (int i = 0; i < nhalo; i++)
        test_halo(halo[i][0], halo[i][1], halo[i][2], halo[i][3], halo[i][4], halo[i][5], halo[i][6]);
    test_plan_errors();
    for (int c = 0; c < ncases; c++) {
        const int *s = light ? lite[c] : full[c];
        for (int g = 0; g < 4; g++) {
            if (!AUT_STEPS(s, g)) continue; /* 50 steps: smaller domains */
            const int r = AUT_R(c, g), wrap = (c + g / 2) % 2;
            if (AUT_FITS(s, r)) run_aut<int>(s[0], s[1], r, wrap, gens[g], s[2], 0);
            if (AUT_FITS(s, 3 - r)) run_aut<uint8_t>(s[0], s[1], 3 - r, 1 - wrap, gens[g], s[2], 0);
        }
    }
#undef AUT_STEPS
#undef AUT_R
#undef AUT_FITS
    run_aut<int>(97, 41, 1, 1, 0, 0, 0); /* 0 steps: a copy */
    run_aut<int>(300, 90, 2, 0, 7, 10, 1); /* in == out */
    return check_exit();
}
