// `gcnprobe report` over the JSON of `gcnprobe isa --json`: the same page as for device runs
// (results/html_report.h), one column group per chip of each document, so several documents
// (two Mesa builds, a developer's own ACO change) make an atlas of drivers x chips. A case's
// colour is its ISA outcome; a route-miss whose twin in gcnprobe's own program is verified shows
// as `twin-verified`. Differences are marked against the same chip's first column, so two
// drivers' columns of one chip are compared, never two chips of several documents; a single
// document's chips are compared with its first chip. Usage: docs/report.md.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcnprobe::results {

struct IsaDocument {
  std::string source;  // the path, for labels and messages
  nlohmann::json doc;  // {"chips": [...]}
};

// Whether a parsed JSON document claims to be `isa --json`'s (it has "chips", which a run report
// never has); checkIsaDocument (results/isa_compare.h) then says whether it is well-formed.
bool isIsaDocument(const nlohmann::json& doc);

// The page's data (results/html_report.h reportPageData). `labels`: one per document (empty:
// the chip entry's driver); each column is "<label> / <chip>". Throws gcn::Error naming the
// document, chip and case when a document is not well-formed (checkIsaDocument).
nlohmann::json isaReportData(const std::vector<IsaDocument>& docs,
                             const std::vector<std::string>& labels, const std::string& generator,
                             std::span<const std::string> listOrder = {});

}  // namespace gcnprobe::results
