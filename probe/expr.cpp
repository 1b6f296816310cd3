#include "probe/expr.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "reference/float_bits.h"

namespace gcn::probe {

struct Expr::Node {
  enum class Kind : uint8_t { Const, Index, Neg, Not, Bin, Rand, F32OfInt };
  Kind kind = Kind::Const;
  char op = 0;  // Bin: + - * / % < (shl) > (shr) & | ^
  uint64_t value = 0;
  int column = 0;  // for division by zero
  std::shared_ptr<const Node> a, b;
};

namespace {

using NodeP = std::shared_ptr<const Expr::Node>;
using Node = Expr::Node;

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Recursive descent with C precedence: | ^ & shifts additive multiplicative unary.
class Parser {
 public:
  Parser(std::string_view text, IndexVar var, const Place& place)
      : text_(text), var_(var), place_(place) {}

  NodeP parseAll() {
    if (text_.size() > kMaxExprChars)
      fail(0, "expression of " + std::to_string(text_.size()) +
                  " characters is over the limit of " + std::to_string(kMaxExprChars));
    skipWs();
    if (pos_ >= text_.size()) fail(pos_, "expected a value");
    NodeP n = parseOr();
    skipWs();
    if (pos_ < text_.size())
      fail(pos_, "unexpected '" + std::string(1, text_[pos_]) + "' in expression");
    return n;
  }
  bool usesIndex = false;
  std::size_t nodes = 0;

 private:
  // Every node goes through here, so the count bounds the tree (and the evaluator's
  // recursion, which follows the tree: a chain `1+1+...` is as deep as it is long).
  NodeP make(Node n) {
    if (++nodes > kMaxExprNodes)
      fail(pos_, "expression has more than " + std::to_string(kMaxExprNodes) +
                     " numbers, names and operators (the limit)");
    return std::make_shared<const Node>(std::move(n));
  }
  // Counts the nesting for as long as it lives. Every parenthesis, unary operator and call
  // goes back through parseUnary, so counting there bounds all of them.
  class Nest {
   public:
    explicit Nest(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxExprDepth)
        p_.fail(p_.pos_, "expression nests deeper than " + std::to_string(kMaxExprDepth) +
                             " levels of parentheses, unary operators and calls (the limit)");
    }
    ~Nest() { --p_.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Parser& p_;
  };

  [[noreturn]] void fail(std::size_t at, const std::string& reason) const {
    Place p = place_;
    if (p.column > 0) p.column += static_cast<int>(at);
    throw Error(p, reason);
  }
  void skipWs() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool accept(std::string_view tok) {
    skipWs();
    if (text_.substr(pos_, tok.size()) == tok) {
      pos_ += tok.size();
      return true;
    }
    return false;
  }
  NodeP bin(char op, NodeP a, NodeP b, std::size_t at) {
    Node n;
    n.kind = Node::Kind::Bin;
    n.op = op;
    n.a = std::move(a);
    n.b = std::move(b);
    n.column = static_cast<int>(at);
    return make(std::move(n));
  }
  NodeP parseOr() {
    NodeP n = parseXor();
    for (;;) {
      skipWs();
      const std::size_t at = pos_;
      if (pos_ < text_.size() && text_[pos_] == '|') {
        ++pos_;
        n = bin('|', n, parseXor(), at);
      } else {
        return n;
      }
    }
  }
  NodeP parseXor() {
    NodeP n = parseAnd();
    for (;;) {
      skipWs();
      const std::size_t at = pos_;
      if (accept("^")) {
        n = bin('^', n, parseAnd(), at);
      } else {
        return n;
      }
    }
  }
  NodeP parseAnd() {
    NodeP n = parseShift();
    for (;;) {
      skipWs();
      const std::size_t at = pos_;
      if (accept("&")) {
        n = bin('&', n, parseShift(), at);
      } else {
        return n;
      }
    }
  }
  NodeP parseShift() {
    NodeP n = parseAdd();
    for (;;) {
      skipWs();
      const std::size_t at = pos_;
      if (accept("<<")) {
        n = bin('<', n, parseAdd(), at);
      } else if (accept(">>")) {
        n = bin('>', n, parseAdd(), at);
      } else {
        return n;
      }
    }
  }
  NodeP parseAdd() {
    NodeP n = parseMul();
    for (;;) {
      skipWs();
      const std::size_t at = pos_;
      if (accept("+")) {
        n = bin('+', n, parseMul(), at);
      } else if (accept("-")) {
        n = bin('-', n, parseMul(), at);
      } else {
        return n;
      }
    }
  }
  NodeP parseMul() {
    NodeP n = parseUnary();
    for (;;) {
      skipWs();
      const std::size_t at = pos_;
      if (accept("*")) {
        n = bin('*', n, parseUnary(), at);
      } else if (accept("/")) {
        n = bin('/', n, parseUnary(), at);
      } else if (accept("%")) {
        n = bin('%', n, parseUnary(), at);
      } else {
        return n;
      }
    }
  }
  NodeP parseUnary() {
    const Nest nest(*this);
    if (accept("-")) {
      Node n;
      n.kind = Node::Kind::Neg;
      n.a = parseUnary();
      return make(std::move(n));
    }
    if (accept("~")) {
      Node n;
      n.kind = Node::Kind::Not;
      n.a = parseUnary();
      return make(std::move(n));
    }
    if (accept("+")) return parseUnary();
    return parsePrimary();
  }
  NodeP parsePrimary() {
    skipWs();
    if (pos_ >= text_.size()) fail(pos_, "expected a value at the end of the expression");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      NodeP n = parseOr();
      if (!accept(")")) fail(pos_, "expected ')'");
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return parseNumber();
    if (isIdentStart(c)) {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && isIdentChar(text_[pos_]))
        ++pos_;
      const std::string_view name = text_.substr(start, pos_ - start);
      if (name == "lane" || name == "i") return parseIndex(name, start);
      if (name == "f32") return parseF32(start);
      if (name == "rand") {
        if (!accept("(")) fail(pos_, "expected '(' after rand");
        Node n;
        n.kind = Node::Kind::Rand;
        n.a = parseOr();
        if (!accept(")")) fail(pos_, "expected ')' closing rand(");
        usesIndex = true;
        return make(std::move(n));
      }
      fail(start, "unknown name '" + std::string(name) +
                      "' in expression (known: lane, i, f32(...), rand(...))");
    }
    fail(pos_, "unexpected '" + std::string(1, c) + "' in expression");
  }
  NodeP parseIndex(std::string_view name, std::size_t start) {
    const bool wantLane = name == "lane";
    if (var_ == IndexVar::None)
      fail(start, "'" + std::string(name) + "' is not available here: this value is one number");
    if (wantLane != (var_ == IndexVar::Lane))
      fail(start, std::string("'") + std::string(name) + "' is not available here: use '" +
                      (var_ == IndexVar::Lane ? "lane" : "i") + "'");
    usesIndex = true;
    Node n;
    n.kind = Node::Kind::Index;
    return make(std::move(n));
  }
  NodeP parseNumber() {
    const std::size_t start = pos_;
    int base = 10;
    if (text_.substr(pos_, 2) == "0x" || text_.substr(pos_, 2) == "0X") {
      base = 16;
      pos_ += 2;
    } else if (text_.substr(pos_, 2) == "0b" || text_.substr(pos_, 2) == "0B") {
      base = 2;
      pos_ += 2;
    }
    const std::size_t digits = pos_;
    while (pos_ < text_.size() && (isIdentChar(text_[pos_]) || text_[pos_] == '.'))
      ++pos_;
    const std::string_view body = text_.substr(digits, pos_ - digits);
    uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), v, base);
    if (body.empty() || ec != std::errc() || ptr != body.data() + body.size()) {
      const std::string_view whole = text_.substr(start, pos_ - start);
      if (ec == std::errc::result_out_of_range)
        fail(start, "number '" + std::string(whole) + "' does not fit in 64 bits");
      fail(start, std::string("'").append(whole) +
                      "' is not an integer (write floats as f32(1.5), hex as 0x...)");
    }
    Node n;
    n.value = v;
    return make(std::move(n));
  }
  // f32(1.5), f32(-0.25), f32(inf), f32(nan): a float literal, correctly rounded to binary32.
  // f32(<integer expression>): that integer (signed) converted to float.
  NodeP parseF32(std::size_t start) {
    if (!accept("(")) fail(pos_, "expected '(' after f32");
    skipWs();
    const std::size_t close = text_.find(')', pos_);
    if (close == std::string_view::npos) fail(start, "f32( is not closed");
    std::string_view lit = text_.substr(pos_, close - pos_);
    while (!lit.empty() && std::isspace(static_cast<unsigned char>(lit.back())))
      lit.remove_suffix(1);
    const bool literal =
        !lit.empty() &&
        lit.find_first_not_of("0123456789.eE+-infatyINFATY") == std::string_view::npos &&
        (lit.find_first_of(".eEnN") != std::string_view::npos);
    if (literal) {
      bool neg = false;
      std::string_view body = lit;
      if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
        neg = body[0] == '-';
        body.remove_prefix(1);
      }
      float f = 0;
      if (body == "inf" || body == "infinity") {
        f = std::numeric_limits<float>::infinity();
      } else if (body == "nan") {
        f = std::numeric_limits<float>::quiet_NaN();
      } else {
        const std::optional<float> parsed = fbits::parseDecimalFloat(body);
        if (!parsed) fail(pos_, "'" + std::string(lit) + "' is not a float literal");
        f = *parsed;
      }
      if (neg) f = -f;
      pos_ = close + 1;
      Node n;
      n.value = std::bit_cast<uint32_t>(f);
      return make(std::move(n));
    }
    Node n;
    n.kind = Node::Kind::F32OfInt;
    n.a = parseOr();
    if (!accept(")")) fail(pos_, "expected ')' closing f32(");
    return make(std::move(n));
  }

  std::string_view text_;
  IndexVar var_;
  Place place_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

uint64_t evalNode(const Node& n, uint64_t index, const Place& place) {
  switch (n.kind) {
    case Node::Kind::Const:
      return n.value;
    case Node::Kind::Index:
      return index;
    case Node::Kind::Neg:
      return 0 - evalNode(*n.a, index, place);
    case Node::Kind::Not:
      return ~evalNode(*n.a, index, place);
    case Node::Kind::Rand:
      return probeRandom(evalNode(*n.a, index, place), index);
    case Node::Kind::F32OfInt:
      return std::bit_cast<uint32_t>(
          static_cast<float>(static_cast<int64_t>(evalNode(*n.a, index, place))));
    case Node::Kind::Bin:
      break;
  }
  const uint64_t a = evalNode(*n.a, index, place);
  const uint64_t b = evalNode(*n.b, index, place);
  switch (n.op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
    case '%': {
      if (b == 0) {
        Place p = place;
        if (p.column > 0) p.column += n.column;
        throw Error(p, "division by zero (index " + std::to_string(index) + ")");
      }
      return n.op == '/' ? a / b : a % b;
    }
    case '<':
      return b >= 64 ? 0 : a << b;
    case '>':
      return b >= 64 ? 0 : a >> b;
    case '&':
      return a & b;
    case '|':
      return a | b;
    default:
      return a ^ b;
  }
}

}  // namespace

Expr Expr::parse(std::string_view text, IndexVar var, const Place& place) {
  Parser parser(text, var, place);
  Expr e;
  e.root_ = parser.parseAll();
  e.text_ = std::string(text);
  e.place_ = place;
  e.usesIndex_ = parser.usesIndex;
  e.nodes_ = parser.nodes;
  return e;
}

uint64_t Expr::eval(uint64_t index) const {
  return evalNode(*root_, index, place_);
}

uint32_t probeRandom(uint64_t seed, uint64_t index) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ull + index + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>(z ^ (z >> 31));
}

}  // namespace gcn::probe
