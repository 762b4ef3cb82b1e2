/* tests/mpi/test_perks_nccl_mpi.cu -- perks_nccl_from_mpi (perks/mpi.h) under mpirun: with a CUDA
 * device, one NCCL communicator over the P ranks (its count P, its rank the MPI rank, its device
 * the node-local rank modulo the devices) and an all-reduce over it that sums the ranks; without
 * one, PERKS_ECUDA on every rank and no rank left waiting.  Rank 0 prints the cases.
 *   mpirun -np P build/tests/mpi/test_perks_nccl_mpi */
#include <perks/mpi.h>
#include <stdio.h>

#include "../host/check.h"

int main(int argc, char **argv)
{
    int rank = 0, size = 0, ndev = 0, dev = -2, local = 0, nlocal = 0;
    char name[160];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) return 1;
    const int have = cudaGetDeviceCount(&ndev) == cudaSuccess && ndev > 0;
    check_plan(1);
    snprintf(name, sizeof name, "perks_nccl_from_mpi: %s [%d ranks]",
             have ? "a communicator of every rank, its device the node-local rank's, an all-reduce of the ranks"
                  : "no CUDA device: PERKS_ECUDA on every rank", size);
    case_begin(name);
    ncclComm_t comm;
    const int rc = perks_nccl_from_mpi(MPI_COMM_WORLD, &comm, &dev);
    CHECK(perks_mpi_local(MPI_COMM_WORLD, &local, &nlocal) == 0, "perks_mpi_local");
    if (!have) {
        CHECK(rc == PERKS_ECUDA && dev == -1, "rc %d, device %d", rc, dev);
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
    int mine = check__failed_case, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && !mine) CHECK(0, "another rank failed");
    case_end();
    int r = check_exit(), worst = 0;
    MPI_Allreduce(&r, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
