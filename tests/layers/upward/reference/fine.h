// A reference/ header that includes only its own layer: the layer check must accept it.
#pragma once
#include "reference/format.h"
