// Binder: the functions of the system catalogs and the session (see
// binder.h; evaluated in evaluate_catalog_function.cc), the regular
// expression operators (textregexeq & co., which the transformer makes of
// ~ ~* !~ !~*), and casts to regclass, regtype, regnamespace and regrole.
//
// A reg* type is kept as an OID where it is input (a name cast to regclass
// is the relation's OID) and as its text where it is output (an OID cast
// to regclass is the relation's name), so catalog queries compare and
// print as in PostgreSQL; the result column is then oid or text rather than
// regclass.
#include "sql/binder_internal.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

// Each argument's kind (Binder::BindArguments): 'o' oid, 'i' int4, 't'
// text, 'b' bool, '*' any; the first min_args are required.
struct CatalogFunction {
  const char* name;
  ScalarFunction function;
  const char* args;
  int min_args;
  TypeId result;
};

constexpr CatalogFunction kCatalogFunctions[] = {
    {"version", ScalarFunction::kVersion, "", 0, TypeId::kText},
    {"current_database", ScalarFunction::kCurrentDatabase, "", 0, TypeId::kText},
    {"current_catalog", ScalarFunction::kCurrentDatabase, "", 0, TypeId::kText},
    {"current_schema", ScalarFunction::kCurrentSchema, "", 0, TypeId::kText},
    {"current_schemas", ScalarFunction::kCurrentSchemas, "b", 1, TypeId::kArray},
    {"current_user", ScalarFunction::kCurrentUser, "", 0, TypeId::kText},
    {"current_role", ScalarFunction::kCurrentUser, "", 0, TypeId::kText},
    {"session_user", ScalarFunction::kCurrentUser, "", 0, TypeId::kText},
    {"user", ScalarFunction::kCurrentUser, "", 0, TypeId::kText},
    {"pg_backend_pid", ScalarFunction::kBackendPid, "", 0, TypeId::kInt32},
    // The connection's two ends; text, as Paceline has no inet type.
    {"inet_client_addr", ScalarFunction::kClientAddr, "", 0, TypeId::kText},
    {"inet_client_port", ScalarFunction::kClientPort, "", 0, TypeId::kInt32},
    {"inet_server_addr", ScalarFunction::kServerAddr, "", 0, TypeId::kText},
    {"inet_server_port", ScalarFunction::kServerPort, "", 0, TypeId::kInt32},
    {"txid_current", ScalarFunction::kTransactionId, "", 0, TypeId::kInt64},
    {"txid_current_if_assigned", ScalarFunction::kTransactionId, "", 0, TypeId::kInt64},
    {"pg_cancel_backend", ScalarFunction::kCancelBackend, "i", 1, TypeId::kBool},
    {"pg_terminate_backend", ScalarFunction::kTerminateBackend, "i*", 1, TypeId::kBool},
    {"pg_is_in_recovery", ScalarFunction::kFalse, "", 0, TypeId::kBool},  // no standby: never
    {"acldefault", ScalarFunction::kAclDefault, "to", 2, TypeId::kArray},
    {"format_type", ScalarFunction::kFormatType, "oi", 2, TypeId::kText},
    {"pg_get_userbyid", ScalarFunction::kGetUserById, "o", 1, TypeId::kText},
    {"pg_table_is_visible", ScalarFunction::kTableIsVisible, "o", 1, TypeId::kBool},
    {"pg_type_is_visible", ScalarFunction::kTableIsVisible, "o", 1, TypeId::kBool},
    // No collations or functions are listed (pg_collation, pg_proc): NULL,
    // as PostgreSQL answers for an OID that names none.
    {"pg_collation_is_visible", ScalarFunction::kNullText, "o", 1, TypeId::kBool},
    {"pg_function_is_visible", ScalarFunction::kFunctionIsVisible, "o", 1, TypeId::kBool},
    {"pg_operator_is_visible", ScalarFunction::kNullText, "o", 1, TypeId::kBool},
    {"pg_opclass_is_visible", ScalarFunction::kNullText, "o", 1, TypeId::kBool},
    {"pg_opfamily_is_visible", ScalarFunction::kNullText, "o", 1, TypeId::kBool},
    {"pg_conversion_is_visible", ScalarFunction::kNullText, "o", 1, TypeId::kBool},
    {"pg_statistics_obj_is_visible", ScalarFunction::kNullText, "o", 1, TypeId::kBool},
    {"pg_ts_config_is_visible", ScalarFunction::kNullText, "o", 1, TypeId::kBool},
    {"pg_ts_parser_is_visible", ScalarFunction::kNullText, "o", 1, TypeId::kBool},
    {"pg_ts_dict_is_visible", ScalarFunction::kNullText, "o", 1, TypeId::kBool},
    {"pg_ts_template_is_visible", ScalarFunction::kNullText, "o", 1, TypeId::kBool},
    {"pg_get_function_result", ScalarFunction::kFunctionResult, "o", 1, TypeId::kText},
    {"pg_get_function_arguments", ScalarFunction::kFunctionArguments, "o", 1, TypeId::kText},
    {"pg_get_function_identity_arguments", ScalarFunction::kFunctionIdentityArguments, "o", 1, TypeId::kText},
    {"pg_get_function_sqlbody", ScalarFunction::kFunctionSqlBody, "o", 1, TypeId::kText},
    {"pg_get_functiondef", ScalarFunction::kFunctionDef, "o", 1, TypeId::kText},
    // Sizes: 'r' a relation by OID or name (regclass).
    {"pg_relation_size", ScalarFunction::kRelationSize, "rt", 1, TypeId::kInt64},
    {"pg_table_size", ScalarFunction::kRelationSize, "r", 1, TypeId::kInt64},
    {"pg_total_relation_size", ScalarFunction::kTotalRelationSize, "r", 1, TypeId::kInt64},
    {"pg_indexes_size", ScalarFunction::kIndexesSize, "r", 1, TypeId::kInt64},
    {"pg_database_size", ScalarFunction::kDatabaseSize, "*", 1, TypeId::kInt64},
    {"pg_size_pretty", ScalarFunction::kSizePretty, "*", 1, TypeId::kText},
    {"pg_tablespace_location", ScalarFunction::kTablespaceLocation, "o", 1, TypeId::kText},
    {"pg_tablespace_size", ScalarFunction::kTablespaceSize, "*", 1, TypeId::kInt64},
    {"getdatabaseencoding", ScalarFunction::kDatabaseEncoding, "", 0, TypeId::kText},
    {"pg_type_is_visible", ScalarFunction::kTableIsVisible, "o", 1, TypeId::kBool},
    {"pg_get_expr", ScalarFunction::kGetExpr, "tob", 2, TypeId::kText},
    {"pg_get_indexdef", ScalarFunction::kGetIndexdef, "oib", 1, TypeId::kText},
    {"pg_get_constraintdef", ScalarFunction::kGetConstraintdef, "ob", 1, TypeId::kText},
    {"pg_get_viewdef", ScalarFunction::kGetViewdef, "ob", 1, TypeId::kText},
    // Nothing to describe: no comments (but the public schema's), triggers,
    // statistics objects or partition keys in Paceline.
    {"obj_description", ScalarFunction::kObjDescription, "ot", 1, TypeId::kText},
    {"col_description", ScalarFunction::kNullText, "**", 2, TypeId::kText},
    {"shobj_description", ScalarFunction::kNullText, "**", 2, TypeId::kText},
    {"pg_get_triggerdef", ScalarFunction::kNullText, "**", 1, TypeId::kText},
    {"pg_get_statisticsobjdef_columns", ScalarFunction::kNullText, "*", 1, TypeId::kText},
    {"pg_get_partkeydef", ScalarFunction::kNullText, "*", 1, TypeId::kText},
    // Every session may do everything (Paceline has no privileges).
    {"has_table_privilege", ScalarFunction::kTrue, "***", 2, TypeId::kBool},
    {"has_schema_privilege", ScalarFunction::kTrue, "***", 2, TypeId::kBool},
    {"has_database_privilege", ScalarFunction::kTrue, "***", 2, TypeId::kBool},
    {"has_column_privilege", ScalarFunction::kTrue, "****", 3, TypeId::kBool},
    {"has_any_column_privilege", ScalarFunction::kTrue, "***", 2, TypeId::kBool},
    {"has_sequence_privilege", ScalarFunction::kTrue, "***", 2, TypeId::kBool},
    {"has_function_privilege", ScalarFunction::kTrue, "***", 2, TypeId::kBool},
    {"pg_relation_is_publishable", ScalarFunction::kTrue, "*", 1, TypeId::kBool},
    {"pg_encoding_to_char", ScalarFunction::kEncodingToChar, "i", 1, TypeId::kText},
    {"quote_ident", ScalarFunction::kQuoteIdent, "t", 1, TypeId::kText},
    {"quote_literal", ScalarFunction::kQuoteLiteral, "t", 1, TypeId::kText},
    {"quote_nullable", ScalarFunction::kQuoteNullable, "t", 1, TypeId::kText},
    {"current_setting", ScalarFunction::kCurrentSetting, "tb", 1, TypeId::kText},
    {"set_config", ScalarFunction::kSetConfig, "ttb", 3, TypeId::kText},
    // A set-returning function whose one row, without partitions, is its
    // argument: in the select list it is that value (FROM: bind_table_function.cc).
    {"pg_partition_ancestors", ScalarFunction::kPartitionAncestor, "o", 1, TypeId::kOid},
    {"textregexeq", ScalarFunction::kRegexMatch, "tt", 2, TypeId::kBool},
    {"textregexne", ScalarFunction::kRegexMatch, "tt", 2, TypeId::kBool},
    {"texticregexeq", ScalarFunction::kRegexMatchCi, "tt", 2, TypeId::kBool},
    {"texticregexne", ScalarFunction::kRegexMatchCi, "tt", 2, TypeId::kBool},
};

const CatalogFunction* FindCatalogFunction(const std::string& name) {
  for (const CatalogFunction& f : kCatalogFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

}  // namespace

namespace bind {

void AddCatalogFunctionNames(std::vector<std::string_view>* out) {
  for (const CatalogFunction& f : kCatalogFunctions) out->push_back(f.name);
}

}  // namespace bind

std::string_view Binder::CatalogFunctionName(ScalarFunction function) {
  for (const auto& f : kCatalogFunctions) {
    if (f.function == function) return f.name;
  }
  return "";
}

bool Binder::IsCatalogFunctionName(const std::string& name) { return FindCatalogFunction(name) != nullptr; }

Status Binder::BindArguments(const Expr& e, Context& ctx, std::string_view kinds, int min_args, int max_args,
                             std::vector<BoundExprPtr>* args) {
  for (const auto& a : e.list) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindExpr(*a, ctx, &b));
    args->push_back(std::move(b));
  }
  auto no_such_function = [&] {
    std::string sig;
    for (const auto& a : *args) sig += (sig.empty() ? "" : ", ") + TypeText(a->type);
    return Status(sqlstate::kUndefinedFunction, "function " + e.function_name + "(" + sig + ") does not exist",
                  Pos(e.location));
  };
  if (static_cast<int>(args->size()) < min_args || static_cast<int>(args->size()) > max_args) return no_such_function();
  for (size_t i = 0; i < args->size(); ++i) {
    BoundExprPtr& a = (*args)[i];
    switch (kinds[std::min(i, kinds.size() - 1)]) {
      case 'o':
        if (IsUnknown(*a) || a->type.IsInteger()) PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kOid), false, e.location));
        if (a->type.id != TypeId::kOid) return no_such_function();
        break;
      case 'r':  // regclass: an OID, or a relation's name read as regclass input reads it
        if (IsUnknown(*a) || a->type.IsString()) {
          PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kText), false, e.location));
          auto in = MakeNode(BoundKind::kFunction, Type(TypeId::kOid), e.location);
          in->function = ScalarFunction::kRegclassIn;
          in->children.push_back(std::move(a));
          a = std::move(in);
        }
        if (a->type.IsInteger()) PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kOid), false, e.location));
        if (a->type.id != TypeId::kOid) return no_such_function();
        break;
      case 'i':
        if (IsUnknown(*a) || a->type.IsInteger()) PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kInt32), true, e.location));
        if (a->type.id != TypeId::kInt32) return no_such_function();
        break;
      case 't':
        if (IsUnknown(*a)) PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kText), false, e.location));
        if (!a->type.IsString()) return no_such_function();
        break;
      case 'b':
        if (IsUnknown(*a)) PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kBool), false, e.location));
        if (a->type.id != TypeId::kBool) return no_such_function();
        break;
      case 'y':
        if (IsUnknown(*a)) PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kBytea), false, e.location));
        if (a->type.id != TypeId::kBytea) return no_such_function();
        break;
      default:  // '*': any value; an untyped literal as text
        if (IsUnknown(*a)) PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kText), false, e.location));
        break;
    }
  }
  return Status::OK();
}

Status Binder::BindCatalogFunction(const Expr& e, Context& ctx, BoundExprPtr* out) {
  const CatalogFunction& f = *FindCatalogFunction(e.function_name);
  std::vector<BoundExprPtr> args;
  PL_RETURN_IF_ERROR(BindArguments(e, ctx, f.args, f.min_args, static_cast<int>(std::string_view(f.args).size()), &args));
  auto node = MakeNode(BoundKind::kFunction, f.result == TypeId::kArray ? Type::Array(Type(TypeId::kText)) : Type(f.result),
                       e.location);
  node->function = f.function;
  // !~ and !~*: the match, negated.
  node->negated = e.function_name == "textregexne" || e.function_name == "texticregexne";
  node->children = std::move(args);
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindRegCast(const Expr& e, Context& ctx, BoundExprPtr* out) {
  const std::string& type = e.cast_type.name;
  if (e.cast_type.is_array) return NotSupported("casts to " + type + "[]");
  BoundExprPtr child;
  PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &child));
  const bool input = IsUnknown(*child) || child->type.IsString();
  if (!input && !child->type.IsInteger()) {
    return Status(sqlstate::kCannotCoerce, "cannot cast type " + TypeText(child->type) + " to " + type, Pos(e.location));
  }
  ScalarFunction function;
  if (type == "regclass") {
    function = input ? ScalarFunction::kRegclassIn : ScalarFunction::kRegclassOut;
  } else if (type == "regtype") {
    function = input ? ScalarFunction::kRegtypeIn : ScalarFunction::kRegtypeOut;
  } else if (type == "regnamespace") {
    function = input ? ScalarFunction::kRegnamespaceIn : ScalarFunction::kRegnamespaceOut;
  } else if (type == "regrole" && !input) {
    function = ScalarFunction::kGetUserById;
  } else if (type == "regproc") {
    function = input ? ScalarFunction::kRegprocIn : ScalarFunction::kRegprocOut;
  } else if (type == "regprocedure") {
    function = input ? ScalarFunction::kRegprocedureIn : ScalarFunction::kRegprocedureOut;
  } else if (type == "regoper") {
    function = input ? ScalarFunction::kRegoperIn : ScalarFunction::kRegoperOut;
  } else if (type == "regoperator") {
    function = input ? ScalarFunction::kRegoperatorIn : ScalarFunction::kRegoperOut;
  } else {
    return NotSupported("casts of " + TypeText(child->type) + " to " + type);
  }
  PL_RETURN_IF_ERROR(Coerce(&child, input ? Type(TypeId::kText) : Type(TypeId::kOid), true, e.location));
  auto node = MakeNode(BoundKind::kFunction, Type(input ? TypeId::kOid : TypeId::kText), e.location);
  node->function = function;
  node->children.push_back(std::move(child));
  *out = std::move(node);
  return Status::OK();
}

bool Binder::IsRegTypeName(const std::string& name) {
  return name == "regclass" || name == "regtype" || name == "regnamespace" || name == "regrole" ||
         name == "regproc" || name == "regprocedure" || name == "regoper" || name == "regoperator" ||
         name == "regconfig";
}

}  // namespace paceline::sql
