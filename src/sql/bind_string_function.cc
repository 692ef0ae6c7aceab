// Binder: PostgreSQL's string functions (evaluated in
// evaluate_string_function.cc): each name's arguments and result type, in
// one table. A text argument takes any string type or an untyped literal;
// an int argument any integer; concat and concat_ws take values of any
// type (as their text).
#include "sql/binder_internal.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

// Each argument's kind (Binder::BindArguments): 't' text, 'i' int4, 'y'
// bytea, '*' any (printed as text); past the last kind, the last one
// repeats (concat's and format's variadic arguments).
struct StringFunction {
  const char* name;
  ScalarFunction function;
  const char* args;
  int min_args;
  int max_args;
  TypeId result;
};

constexpr StringFunction kStringFunctions[] = {
    {"concat", ScalarFunction::kConcat, "*", 1, 100, TypeId::kText},
    {"concat_ws", ScalarFunction::kConcatWs, "t*", 2, 101, TypeId::kText},
    {"replace", ScalarFunction::kReplace, "ttt", 3, 3, TypeId::kText},
    {"strpos", ScalarFunction::kStrpos, "tt", 2, 2, TypeId::kInt32},
    {"position", ScalarFunction::kStrpos, "tt", 2, 2, TypeId::kInt32},  // position(sub IN s) is position(s, sub)
    {"lpad", ScalarFunction::kLpad, "tit", 2, 3, TypeId::kText},
    {"rpad", ScalarFunction::kRpad, "tit", 2, 3, TypeId::kText},
    {"repeat", ScalarFunction::kRepeat, "ti", 2, 2, TypeId::kText},
    {"reverse", ScalarFunction::kReverse, "t", 1, 1, TypeId::kText},
    {"split_part", ScalarFunction::kSplitPart, "tti", 3, 3, TypeId::kText},
    {"left", ScalarFunction::kLeft, "ti", 2, 2, TypeId::kText},
    {"right", ScalarFunction::kRight, "ti", 2, 2, TypeId::kText},
    {"initcap", ScalarFunction::kInitcap, "t", 1, 1, TypeId::kText},
    {"md5", ScalarFunction::kMd5, "t", 1, 1, TypeId::kText},
    {"chr", ScalarFunction::kChr, "i", 1, 1, TypeId::kText},
    {"ascii", ScalarFunction::kAscii, "t", 1, 1, TypeId::kInt32},
    {"starts_with", ScalarFunction::kStartsWith, "tt", 2, 2, TypeId::kBool},
    {"translate", ScalarFunction::kTranslate, "ttt", 3, 3, TypeId::kText},
    {"format", ScalarFunction::kFormat, "t*", 1, 101, TypeId::kText},
    {"encode", ScalarFunction::kEncode, "yt", 2, 2, TypeId::kText},
    {"decode", ScalarFunction::kDecode, "tt", 2, 2, TypeId::kBytea},
    {"regexp_replace", ScalarFunction::kRegexpReplace, "tttt", 3, 4, TypeId::kText},
};

}  // namespace

namespace bind {

void AddStringFunctionNames(std::vector<std::string_view>* out) {
  for (const StringFunction& f : kStringFunctions) out->push_back(f.name);
}

}  // namespace bind

bool Binder::IsStringFunction(const std::string& name) {
  for (const StringFunction& f : kStringFunctions) {
    if (name == f.name) return true;
  }
  return false;
}

Status Binder::BindStringFunction(const Expr& e, Context& ctx, BoundExprPtr* out) {
  const StringFunction* f = nullptr;
  for (const StringFunction& g : kStringFunctions) {
    if (e.function_name == g.name) f = &g;
  }
  std::vector<BoundExprPtr> args;
  PL_RETURN_IF_ERROR(BindArguments(e, ctx, f->args, f->min_args, f->max_args, &args));
  *out = MakeNode(BoundKind::kFunction, Type(f->result), e.location);
  (*out)->function = f->function;
  (*out)->children = std::move(args);
  return Status::OK();
}

}  // namespace paceline::sql
