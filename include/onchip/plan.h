#include <onchip/names_push.h>
/* onchip/plan.h -- the head every family's plan begins with: what a call will do, decided and
 * explained before anything is launched (C99; also C++, CUDA and NVRTC).
 *
 * WHAT
 *   Every family has three verbs over its argument struct ARGS and plan struct PLAN:
 *       int name_plan(const ARGS *a, PLAN *p)                      checks a, chooses, explains; no launch
 *       int name_run(const ARGS *a, const PLAN *p, cudaStream_t)    launches what p says, for a
 *       int name_launch(const ARGS *a, cudaStream_t)               name_plan, then name_run
 *   Every PLAN begins with these fields, in this order (onchip_plan is that head alone):
 *       path             the family's path code (SSAM_PATH_*, PERKS_PATH_*, KSUM_PATH_* ...)
 *       why              a sentence in static storage: why that path, or why the call is refused
 *       steps_per_pass   time steps one launch runs (1: one pass a step; 0: a family without steps)
 *       passes           launches name_run makes (0: nothing to do)
 *       workspace_bytes  device scratch name_run needs besides the arguments' buffers
 *       result           the device buffer that holds the answer after name_run (ping-pong families:
 *                        a.src or a.dst, by the parity of the passes; the others: their output)
 *   onchip_plan_head(p)  the head of any family's plan *p, as an onchip_plan value: for code that logs
 *                        or checks plans alike (it reads the fields by name: no cast, no aliasing)
 *   ONCHIP_PLAN_HEAD     the six fields, for a plan struct to begin with (onchip_plan is that alone)
 *
 * EXAMPLE
 *   [compile in a function]
 *   onchip_plan p = {0};
 *   p.why = "one pass a step: the temporal kernel stores no column at this width";
 *   p.steps_per_pass = 1;
 *   p.passes = 100;
 *   const onchip_plan h = onchip_plan_head(&p);    // any family's plan, read alike
 *   if ((long long)h.steps_per_pass * h.passes != 100) return;
 *
 * LIMITS
 *   A plan is valid for the arguments it was made from (the same sizes, pointers, steps and device);
 *   name_run re-checks nothing that name_plan checked.  On an error code p->why names the refusal and
 *   p->passes is 0.
 */
#ifndef ONCHIP_PLAN_H
#define ONCHIP_PLAN_H

#ifndef __CUDACC_RTC__
#include <stddef.h>
#endif

/* the head's fields, for a family's plan struct to begin with: struct x_plan { ONCHIP_PLAN_HEAD ... } */
#define ONCHIP_PLAN_HEAD                                                                                \
    int path;                                                                                           \
    const char *why;                                                                                    \
    int steps_per_pass;                                                                                 \
    long long passes;                                                                                   \
    size_t workspace_bytes;                                                                             \
    void *result;

typedef struct onchip_plan {
    ONCHIP_PLAN_HEAD
} onchip_plan;

/* why, in a plan of 0 steps */
#define ONCHIP_WHY_NO_STEPS "0 steps: nothing to launch, the state stays in src"

/* sets the head of any family's plan *p, by field names */
#define onchip__plan_set(p, PATH, WHY, SPP, PASSES, WS, RESULT)                                          \
    ((p)->path = (PATH), (p)->why = (WHY), (p)->steps_per_pass = (SPP), (p)->passes = (PASSES),          \
     (p)->workspace_bytes = (WS), (p)->result = (RESULT))

/* the head of a family's plan *p, as a value */
#ifndef __CUDACC_RTC__
#define onchip_plan_head(p)                                                                             \
    onchip__plan_head((p)->path, (p)->why, (p)->steps_per_pass, (p)->passes, (p)->workspace_bytes, (p)->result)
static inline onchip_plan onchip__plan_head(int path, const char *why, int steps_per_pass, long long passes,
                                            size_t workspace_bytes, void *result)
{
    onchip_plan h;
    onchip__plan_set(&h, path, why, steps_per_pass, passes, workspace_bytes, result);
    return h;
}
/* a refused plan (ssam_plan and the like): the code rc, why the refusal, nothing to launch (path 0,
 * result NULL) */
static inline int onchip__plan_refuse(onchip_plan *p, int rc, const char *why)
{
    onchip__plan_set(p, 0, why, 0, 0, 0, NULL);
    return rc;
}
/* a generator's name_launch: name_plan, then name_run (ARGS its arguments, PLAN its plan; CUDA) */
#define ONCHIP__LAUNCH_VERB(name, ARGS, PLAN)                                                           \
    static inline __attribute__((unused)) int name##_launch(const ARGS *a, cudaStream_t stream)         \
    {                                                                                                   \
        PLAN p;                                                                                         \
        const int rc = name##_plan(a, &p);                                                              \
        return rc ? rc : name##_run(a, &p, stream);                                                     \
    }
#endif

#endif /* ONCHIP_PLAN_H */
#include <onchip/names_pop.h>
