// A saved listing: one pipeline's Assembly text with the few header lines that say what to
// prove about it, so that anyone can run the ISA check and the data-path proof (check.h,
// data_path.h) on a listing edited by hand or produced by another compiler:
// `gcnprobe isa --prove FILE` (docs/isa.md "Proving a saved listing").
//
//   # a comment
//   chip = tonga                  (or gen = gfx8: that generation's representative chip)
//   route = texel                 texel | storage | atomic | raw | vertex | binary | program
//   soffset = 0x100               (optional) the value of an SGPR or M0 SOFFSET
//   case = buffer_load_format_xyzw v[0:3], v0, s[4:7], 0 idxen
//   --- stage compute (the driver calls it 'Compute Shader') ---
//   BB0:
//   <instruction text> ; <hex words>
//   ...
//
// `case` is the case instruction's text as the listing writes it, or a prefix of it (runs of
// blanks count as one). The listing is in the shape `isa --dump-asm` prints (aco_asm.h); a line
// `--- stage <names> ... ---` starts the listing of another executable (a vertex pipeline has
// two), and without one the listing is the route's shader stage. `isa --dump-asm` writes these
// header lines before each case's listings, so one case's dump is a valid file as it stands.
// It numbers each listing line ("   12| <instruction text> ; <hex words>") as its reasons cite
// it; a numbered line keeps that number here (numbers increase within an executable).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/vulkan/pipeline.h"
#include "reference/gen.h"

namespace gcnprobe::isa {

struct SavedListing {
  std::string source;  // the file's name, for errors
  const gcn::Chip* chip = nullptr;
  std::string route;
  std::string caseText;  // whitespace runs collapsed to one blank
  int caseLine = 0;
  // `soffset = VALUE`: the value an SGPR or M0 SOFFSET holds in the case (the own program sets
  // it); the check requires the listing's SOFFSET register to hold it.
  std::optional<uint32_t> soffset;
  std::vector<vk::ExecutableIsa> executables;  // assembly keeps the file's line numbers
};

// Throws gcn::Error with the file's name and line for a malformed file: an unknown or repeated
// key, a missing one, an unknown chip, generation or route, chip and gen that disagree, a
// listing line of no known shape, or no listing at all.
SavedListing parseSavedListing(std::string_view text, std::string_view source);

struct SavedProof {
  bool proven = false;
  std::string instruction;         // the selected instruction: "<text> (line N)"
  std::vector<std::string> links;  // proven: what was proven, one link a line (CheckResult)
  std::string reason;              // not proven: why
};

// Selects the case instruction by `case` among the listing's buffer instructions and runs the
// ISA check the route's cases get (checkIsa with the route's PipelineIsa): the instruction on
// the case's buffer, its descriptor traced, its data path proven. Not proven when no buffer
// instruction starts with `case`. Throws gcn::Error (malformed) when the listings do not parse
// or `case` selects instructions that differ in the fields the check compares.
SavedProof proveSavedListing(const SavedListing& s);

// The header lines for one case ("chip = ...", "gen = ...", "route = ...", "case = ...").
std::string savedListingHeader(const gcn::Chip& chip, std::string_view route,
                               std::string_view caseText,
                               std::optional<uint32_t> soffset = std::nullopt);

}  // namespace gcnprobe::isa
