// A judge header still in the namespace the judge layer used to share with run: caught.
#pragma once

namespace gcnprobe::run {
struct Old {};
}  // namespace gcnprobe::run
