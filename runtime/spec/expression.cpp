#include "spec/expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace oprig::spec {
namespace {

// ---- tokens --------------------------------------------------------------

enum class Tok { kNumber, kName, kWord, kOp, kOther };

struct Token {
  Tok kind = Tok::kOther;
  std::string text;
  double number = 0;
  bool joined_to_next = false;  // no blank before the next token
};

// English around the arithmetic: such a name ends an expression, unless it
// is written as a tensor (followed at once by '.', '[' or '('), as "in[0]".
bool prose_word(const std::string& w) {
  static const std::set<std::string> kWords = {
      "must", "be", "is", "are", "should", "shall", "satisfy", "satisfies", "where", "and", "or", "the", "a", "an",
      "of", "every", "each", "element", "elements", "value", "values", "all", "than", "equal", "equals", "to", "in",
      "range", "within", "between", "with", "for", "if", "when", "then", "else", "not", "only", "any", "its", "it",
      "that", "this", "as", "by", "from", "on", "at", "less", "greater", "larger", "smaller", "positive", "negative",
      "nonnegative", "finite", "integer", "integers", "divides", "divide", "multiple", "divisible", "can", "may",
      "dimension", "dimensions", "number", "numbers", "inclusive", "exclusive", "both", "ends", "given", "lies",
      "lie", "has", "have", "strictly", "at", "most", "least", "e", "g", "i", "ie", "eg", "also", "see", "means",
      "axis_of", "size", "default", "defaults", "optional", "one", "two", "used", "otherwise", "there"};
  std::string lower;
  for (char c : w) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return kWords.count(lower) > 0;
}

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<Token> tokenize(std::string_view in) {
  // Spellings folded first: unicode relations, "non-negative".
  std::string text;
  for (size_t i = 0; i < in.size(); ++i) {
    const std::string_view rest = in.substr(i);
    auto starts = [&](std::string_view s) { return rest.substr(0, s.size()) == s; };
    if (starts("\u2264")) { text += "<="; i += 2; continue; }
    if (starts("\u2265")) { text += ">="; i += 2; continue; }
    if (starts("\u2260")) { text += "!="; i += 2; continue; }
    if (starts("\u2208")) { text += " in "; i += 2; continue; }
    if (starts("\u2212")) { text += "-"; i += 2; continue; }
    text += in[i];
  }
  for (const char* spelling : {"non-negative", "Non-negative", "non negative", "non-Negative"})
    for (size_t at; (at = text.find(spelling)) != std::string::npos;)
      text.replace(at, std::string_view(spelling).size(), "nonnegative");

  std::vector<Token> out;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    const size_t start = i;
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
      if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        size_t k = i + 1;
        if (k < text.size() && (text[k] == '-' || text[k] == '+')) ++k;
        if (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) {
          while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
          i = k;
        }
      }
      t.kind = Tok::kNumber;
      t.text = text.substr(start, i - start);
      t.number = std::strtod(t.text.c_str(), nullptr);
      // "2D", "3x3": a number glued to letters is not one.
      if (i < text.size() && name_start(text[i])) {
        while (i < text.size() && name_char(text[i])) ++i;
        t.kind = Tok::kOther;
        t.text = text.substr(start, i - start);
      }
    } else if (name_start(c)) {
      while (i < text.size() && name_char(text[i])) ++i;
      t.kind = Tok::kName;
      t.text = text.substr(start, i - start);
    } else {
      static const char* const kTwo[] = {"<=", ">=", "==", "!=", "=<", "=>"};
      for (const char* two : kTwo)
        if (text.compare(i, 2, two) == 0) {
          t.kind = Tok::kOp;
          t.text = std::string(two) == "=<" ? "<=" : std::string(two) == "=>" ? ">=" : two;
          i += 2;
          break;
        }
      if (t.kind != Tok::kOp) {
        t.text = std::string(1, c);
        t.kind = std::string("+-*/%()[],.<>=").find(c) != std::string::npos ? Tok::kOp : Tok::kOther;
        ++i;
      }
    }
    t.joined_to_next = i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]));
    out.push_back(std::move(t));
  }
  // Prose words, unless written as a tensor or function: glued to a bracket,
  // parenthesis or dot on either side ("in[0]", "rank(in)", "in.shape").
  for (size_t k = 0; k < out.size(); ++k) {
    if (out[k].kind != Tok::kName || !prose_word(out[k].text)) continue;
    const bool glued_after = out[k].joined_to_next && k + 1 < out.size() &&
                             (out[k + 1].text == "." || out[k + 1].text == "[" || out[k + 1].text == "(" ||
                              out[k + 1].text == ")" || out[k + 1].text == "]");
    const bool glued_before = k > 0 && out[k - 1].joined_to_next &&
                              (out[k - 1].text == "(" || out[k - 1].text == "[" || out[k - 1].text == ".");
    if (!glued_after && !glued_before) out[k].kind = Tok::kWord;
  }
  return out;
}

bool is_op(const Token& t, const char* s) { return t.kind == Tok::kOp && t.text == s; }

// ---- expressions over a token range ---------------------------------------

class Parser {
 public:
  Parser(const std::vector<Token>& t, size_t begin, size_t end) : t_(t), i_(begin), end_(end) {}

  std::optional<Expr> whole() {
    auto e = expr();
    if (!e || i_ != end_) return std::nullopt;
    return e;
  }

 private:
  bool at(const char* op) const { return i_ < end_ && is_op(t_[i_], op); }

  std::optional<Expr> expr() {
    auto left = term();
    while (left && (at("+") || at("-"))) {
      const bool add = at("+");
      ++i_;
      auto right = term();
      if (!right) return std::nullopt;
      Expr e;
      e.kind = add ? Expr::Kind::kAdd : Expr::Kind::kSubtract;
      e.args = {std::move(*left), std::move(*right)};
      left = std::move(e);
    }
    return left;
  }

  std::optional<Expr> term() {
    auto left = unary();
    while (left && (at("*") || at("/") || at("%"))) {
      const Expr::Kind k = at("*") ? Expr::Kind::kMultiply : at("/") ? Expr::Kind::kDivide : Expr::Kind::kModulo;
      ++i_;
      auto right = unary();
      if (!right) return std::nullopt;
      Expr e;
      e.kind = k;
      e.args = {std::move(*left), std::move(*right)};
      left = std::move(e);
    }
    return left;
  }

  std::optional<Expr> unary() {
    if (at("-") || at("+")) {
      const bool negate = at("-");
      ++i_;
      auto inner = unary();
      if (!inner) return std::nullopt;
      if (!negate) return inner;
      if (inner->kind == Expr::Kind::kNumber) {
        inner->number = -inner->number;
        return inner;
      }
      Expr e;
      e.kind = Expr::Kind::kNegate;
      e.args = {std::move(*inner)};
      return e;
    }
    return postfix();
  }

  std::optional<Expr> postfix() {
    auto base = primary();
    while (base) {
      if (at("[")) {
        ++i_;
        Expr e;
        e.kind = Expr::Kind::kIndex;
        e.args.push_back(std::move(*base));
        for (;;) {
          auto index = expr();
          if (!index) return std::nullopt;
          e.args.push_back(std::move(*index));
          if (at(",")) {
            ++i_;
            continue;
          }
          if (!at("]")) return std::nullopt;
          ++i_;
          break;
        }
        base = std::move(e);
      } else if (at(".") && i_ + 1 < end_ && (t_[i_ + 1].kind == Tok::kName || t_[i_ + 1].kind == Tok::kWord)) {
        Expr e;
        e.kind = Expr::Kind::kMember;
        e.name = t_[i_ + 1].text;
        e.args.push_back(std::move(*base));
        i_ += 2;
        base = std::move(e);
      } else if (at("(") && base->kind == Expr::Kind::kName) {
        ++i_;
        Expr e;
        e.kind = Expr::Kind::kCall;
        e.name = base->name;
        if (!at(")")) {
          for (;;) {
            auto arg = expr();
            if (!arg) return std::nullopt;
            e.args.push_back(std::move(*arg));
            if (at(",")) {
              ++i_;
              continue;
            }
            break;
          }
        }
        if (!at(")")) return std::nullopt;
        ++i_;
        base = std::move(e);
      } else {
        break;
      }
    }
    return base;
  }

  std::optional<Expr> primary() {
    if (i_ >= end_) return std::nullopt;
    const Token& t = t_[i_];
    if (t.kind == Tok::kNumber) {
      ++i_;
      Expr e;
      e.kind = Expr::Kind::kNumber;
      e.number = t.number;
      return e;
    }
    if (t.kind == Tok::kName) {
      ++i_;
      Expr e;
      e.kind = Expr::Kind::kName;
      e.name = t.text;
      return e;
    }
    if (is_op(t, "(")) {
      ++i_;
      auto inner = expr();
      if (!inner || !at(")")) return std::nullopt;
      ++i_;
      return inner;
    }
    return std::nullopt;
  }

  const std::vector<Token>& t_;
  size_t i_, end_;
};

std::optional<Expr> parse_range(const std::vector<Token>& t, size_t begin, size_t end) {
  if (begin >= end) return std::nullopt;
  return Parser(t, begin, end).whole();
}

Expr name_expr(const std::string& name) {
  Expr e;
  e.kind = Expr::Kind::kName;
  e.name = name;
  return e;
}

Expr number_expr(double v) {
  Expr e;
  e.kind = Expr::Kind::kNumber;
  e.number = v;
  return e;
}

bool comparison_op(const Token& t) {
  if (t.kind != Tok::kOp) return false;
  return t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">=" || t.text == "=" || t.text == "==" ||
         t.text == "!=";
}

Relation relation_of(const std::string& op) {
  if (op == "<") return Relation::kLess;
  if (op == "<=") return Relation::kLessEqual;
  if (op == ">") return Relation::kGreater;
  if (op == ">=") return Relation::kGreaterEqual;
  if (op == "!=") return Relation::kNotEqual;
  return Relation::kEqual;
}

// The longest expression ending just before `end`, starting at or after `floor`.
std::optional<std::pair<Expr, size_t>> expression_before(const std::vector<Token>& t, size_t floor, size_t end) {
  for (size_t b = floor; b < end; ++b)
    if (auto e = parse_range(t, b, end)) return std::make_pair(std::move(*e), b);
  return std::nullopt;
}

// The longest expression starting at `begin`, ending at or before `ceiling`.
std::optional<std::pair<Expr, size_t>> expression_after(const std::vector<Token>& t, size_t begin, size_t ceiling) {
  for (size_t e = ceiling; e > begin; --e)
    if (auto x = parse_range(t, begin, e)) return std::make_pair(std::move(*x), e);
  return std::nullopt;
}

bool only_number(const Expr& e) { return e.kind == Expr::Kind::kNumber; }

// ---- evaluation -----------------------------------------------------------

std::optional<ExprValue> eval_value(const Expr& e, const Scope& scope);

std::optional<double> eval_number(const Expr& e, const Scope& scope) {
  const auto v = eval_value(e, scope);
  if (!v || v->is_list || !v->number) return std::nullopt;
  return v->number;
}

ExprValue number_value(double v) {
  ExprValue out;
  out.number = v;
  return out;
}

ExprValue list_value(std::vector<double> list) {
  ExprValue out;
  out.is_list = true;
  out.list = std::move(list);
  return out;
}

// The tensor an expression names: "in", "in[0]" (a QNN-style name).
std::optional<std::vector<double>> tensor_shape(const Expr& e, const Scope& scope) {
  if (!scope.shape) return std::nullopt;
  if (e.kind == Expr::Kind::kName) return scope.shape(e.name);
  if (e.kind == Expr::Kind::kIndex && e.args.size() == 2 && e.args[0].kind == Expr::Kind::kName &&
      e.args[1].kind == Expr::Kind::kNumber) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s[%g]", e.args[0].name.c_str(), e.args[1].number);
    if (auto s = scope.shape(buffer)) return s;
    // "in[0]" where the spec's first input is plain "in".
    if (e.args[1].number == 0) return scope.shape(e.args[0].name);
  }
  return std::nullopt;
}

std::optional<double> element_at(const std::vector<double>& list, double index) {
  if (index != std::floor(index)) return std::nullopt;
  const auto n = static_cast<long long>(list.size());
  auto i = static_cast<long long>(index);
  if (i < 0) i += n;
  if (i < 0 || i >= n) return std::nullopt;
  return list[static_cast<size_t>(i)];
}

std::optional<ExprValue> eval_value(const Expr& e, const Scope& scope) {
  using K = Expr::Kind;
  switch (e.kind) {
    case K::kNumber: return number_value(e.number);
    case K::kName:
      if (scope.value)
        if (auto v = scope.value(e.name)) return v;
      return std::nullopt;
    case K::kNegate: {
      const auto a = eval_number(e.args[0], scope);
      if (!a) return std::nullopt;
      return number_value(-*a);
    }
    case K::kAdd:
    case K::kSubtract:
    case K::kMultiply:
    case K::kDivide:
    case K::kModulo: {
      const auto a = eval_number(e.args[0], scope), b = eval_number(e.args[1], scope);
      if (!a || !b) return std::nullopt;
      switch (e.kind) {
        case K::kAdd: return number_value(*a + *b);
        case K::kSubtract: return number_value(*a - *b);
        case K::kMultiply: return number_value(*a * *b);
        case K::kDivide:
          if (*b == 0) return std::nullopt;
          return number_value(*a / *b);
        default:
          if (*b == 0) return std::nullopt;
          return number_value(std::fmod(*a, *b));
      }
    }
    case K::kCall: {
      std::string f;
      for (char c : e.name) f += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if ((f == "rank" || f == "ndim" || f == "len") && e.args.size() == 1) {
        if (auto s = tensor_shape(e.args[0], scope)) return number_value(static_cast<double>(s->size()));
        if (auto v = eval_value(e.args[0], scope); v && v->is_list) return number_value(static_cast<double>(v->list.size()));
        return std::nullopt;
      }
      if (f == "shape" && e.args.size() == 1) {
        if (auto s = tensor_shape(e.args[0], scope)) return list_value(*s);
        return std::nullopt;
      }
      if ((f == "dim" || f == "size") && e.args.size() == 2) {
        const auto s = tensor_shape(e.args[0], scope);
        const auto i = eval_number(e.args[1], scope);
        if (!s || !i) return std::nullopt;
        if (auto d = element_at(*s, *i)) return number_value(*d);
        return std::nullopt;
      }
      std::vector<double> args;
      for (const Expr& a : e.args) {
        const auto v = eval_number(a, scope);
        if (!v) return std::nullopt;
        args.push_back(*v);
      }
      if (f == "floor" && args.size() == 1) return number_value(std::floor(args[0]));
      if (f == "ceil" && args.size() == 1) return number_value(std::ceil(args[0]));
      if (f == "round" && args.size() == 1) return number_value(std::round(args[0]));
      if (f == "abs" && args.size() == 1) return number_value(std::fabs(args[0]));
      if (f == "min" && !args.empty()) return number_value(*std::min_element(args.begin(), args.end()));
      if (f == "max" && !args.empty()) return number_value(*std::max_element(args.begin(), args.end()));
      return std::nullopt;
    }
    case K::kMember: {
      std::string m;
      for (char c : e.name) m += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (m == "shape" || m == "dims") {
        if (auto s = tensor_shape(e.args[0], scope)) return list_value(*s);
        return std::nullopt;
      }
      if (m == "rank" || m == "ndim" || m == "ndims") {
        if (auto s = tensor_shape(e.args[0], scope)) return number_value(static_cast<double>(s->size()));
        return std::nullopt;
      }
      return std::nullopt;
    }
    case K::kIndex: {
      // p[i][j] on a 2-D parameter given flat: row i of dims[1] (2 when unknown: pads) elements.
      if (e.args.size() == 2 && e.args[0].kind == K::kIndex && e.args[0].args.size() == 2) {
        const auto outer = eval_value(e.args[0].args[0], scope);
        if (outer && outer->is_list) {
          const double cols = outer->dims.size() == 2 ? static_cast<double>(outer->dims[1]) : 2.0;
          const auto i = eval_number(e.args[0].args[1], scope), j = eval_number(e.args[1], scope);
          if (!i || !j || *j < 0 || *j >= cols) return std::nullopt;
          if (auto v = element_at(outer->list, *i * cols + *j)) return number_value(*v);
          return std::nullopt;
        }
      }
      std::optional<ExprValue> base = eval_value(e.args[0], scope);
      if (!base) {
        // "in[1]" as a tensor is not a number; "x.shape[i]" is handled by kMember.
        return std::nullopt;
      }
      if (!base->is_list) return std::nullopt;
      std::vector<double> list = base->list;
      // p[i, j] and p[i][j] on a 2-D parameter of n x 2 (pads): row-major, 2 per row.
      if (e.args.size() == 3) {
        const double cols = base->dims.size() == 2 ? static_cast<double>(base->dims[1]) : 2.0;
        const auto i = eval_number(e.args[1], scope), j = eval_number(e.args[2], scope);
        if (!i || !j || *j < 0 || *j >= cols) return std::nullopt;
        const double flat = *i * cols + *j;
        if (auto v = element_at(list, flat)) return number_value(*v);
        return std::nullopt;
      }
      if (e.args.size() != 2) return std::nullopt;
      const auto i = eval_number(e.args[1], scope);
      if (!i) return std::nullopt;
      if (auto v = element_at(list, *i)) return number_value(*v);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Expr> parse_expression(std::string_view text) {
  const std::vector<Token> t = tokenize(text);
  // Prose words may be names here ("k", "in" alone): a whole expression is asked for.
  std::vector<Token> names = t;
  for (Token& k : names)
    if (k.kind == Tok::kWord) k.kind = Tok::kName;
  return parse_range(names, 0, names.size());
}

std::string expression_text(const Expr& e) {
  using K = Expr::Kind;
  auto two = [&](const char* op) { return expression_text(e.args[0]) + " " + op + " " + expression_text(e.args[1]); };
  switch (e.kind) {
    case K::kNumber: {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%g", e.number);
      return buffer;
    }
    case K::kName: return e.name;
    case K::kNegate: return "-" + expression_text(e.args[0]);
    case K::kAdd: return two("+");
    case K::kSubtract: return two("-");
    case K::kMultiply: return two("*");
    case K::kDivide: return two("/");
    case K::kModulo: return two("%");
    case K::kCall: {
      std::string s = e.name + "(";
      for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + expression_text(e.args[i]);
      return s + ")";
    }
    case K::kIndex: {
      std::string s = expression_text(e.args[0]) + "[";
      for (size_t i = 1; i < e.args.size(); ++i) s += (i > 1 ? ", " : "") + expression_text(e.args[i]);
      return s + "]";
    }
    case K::kMember: return expression_text(e.args[0]) + "." + e.name;
  }
  return "?";
}

void collect_names(const Expr& e, std::set<std::string>& names) {
  if (e.kind == Expr::Kind::kName) names.insert(e.name);
  for (const Expr& a : e.args) collect_names(a, names);
}

std::optional<double> evaluate(const Expr& e, const Scope& scope) { return eval_number(e, scope); }

std::optional<std::vector<ShapeDim>> parse_shape_text(std::string_view raw) {
  std::string text(raw);
  // The list inside the first bracket pair; "a x b" without brackets.
  size_t open = text.find_first_of("[(");
  std::string inner;
  if (open != std::string::npos) {
    const char close_char = text[open] == '[' ? ']' : ')';
    int depth = 0;
    size_t close = std::string::npos;
    for (size_t i = open; i < text.size(); ++i) {
      if (text[i] == '[' || text[i] == '(') ++depth;
      if (text[i] == ']' || text[i] == ')') {
        if (--depth == 0) {
          close = text[i] == close_char ? i : std::string::npos;
          break;
        }
      }
    }
    if (close == std::string::npos) return std::nullopt;
    inner = text.substr(open + 1, close - open - 1);
  } else {
    return std::nullopt;
  }
  if (inner.find_first_not_of(" \t\n") == std::string::npos) return std::vector<ShapeDim>{};
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (char c : inner) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  std::vector<ShapeDim> dims;
  for (std::string& p : parts) {
    const size_t b = p.find_first_not_of(" \t\n");
    const size_t e = p.find_last_not_of(" \t\n");
    p = b == std::string::npos ? "" : p.substr(b, e - b + 1);
    ShapeDim d;
    d.text = p;
    // "batch...", "broadcast(batch of a, batch of b)...": named leading dimensions, any number of them.
    const bool trailing_dots = p.size() > 3 && p.compare(p.size() - 3, 3, "...") == 0;
    // "query length": a name of several words.
    const bool words = p.find(' ') != std::string::npos &&
                       std::all_of(p.begin(), p.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == ' ' || c == '_'; });
    if (words) {
      std::string joined;
      for (char c : p)
        if (c != ' ') joined += c;
        else if (!joined.empty() && joined.back() != '_') joined += '_';
      p = joined;
    }
    if (p == "..." || p == "\u2026" || trailing_dots) {
      d.ellipsis = true;
    } else {
      auto expr = parse_expression(p);
      if (!expr) return std::nullopt;
      d.expr = std::move(*expr);
    }
    dims.push_back(std::move(d));
  }
  // "d0, ..., dN-1", "d_0, ..., d_n": numbered names around an ellipsis are any dims.
  const bool generic = std::any_of(dims.begin(), dims.end(), [](const ShapeDim& d) { return d.ellipsis; }) &&
                       std::all_of(dims.begin(), dims.end(), [](const ShapeDim& d) {
                         if (d.ellipsis) return true;
                         std::set<std::string> names;
                         collect_names(d.expr, names);
                         return names.size() == 1 && (names.begin()->size() <= 3) &&
                                (d.text.find_first_of("0123456789") != std::string::npos ||
                                 d.text.find('-') != std::string::npos);
                       });
  if (generic) {
    ShapeDim any;
    any.ellipsis = true;
    any.text = "...";
    return std::vector<ShapeDim>{any};
  }
  return dims;
}

std::vector<Comparison> parse_relations(std::string_view text) {
  const std::vector<Token> t = tokenize(text);
  std::vector<Comparison> out;
  std::vector<size_t> ops;
  for (size_t i = 0; i < t.size(); ++i)
    if (comparison_op(t[i])) ops.push_back(i);
  // Comparison chains: each operator with the longest expressions around it.
  std::optional<Expr> last_subject;
  for (size_t n = 0; n < ops.size(); ++n) {
    const size_t at = ops[n];
    const size_t floor = n == 0 ? 0 : ops[n - 1] + 1;
    const size_t ceiling = n + 1 < ops.size() ? ops[n + 1] : t.size();
    auto left = expression_before(t, floor, at);
    auto right = expression_after(t, at + 1, ceiling);
    if (!right) continue;
    Comparison c;
    c.lhs = left ? std::move(left->first) : name_expr(kSelf);
    c.op = relation_of(t[at].text);
    c.rhs = std::move(right->first);
    if (!only_number(c.lhs)) last_subject = c.lhs;
    out.push_back(std::move(c));
  }
  auto word_at = [&](size_t i, const char* w) {
    if (i >= t.size() || (t[i].kind != Tok::kWord && t[i].kind != Tok::kName)) return false;
    std::string lower;
    for (char c : t[i].text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower == w;
  };
  // The subject before a word: the expression just before it (skipping prose), else the last one compared.
  auto subject_before = [&](size_t i) -> Expr {
    size_t end = i;
    while (end > 0 && t[end - 1].kind == Tok::kWord) --end;
    if (auto e = expression_before(t, 0, end); e && !only_number(e->first)) return e->first;
    if (last_subject) return *last_subject;
    return name_expr(kSelf);
  };
  // Expressions after a word, joined by "and", "or" and commas.
  auto targets_after = [&](size_t i) {
    std::vector<Expr> list;
    size_t k = i;
    while (k < t.size()) {
      while (k < t.size() && t[k].kind == Tok::kWord &&
             (word_at(k, "the") || word_at(k, "of") || word_at(k, "by") || word_at(k, "both"))) ++k;
      size_t stop = k;
      while (stop < t.size() && t[stop].kind != Tok::kWord && !is_op(t[stop], ",") && !comparison_op(t[stop])) ++stop;
      auto e = expression_after(t, k, stop);
      if (!e) break;
      list.push_back(std::move(e->first));
      k = e->second;
      if (k < t.size() && (is_op(t[k], ",") || word_at(k, "and") || word_at(k, "or"))) {
        ++k;
        continue;
      }
      break;
    }
    return list;
  };
  for (size_t i = 0; i < t.size(); ++i) {
    if (word_at(i, "divides") || word_at(i, "divide")) {
      const Expr subject = subject_before(i);
      for (Expr& target : targets_after(i + 1)) out.push_back({subject, Relation::kDivides, std::move(target)});
    } else if (word_at(i, "multiple") && word_at(i + 1, "of")) {
      const Expr subject = subject_before(i);
      for (Expr& target : targets_after(i + 2)) out.push_back({std::move(target), Relation::kDivides, subject});
    } else if (word_at(i, "divisible") && word_at(i + 1, "by")) {
      const Expr subject = subject_before(i);
      for (Expr& target : targets_after(i + 2)) out.push_back({std::move(target), Relation::kDivides, subject});
    } else if (word_at(i, "positive") && !(i > 0 && word_at(i - 1, "non"))) {
      out.push_back({subject_before(i), Relation::kGreater, number_expr(0)});
    } else if (word_at(i, "nonnegative")) {
      out.push_back({subject_before(i), Relation::kGreaterEqual, number_expr(0)});
    } else if (word_at(i, "between")) {
      // "between a and b": both inclusive.
      size_t stop = i + 1;
      while (stop < t.size() && !word_at(stop, "and")) ++stop;
      auto a = expression_after(t, i + 1, stop);
      auto b = stop < t.size() ? expression_after(t, stop + 1, t.size()) : std::nullopt;
      if (a && b) {
        const Expr subject = subject_before(i);
        out.push_back({subject, Relation::kGreaterEqual, a->first});
        out.push_back({subject, Relation::kLessEqual, b->first});
      }
    }
  }
  // Intervals "[a, b]", "(a, b]", "[a, b)": after "in", "range", "within", or bare in a text without comparisons.
  for (size_t i = 0; i < t.size(); ++i) {
    if (!(is_op(t[i], "[") || is_op(t[i], "("))) continue;
    const bool introduced = i > 0 && (word_at(i - 1, "in") || word_at(i - 1, "range") || word_at(i - 1, "within") ||
                                      word_at(i - 1, "interval"));
    if (!introduced && !ops.empty()) continue;
    // A bracket glued to a name is indexing ("in[0]"), not an interval.
    if (i > 0 && t[i - 1].joined_to_next && (t[i - 1].kind == Tok::kName || is_op(t[i - 1], "]"))) continue;
    size_t comma = i + 1;
    int depth = 0;
    while (comma < t.size() && !(depth == 0 && is_op(t[comma], ","))) {
      if (is_op(t[comma], "[") || is_op(t[comma], "(")) ++depth;
      if (is_op(t[comma], "]") || is_op(t[comma], ")")) {
        if (depth == 0) break;
        --depth;
      }
      ++comma;
    }
    if (comma >= t.size() || !is_op(t[comma], ",")) continue;
    size_t close = comma + 1;
    depth = 0;
    while (close < t.size()) {
      if (is_op(t[close], "[") || is_op(t[close], "(")) ++depth;
      if (is_op(t[close], "]") || is_op(t[close], ")")) {
        if (depth == 0) break;
        --depth;
      }
      ++close;
    }
    if (close >= t.size()) continue;
    auto a = parse_range(t, i + 1, comma);
    auto b = parse_range(t, comma + 1, close);
    if (!a || !b) continue;
    Expr subject = name_expr(kSelf);
    if (introduced) {
      size_t end = i - 1;
      while (end > 0 && t[end - 1].kind == Tok::kWord) --end;
      if (auto e = expression_before(t, 0, end); e && !only_number(e->first)) subject = e->first;
    }
    out.push_back({subject, is_op(t[i], "[") ? Relation::kGreaterEqual : Relation::kGreater, std::move(*a)});
    out.push_back({subject, is_op(t[close], "]") ? Relation::kLessEqual : Relation::kLess, std::move(*b)});
    i = close;
  }
  return out;
}

std::optional<bool> holds(const Comparison& c, const Scope& scope) {
  const auto a = eval_number(c.lhs, scope), b = eval_number(c.rhs, scope);
  if (!a || !b) return std::nullopt;
  switch (c.op) {
    case Relation::kLess: return *a < *b;
    case Relation::kLessEqual: return *a <= *b;
    case Relation::kGreater: return *a > *b;
    case Relation::kGreaterEqual: return *a >= *b;
    case Relation::kEqual: return *a == *b;
    case Relation::kNotEqual: return *a != *b;
    case Relation::kDivides:
      if (*a == 0) return std::nullopt;
      return std::fmod(*b, *a) == 0;
  }
  return std::nullopt;
}

}  // namespace oprig::spec
