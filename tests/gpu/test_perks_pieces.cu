/* tests/gpu/test_perks_pieces.cu -- perks' pieces in kernels of one's own: perks/tile.cuh (the tile
 * split, the tile geometry, the halo exchange of radius 1 and 2, torus and constant border, over
 * several grid barriers with ping-pong buffers) and the persistent Game of Life built from them
 * (examples/life_kernel.inc): random boards of ragged sizes, 1, 2, 7 and 50 generations, exact
 * match with the CPU reference, outputs poisoned first; a glider found where it must be after 4k
 * generations; the planner's errors for boards that do not fit.  --light: small sizes for
 * compute-sanitizer. */
#include <perks/grid.cuh>
#include <perks/tile.cuh>

#include "gpucheck.h"
#include "../../examples/life_kernel.inc"

/* ---- perks_tile2d_split / perks_tile2d_at (host) ------------------------------------------- */
static void test_split(void)
{
    case_begin("perks tile: perks_tile2d_split covers the domain, tiles >= r, errors");
    int tx = -1, ty = -1, th = -1, rc;
    rc = perks_tile2d_split(4096, 4096, 512, 396, 1, &tx, &ty, &th);
    CHECK(rc == 0 && tx == 8 && ty == 49 && th == 84, "4096^2 / 396: rc %d, %d x %d tiles of %d rows", rc, tx, ty, th);
    rc = perks_tile2d_split(3, 7, 3, 3, 3, &tx, &ty, &th); /* 3 rows a tile would leave 1 in the last: 2 tiles of 4 */
    CHECK(rc == 0 && tx == 1 && ty == 2 && th == 4, "H 7, r 3: rc %d, %d x %d tiles of %d rows", rc, tx, ty, th);
    CHECK(perks_tile2d_split(8, 8, 4, 4, 1, NULL, &ty, &th) == PERKS_ENULL, "NULL");
    CHECK(perks_tile2d_split(0, 8, 4, 4, 1, &tx, &ty, &th) == PERKS_ESIZE, "W 0");
    CHECK(perks_tile2d_split(8, 8, 4, 0, 1, &tx, &ty, &th) == PERKS_ESIZE, "grid 0");
    CHECK(perks_tile2d_split(1, 8, 4, 4, 2, &tx, &ty, &th) == PERKS_ESIZE, "W < r");
    CHECK(perks_tile2d_split(513, 8, 512, 4, 2, &tx, &ty, &th) == PERKS_ESIZE, "last tile column narrower than r");
    CHECK(perks_tile2d_split(512 * 10 + 1, 8, 512, 10, 1, &tx, &ty, &th) == PERKS_ECORESIDENT, "11 tile columns, grid 10");
    /* every small case: either an error it must give, or a tiling that covers the domain */
    static const int tws[] = {1, 3, 5, 32}, grids[] = {1, 2, 3, 7, 64};
    for (int W = 1; W <= 40 && !check__failed_case; W++)
        for (int H = 1; H <= 40 && !check__failed_case; H++)
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 5; b++)
                    for (int r = 0; r <= 2; r++) {
                        const int tw = tws[a], G = grids[b], ntx = (W + tw - 1) / tw;
                        rc = perks_tile2d_split(W, H, tw, G, r, &tx, &ty, &th);
                        const int want = (W < r || H < r || W - (ntx - 1) * tw < r) ? PERKS_ESIZE
                                         : ntx > G                                   ? PERKS_ECORESIDENT
                                                                                     : 0;
                        CHECK(rc == want, "W %d H %d tile_w %d grid %d r %d: rc %d, want %d", W, H, tw, G, r, rc, want);
                        if (rc) continue;
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
                    }
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

/* ---- the persistent Game of Life ------------------------------------------------------------ */
static void random_board(uint8_t *b, size_t n, double density)
{
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)(0.5 * (gpucheck_uniform() + 1) < density);
}

/* the persistent kernel (grid capped at gcap blocks, 0: none; inplace: in == out) and the
 * one-launch-per-generation kernel against the CPU reference, or against `want` when given */
static void run_life(const char *label, const uint8_t *board, const uint8_t *want, int W, int H, int gens, int gcap,
                     int inplace)
{
    char name[200];
    snprintf(name, sizeof name, "perks pieces: life %s %dx%d, %d generations%s%s", label, W, H, gens,
             gcap ? ", grid capped" : "", inplace ? ", in place" : "");
    case_begin(name);
    const size_t n = (size_t)W * H;
    uint8_t *ref = (uint8_t *)malloc(n), *got = (uint8_t *)malloc(n);
    uint8_t *d_in = NULL, *d_out = NULL, *d_b = NULL, *res = NULL;
    void *work = NULL;
    life_plan p;
    CHECK(ref && got, "out of host memory");
    if (check__failed_case) { free(ref); free(got); case_end(); return; }
    CHECK(life_cpu(board, ref, W, H, gens) == 0, "life_cpu");
    if (want) {
        size_t d = 0;
        for (size_t i = 0; i < n; i++) d += ref[i] != want[i];
        CHECK(d == 0, "CPU reference: %zu cells differ from the expected board", d);
    }
    int rc = life_plan_make(&p, W, H, gcap);
    CHECK(rc == 0, "life_plan_make: %s", perks_strerror(rc));
    CUDA_OK(cudaMalloc((void **)&d_in, n));
    CUDA_OK(cudaMalloc((void **)&d_out, n));
    CUDA_OK(cudaMalloc((void **)&d_b, n));
    if (!rc) CUDA_OK(cudaMalloc(&work, p.work_bytes));
    if (!check__failed_case) {
        CHECK(gcap == 0 || p.grid <= gcap, "grid %d above the cap %d", p.grid, gcap);
        CUDA_OK(cudaMemcpy(d_in, board, n, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(d_out, 0xab, n)); /* poison */
        CUDA_OK(cudaMemset(work, 0x5c, p.work_bytes));
        if (inplace) CUDA_OK(cudaMemcpy(d_out, board, n, cudaMemcpyHostToDevice));
        rc = life_run_persistent(&p, inplace ? d_out : d_in, d_out, work, W, H, gens, 0);
        CHECK(rc == 0, "life_run_persistent (%d blocks, %zu B shared): %s (%s)", p.grid, p.smem, perks_strerror(rc),
              cudaGetErrorString(cudaGetLastError()));
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(got, d_out, n, cudaMemcpyDeviceToHost));
        size_t d = 0, first = 0;
        for (size_t i = 0; i < n; i++)
            if (got[i] != ref[i] && d++ == 0) first = i;
        CHECK(d == 0, "persistent (%d x %d tiles of %d rows): %zu cells differ, first (x %d, y %d): %d, want %d",
              p.tiles_x, p.tiles_y, p.tile_h, d, (int)(first % W), (int)(first / W), got[first], ref[first]);
    }
    if (!check__failed_case) {
        CUDA_OK(cudaMemcpy(d_in, board, n, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(d_b, 0xab, n));
        rc = life_run_steps(d_in, d_b, W, H, gens, 0, &res);
        CHECK(rc == 0, "life_run_steps: %s (%s)", perks_strerror(rc), cudaGetErrorString(cudaGetLastError()));
        CUDA_OK(cudaDeviceSynchronize());
        if (!check__failed_case) {
            CUDA_OK(cudaMemcpy(got, res, n, cudaMemcpyDeviceToHost));
            size_t d = 0;
            for (size_t i = 0; i < n; i++) d += got[i] != ref[i];
            CHECK(d == 0, "one launch per generation: %zu cells differ", d);
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_b);
    cudaFree(work);
    free(ref);
    free(got);
    case_end();
}

static void test_life_random(int W, int H, int gens, int gcap, int inplace)
{
    const size_t n = (size_t)W * H;
    uint8_t *b = (uint8_t *)malloc(n);
    random_board(b, n, 0.35);
    run_life("random", b, NULL, W, H, gens, gcap, inplace);
    free(b);
}

/* a glider moves one cell right and one down every 4 generations: after 4k it is the same shape
 * at (x + k, y + k), modulo the torus */
static void test_glider(int W, int H, int k, int gcap)
{
    static const int gl[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}; /* (x, y) */
    const size_t n = (size_t)W * H;
    uint8_t *b = (uint8_t *)calloc(n, 1), *want = (uint8_t *)calloc(n, 1);
    const int x0 = 3, y0 = 5;
    for (int i = 0; i < 5; i++) {
        b[(size_t)((y0 + gl[i][1]) % H) * W + (x0 + gl[i][0]) % W] = 1;
        want[(size_t)((y0 + k + gl[i][1]) % H) * W + (x0 + k + gl[i][0]) % W] = 1;
    }
    run_life("glider", b, want, W, H, 4 * k, gcap, 0);
    free(b);
    free(want);
}

static void test_life_errors(void)
{
    case_begin("perks pieces: life planner and launcher errors (NULL, sizes, boards that do not fit on chip)");
    life_plan p;
    uint8_t *d = NULL;
    CHECK(life_plan_make(NULL, 8, 8, 0) == PERKS_ENULL, "NULL plan");
    CHECK(life_plan_make(&p, 0, 8, 0) == PERKS_ESIZE, "W 0");
    CHECK(life_plan_make(&p, 8, -1, 0) == PERKS_ESIZE, "H -1");
    /* more tile columns than blocks can be co-resident */
    int rc = life_plan_make(&p, LIFE_BLOCK * 100000, 1, 0);
    CHECK(rc == PERKS_ECORESIDENT, "%d columns: %s", LIFE_BLOCK * 100000, perks_strerror(rc));
    /* tiles too tall for shared memory */
    rc = life_plan_make(&p, LIFE_BLOCK, 2000000000 / LIFE_BLOCK, 0);
    CHECK(rc == PERKS_ERESOURCE, "%d x %d: %s", LIFE_BLOCK, 2000000000 / LIFE_BLOCK, perks_strerror(rc));
    rc = life_plan_make(&p, 64, 64, 0);
    CHECK(rc == 0, "64 x 64: %s", perks_strerror(rc));
    CUDA_OK(cudaMalloc((void **)&d, 64));
    CHECK(life_run_persistent(NULL, d, d, d, 8, 8, 1, 0) == PERKS_ENULL, "NULL plan");
    CHECK(life_run_persistent(&p, d, d, NULL, 8, 8, 1, 0) == PERKS_ENULL, "NULL work");
    CHECK(life_run_persistent(&p, d, d, d, 8, 8, -1, 0) == PERKS_ESIZE, "gens -1");
    CHECK(life_run_steps(d, d, 0, 8, 1, 0, &d) == PERKS_ESIZE, "steps: W 0");
    CHECK(life_run_steps(d, NULL, 8, 8, 1, 0, &d) == PERKS_ENULL, "steps: NULL");
    cudaFree(d);
    case_end();
}

int main(int argc, char **argv)
{
    const int light = gpucheck_begin(argc, argv);
    test_split();
    /* halo: (W, H, tile_w, grid cap, r, wrap, steps) -- ragged tiles, one tile row or column,
       corners across the torus seam, a constant border */
    static const int halo[][7] = {
        {45, 37, 13, 12, 1, 1, 3}, {45, 37, 13, 12, 1, 0, 3}, {45, 37, 13, 12, 2, 1, 3}, {45, 37, 13, 12, 2, 0, 3},
        {8, 7, 3, 6, 2, 1, 4},     {1, 1, 1, 1, 1, 1, 2},     {100, 3, 32, 8, 1, 1, 3}, {130, 70, 64, 40, 2, 1, 5},
    };
    for (size_t i = 0; i < sizeof halo / sizeof halo[0]; i++)
        test_halo(halo[i][0], halo[i][1], halo[i][2], halo[i][3], halo[i][4], halo[i][5], halo[i][6]);

    test_life_errors();
    static const int gens[] = {1, 2, 7, 50};
    /* (W, H, grid cap): 1x1 (its own 8 neighbours), one tile column of one-row tiles, two tile
       columns the second 3 wide, tall tiles of several chunks (grid capped), larger ragged boards */
    static const int full[][3] = {{1, 1, 0}, {37, 29, 0}, {515, 77, 0}, {515, 77, 3}, {200, 150, 2},
                                  {1000, 333, 0}, {1531, 1027, 0}, {1531, 1027, 12}};
    static const int lite[][3] = {{1, 1, 0}, {37, 29, 0}, {515, 77, 3}, {200, 150, 2}};
    const int ncases = light ? (int)(sizeof lite / sizeof lite[0]) : (int)(sizeof full / sizeof full[0]);
    for (int c = 0; c < ncases; c++) {
        const int *s = light ? lite[c] : full[c];
        for (int g = 0; g < 4; g++) {
            if (light && g == 3 && s[0] * s[1] > 4000) continue; /* 50 generations: small boards only */
            test_life_random(s[0], s[1], gens[g], s[2], 0);
        }
    }
    test_life_random(97, 41, 0, 0, 0);  /* 0 generations: a copy */
    test_life_random(300, 90, 7, 4, 1); /* in == out */
    test_glider(45, 37, light ? 12 : 100, 0);
    test_glider(45, 37, light ? 12 : 100, 7);
    if (!light) test_glider(1100, 900, 250, 0);
    return check_exit();
}
