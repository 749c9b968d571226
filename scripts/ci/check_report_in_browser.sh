#!/usr/bin/env bash
# Renders an oprig report.html in headless Chromium and fails unless the
# rendered DOM holds the summary matrix (id="summary-matrix") with at least
# one row and the verdict banner (id="verdict-banner", printed); with
# EXPECT_BANNER set, the banner's rendered text must contain it. Optionally
# saves a screenshot for a human to look at.
#
#   [EXPECT_BANNER=TEXT] scripts/ci/check_report_in_browser.sh REPORT.html [SCREENSHOT_DIR]
#
# Exit: 0 ok, 1 the check failed, 2 usage, 77 Chromium is not installed
# (CTest treats 77 as skipped).
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 REPORT.html [SCREENSHOT_DIR]" >&2
  exit 2
fi
report=$1
screenshot_dir=${2:-}
if [[ ! -f $report ]]; then
  echo "check_report_in_browser: no such file: $report" >&2
  exit 2
fi

chromium_bin=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then chromium_bin=$(command -v "$candidate"); break; fi
done
if [[ -z $chromium_bin ]]; then
  echo "check_report_in_browser: Chromium not found (Debian package: chromium); skipping" >&2
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
url="file://$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"

# A throwaway profile and every background service off: the page must render
# from the file alone. Host resolution is disabled so nothing can be fetched.
run_chromium() {
  timeout 120 "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$(mktemp -d -p "$work")" "$@"
}

if ! run_chromium --dump-dom "$url" >"$work/dom.html" 2>"$work/chromium.log"; then
  echo "check_report_in_browser: Chromium failed to render $report" >&2
  tail -n 20 "$work/chromium.log" >&2
  exit 1
fi

# Parse the rendered DOM (not the source): count the matrix's body rows, and
# write the banner's text to banner.txt.
rows=$(python3 - "$work/dom.html" "$work/banner.txt" <<'PY'
import sys
from html.parser import HTMLParser

class MatrixRows(HTMLParser):
    def __init__(self):
        super().__init__()
        self.depth = 0      # > 0 while inside the matrix table
        self.in_body = False
        self.found = False
        self.rows = 0
        self.in_banner = False
        self.banner = None
    def handle_data(self, data):
        if self.in_banner:
            self.banner += data
    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id") == "verdict-banner":
            self.in_banner, self.banner = True, ""
        if tag == "table":
            if self.depth:
                self.depth += 1
            elif attrs.get("id") == "summary-matrix":
                self.found = True
                self.depth = 1
        elif self.depth == 1 and tag == "tbody":
            self.in_body = True
        elif self.depth == 1 and self.in_body and tag == "tr":
            self.rows += 1
    def handle_endtag(self, tag):
        if tag == "div":
            self.in_banner = False
        if tag == "table" and self.depth:
            self.depth -= 1
        elif tag == "tbody" and self.depth == 1:
            self.in_body = False

parser = MatrixRows()
with open(sys.argv[1], encoding="utf-8", errors="replace") as dom:
    parser.feed(dom.read())
print(parser.rows if parser.found else -1)
if parser.banner is not None:
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write(" ".join(parser.banner.split()))
PY
)

if [[ $rows -lt 0 ]]; then
  echo "check_report_in_browser: the rendered DOM of $report has no element with id=\"summary-matrix\"" >&2
  exit 1
fi
if [[ $rows -lt 1 ]]; then
  echo "check_report_in_browser: the summary matrix in $report has no rows" >&2
  exit 1
fi
if [[ ! -s $work/banner.txt ]]; then
  echo "check_report_in_browser: the rendered DOM of $report has no verdict banner (id=\"verdict-banner\")" >&2
  exit 1
fi
banner=$(cat "$work/banner.txt")
echo "banner: $banner"
if [[ -n ${EXPECT_BANNER:-} && $banner != *"$EXPECT_BANNER"* ]]; then
  echo "check_report_in_browser: the banner does not say: $EXPECT_BANNER" >&2
  exit 1
fi

if [[ -n $screenshot_dir ]]; then
  mkdir -p "$screenshot_dir"
  shot="$(cd "$screenshot_dir" && pwd)/report.png"
  if ! run_chromium --hide-scrollbars --window-size=1280,2200 --screenshot="$shot" "$url" \
      >"$work/shot.log" 2>&1 || [[ ! -s $shot ]]; then
    echo "check_report_in_browser: screenshot failed" >&2
    tail -n 20 "$work/shot.log" >&2
    exit 1
  fi
  echo "screenshot: $shot"
fi
echo "check_report_in_browser: ok, summary matrix has $rows row(s)"
