#include "core/pvars.h"

struct tern_pvars tern_pv;
