// The frame of a self-contained oprig page (report.html's head: the CSP that
// forbids loading anything, the inline style sheet), for pages other than
// report.html (the history trend page) that share its look.
#pragma once

#include <string>
#include <string_view>

namespace oprig::reports {

// <!DOCTYPE html> ... <body><main>, with `title` escaped.
std::string html_page_begin(std::string_view title);
// A footer line (escaped) and </main></body></html>.
std::string html_page_end(std::string_view footer_text);

}  // namespace oprig::reports
