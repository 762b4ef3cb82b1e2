/* expect: SSAM_DESIGN1D_DEFINE(fbs_int): T must be float or double */
#include <ssam/designs.cuh>
SSAM_DESIGN1D_DEFINE(fbs_int, int, FBS, 5, 1, 128)
