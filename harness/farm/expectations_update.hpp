// `oprig expectations update RUN -o FILE`: the expectations file a run
// implies, written over FILE's previous text so that what people wrote there
// stays: comments, blank lines, reasons, and globs that still hold.
//  - A line is kept as it is when every case of RUN it decides still ends as
//    it says (a FLAKY line also when its case passed this time: flakes mostly
//    pass), when it decides no case of RUN (it is about other ops, backends or
//    devices), and always for SKIP.
//  - Any other line is replaced, where it stood, by one exact line per case it
//    decides that still needs one, with its reason: a glob of four failing
//    cases of which one now passes becomes three lines.
//  - Cases that need a line and have none (new failures, new flakes) are added
//    at the end. A case needs a line when it fails (its verdict), or was FLAKY.
#pragma once

#include <string>

#include "reports/results.hpp"

namespace oprig::harness::farm {

struct ExpectationsUpdate {
  std::string text;  // the new file
  size_t kept = 0, replaced = 0, added = 0, removed = 0;  // lines
};

// `previous`: FILE's text ("" when it did not exist); `file_name` for
// messages; `source`: what RUN is, for the added lines' heading. Throws
// InputError when `previous` does not parse.
ExpectationsUpdate update_expectations(const std::string& previous, const std::string& file_name,
                                       const reports::RunResults& run, const std::string& source);

}  // namespace oprig::harness::farm
