// A results header that reaches Vulkan through system headers (<> or ""): the layer check must
// name both.
#pragma once

#include <string>

#include <volk.h>
#include "vulkan/vulkan_core.h"
