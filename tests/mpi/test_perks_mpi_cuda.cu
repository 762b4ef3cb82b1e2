/* tests/mpi/test_perks_mpi_cuda.cu -- perks/mpi.h's CUDA side under mpirun.  perks_nccl_from_mpi:
 * with a CUDA device, one NCCL communicator over the P ranks (its count P, its rank the MPI rank,
 * its device the node-local rank modulo the devices) and an all-reduce over it that sums the ranks;
 * PERKS_EUNSUPPORTED on every rank where a node has more ranks than devices; without one,
 * PERKS_ECUDA on every rank and no rank left waiting.  perks_slab_exchange_mpi_staged
 * (with a device; ranks may share it): the ghost planes of device buffers, Dirichlet and periodic,
 * halo 1 and 2, each ghost byte against the global plane it mirrors, the own planes unchanged;
 * perks_block3_exchange_mpi_staged the same for the chosen rank grid of a 9 x 8 x 7 domain, star and
 * box, no axis and every axis periodic (a star's edge and corner ghosts left as they were).
 * Rank 0 prints the cases.
 *   mpirun -np P build/tests/mpi/test_perks_mpi_cuda */
#include <perks/mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/check.h"
#include "ghosts.h"

/* the case's result on every rank: ok only when every rank's CHECKs held */
static void end_all(void)
{
    int mine = check__failed_case, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && !mine) CHECK(0, "another rank failed");
    case_end();
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0, ndev = 0, local = 0, nlocal = 0;
    char name[160];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) return 1;
    const int have = cudaGetDeviceCount(&ndev) == cudaSuccess && ndev > 0;
    check_plan(3);
    CHECK(perks_mpi_local(MPI_COMM_WORLD, &local, &nlocal) == 0, "perks_mpi_local");
    int crowded = have && nlocal > ndev, any_crowded = 0; /* a node with more ranks than devices */
    MPI_Allreduce(&crowded, &any_crowded, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
#ifdef PERKS_MPI_NCCL
    snprintf(name, sizeof name, "perks_nccl_from_mpi: %s [%d ranks]",
             !have          ? "no CUDA device: PERKS_ECUDA on every rank"
             : any_crowded ? "more ranks than devices on a node: PERKS_EUNSUPPORTED on every rank"
                           : "a communicator of every rank, its device the node-local rank's, an all-reduce of the ranks",
             size);
    case_begin(name);
    ncclComm_t comm;
    int dev = -2;
    const int rc = perks_nccl_from_mpi(MPI_COMM_WORLD, &comm, &dev);
    if (!have) {
        CHECK(rc == PERKS_ECUDA, "rc %d", rc);
    } else if (any_crowded) {
        CHECK(rc == PERKS_EUNSUPPORTED, "rc %d", rc);
    } else {
        int count = 0, me = -1, cudev = -1, sum = -1;
        CHECK(rc == PERKS_SUCCESS, "rc %d", rc);
        if (rc == PERKS_SUCCESS) {
            CHECK(dev == local % ndev && cudaGetDevice(&cudev) == cudaSuccess && cudev == dev, "device %d (current %d)", dev, cudev);
            CHECK(ncclCommCount(comm, &count) == ncclSuccess && count == size, "count %d", count);
            CHECK(ncclCommUserRank(comm, &me) == ncclSuccess && me == rank, "rank %d", me);
            int *d = NULL;
            CHECK(cudaMalloc(&d, sizeof(int)) == cudaSuccess && cudaMemcpy(d, &rank, sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess,
                  "device buffer");
            CHECK(ncclAllReduce(d, d, 1, ncclInt, ncclSum, comm, 0) == ncclSuccess && cudaDeviceSynchronize() == cudaSuccess &&
                      cudaMemcpy(&sum, d, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess,
                  "all-reduce");
            CHECK(sum == size * (size - 1) / 2, "sum of the ranks %d", sum);
            cudaFree(d);
            ncclCommDestroy(comm);
        }
    }
    end_all();
#else
    snprintf(name, sizeof name, "perks_nccl_from_mpi [%d ranks]", size);
    check_skip(name, "built without <nccl.h>");
#endif
    if (have) cudaSetDevice(local % ndev);
    snprintf(name, sizeof name, "perks_slab_exchange_mpi_staged: device ghosts through host memory, Dirichlet and "
             "periodic, halo 1 and 2 [%d ranks]", size);
    if (!have) check_skip(name, "no CUDA device");
    else {
        case_begin(name);
        for (int bnd = 0; bnd < 2; bnd++)
            for (int halo = 1; halo <= 2; halo++) {
                const int n = 4 * size + 3, pb = 24;
                perks_slab s;
                memset(&s, 0, sizeof s);
                CHECK(perks_slab_make(&s, n, size, rank, halo, bnd) == 0, "make");
                const size_t bytes = (size_t)s.buf_planes * pb;
                unsigned char *h = (unsigned char *)malloc(bytes), *hs = (unsigned char *)malloc(bytes), *d = NULL;
                memset(h, 0xEE, bytes);
                for (int p = 0; p < s.own; p++)
                    for (int e = 0; e < pb; e++) h[(size_t)(s.halo + p) * pb + e] = (unsigned char)((s.first + p) * 31 + e);
                CHECK(cudaMalloc(&d, bytes) == cudaSuccess && cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice) == cudaSuccess,
                      "device buffer");
                const int rc = perks_slab_exchange_mpi_staged(&s, d, hs, (size_t)pb, MPI_COMM_WORLD, 0, 30.0);
                CHECK(rc == PERKS_SUCCESS, "bnd %d halo %d: rc %d", bnd, halo, rc);
                CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess, "copy back");
                for (int p = 0; p < s.buf_planes; p++) {
                    const int g = ghosts_plane(&s, n, bnd, p);
                    for (int e = 0; e < pb; e++) {
                        const unsigned char want = g >= 0 ? (unsigned char)(g * 31 + e) : 0xEE;
                        CHECK(h[(size_t)p * pb + e] == want, "bnd %d halo %d rank %d: plane %d byte %d is %d, want %d", bnd,
                              halo, rank, p, e, h[(size_t)p * pb + e], want);
                    }
                }
                cudaFree(d), free(h), free(hs);
            }
        end_all();
    }
    snprintf(name, sizeof name, "perks_block3_exchange_mpi_staged: device ghosts of the chosen grid through host "
             "memory, star and box, no and every axis periodic, halo 1 and 2 [%d ranks]", size);
    if (!have) check_skip(name, "no CUDA device");
    else {
        case_begin(name);
        for (int shape = PERKS_STAR; shape <= PERKS_BOX; shape++)
            for (int per = 0; per <= 7; per += 7)
                for (int halo = 1; halo <= 2 && !check__failed_case; halo++) {
                    const int n[3] = {9, 8, 7}, eb = 4;
                    perks_grid3 g;
                    perks_block3 b;
                    CHECK(perks_grid3_choose(size, n[0], n[1], n[2], halo, per, &g) == 0 && perks_block3_make(&g, rank, &b) == 0,
                          "grid");
                    const size_t bytes = (size_t)b.ext[0] * b.ext[1] * b.ext[2] * eb;
                    unsigned char *h = (unsigned char *)malloc(bytes), *hs = (unsigned char *)malloc(bytes), *d = NULL;
                    memset(h, 0xEE, bytes), memset(hs, 0x55, bytes);
                    ghosts_fill3(&b, shape, n, h, eb);
                    CHECK(cudaMalloc(&d, bytes) == cudaSuccess && cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice) == cudaSuccess,
                          "device buffer");
                    const int rc = perks_block3_exchange_mpi_staged(&b, shape, d, hs, (size_t)eb, MPI_COMM_WORLD, 0, 30.0);
                    CHECK(rc == PERKS_SUCCESS, "shape %d periodic %d halo %d: rc %d", shape, per, halo, rc);
                    CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess, "copy back");
                    int at[3] = {0, 0, 0};
                    const size_t bad = ghosts_bad3(&b, shape, n, h, eb, 0xEE, at);
                    CHECK(bad == 0, "shape %d periodic %d halo %d rank %d: %zu bytes wrong, the first in cell (%d, %d, %d)",
                          shape, per, halo, rank, bad, at[0], at[1], at[2]);
                    cudaFree(d), free(h), free(hs);
                }
        end_all();
    }
    int r = check_exit(), worst = 0;
    MPI_Allreduce(&r, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
