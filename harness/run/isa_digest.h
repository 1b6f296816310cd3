// The ISA digest of a case: a fingerprint of the machine code the driver emitted for the
// case's pipeline, so that two runs (another driver version, another machine) can tell
// "the driver now emits different instructions" apart from "the same instructions now give a
// different result". It covers the encoded instruction words of every executable's Assembly
// text (aco_asm.h) and the stages each executable runs, nothing else: not the driver's
// instruction text, its padding, block labels, repeat markers, constant data, the ACO IR,
// executable names and descriptions (their spelling is the driver version's) or the route's
// buffer bookkeeping.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "harness/routes/route.h"

namespace gcnprobe::run {

// FNV-1a, 64 bits, over `bytes`, starting from `state` (chainable).
inline constexpr uint64_t kFnv64Offset = 0xcbf29ce484222325ull;
uint64_t fnv1a64(std::string_view bytes, uint64_t state = kFnv64Offset);

// 16 lower-case hex digits (FNV-1a 64) of the pipeline's instructions; std::nullopt when no
// instruction is visible (no executables: a device without VK_KHR_pipeline_executable_
// properties such as lavapipe; or executables whose Assembly text is empty). A listing that
// is not ACO's "<text> ; <words>" shape is digested as its text with blanks collapsed, under a
// different prefix, so it never collides with a digest of words.
std::optional<std::string> isaDigest(const routes::PipelineIsa& isa);

}  // namespace gcnprobe::run
