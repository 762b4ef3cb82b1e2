/* expect: SSAM_SAT_DEFINE(sat_f): B must be a multiple of 32 from 32 to 1024 */
#include <ssam/scan.cuh>
SSAM_SAT_DEFINE(sat_f, float, 100)
