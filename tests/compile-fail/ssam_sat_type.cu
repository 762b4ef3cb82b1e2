/* expect: SSAM_SAT_DEFINE(sat_c): T must be int, unsigned, long long, unsigned long long, float or double */
#include <ssam/scan.cuh>
SSAM_SAT_DEFINE(sat_c, char, 256)
