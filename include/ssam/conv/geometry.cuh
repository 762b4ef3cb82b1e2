#include <onchip/names_push.h>
/* ssam/conv/geometry.cuh -- the convolution's arguments (ssam_conv2d_args), the geometry its kernels
 * take (ssam_conv2d_geom), a lane's columns and a warp's outputs. */
#ifndef SSAM_CONV_GEOMETRY_CUH
#define SSAM_CONV_GEOMETRY_CUH

typedef struct ssam_conv2d_args {
    const void *src;                /* T *, device: height rows of src_pitch elements */
    void *dst;                      /* T *, device: output rows of dst_pitch elements */
    int width, height;              /* input size; the output's too unless SSAM_VALID */
    long long src_pitch, dst_pitch; /* elements between rows; 0 = the row's width */
    const void *weights;            /* T *, HOST memory: fh rows of fw weights, row-major */
    int fw, fh;                     /* the filter's width and height: must equal M and N */
    int border;                     /* SSAM_BORDER_* (ignored with SSAM_VALID) */
    double cval;                    /* the value outside the image for SSAM_BORDER_CONSTANT */
    unsigned flags;                 /* SSAM_CONVOLVE, SSAM_VALID, SSAM_ANCHOR */
    int anchor_x, anchor_y;         /* with SSAM_ANCHOR: the tap over the output pixel, 0..M-1, 0..N-1;
                                       without it they must be 0 (and the anchor is the centre) */
} ssam_conv2d_args;

/* what the kernel needs besides pointers and weights */
typedef struct ssam_conv2d_geom {
    int w, h, ow, oh;   /* input and output sizes */
    long long sp, dp;   /* pitches in elements */
    int ax, ay;         /* input column/row of tap (0, 0) is (x - ax, y - ay) */
    int border, vec;    /* border mode; 16-byte loads allowed */
    int ovec;           /* 16-byte stores allowed: dst 16-byte aligned, dst pitch a multiple of V */
    int seg;            /* output rows per block row (a multiple of P) */
    double cval;
} ssam_conv2d_geom;

/* columns per lane: one 16-byte vector */
#define SSAM_CONV_V(T) ((int)(16 / sizeof(T)))
/* outputs per warp and row: 32V - M + 1 less the worst misalignment, in whole vectors */
#define SSAM_CONV_STEP(T, M) (((32 * SSAM_CONV_V(T) - (M) + 1 - (SSAM_CONV_V(T) - 1)) / SSAM_CONV_V(T)) * SSAM_CONV_V(T))

#endif /* SSAM_CONV_GEOMETRY_CUH */
#include <onchip/names_pop.h>
