/* tests/gpu/test_onchip_device.cu -- onchip/device.cuh: every cached answer equals the runtime's own
 * answer asked afresh.
 *   threads: 8 host threads (spread over the devices) start together on cold caches and ask the
 *     device attributes, a kernel's attributes and 64 occupancy keys many times over; every answer
 *     must equal the reference the main thread took from the runtime before they started;
 *   attributes: on every device, onchip_device_get / onchip_device_sms / onchip_device_current
 *     (asked twice: filled, then cached) against cudaDeviceGetAttribute;
 *   invalid: ordinals -1, the device count, ONCHIP_MAX_DEVICES and past it, INT_MAX, and NULL
 *     outputs give an error, leave the output as it was, and cache nothing;
 *   occupancy: two kernels x block sizes x dynamic shared memory, and onchip_func_get, against
 *     cudaOccupancyMaxActiveBlocksPerMultiprocessor and cudaFuncGetAttributes;
 *   smem allow: a launch with the most dynamic shared memory the kernel can take runs after
 *     onchip_smem_allow; one byte more is refused;
 *   full table: 4096 distinct keys (4 times the table) asked twice: at least 3072 of them cannot
 *     have an entry, so the uncached path answers them, and every answer is still the runtime's. */
#include <limits.h>
#include <onchip/device.cuh>

#include <atomic>
#include <thread>
#include <vector>

#include "gpucheck.h"

__global__ void dev_plain(int *out)
{
    if (out) out[blockIdx.x * blockDim.x + threadIdx.x] = (int)threadIdx.x;
}
__global__ void dev_static(int *out)
{
    __shared__ int s[2048]; /* 8 KiB of static shared memory */
    s[threadIdx.x % 2048] = (int)threadIdx.x;
    __syncthreads();
    if (out) out[blockIdx.x] = s[(threadIdx.x + 1) % blockDim.x % 2048];
}
__global__ void dev_hammer(int *out)
{
    __shared__ int s[256];
    s[threadIdx.x % 256] = (int)threadIdx.x;
    __syncthreads();
    if (out) out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
}
__global__ void dev_dynamic(int *out)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = (int)threadIdx.x + 1;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = dyn[blockDim.x - 1];
}

static int ndev;

/* the runtime's attributes of device d, as onchip_device_attrs */
static cudaError_t fresh_attrs(int d, onchip_device_attrs *a)
{
    const struct { cudaDeviceAttr what; int *to; } q[] = {
        {cudaDevAttrMultiProcessorCount, &a->sms}, {cudaDevAttrComputeCapabilityMajor, &a->cc_major},
        {cudaDevAttrComputeCapabilityMinor, &a->cc_minor}, {cudaDevAttrMaxSharedMemoryPerBlockOptin, &a->smem_optin},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, &a->smem_per_sm},
        {cudaDevAttrReservedSharedMemoryPerBlock, &a->smem_reserved},
        {cudaDevAttrMaxRegistersPerMultiprocessor, &a->regs_per_sm},
        {cudaDevAttrMaxThreadsPerMultiProcessor, &a->threads_per_sm},
        {cudaDevAttrMaxBlocksPerMultiprocessor, &a->blocks_per_sm}, {cudaDevAttrCooperativeLaunch, &a->coop},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        const cudaError_t e = cudaDeviceGetAttribute(q[i].to, q[i].what, d);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}
static int same_attrs(const onchip_device_attrs *x, const onchip_device_attrs *y)
{
    return x->sms == y->sms && x->cc_major == y->cc_major && x->cc_minor == y->cc_minor &&
           x->smem_optin == y->smem_optin && x->smem_per_sm == y->smem_per_sm && x->smem_reserved == y->smem_reserved &&
           x->regs_per_sm == y->regs_per_sm && x->threads_per_sm == y->threads_per_sm &&
           x->blocks_per_sm == y->blocks_per_sm && x->coop == y->coop;
}
static int fresh_occ(const void *k, int threads, size_t smem)
{
    int n = -1;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, threads, smem) != cudaSuccess) return -2;
    return n;
}

/* ---- threads: first, while every cache is cold ---- */
#define HK 64 /* occupancy keys of the hammer: 8 block sizes x 8 shared-memory sizes */
#define HT 8  /* host threads */
static int hk_threads(int i) { return 32 * (1 + i % 8) * (i % 8 < 4 ? 1 : 4); } /* 32 .. 128, 640 .. 1024 */
static size_t hk_smem(int i) { return (size_t)(i / 8) * 3000; }

static void test_threads(int light)
{
    std::vector<int> ref((size_t)ndev * HK), sms(ndev), regs(ndev);
    std::vector<onchip_device_attrs> attrs(ndev);
    std::atomic<int> go(0), ready(0), setfail(0);
    int wrong[HT] = {0}, errors[HT] = {0}, asked[HT] = {0};
    const int iters = light ? 20 : 200;
    case_begin("threads: 8 host threads on cold caches, every answer the runtime's");
    for (int d = 0; d < ndev; d++) {
        cudaFuncAttributes fa;
        CUDA_OK(cudaSetDevice(d));
        CUDA_OK(fresh_attrs(d, &attrs[d]));
        CUDA_OK(cudaFuncGetAttributes(&fa, (const void *)dev_hammer));
        sms[d] = attrs[d].sms;
        regs[d] = fa.numRegs;
        for (int i = 0; i < HK; i++) ref[(size_t)d * HK + i] = fresh_occ((const void *)dev_hammer, hk_threads(i), hk_smem(i));
    }
    CUDA_OK(cudaSetDevice(0));
    {
        std::vector<std::thread> th;
        for (int t = 0; t < HT; t++)
            th.emplace_back([&, t]() {
                const int d = t % ndev;
                if (cudaSetDevice(d) != cudaSuccess) {
                    errors[t]++;
                    setfail.fetch_add(1);
                    return;
                }
                ready.fetch_add(1);
                while (!go.load()) {
                }
                for (int it = 0; it < iters; it++) {
                    for (int j = 0; j < HK; j++) {
                        const int i = (j * 7 + t * 13 + it) % HK; /* each thread its own order */
                        int n = -1, s = -1, cur = -1;
                        onchip_device_attrs a;
                        onchip_func_attrs f;
                        asked[t]++;
                        if (onchip_occupancy((const void *)dev_hammer, hk_threads(i), hk_smem(i), &n) != cudaSuccess) errors[t]++;
                        else wrong[t] += n != ref[(size_t)d * HK + i];
                        if (onchip_device_sms(d, &s) != cudaSuccess) errors[t]++;
                        else wrong[t] += s != sms[d];
                        const int o = (d + j) % ndev; /* the other devices' slots too */
                        if (onchip_device_get(o, &a) != cudaSuccess) errors[t]++;
                        else wrong[t] += !same_attrs(&a, &attrs[o]);
                        if (onchip_device_current(&cur, &a) != cudaSuccess) errors[t]++;
                        else wrong[t] += cur != d || !same_attrs(&a, &attrs[d]);
                        if (onchip_func_get((const void *)dev_hammer, &f) != cudaSuccess) errors[t]++;
                        else wrong[t] += f.regs != regs[d];
                    }
                }
            });
        while (ready.load() + setfail.load() < HT) { /* a thread that could not set its device never gets ready */
        }
        go.store(1);
        for (auto &x : th) x.join();
    }
    for (int t = 0; t < HT; t++) {
        CHECK(errors[t] == 0, "thread %d: %d calls failed", t, errors[t]);
        CHECK(wrong[t] == 0, "thread %d (device %d): %d wrong answers in %d rounds", t, t % ndev, wrong[t], asked[t]);
        CHECK(asked[t] == iters * HK || errors[t], "thread %d asked %d rounds, %d wanted", t, asked[t], iters * HK);
    }
    CHECK(onchip__kernel_slots_used() >= HK, "%d kernel entries filled after %d keys", onchip__kernel_slots_used(), HK);
    case_end();
}

/* ---- the device attributes ---- */
static void test_attributes(void)
{
    case_begin("attributes: every device's, filled then cached, equal cudaDeviceGetAttribute");
    for (int d = 0; d < ndev; d++) {
        onchip_device_attrs ref, a;
        int sms = -1, cur = -1, fresh = -1;
        CUDA_OK(fresh_attrs(d, &ref));
        CUDA_OK(cudaDeviceGetAttribute(&fresh, cudaDevAttrMultiProcessorCount, d));
        for (int round = 0; round < 2; round++) {
            memset(&a, 0x5A, sizeof a);
            CHECK(onchip_device_get(d, &a) == cudaSuccess && same_attrs(&a, &ref), "device %d round %d: attributes", d, round);
            CHECK(onchip_device_sms(d, &sms) == cudaSuccess && sms == fresh && sms > 0, "device %d round %d: sms %d, runtime %d",
                  d, round, sms, fresh);
        }
        CUDA_OK(cudaSetDevice(d));
        memset(&a, 0x5A, sizeof a);
        CHECK(onchip_device_current(&cur, &a) == cudaSuccess && cur == d && same_attrs(&a, &ref),
              "device %d: onchip_device_current gave device %d", d, cur);
        memset(&a, 0x5A, sizeof a);
        CHECK(onchip_device_current(NULL, &a) == cudaSuccess && same_attrs(&a, &ref), "device %d: current, dev NULL", d);
    }
    CUDA_OK(cudaSetDevice(0));
    case_end();
}

/* ---- invalid ordinals and outputs ---- */
static void test_invalid(void)
{
    const int bad[] = {-1, ndev, ONCHIP_MAX_DEVICES, ONCHIP_MAX_DEVICES + 7, INT_MAX};
    case_begin("invalid: bad ordinals and NULL outputs give an error, write nothing, cache nothing");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (int round = 0; round < 2; round++) { /* the second call must fail too: nothing cached */
            onchip_device_attrs a, before;
            int sms = -12345;
            memset(&a, 0x5A, sizeof a);
            before = a;
            CHECK(onchip_device_get(bad[i], &a) != cudaSuccess, "ordinal %d round %d: success", bad[i], round);
            CHECK(!memcmp(&a, &before, sizeof a), "ordinal %d round %d: the attributes were written", bad[i], round);
            CHECK(onchip_device_sms(bad[i], &sms) != cudaSuccess, "ordinal %d round %d: sms success", bad[i], round);
            CHECK(sms == -12345, "ordinal %d round %d: sms written (%d)", bad[i], round, sms);
            (void)cudaGetLastError(); /* the runtime's non-sticky error of the refused ordinal */
        }
    }
    {
        int n = -7;
        onchip_func_attrs f;
        memset(&f, 0x5A, sizeof f);
        CHECK(onchip_device_get(0, NULL) == cudaErrorInvalidValue, "attributes into NULL");
        CHECK(onchip_device_sms(0, NULL) == cudaErrorInvalidValue, "sms into NULL");
        CHECK(onchip_device_current(NULL, NULL) == cudaErrorInvalidValue, "current into NULL");
        CHECK(onchip_occupancy(NULL, 128, 0, &n) == cudaErrorInvalidValue && n == -7, "occupancy of a NULL kernel");
        CHECK(onchip_occupancy((const void *)dev_plain, 128, 0, NULL) == cudaErrorInvalidValue, "occupancy into NULL");
        CHECK(onchip_func_get(NULL, &f) == cudaErrorInvalidValue, "attributes of a NULL kernel");
        CHECK(onchip_func_get((const void *)dev_plain, NULL) == cudaErrorInvalidValue, "kernel attributes into NULL");
        CHECK(onchip_smem_allow(NULL, 1024) == cudaErrorInvalidValue, "allow of a NULL kernel");
    }
    {
        int sms = -1, fresh = -2;
        CUDA_OK(cudaDeviceGetAttribute(&fresh, cudaDevAttrMultiProcessorCount, 0));
        CHECK(onchip_device_sms(0, &sms) == cudaSuccess && sms == fresh, "device 0 after the refusals: %d, runtime %d", sms, fresh);
    }
    case_end();
}

/* ---- occupancy and kernel attributes ---- */
static void test_occupancy(void)
{
    const void *kern[2] = {(const void *)dev_plain, (const void *)dev_static};
    const int threads[] = {32, 96, 128, 256, 512, 1024};
    const size_t smem[] = {0, 1000, 4096, 16384, 40000};
    case_begin("occupancy: 2 kernels x 6 blocks x 5 shared-memory sizes, and kernel attributes, as the runtime's");
    for (int d = 0; d < ndev; d++) {
        CUDA_OK(cudaSetDevice(d));
        for (int k = 0; k < 2; k++) {
            cudaFuncAttributes fa;
            onchip_func_attrs f;
            memset(&f, 0, sizeof f);
            CUDA_OK(cudaFuncGetAttributes(&fa, kern[k]));
            for (int round = 0; round < 2; round++) {
                CHECK(onchip_func_get(kern[k], &f) == cudaSuccess && f.ptx == fa.ptxVersion && f.binary == fa.binaryVersion &&
                          f.regs == fa.numRegs && f.max_threads == fa.maxThreadsPerBlock &&
                          f.static_smem == fa.sharedSizeBytes && f.local_bytes == fa.localSizeBytes,
                      "device %d kernel %d round %d: attributes (static %zu, runtime %zu)", d, k, round, f.static_smem,
                      fa.sharedSizeBytes);
            }
            CHECK(k == 0 || fa.sharedSizeBytes >= 8192, "dev_static has %zu bytes of static shared memory", fa.sharedSizeBytes);
            for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
                for (size_t j = 0; j < sizeof smem / sizeof smem[0]; j++) {
                    const int want = fresh_occ(kern[k], threads[i], smem[j]);
                    for (int round = 0; round < 2; round++) {
                        int n = -1;
                        CHECK(onchip_occupancy(kern[k], threads[i], smem[j], &n) == cudaSuccess && n == want,
                              "device %d kernel %d, %d threads, %zu bytes, round %d: %d blocks, runtime %d", d, k,
                              threads[i], smem[j], round, n, want);
                    }
                }
        }
        {
            /* keys that differ in one field only have their own answers */
            int a = -1, b = -1;
            CHECK(onchip_occupancy(kern[0], 1024, 0, &a) == cudaSuccess && onchip_occupancy(kern[0], 32, 0, &b) == cudaSuccess &&
                      a != b,
                  "device %d: 1024 and 32 threads give %d and %d blocks", d, a, b);
        }
    }
    CUDA_OK(cudaSetDevice(0));
    case_end();
}

/* ---- the raised shared-memory limit ---- */
static void test_allow(void)
{
    onchip_device_attrs a;
    cudaFuncAttributes fa;
    int *out = NULL, got = 0;
    case_begin("smem allow: the most dynamic shared memory the kernel takes launches; one byte more is refused");
    CUDA_OK(fresh_attrs(0, &a));
    CUDA_OK(cudaFuncGetAttributes(&fa, (const void *)dev_dynamic));
    const size_t most = (size_t)a.smem_optin - fa.sharedSizeBytes;
    if (most <= 48 * 1024) {
        case_skip("the device gives no block more than 48 KiB");
        return;
    }
    CUDA_OK(cudaMalloc(&out, sizeof(int)));
    CHECK(onchip_smem_allow((const void *)dev_dynamic, most + 1) == cudaErrorInvalidValue, "%zu bytes allowed", most + 1);
    CHECK(onchip_smem_allow((const void *)dev_dynamic, 0) == cudaSuccess, "0 bytes");
    CHECK(onchip_smem_allow((const void *)dev_dynamic, 1024) == cudaSuccess, "1024 bytes");
    for (int round = 0; round < 2; round++)
        CHECK(onchip_smem_allow((const void *)dev_dynamic, most) == cudaSuccess, "%zu bytes, round %d", most, round);
    CUDA_OK(cudaFuncGetAttributes(&fa, (const void *)dev_dynamic));
    CHECK((size_t)fa.maxDynamicSharedSizeBytes >= most, "the kernel's limit is %d, %zu wanted", fa.maxDynamicSharedSizeBytes, most);
    if (out) {
        CUDA_OK(cudaMemset(out, 0, sizeof(int)));
        dev_dynamic<<<1, 256, most>>>(out);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaMemcpy(&got, out, sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(got == 256, "the launch with %zu bytes wrote %d, 256 wanted", most, got);
        CUDA_OK(cudaFree(out));
    }
    case_end();
}

/* ---- more keys than entries ---- */
static void test_full(void)
{
    enum { NT = 32, NS = 128, NK = NT * NS }; /* 4096 keys: 4 x ONCHIP_KERNEL_SLOTS */
    std::vector<int> ref(NK);
    int wrong = 0, failed = 0, first = -1;
    case_begin("full table: 4096 distinct keys asked twice, the uncached answers the runtime's too");
    CHECK(NK >= 4 * ONCHIP_KERNEL_SLOTS, "%d keys for %d entries", NK, ONCHIP_KERNEL_SLOTS);
    for (int i = 0; i < NK; i++) ref[i] = fresh_occ((const void *)dev_plain, 32 * (1 + i % NT), (size_t)(i / NT) * 256 + 8);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < NK; i++) {
            int n = -1;
            if (onchip_occupancy((const void *)dev_plain, 32 * (1 + i % NT), (size_t)(i / NT) * 256 + 8, &n) != cudaSuccess) failed++;
            else if (n != ref[i]) {
                if (first < 0) first = i;
                wrong++;
            }
        }
    CHECK(failed == 0, "%d calls failed", failed);
    CHECK(wrong == 0 && ref[0] > 0, "%d wrong answers (the first key %d: runtime %d)", wrong, first, first >= 0 ? ref[first] : 0);
    CHECK(onchip__kernel_slots_used() <= ONCHIP_KERNEL_SLOTS && onchip__kernel_slots_used() >= ONCHIP_KERNEL_SLOTS / 2,
          "%d of %d entries filled", onchip__kernel_slots_used(), ONCHIP_KERNEL_SLOTS);
    case_end();
}

int main(int argc, char **argv)
{
    const int light = gpucheck_begin(argc, argv);
    check_plan(6); /* threads, attributes, invalid, occupancy, smem allow, full table */
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 1) ndev = 0;
    if (ndev == 0) {
        (void)cudaGetLastError();
        const char *why = "no CUDA device";
        check_skip("threads", why), check_skip("attributes", why), check_skip("invalid", why);
        check_skip("occupancy", why), check_skip("smem allow", why), check_skip("full table", why);
        return check_exit();
    }
    printf("devices: %d\n", ndev);
    test_threads(light);
    test_attributes();
    test_invalid();
    test_occupancy();
    test_allow();
    test_full();
    return check_exit();
}
