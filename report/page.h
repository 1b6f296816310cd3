// The page of `gcnprobe report`: report.html with the placeholders /*@GCNPROBE_CSS@*/,
// /*@GCNPROBE_JS@*/ and @GCNPROBE_DATA@ (each once), report.css and report.js, embedded at build
// time (report/CMakeLists.txt). results/html_report.h puts them and the data together.
#pragma once

#include <string_view>

namespace gcnprobe::report {

std::string_view pageHtml();
std::string_view pageCss();
std::string_view pageJs();

}  // namespace gcnprobe::report
