/* expect: PERKS_MG3D_DEFINE(mgi): T must be float or double */
#include <perks/mg.cuh>
PERKS_MG3D_DEFINE(mgi, int)
