// A reference header declaring the probe layer's namespace (nested in reference's `gcn`, but
// another layer's): caught.
#pragma once

namespace gcn::probe {
struct Borrowed {};
}  // namespace gcn::probe
