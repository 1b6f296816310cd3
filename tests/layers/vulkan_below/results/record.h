// A results header that reaches Vulkan through a system header: the layer check must name it.
#pragma once

#include <string>

#include <volk.h>
