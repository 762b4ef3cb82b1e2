#include <onchip/names_push.h>
/* ssam/codes.h -- the ssam status codes (C99; ssam/base.cuh and the C99 headers include it): 0
 * success, else what failed; ssam_strerror (ssam/base.cuh) names each, docs/ssam.md#conventions says
 * when each comes. */
#ifndef SSAM_CODES_H
#define SSAM_CODES_H

#define SSAM_SUCCESS 0
#define SSAM_ENULL 1
#define SSAM_ESIZE 2
#define SSAM_EPITCH 3
#define SSAM_EBORDER 4
#define SSAM_EFILTER 5
#define SSAM_EFLAGS 6
#define SSAM_ECUDA 7
#define SSAM_EOVERLAP 8
#define SSAM_EANCHOR 9
#define SSAM_EUPDATE 10

#endif /* SSAM_CODES_H */
#include <onchip/names_pop.h>
