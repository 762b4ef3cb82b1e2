#include <onchip/names_push.h>
/* perks/decomp.h -- a 1D slab split of a 2D or 3D stencil domain over ranks, and each rank's halo
 * exchange, as plain index math (C99; host-tested).  The transport (NCCL, or device copies between
 * virtual subdomains) is the caller's.  Layout and reasons: docs/perks.md#design-notes-perksdecomph.
 *
 * WHAT (PERKS paper section 3.2; the CPU-Free model's slab layout)
 *   The last axis ("planes", `plane` elements apart) is split into P slabs as even as can be (the
 *   first n % P ranks own one plane more).  A rank's buffer: H ghost planes (the rank before's
 *   last H), its own planes, H ghosts (the rank after's first H); H = the stencil's reach times the
 *   steps between exchanges.  Dirichlet: the end ranks have no outer peer; periodic: ranks wrap.
 *   perks_slab_parts_make: the own planes' parts for overlapping the exchange with the update.
 *
 * EXAMPLE
 *   [not compiled: send and recv stand for the NCCL calls]
 *   perks_slab s;
 *   int rc = perks_slab_make(&s, ny, nprocs, rank, 1, PERKS_SLAB_DIRICHLET);   // radius 1, T = 1
 *   // s.first, s.own, s.buf_planes; s.win: the planes a pass runs over; the exchange:
 *   for (int k = 0; k < 2; k++)           // in one ncclGroupStart/End
 *       if (s.peer[k] >= 0) send(buf + s.send_at[k] * plane, s.halo * plane, s.peer[k]);
 *   for (int k = 1; k >= 0; k--)          // receives in the opposite order (docs/perks.md#slab-order)
 *       if (s.peer[k] >= 0) recv(buf + s.recv_at[k] * plane, s.halo * plane, s.peer[k]);
 *   uint64_t f = perks_slab_fingerprint(ny, nprocs, 1, PERKS_SLAB_DIRICHLET, nx);  // all ranks
 *   // equal on every rank, else they disagree on the domain
 *
 * ERRORS (perks/base.h): PERKS_ENULL; PERKS_ESIZE n, P < 1, rank outside 0..P-1, halo < 0, an
 *   unknown boundary, n + 2 halo past INT_MAX, reach outside 0..halo; PERKS_ETHIN a slab thinner
 *   than the halo (fewer ranks or fewer steps between exchanges).  On an error nothing is written.
 */
#ifndef PERKS_DECOMP_H
#define PERKS_DECOMP_H

#ifndef __CUDACC_RTC__
#include <stdint.h>
#endif

#include "base.h"

#define PERKS_SLAB_DIRICHLET 0
#define PERKS_SLAB_PERIODIC 1

typedef struct perks_slab {
    int n, nranks, rank, halo, boundary; /* the arguments */
    int first, own;                      /* global planes first .. first + own - 1 are this rank's */
    int buf_planes;                      /* own + 2 halo: the buffer, ghosts included */
    int peer[2];                         /* [0] the rank before, [1] the rank after; -1: none */
    int send_at[2], recv_at[2];          /* buffer planes sent to / received from peer[k] */
    int win[2];                          /* [win[0], win[1]): a pass's planes, ghosts where there is a peer */
} perks_slab;

#ifndef __CUDACC_RTC__ /* host code (NVRTC: the structs and codes only) */
/* the planes rank r of P owns of n, and the first of them (n >= 0, 0 <= r < P; 0 for P < 1) */
static inline int perks_slab_own(int n, int P, int r) { return P < 1 ? 0 : n / P + (r < n % P); }
static inline int perks_slab_first(int n, int P, int r) { return P < 1 ? 0 : r * (n / P) + (r < n % P ? r : n % P); }

/* the slab of rank `rank` of `nranks` over n planes, halo planes deep */
static inline int perks_slab_make(perks_slab *s, int n, int nranks, int rank, int halo, int boundary)
{
    int k;
    if (!s) return PERKS_ENULL;
    if (n < 1 || nranks < 1 || rank < 0 || rank >= nranks || halo < 0 ||
        (boundary != PERKS_SLAB_DIRICHLET && boundary != PERKS_SLAB_PERIODIC))
        return PERKS_ESIZE;
    if ((long long)n + 2LL * halo > 2147483647LL) return PERKS_ESIZE; /* buffer planes past an int */
    if (perks_slab_own(n, nranks, nranks - 1) < halo) return PERKS_ETHIN; /* the last slab is the thinnest */
    s->n = n, s->nranks = nranks, s->rank = rank, s->halo = halo, s->boundary = boundary;
    s->first = perks_slab_first(n, nranks, rank);
    s->own = perks_slab_own(n, nranks, rank);
    s->buf_planes = s->own + 2 * halo;
    s->peer[0] = rank > 0 ? rank - 1 : boundary == PERKS_SLAB_PERIODIC ? nranks - 1 : -1;
    s->peer[1] = rank < nranks - 1 ? rank + 1 : boundary == PERKS_SLAB_PERIODIC ? 0 : -1;
    if (halo == 0) s->peer[0] = s->peer[1] = -1; /* nothing to exchange */
    s->send_at[0] = halo;                  /* my first halo own planes go to the rank before */
    s->send_at[1] = halo + s->own - halo;  /* my last halo own planes go to the rank after */
    s->recv_at[0] = 0;                     /* the rank before's last planes: the ghosts before my own */
    s->recv_at[1] = halo + s->own;         /* the rank after's first planes: the ghosts after them */
    for (k = 0; k < 2; k++)
        if (s->peer[k] < 0) s->send_at[k] = s->recv_at[k] = -1;
    s->win[0] = s->peer[0] >= 0 ? 0 : halo;
    s->win[1] = s->peer[1] >= 0 ? s->buf_planes : halo + s->own;
    return PERKS_SUCCESS;
}

/* the global plane in buffer plane b (ghosts included; -1: a Dirichlet ghost past the ends) */
static inline int perks_slab_global(const perks_slab *s, int b)
{
    long long g = (long long)s->first - s->halo + b;
    if (g >= 0 && g < s->n) return (int)g;
    if (s->boundary != PERKS_SLAB_PERIODIC) return -1;
    g %= s->n;
    return (int)(g < 0 ? g + s->n : g);
}

/* the own planes' parts for overlap: buffer planes [lo, hi); windows: docs/perks.md#slab-parts */
typedef struct perks_slab_parts {
    int reach;          /* planes a pass reads beyond those it computes (r T) */
    int inner[2];       /* own planes that read no ghost: computable before the exchange lands */
    int edge[2][2];     /* the own planes that read peer[k]'s ghosts; empty without that peer */
    int inner_win[2];   /* the planes a pass runs over to compute inner */
    int edge_win[2][2]; /* the same for edge[k] (ghosts included) */
    int scratch_planes; /* the largest edge window */
} perks_slab_parts;

/* a pass's window for own planes [lo, hi): reach planes past them, not past the domain */
static inline void perks__slab_window(const perks_slab *s, int reach, int lo, int hi, int *w)
{
    const int wlo = s->peer[0] >= 0 ? s->halo - reach : s->win[0];
    const int whi = s->peer[1] >= 0 ? s->halo + s->own + reach : s->win[1];
    if (lo >= hi) {
        w[0] = w[1] = lo;
        return;
    }
    w[0] = lo - reach > wlo ? lo - reach : wlo;
    w[1] = hi + reach < whi ? hi + reach : whi;
}

/* the parts of slab s for passes that read `reach` planes along the split axis (r T) */
static inline int perks_slab_parts_make(const perks_slab *s, int reach, perks_slab_parts *p)
{
    int e0, e1, k;
    if (!s || !p) return PERKS_ENULL;
    if (reach < 0 || reach > s->halo) return PERKS_ESIZE;
    e0 = s->peer[0] >= 0 ? reach : 0; /* own planes that read the ghosts before */
    e1 = s->peer[1] >= 0 ? reach : 0; /* and after */
    p->reach = reach;
    if (e0 + e1 > s->own) { /* thin: every own plane is boundary, in one part */
        e0 = s->peer[0] >= 0 ? s->own : 0;
        e1 = s->own - e0;
    }
    p->edge[0][0] = s->halo;
    p->edge[0][1] = p->inner[0] = s->halo + e0;
    p->inner[1] = p->edge[1][0] = s->halo + s->own - e1;
    p->edge[1][1] = s->halo + s->own;
    perks__slab_window(s, reach, p->inner[0], p->inner[1], p->inner_win);
    p->scratch_planes = 0;
    for (k = 0; k < 2; k++) {
        perks__slab_window(s, reach, p->edge[k][0], p->edge[k][1], p->edge_win[k]);
        if (p->edge_win[k][1] - p->edge_win[k][0] > p->scratch_planes)
            p->scratch_planes = p->edge_win[k][1] - p->edge_win[k][0];
    }
    return PERKS_SUCCESS;
}

/* a hash of what every rank must agree on (compare before the first exchange) */
static inline uint64_t perks_slab_fingerprint(int n, int nranks, int halo, int boundary, long long plane)
{
    const long long v[5] = {n, nranks, halo, boundary, plane};
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a over the five values' bytes */
    int i, j;
    for (i = 0; i < 5; i++)
        for (j = 0; j < 8; j++) h = (h ^ (uint64_t)(((unsigned long long)v[i] >> (8 * j)) & 0xffu)) * 0x100000001b3ull;
    return h;
}

#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_DECOMP_H */
#include <onchip/names_pop.h>
