#include "reports/html/page.hpp"

#include "reports/html/style_css.h"
#include "reports/text.hpp"

namespace oprig::reports {

std::string html_page_begin(std::string_view title) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; img-src data:\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"oprig\">\n<title>" +
      html_escape(title) + "</title>\n<style>\n";
  out.append(reinterpret_cast<const char*>(oprig_report_style_css), oprig_report_style_css_size);
  out += "</style>\n</head>\n<body>\n<main>\n";
  return out;
}

std::string html_page_end(std::string_view footer_text) {
  return "<footer>" + html_escape(footer_text) + "</footer>\n</main>\n</body>\n</html>\n";
}

}  // namespace oprig::reports
