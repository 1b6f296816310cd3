// A namespace nested in the layer's own, and a helper namespace: allowed.
#pragma once

namespace gcnprobe::judge::detail {
struct Fine {};
}  // namespace gcnprobe::judge::detail

namespace gcnprobe::judge {
namespace {
struct AlsoFine {};
}  // namespace
}  // namespace gcnprobe::judge
