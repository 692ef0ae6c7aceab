// ExpressionEvaluator: arrays (see expression_evaluator.h): ARRAY[..],
// subscripts, x op ANY/ALL (array) and the array functions, with
// PostgreSQL's NULL rules (bind_array.cc types them).
#include "common/array_value.h"
#include "sql/evaluator_internal.h"

namespace paceline::sql::eval {

namespace {

// IS NOT DISTINCT FROM on two elements (array_position, array_remove).
bool SameElement(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  return Value::Compare(a, b) == 0;
}

// Whether every non-NULL... PostgreSQL's array_contain_compare: each element
// of `inner` equals some element of `outer` (a NULL element matches nothing);
// with `match_all` false, whether any one does (&&).
bool ContainCompare(const Value& outer, const Value& inner, bool match_all) {
  const std::vector<Value> have = ArrayElements(outer);
  ArrayReader r(inner);
  Value v;
  while (r.Next(&v)) {
    bool found = false;
    if (!v.is_null()) {
      for (const Value& h : have) {
        if (!h.is_null() && Value::Compare(h, v) == 0) {
          found = true;
          break;
        }
      }
    }
    if (found && !match_all) return true;
    if (!found && match_all) return false;
  }
  return match_all;
}

// Splits `s` at each `delimiter` (NULL: into characters; "": not at all).
std::vector<std::string> SplitText(const std::string& s, const Value& delimiter) {
  std::vector<std::string> parts;
  if (s.empty()) return parts;
  if (delimiter.is_null()) {
    for (size_t i = 0; i < s.size();) {
      size_t n = 1;
      while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
      parts.push_back(s.substr(i, n));
      i += n;
    }
    return parts;
  }
  const std::string& d = delimiter.string_value();
  if (d.empty()) return {s};
  size_t start = 0;
  while (true) {
    const size_t at = s.find(d, start);
    if (at == std::string::npos) break;
    parts.push_back(s.substr(start, at - start));
    start = at + d.size();
  }
  parts.push_back(s.substr(start));
  return parts;
}

Value Int(int64_t v) { return Value::Int32(static_cast<int32_t>(v)); }

}  // namespace

Status EvaluateArrayNode(const BoundExpr& e, const EvalContext& ctx, Value* out) {
  switch (e.kind) {
    case BoundKind::kArray: {
      ArrayBuilder b(e.type.element);
      Value v;
      for (const auto& c : e.children) {
        PL_RETURN_IF_ERROR(Evaluate(*c, ctx, &v));
        b.Add(v);
      }
      *out = b.Finish();
      return Status::OK();
    }
    case BoundKind::kSubscript: {
      Value array, index;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &array));
      PL_RETURN_IF_ERROR(Evaluate(*e.children[1], ctx, &index));
      *out = Value::Null(e.type.id);
      if (!e.children[0]->type.IsArray()) {  // a name column: its character at 0-based `index`
        if (array.is_null() || index.is_null() || index.int_value() < 0 || index.int_value() >= 64) return Status::OK();
        const std::string& name = array.string_value();
        const auto at = static_cast<size_t>(index.int_value());
        *out = Value::Text(at < name.size() ? name.substr(at, 1) : std::string());
        return Status::OK();
      }
      if (array.is_null() || index.is_null()) return Status::OK();
      // An int2vector / oidvector is subscripted from 0, an array from 1.
      const int64_t wanted = index.int_value() + (e.children[0]->type.vector ? 1 : 0);
      if (wanted < 1) return Status::OK();
      ArrayReader r(array);
      Value v;
      for (int64_t i = 1; r.Next(&v); ++i) {
        if (i == wanted) {
          *out = std::move(v);
          break;
        }
      }
      return Status::OK();
    }
    case BoundKind::kArrayCompare: {
      // As x op ANY/ALL (subquery) over the elements: ANY is true when one
      // comparison is true, else NULL when one is NULL, else false; ALL
      // the other way round. An empty array: false for ANY, true for ALL,
      // even when x is NULL; a NULL array: NULL.
      const bool any = !e.negated;
      Value left, array;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &left));
      PL_RETURN_IF_ERROR(Evaluate(*e.children[1], ctx, &array));
      if (array.is_null()) {
        *out = Value::Null(TypeId::kBool);
        return Status::OK();
      }
      ArrayReader r(array);
      bool saw_null = false;
      Value v, c;
      while (r.Next(&v)) {
        if (left.is_null() || v.is_null()) {
          saw_null = true;
          continue;
        }
        PL_RETURN_IF_ERROR(CompareValues(e.op, left, v, &c));
        if (c.bool_value() == any) {
          *out = Value::Bool(any);
          return Status::OK();
        }
      }
      *out = saw_null ? Value::Null(TypeId::kBool) : Value::Bool(!any);
      return Status::OK();
    }
    default:
      return InternalError("not an array expression");
  }
}

Status EvaluateArrayFunction(const BoundExpr& e, const std::vector<Value>& args, Value* out) {
  const TypeId element = e.type.IsArray() ? e.type.element : TypeId::kUnknown;
  auto null = [&] {
    *out = Value::Null(e.type.id);
    return Status::OK();
  };
  // array_append/prepend/cat/remove and array_position take NULLs their own way.
  switch (e.function) {
    case ScalarFunction::kArrayAppend: case ScalarFunction::kArrayPrepend: {
      const bool append = e.function == ScalarFunction::kArrayAppend;
      const Value& array = args[append ? 0 : 1];
      const Value& item = args[append ? 1 : 0];
      ArrayBuilder b(element);
      if (!append) b.Add(item);
      if (!array.is_null()) {
        for (const Value& v : ArrayElements(array)) b.Add(v);
      }
      if (append) b.Add(item);
      *out = b.Finish();
      return Status::OK();
    }
    case ScalarFunction::kArrayCat: {
      if (args[0].is_null() && args[1].is_null()) return null();
      ArrayBuilder b(element);
      for (const Value& a : args) {
        if (a.is_null()) continue;
        for (const Value& v : ArrayElements(a)) b.Add(v);
      }
      *out = b.Finish();
      return Status::OK();
    }
    case ScalarFunction::kArrayRemove: {
      if (args[0].is_null()) return null();
      ArrayBuilder b(element);
      for (const Value& v : ArrayElements(args[0])) {
        if (!SameElement(v, args[1])) b.Add(v);
      }
      *out = b.Finish();
      return Status::OK();
    }
    case ScalarFunction::kArrayPosition: {
      if (args[0].is_null()) return null();
      int64_t start = 1;
      if (args.size() > 2) {
        if (args[2].is_null()) return Status(sqlstate::kNullValueNotAllowed, "initial position must not be null");
        start = args[2].int_value();
      }
      ArrayReader r(args[0]);
      Value v;
      for (int64_t i = 1; r.Next(&v); ++i) {
        if (i >= start && SameElement(v, args[1])) {
          *out = Int(i);
          return Status::OK();
        }
      }
      return null();
    }
    case ScalarFunction::kStringToArray: {
      if (args[0].is_null()) return null();
      ArrayBuilder b(TypeId::kText);
      for (std::string& part : SplitText(args[0].string_value(), args[1])) {
        const bool is_null = args.size() > 2 && !args[2].is_null() && part == args[2].string_value();
        b.Add(is_null ? Value::Null(TypeId::kText) : Value::Text(std::move(part)));
      }
      *out = b.Finish();
      return Status::OK();
    }
    case ScalarFunction::kArrayToString: {
      if (args[0].is_null() || args[1].is_null()) return null();
      const bool show_nulls = args.size() > 2 && !args[2].is_null();
      std::string s;
      bool first = true;
      for (const Value& v : ArrayElements(args[0])) {
        if (v.is_null() && !show_nulls) continue;
        if (!first) s += args[1].string_value();
        first = false;
        if (v.is_null()) {
          s += args[2].string_value();
        } else {
          v.AppendTo(&s);
        }
      }
      *out = Value::Text(std::move(s));
      return Status::OK();
    }
    default:
      break;
  }
  // The rest are strict.
  for (const Value& a : args) {
    if (a.is_null()) return null();
  }
  const uint32_t size = ArrayReader(args[0]).size();
  switch (e.function) {
    case ScalarFunction::kCardinality:
      *out = Int(size);
      return Status::OK();
    case ScalarFunction::kArrayNdims:
      return size == 0 ? null() : (*out = Int(1), Status::OK());
    case ScalarFunction::kArrayLength: case ScalarFunction::kArrayUpper: case ScalarFunction::kArrayLower:
      if (size == 0 || args[1].int_value() != 1) return null();
      if (e.function == ScalarFunction::kArrayLength) {
        *out = Int(size);
      } else {  // an int2vector / oidvector's bounds are 0 .. size - 1
        const int64_t lower = e.children[0]->type.vector ? 0 : 1;
        *out = Int(e.function == ScalarFunction::kArrayLower ? lower : lower + size - 1);
      }
      return Status::OK();
    case ScalarFunction::kArrayContains:
      *out = Value::Bool(ContainCompare(args[0], args[1], true));
      return Status::OK();
    case ScalarFunction::kArrayContained:
      *out = Value::Bool(ContainCompare(args[1], args[0], true));
      return Status::OK();
    case ScalarFunction::kArrayOverlap:
      *out = Value::Bool(ContainCompare(args[0], args[1], false));
      return Status::OK();
    default:
      return InternalError("not an array function");
  }
}

}  // namespace paceline::sql::eval
