// One line of the streaming oracle (probe/oracle.h): whatever the line, the answer is one JSON
// object on one line with "ok", and the oracle neither throws nor crashes.
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz/fuzz_common.h"
#include "probe/oracle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gcnprobe::fuzz;
  const std::string answer = gcn::probe::answerOracleLine(asText(data, size));
  check(answer.find('\n') == std::string::npos, "the answer is one line", answer.substr(0, 200));
  const nlohmann::json j = nlohmann::json::parse(answer, nullptr, false);
  check(!j.is_discarded() && j.is_object() && j.contains("ok") && j["ok"].is_boolean(),
        "the answer is a JSON object with ok", answer.substr(0, 200));
  return 0;
}
