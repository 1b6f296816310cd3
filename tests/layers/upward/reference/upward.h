// A reference/ header that reaches up into the run layer: the layer check must reject it.
#pragma once
#include "harness/judge/case.h"
