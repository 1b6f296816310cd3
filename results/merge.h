// `gcnprobe merge`: the reports of the shards of one run (`run --shard i/N --json`) back into
// the report one unsharded run would have written: the same schema, every record as the shard
// wrote it, in list order, the summary recomputed. Usage and checks: docs/run.md.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/record.h"
#include "results/results_file.h"

namespace gcnprobe::results {

struct MergedReport {
  // The first shard's header with "shard": "" and "merged_from": one {"file", "shard",
  // "cases", "summary"} per input, in shard order; "start_time" the earliest input's.
  nlohmann::json header = nlohmann::json::object();
  std::vector<nlohmann::json> records;  // in list order
  // "validation": counts summed, lists joined; any other member as the inputs (all equal).
  nlohmann::json extra = nlohmann::json::object();
  Summary summary;
  // summary.line() (with ", N validation messages" when the inputs ran under validation, and
  // "; incomplete inputs: ..." naming the inputs that did not finish).
  std::string summaryLine;
};

// Checks that `inputs` are the shards of one run and merges them. Throws gcn::Error naming the
// files concerned when: no input; headers disagree on a kRunIdentityMembers member; a "shard"
// is not i/N ("" counts as 0/1); the inputs disagree on N, a shard is given twice or one is
// missing; a case is in two inputs (or twice in one); the shard sizes do not fit one case
// list; an input did not finish (no summary, or one that says the run stopped early) unless
// `allowIncomplete`; the inputs' trailing members ("validation", "texel_gaps") disagree.
// Records are ordered by `listOrder` (caseListOrder); a report lists its cases as they
// finish, not in list order. Cases `listOrder` does not name follow, shard by shard.
MergedReport mergeResults(const std::vector<ResultsFile>& inputs, bool allowIncomplete,
                          const std::vector<std::string>& listOrder);

// Writes `m` as `gcnprobe run --json` writes a report (one header member, then one record,
// per line). `path` "-" is standard output. Throws gcn::Error when the file cannot be
// opened, gcn::InfraError when it cannot be written.
void writeMerged(const MergedReport& m, const std::string& path);

}  // namespace gcnprobe::results
