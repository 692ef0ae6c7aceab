// Transformer: expressions (see transformer.h).
#include "sql/transformer.h"

#include <utility>

#include "common/stack_depth.h"

namespace paceline::sql::transform {

Status Transformer::TransformExpr(const Node* node, ExprPtr* out) {
  out->reset();
  if (node == nullptr) return Status::OK();  // an absent clause
  PL_RETURN_IF_ERROR(CheckStackDepth());
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST: return TransformAConst(*node->a_const, out);
    case PG_QUERY__NODE__NODE_COLUMN_REF: return TransformColumnRef(*node->column_ref, out);
    case PG_QUERY__NODE__NODE_PARAM_REF: return TransformParamRef(*node->param_ref, out);
    case PG_QUERY__NODE__NODE_A_EXPR: return TransformAExpr(*node->a_expr, out);
    case PG_QUERY__NODE__NODE_BOOL_EXPR: return TransformBoolExpr(*node->bool_expr, out);
    case PG_QUERY__NODE__NODE_NULL_TEST: return TransformNullTest(*node->null_test, out);
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST: return TransformBooleanTest(*node->boolean_test, out);
    case PG_QUERY__NODE__NODE_FUNC_CALL: return TransformFuncCall(*node->func_call, out);
    case PG_QUERY__NODE__NODE_TYPE_CAST: return TransformTypeCast(*node->type_cast, out);
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: {
      // Paceline compares text bytewise, as the C collation, its only one:
      // COLLATE of it ("default", "C", "POSIX", as catalog queries write)
      // changes nothing; another does not exist (42704, as PostgreSQL).
      const PgQuery__CollateClause& c = *node->collate_clause;
      const std::string collation = LastName(c.collname, c.n_collname);
      if (collation != "default" && collation != "C" && collation != "POSIX") {
        return Status(sqlstate::kUndefinedObject,
                      "collation \"" + collation + "\" for encoding \"UTF8\" does not exist")
            .WithPosition(CharPosition(c.location));
      }
      return TransformExpr(c.arg, out);
    }
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
      return TransformSqlValueFunction(*node->sqlvalue_function, out);
    case PG_QUERY__NODE__NODE_CASE_EXPR: return TransformCaseExpr(*node->case_expr, out);
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: return TransformCoalesceExpr(*node->coalesce_expr, out);
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR: return TransformMinMaxExpr(*node->min_max_expr, out);
    case PG_QUERY__NODE__NODE_NULL_IF_EXPR: return TransformNullIfExpr(*node->null_if_expr, out);
    case PG_QUERY__NODE__NODE_SUB_LINK: return TransformSubLink(*node, out);
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR: return TransformArrayExpr(*node->a_array_expr, out);
    case PG_QUERY__NODE__NODE_A_INDIRECTION: return TransformIndirection(*node->a_indirection, out);
    case PG_QUERY__NODE__NODE_ROW_EXPR: {
      const PgQuery__RowExpr& r = *node->row_expr;
      ExprPtr e = MakeExpr(ExprKind::kRow, r.location);
      PL_RETURN_IF_ERROR(TransformExprList(r.args, r.n_args, &e->list));
      *out = std::move(e);
      return Status::OK();
    }
    default: return UnsupportedExpression(*node);
  }
}

Status Transformer::TransformExprList(Node* const* items, size_t n, std::vector<ExprPtr>* out) {
  for (size_t i = 0; i < n; ++i) {
    ExprPtr e;
    PL_RETURN_IF_ERROR(TransformExpr(items[i], &e));
    if (e == nullptr) return InternalError("empty expression in a list");
    out->push_back(std::move(e));
  }
  return Status::OK();
}

Status Transformer::TransformAConst(const PgQuery__AConst& c, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kLiteral, c.location);
  if (c.isnull) {
    e->literal_kind = LiteralKind::kNull;
    *out = std::move(e);
    return Status::OK();
  }
  switch (c.val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
      e->literal_kind = LiteralKind::kInteger;
      e->int_value = c.ival->ival;
      e->text = std::to_string(c.ival->ival);
      break;
    case PG_QUERY__A__CONST__VAL_FVAL:
      // PostgreSQL leaves integers beyond int32 and all decimals as strings.
      e->text = Str(c.fval->fval);
      e->literal_kind = ParseInt64(e->text, &e->int_value) ? LiteralKind::kInteger : LiteralKind::kNumeric;
      break;
    case PG_QUERY__A__CONST__VAL_SVAL:
      e->literal_kind = LiteralKind::kString;
      e->text = Str(c.sval->sval);
      break;
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
      e->literal_kind = LiteralKind::kBool;
      e->bool_value = c.boolval->boolval;
      e->text = e->bool_value ? "true" : "false";
      break;
    case PG_QUERY__A__CONST__VAL_BSVAL: return Unsupported("bit-string literals", c.location);
    default: return InternalError("constant without a value");
  }
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformColumnRef(const PgQuery__ColumnRef& c, ExprPtr* out) {
  if (c.n_fields == 0) return InternalError("column reference without a name");
  // [catalog.][schema.]table.column: keep the last two parts.
  size_t first = c.n_fields > 2 ? c.n_fields - 2 : 0;
  std::string qualifier;
  if (c.n_fields >= 2) {
    const char* q = StringOf(c.fields[first]);
    if (q == nullptr) return Unsupported("this column reference", c.location);
    qualifier = q;
  }
  const Node* last = c.fields[c.n_fields - 1];
  ExprPtr e;
  if (Is(last, PG_QUERY__NODE__NODE_A_STAR)) {
    e = MakeExpr(ExprKind::kStar, c.location);
  } else if (const char* column = StringOf(last)) {
    e = MakeExpr(ExprKind::kColumnRef, c.location);
    e->column = column;
  } else {
    return Unsupported("this column reference", c.location);
  }
  e->qualifier = std::move(qualifier);
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformParamRef(const PgQuery__ParamRef& p, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kParameter, p.location);
  e->param_index = p.number;
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformAExpr(const PgQuery__AExpr& a, ExprPtr* out) {
  std::string op = LastName(a.name, a.n_name);  // OPERATOR(pg_catalog.=) → "="
  switch (a.kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE: return TransformOperator(a, op, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN: return TransformIn(a, op, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN: return TransformBetween(a, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT: {
      ExprPtr left, right;
      PL_RETURN_IF_ERROR(TransformExpr(a.lexpr, &left));
      PL_RETURN_IF_ERROR(TransformExpr(a.rexpr, &right));
      BinaryOp bop = a.kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT ? BinaryOp::kIsDistinctFrom
                                                                       : BinaryOp::kIsNotDistinctFrom;
      *out = MakeBinary(bop, std::move(left), std::move(right), a.location);
      return Status::OK();
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF: {
      Node* args[] = {a.lexpr, a.rexpr};
      return MakeFunction("nullif", args, 2, a.location, out);
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL: return TransformArrayCompare(a, op, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR: return Unsupported("SIMILAR TO", a.location);
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM: return Unsupported("BETWEEN SYMMETRIC", a.location);
    default: return Unsupported("operator expression", a.location);
  }
}

Status Transformer::TransformOperator(const PgQuery__AExpr& a, const std::string& op, ExprPtr* out) {
  if (a.lexpr == nullptr) {  // prefix operator
    ExprPtr e = MakeExpr(ExprKind::kUnary, a.location);
    if (op == "-") {
      e->unary_op = UnaryOp::kMinus;
    } else if (op == "+") {
      e->unary_op = UnaryOp::kPlus;
    } else {
      return Unsupported("prefix operator " + op, a.location);
    }
    PL_RETURN_IF_ERROR(TransformExpr(a.rexpr, &e->left));
    *out = std::move(e);
    return Status::OK();
  }
  if (const char* function = ArrayOperatorFunction(op)) {  // a @> b → arraycontains(a, b)
    Node* args[] = {a.lexpr, a.rexpr};
    return MakeFunction(function, args, 2, a.location, out);
  }
  // The regular expression operators, as the functions PostgreSQL names
  // them by (a ~ b → textregexeq(a, b)).
  static const std::pair<const char*, const char*> kRegexOperators[] = {
      {"~", "textregexeq"}, {"~*", "texticregexeq"}, {"!~", "textregexne"}, {"!~*", "texticregexne"}};
  for (const auto& [name, function] : kRegexOperators) {
    if (op == name) {
      Node* args[] = {a.lexpr, a.rexpr};
      return MakeFunction(function, args, 2, a.location, out);
    }
  }
  std::optional<BinaryOp> bop = BinaryOpFromName(op);
  if (!bop.has_value()) return Unsupported("operator " + op, a.location);
  // x LIKE y ESCAPE z arrives as x ~~ like_escape(y, z).
  if (Is(a.rexpr, PG_QUERY__NODE__NODE_FUNC_CALL) &&
      LastName(a.rexpr->func_call->funcname, a.rexpr->func_call->n_funcname) == "like_escape") {
    return Unsupported("LIKE ... ESCAPE", a.location);
  }
  ExprPtr left, right;
  PL_RETURN_IF_ERROR(TransformExpr(a.lexpr, &left));
  PL_RETURN_IF_ERROR(TransformExpr(a.rexpr, &right));
  if (right == nullptr) return Unsupported("postfix operator " + op, a.location);
  *out = MakeBinary(*bop, std::move(left), std::move(right), a.location);
  return Status::OK();
}

Status Transformer::TransformIn(const PgQuery__AExpr& a, const std::string& op, ExprPtr* out) {
  if (!Is(a.rexpr, PG_QUERY__NODE__NODE_LIST)) return Unsupported("IN without a list", a.location);
  ExprPtr e = MakeExpr(ExprKind::kIn, a.location);
  e->negated = op == "<>";  // the grammar names NOT IN "<>" and IN "="
  PL_RETURN_IF_ERROR(TransformExpr(a.lexpr, &e->left));
  PL_RETURN_IF_ERROR(TransformExprList(a.rexpr->list->items, a.rexpr->list->n_items, &e->list));
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformBetween(const PgQuery__AExpr& a, ExprPtr* out) {
  if (!Is(a.rexpr, PG_QUERY__NODE__NODE_LIST) || a.rexpr->list->n_items != 2) {
    return InternalError("BETWEEN without two bounds");
  }
  ExprPtr e = MakeExpr(ExprKind::kBetween, a.location);
  e->negated = a.kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
  PL_RETURN_IF_ERROR(TransformExpr(a.lexpr, &e->left));
  PL_RETURN_IF_ERROR(TransformExprList(a.rexpr->list->items, 2, &e->list));
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformBoolExpr(const PgQuery__BoolExpr& b, ExprPtr* out) {
  std::vector<ExprPtr> args;
  PL_RETURN_IF_ERROR(TransformExprList(b.args, b.n_args, &args));
  if (args.empty()) return InternalError("boolean expression without operands");
  if (b.boolop == PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR) {
    ExprPtr e = MakeExpr(ExprKind::kUnary, b.location);
    e->unary_op = UnaryOp::kNot;
    e->left = std::move(args[0]);
    *out = std::move(e);
    return Status::OK();
  }
  // a AND b AND c ... arrives as one n-ary node (PostgreSQL flattens chains of
  // any length): fold it into a balanced tree, (a AND b) AND (c AND d), whose
  // depth grows with the log of the length. Evaluated left to right, it
  // stops at the same operand as the flat chain.
  BinaryOp op = b.boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? BinaryOp::kOr : BinaryOp::kAnd;
  while (args.size() > 1) {
    std::vector<ExprPtr> pairs;
    for (size_t i = 0; i + 1 < args.size(); i += 2) {
      pairs.push_back(MakeBinary(op, std::move(args[i]), std::move(args[i + 1]), b.location));
    }
    if (args.size() % 2 == 1) pairs.push_back(std::move(args.back()));
    args = std::move(pairs);
  }
  *out = std::move(args[0]);
  return Status::OK();
}

Status Transformer::TransformNullTest(const PgQuery__NullTest& n, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kIsNull, n.location);
  e->negated = n.nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NOT_NULL;
  PL_RETURN_IF_ERROR(TransformExpr(n.arg, &e->left));
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformBooleanTest(const PgQuery__BooleanTest& b, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kIsBool, b.location);
  switch (b.booltesttype) {
    case PG_QUERY__BOOL_TEST_TYPE__IS_TRUE: e->bool_test = BoolTest::kTrue; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE: e->bool_test = BoolTest::kNotTrue; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_FALSE: e->bool_test = BoolTest::kFalse; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_FALSE: e->bool_test = BoolTest::kNotFalse; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_UNKNOWN: e->bool_test = BoolTest::kUnknown; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_UNKNOWN: e->bool_test = BoolTest::kNotUnknown; break;
    default: return InternalError("unknown boolean test");
  }
  PL_RETURN_IF_ERROR(TransformExpr(b.arg, &e->left));
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformFuncCall(const PgQuery__FuncCall& f, ExprPtr* out) {
  std::string name = Lower(LastName(f.funcname, f.n_funcname));  // pg_catalog.now → now
  if (f.agg_filter != nullptr) return Unsupported("FILTER on aggregates", f.location);
  if (f.agg_within_group) return Unsupported("WITHIN GROUP", f.location);
  if (f.func_variadic) return Unsupported("VARIADIC", f.location);
  PL_RETURN_IF_ERROR(MakeFunction(std::move(name), f.args, f.n_args, f.location, out));
  for (size_t i = 0; i < f.n_agg_order; ++i) {
    if (!Is(f.agg_order[i], PG_QUERY__NODE__NODE_SORT_BY)) return InternalError("aggregate ORDER BY item is not a sort");
    OrderItem item;
    PL_RETURN_IF_ERROR(TransformSortBy(*f.agg_order[i]->sort_by, &item));
    (*out)->agg_order.push_back(std::move(item));
  }
  (*out)->distinct = f.agg_distinct;
  (*out)->star = f.agg_star;
  if (f.over != nullptr) PL_RETURN_IF_ERROR(TransformWindowDef(*f.over, &(*out)->over));
  return Status::OK();
}

Status Transformer::MakeFunction(std::string name, Node* const* args, size_t n_args, int location,
                                ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kFunction, location);
  e->function_name = std::move(name);
  PL_RETURN_IF_ERROR(TransformExprList(args, n_args, &e->list));
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformTypeCast(const PgQuery__TypeCast& t, ExprPtr* out) {
  if (t.type_name == nullptr) return InternalError("cast without a type");
  // `int '5'` has no location of its own; point at the type name.
  ExprPtr e = MakeExpr(ExprKind::kCast, t.location >= 0 ? t.location : t.type_name->location);
  PL_RETURN_IF_ERROR(TransformExpr(t.arg, &e->left));
  PL_RETURN_IF_ERROR(TransformTypeName(*t.type_name, &e->cast_type));
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformSqlValueFunction(const PgQuery__SQLValueFunction& f, ExprPtr* out) {
  std::string name;
  switch (f.op) {
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP: name = "now"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE: name = "current_date"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP: name = "localtimestamp"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME: name = "current_time"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME: name = "localtime"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE: name = "current_role"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER: name = "current_user"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER: name = "session_user"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG: name = "current_database"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA: name = "current_schema"; break;
    default: return Unsupported("CURRENT_TIMESTAMP, CURRENT_TIME etc. with a precision", f.location);
  }
  return MakeFunction(std::move(name), nullptr, 0, f.location, out);
}

Status Transformer::TransformCaseExpr(const PgQuery__CaseExpr& c, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kCase, c.location);
  PL_RETURN_IF_ERROR(TransformExpr(c.arg, &e->left));  // CASE x WHEN ...; null for CASE WHEN ...
  for (size_t i = 0; i < c.n_args; ++i) {
    const Node* n = c.args[i];
    if (!Is(n, PG_QUERY__NODE__NODE_CASE_WHEN)) return InternalError("CASE arm is not a WHEN");
    CaseWhen when;
    PL_RETURN_IF_ERROR(TransformExpr(n->case_when->expr, &when.condition));
    PL_RETURN_IF_ERROR(TransformExpr(n->case_when->result, &when.result));
    e->whens.push_back(std::move(when));
  }
  PL_RETURN_IF_ERROR(TransformExpr(c.defresult, &e->else_result));
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformCoalesceExpr(const PgQuery__CoalesceExpr& c, ExprPtr* out) {
  return MakeFunction("coalesce", c.args, c.n_args, c.location, out);
}

Status Transformer::TransformMinMaxExpr(const PgQuery__MinMaxExpr& m, ExprPtr* out) {
  return MakeFunction(m.op == PG_QUERY__MIN_MAX_OP__IS_LEAST ? "least" : "greatest", m.args, m.n_args,
                      m.location, out);
}

Status Transformer::TransformNullIfExpr(const PgQuery__NullIfExpr& n, ExprPtr* out) {
  return MakeFunction("nullif", n.args, n.n_args, n.location, out);
}

Status Transformer::TransformSubLink(const Node& node, ExprPtr* out) {
  const PgQuery__SubLink& s = *node.sub_link;
  ExprPtr e = MakeExpr(ExprKind::kSubquery, s.location);
  switch (s.sub_link_type) {
    case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK: e->subquery_kind = SubqueryKind::kScalar; break;
    case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK: e->subquery_kind = SubqueryKind::kExists; break;
    case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK: e->subquery_kind = SubqueryKind::kAny; break;
    case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK: e->subquery_kind = SubqueryKind::kAll; break;
    case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK: e->subquery_kind = SubqueryKind::kArray; break;
    default: return UnsupportedExpression(node);  // row comparisons
  }
  if (e->subquery_kind == SubqueryKind::kAny || e->subquery_kind == SubqueryKind::kAll) {
    // x IN (SELECT ..) has no operator name: it is = ANY.
    std::string op = s.n_oper_name > 0 ? Str(StringOf(s.oper_name[s.n_oper_name - 1])) : "=";
    std::optional<BinaryOp> bop = BinaryOpFromName(op);
    if (!bop || *bop < BinaryOp::kEq || *bop > BinaryOp::kGe) {
      return Unsupported("operator " + op + " with ANY/ALL (subquery)", s.location);
    }
    e->binary_op = *bop;
    if (Is(s.testexpr, PG_QUERY__NODE__NODE_ROW_EXPR)) {
      return Unsupported("a row constructor compared with a subquery", s.location);
    }
    PL_RETURN_IF_ERROR(TransformExpr(s.testexpr, &e->left));
    if (e->left == nullptr) return InternalError("ANY/ALL subquery without an operand");
  }
  if (!Is(s.subselect, PG_QUERY__NODE__NODE_SELECT_STMT)) return Unsupported("this subquery", s.location);
  std::unique_ptr<SelectStmt> query;
  PL_RETURN_IF_ERROR(TransformSelect(*s.subselect->select_stmt, &query));
  e->subquery = std::move(query);
  *out = std::move(e);
  return Status::OK();
}

const char* Transformer::ArrayOperatorFunction(const std::string& op) {
  if (op == "@>") return "arraycontains";
  if (op == "<@") return "arraycontained";
  if (op == "&&") return "arrayoverlap";
  return nullptr;
}

Status Transformer::TransformArrayExpr(const PgQuery__AArrayExpr& a, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kArray, a.location);
  for (size_t i = 0; i < a.n_elements; ++i) {
    if (Is(a.elements[i], PG_QUERY__NODE__NODE_A_ARRAY_EXPR)) return Unsupported("multidimensional arrays", a.location);
  }
  PL_RETURN_IF_ERROR(TransformExprList(a.elements, a.n_elements, &e->list));
  *out = std::move(e);
  return Status::OK();
}

Status Transformer::TransformIndirection(const PgQuery__AIndirection& a, ExprPtr* out) {
  ExprPtr base;
  PL_RETURN_IF_ERROR(TransformExpr(a.arg, &base));
  for (size_t i = 0; i < a.n_indirection; ++i) {
    const Node* n = a.indirection[i];
    if (Is(n, PG_QUERY__NODE__NODE_STRING)) {  // (x).name
      ExprPtr e = MakeExpr(ExprKind::kFieldSelect, base->location);
      e->column = Str(n->string->sval);
      e->left = std::move(base);
      base = std::move(e);
      continue;
    }
    if (!Is(n, PG_QUERY__NODE__NODE_A_INDICES)) return Unsupported("(x).* of a record", base->location);
    const PgQuery__AIndices& ind = *n->a_indices;
    if (ind.is_slice) return Unsupported("array slices", base->location);
    if (i > 0 && base->kind == ExprKind::kSubscript) return Unsupported("multidimensional arrays", base->location);
    ExprPtr e = MakeExpr(ExprKind::kSubscript, base->location);
    e->left = std::move(base);
    PL_RETURN_IF_ERROR(TransformExpr(ind.uidx, &e->right));
    if (e->right == nullptr) return InternalError("subscript without an index");
    base = std::move(e);
  }
  *out = std::move(base);
  return Status::OK();
}

Status Transformer::TransformArrayCompare(const PgQuery__AExpr& a, const std::string& op, ExprPtr* out) {
  const bool any = a.kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY;
  std::optional<BinaryOp> bop = BinaryOpFromName(op);
  if (!bop || *bop < BinaryOp::kEq || *bop > BinaryOp::kGe) {
    return Unsupported("operator " + op + (any ? " with ANY (array)" : " with ALL (array)"), a.location);
  }
  ExprPtr e = MakeExpr(ExprKind::kArrayCompare, a.location);
  e->binary_op = *bop;
  e->subquery_kind = any ? SubqueryKind::kAny : SubqueryKind::kAll;
  PL_RETURN_IF_ERROR(TransformExpr(a.lexpr, &e->left));
  PL_RETURN_IF_ERROR(TransformExpr(a.rexpr, &e->right));
  if (e->left == nullptr || e->right == nullptr) return InternalError("ANY/ALL without operands");
  *out = std::move(e);
  return Status::OK();
}

}  // namespace paceline::sql::transform
