#include <onchip/names_push.h>
/* onchip/device.cuh -- the kit's one cache of what its host code asks the CUDA runtime about a device
 * and a kernel.  Every function returns cudaSuccess or the CUDA error; on an error it writes no
 * output and caches nothing.  Nothing prints or exits.  docs/onchip.md#design-notes-onchipdevicecuh.
 *
 * WHAT
 *   onchip_device_get(dev, &a), onchip_device_sms(dev, &sms)   device dev's attributes, its SMs
 *   onchip_device_current(&dev, &a)  the current device (dev may be NULL) and its attributes
 *   On the current device, as the runtime's calls: onchip_func_get(kernel, &f) (a kernel's
 *   attributes), onchip_occupancy(kernel, threads, smem, &blocks) (blocks per SM, 0: none fits),
 *   onchip_smem_allow(kernel, bytes) (a launch with `bytes` of dynamic shared memory allowed)
 *
 * EXAMPLE
 *   [compile]
 *   // as many blocks of 256 threads as the current device holds at once
 *   inline int full_grid(const void *kernel, int *grid)
 *   {
 *       onchip_device_attrs a;
 *       int blocks;
 *       if (onchip_device_current(NULL, &a) != cudaSuccess) return -1;
 *       if (onchip_occupancy(kernel, 256, 0, &blocks) != cudaSuccess) return -1;
 *       *grid = a.sms * blocks;
 *       return 0;
 *   }
 *
 * LIMITS AND THREAD SAFETY
 *   Lock-free and safe from any number of host threads.  A key with no room in the tables is asked
 *   every time.  One cache a program (a shared library has its own).  A cudaDeviceReset drops the
 *   raised limits unseen: reset no device that the kit uses.  Under NVRTC this header is empty.
 */
#ifndef ONCHIP_DEVICE_CUH
#define ONCHIP_DEVICE_CUH

#ifndef __CUDACC_RTC__ /* host code */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <atomic>

#define ONCHIP_MAX_DEVICES 64
#define ONCHIP_KERNEL_SLOTS 1024 /* a power of two */
#define ONCHIP__PROBES 32

typedef struct onchip_device_attrs {
    int sms;                     /* multiprocessors */
    int cc_major, cc_minor;      /* compute capability */
    int smem_optin;              /* shared memory a block may opt in to (bytes) */
    int smem_per_sm;             /* shared memory per SM (bytes) */
    int smem_reserved;           /* the runtime's own shared memory per block (bytes) */
    int regs_per_sm;             /* 32-bit registers per SM */
    int threads_per_sm;          /* resident threads per SM */
    int blocks_per_sm;           /* resident blocks per SM */
    int coop;                    /* cooperative launches */
} onchip_device_attrs;

typedef struct onchip_func_attrs {
    int ptx, binary;             /* ptxVersion, binaryVersion (major * 10 + minor) of the image run here */
    int regs;                    /* registers per thread */
    int max_threads;             /* threads per block the kernel can be launched with */
    size_t static_smem;          /* static shared memory per block (bytes) */
    size_t local_bytes;          /* local memory per thread (bytes) */
} onchip_func_attrs;

/* the device table: state 0 empty, 1 being filled, 2 ready */
struct onchip__dslot {
    std::atomic<int> state;
    onchip_device_attrs a;
};
inline onchip__dslot *onchip__dtable()
{
    static onchip__dslot t[ONCHIP_MAX_DEVICES]; /* zero-initialized: every slot empty */
    return t;
}

inline cudaError_t onchip__device_query(int dev, onchip_device_attrs *a)
{
    const struct { cudaDeviceAttr what; int *to; } q[] = {
        {cudaDevAttrMultiProcessorCount, &a->sms},
        {cudaDevAttrComputeCapabilityMajor, &a->cc_major},
        {cudaDevAttrComputeCapabilityMinor, &a->cc_minor},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, &a->smem_optin},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, &a->smem_per_sm},
        {cudaDevAttrReservedSharedMemoryPerBlock, &a->smem_reserved},
        {cudaDevAttrMaxRegistersPerMultiprocessor, &a->regs_per_sm},
        {cudaDevAttrMaxThreadsPerMultiProcessor, &a->threads_per_sm},
        {cudaDevAttrMaxBlocksPerMultiprocessor, &a->blocks_per_sm},
        {cudaDevAttrCooperativeLaunch, &a->coop},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        const cudaError_t e = cudaDeviceGetAttribute(q[i].to, q[i].what, dev);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

inline cudaError_t onchip_device_get(int dev, onchip_device_attrs *out)
{
    onchip__dslot *s = dev >= 0 && dev < ONCHIP_MAX_DEVICES ? &onchip__dtable()[dev] : NULL;
    onchip_device_attrs a;
    int empty = 0;
    cudaError_t e;
    if (!out) return cudaErrorInvalidValue;
    if (s && s->state.load(std::memory_order_acquire) == 2) {
        *out = s->a;
        return cudaSuccess;
    }
    if ((e = onchip__device_query(dev, &a)) != cudaSuccess) return e;
    if (s && s->state.compare_exchange_strong(empty, 1, std::memory_order_acq_rel, std::memory_order_relaxed)) {
        s->a = a;
        s->state.store(2, std::memory_order_release);
    }
    *out = a;
    return cudaSuccess;
}

inline cudaError_t onchip_device_sms(int dev, int *sms)
{
    onchip_device_attrs a;
    cudaError_t e;
    if (!sms) return cudaErrorInvalidValue;
    if ((e = onchip_device_get(dev, &a)) != cudaSuccess) return e;
    *sms = a.sms;
    return cudaSuccess;
}

inline cudaError_t onchip_device_current(int *dev, onchip_device_attrs *out)
{
    int d = 0;
    cudaError_t e;
    if (!out) return cudaErrorInvalidValue;
    if ((e = cudaGetDevice(&d)) != cudaSuccess) return e;
    if ((e = onchip_device_get(d, out)) != cudaSuccess) return e;
    if (dev) *dev = d;
    return cudaSuccess;
}

/* the kernel table: key (device, kernel, kind, threads, bytes) */
enum { ONCHIP__K_FUNC = 1, ONCHIP__K_OCC = 2, ONCHIP__K_ALLOW = 3 };
#define ONCHIP__NV 6
struct onchip__kslot {
    std::atomic<int> state;      /* 0 empty, 1 being filled, 2 ready (the fields below then fixed) */
    int dev, kind, threads;
    const void *fn;
    size_t bytes;
    long long v[ONCHIP__NV];
};
inline onchip__kslot *onchip__ktable()
{
    static onchip__kslot t[ONCHIP_KERNEL_SLOTS]; /* zero-initialized: every slot empty */
    return t;
}
/* the entries filled (for tests) */
inline int onchip__kernel_slots_used()
{
    int n = 0;
    for (int i = 0; i < ONCHIP_KERNEL_SLOTS; i++) n += onchip__ktable()[i].state.load(std::memory_order_acquire) == 2;
    return n;
}
inline unsigned long long onchip__mix(unsigned long long h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

/* the runtime's answer to one question; v: ONCHIP__NV values */
inline cudaError_t onchip__kernel_query(int dev, int kind, const void *fn, int threads, size_t bytes,
                                        long long *v)
{
    cudaError_t e;
    if (kind == ONCHIP__K_FUNC) {
        cudaFuncAttributes fa;
        if ((e = cudaFuncGetAttributes(&fa, fn)) != cudaSuccess) return e;
        v[0] = fa.ptxVersion, v[1] = fa.binaryVersion, v[2] = fa.numRegs, v[3] = fa.maxThreadsPerBlock;
        v[4] = (long long)fa.sharedSizeBytes, v[5] = (long long)fa.localSizeBytes;
        return cudaSuccess;
    }
    if (kind == ONCHIP__K_OCC) {
        int n = 0;
        if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, threads, bytes)) != cudaSuccess) return e;
        v[0] = n;
        return cudaSuccess;
    }
    /* ONCHIP__K_ALLOW: bytes is the limit, computed by the caller for this device and kernel */
    (void)dev;
    if ((e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes)) != cudaSuccess) return e;
    v[0] = (long long)bytes;
    return cudaSuccess;
}

/* a cached answer, else the runtime's (cached where an empty entry is found first) */
inline cudaError_t onchip__kernel_ask(int dev, int kind, const void *fn, int threads, size_t bytes, long long *v)
{
    onchip__kslot *t = onchip__ktable(), *claim = NULL;
    unsigned long long h = onchip__mix((unsigned long long)(uintptr_t)fn ^ onchip__mix(
        ((unsigned long long)(unsigned)dev << 40) ^ ((unsigned long long)(unsigned)kind << 32) ^ (unsigned)threads));
    h = onchip__mix(h ^ (unsigned long long)bytes);
    for (int i = 0; i < ONCHIP__PROBES; i++) {
        onchip__kslot *s = &t[(h + (unsigned long long)i) & (ONCHIP_KERNEL_SLOTS - 1)];
        int st = s->state.load(std::memory_order_acquire);
        if (st == 2) {
            if (s->fn == fn && s->dev == dev && s->kind == kind && s->threads == threads && s->bytes == bytes) {
                for (int k = 0; k < ONCHIP__NV; k++) v[k] = s->v[k];
                return cudaSuccess;
            }
            continue; /* another key: entries never empty again, so the chain goes on past it */
        }
        /* empty: claim it; being filled: ask without caching, and never look past an entry that
           may empty again */
        if (st == 0 && s->state.compare_exchange_strong(st, 1, std::memory_order_acq_rel, std::memory_order_relaxed))
            claim = s;
        break;
    }
    long long w[ONCHIP__NV] = {0, 0, 0, 0, 0, 0};
    const cudaError_t e = onchip__kernel_query(dev, kind, fn, threads, bytes, w);
    if (claim) {
        if (e != cudaSuccess) {
            claim->state.store(0, std::memory_order_release); /* nothing was looked up past it */
        } else {
            claim->dev = dev, claim->kind = kind, claim->threads = threads, claim->fn = fn, claim->bytes = bytes;
            for (int k = 0; k < ONCHIP__NV; k++) claim->v[k] = w[k];
            claim->state.store(2, std::memory_order_release);
        }
    }
    if (e != cudaSuccess) return e;
    for (int k = 0; k < ONCHIP__NV; k++) v[k] = w[k];
    return cudaSuccess;
}

inline cudaError_t onchip_func_get(const void *kernel, onchip_func_attrs *out)
{
    long long v[ONCHIP__NV];
    int dev = 0;
    cudaError_t e;
    if (!kernel || !out) return cudaErrorInvalidValue;
    if ((e = cudaGetDevice(&dev)) != cudaSuccess) return e;
    if ((e = onchip__kernel_ask(dev, ONCHIP__K_FUNC, kernel, 0, 0, v)) != cudaSuccess) return e;
    out->ptx = (int)v[0], out->binary = (int)v[1], out->regs = (int)v[2], out->max_threads = (int)v[3];
    out->static_smem = (size_t)v[4], out->local_bytes = (size_t)v[5];
    return cudaSuccess;
}

inline cudaError_t onchip_occupancy(const void *kernel, int threads, size_t smem, int *blocks)
{
    long long v[ONCHIP__NV];
    int dev = 0;
    cudaError_t e;
    if (!kernel || !blocks) return cudaErrorInvalidValue;
    if ((e = cudaGetDevice(&dev)) != cudaSuccess) return e;
    if ((e = onchip__kernel_ask(dev, ONCHIP__K_OCC, kernel, threads, smem, v)) != cudaSuccess) return e;
    *blocks = (int)v[0];
    return cudaSuccess;
}

inline cudaError_t onchip_smem_allow(const void *kernel, size_t bytes)
{
    onchip_device_attrs a;
    onchip_func_attrs f;
    long long v[ONCHIP__NV];
    int dev = 0;
    cudaError_t e;
    if (!kernel) return cudaErrorInvalidValue;
    if (bytes == 0) return cudaSuccess;
    if ((e = onchip_device_current(&dev, &a)) != cudaSuccess) return e;
    if ((e = onchip_func_get(kernel, &f)) != cudaSuccess) return e;
    if (a.smem_optin < 0 || f.static_smem > (size_t)a.smem_optin || bytes > (size_t)a.smem_optin - f.static_smem)
        return cudaErrorInvalidValue;
    if (bytes + f.static_smem <= 48 * 1024) return cudaSuccess; /* the default limit */
    return onchip__kernel_ask(dev, ONCHIP__K_ALLOW, kernel, 0, (size_t)a.smem_optin - f.static_smem, v);
}
#endif /* !__CUDACC_RTC__ */

#endif /* ONCHIP_DEVICE_CUH */
#include <onchip/names_pop.h>
