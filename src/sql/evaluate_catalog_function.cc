// ExpressionEvaluator: the system catalogs' and the session's functions
// (bind_catalog_function.cc binds them), through ctx.system.
#include <algorithm>

#include "common/array_value.h"
#include "sql/evaluator_internal.h"
#include "sql/sequence_access.h"
#include "sql/system_catalog/builtin_functions.h"
#include "sql/system_catalog/catalog_objects.h"
#include "sql/system_catalog/system_info.h"

namespace paceline::sql::eval {

namespace {

Value TextOrNull(const std::optional<std::string>& s) { return s ? Value::Text(*s) : Value::Null(TypeId::kText); }

// pg_get_userbyid's name of a role: the session's user owns everything;
// pg_database_owner the public schema.
std::string RoleName(const SystemInfo& info, uint32_t role) {
  return role == kOwnerRole           ? info.UserName()
         : role == kDatabaseOwnerRole ? "pg_database_owner"
                                      : "unknown (OID=" + std::to_string(role) + ")";
}

uint32_t OidArg(const Value& v) { return static_cast<uint32_t>(v.int_value()); }

}  // namespace

std::string QuoteLiteral(const std::string& s) {
  const bool escape = s.find('\\') != std::string::npos;
  std::string out = escape ? "E'" : "'";
  for (char c : s) {
    if (c == '\'' || (escape && c == '\\')) out += c;
    out += c;
  }
  return out + "'";
}

Status EvaluateCatalogFunction(const BoundExpr& e, const std::vector<Value>& args, const EvalContext& ctx,
                               Value* out) {
  // Functions that need no session.
  switch (e.function) {
    case ScalarFunction::kNullText:  // NULL of the function's type (text or bool)
      *out = Value::Null(e.type.id);
      return Status::OK();
    case ScalarFunction::kTrue:
      *out = Value::Bool(true);
      return Status::OK();
    case ScalarFunction::kFalse:
      *out = Value::Bool(false);
      return Status::OK();
    case ScalarFunction::kObjDescription: {
      // The public schema's and the built-in functions' (as pg_description).
      auto catalog_is = [&](std::string_view name) {
        return args.size() < 2 || (!args[1].is_null() && args[1].string_value() == name);
      };
      const uint32_t oid = args[0].is_null() ? 0 : OidArg(args[0]);
      const BuiltinFunction* f = catalog_is("pg_proc") ? BuiltinFunctionByOid(oid) : nullptr;
      if (oid == kPublicNamespace && catalog_is("pg_namespace")) {
        *out = Value::Text(std::string(kPublicSchemaComment));
      } else if (f != nullptr && !f->description.empty()) {
        *out = Value::Text(f->description);
      } else {
        *out = Value::Null(TypeId::kText);
      }
      return Status::OK();
    }
    case ScalarFunction::kRegprocedureOut:
      // name(type,type) when a session's catalog names the types.
      if (const BuiltinFunction* f = args[0].is_null() || ctx.system == nullptr ? nullptr
                                                                                : BuiltinFunctionByOid(OidArg(args[0]))) {
        const CatalogObjects objects(ctx.system->catalog());
        std::string types;
        for (uint32_t t : f->arg_types) types += (types.empty() ? "" : ",") + objects.FormatType(t, std::nullopt).value_or("???");
        *out = Value::Text(QuoteIdent(f->name) + "(" + types + ")");
        return Status::OK();
      }
      [[fallthrough]];
    case ScalarFunction::kRegprocOut: {
      // "-" for no function, as PostgreSQL's regprocout; a built-in
      // function and a support function (a type's input, ..) by name; any
      // other OID as its number.
      const uint32_t oid = args[0].is_null() ? 0 : OidArg(args[0]);
      const BuiltinFunction* f = BuiltinFunctionByOid(oid);
      const char* support = SupportFunctionName(oid);
      if (args[0].is_null()) {
        *out = Value::Null(TypeId::kText);
      } else if (f != nullptr) {
        *out = Value::Text(f->overloaded ? "pg_catalog." + QuoteIdent(f->name) : QuoteIdent(f->name));
      } else {
        *out = Value::Text(oid == 0 ? "-" : support != nullptr ? QuoteIdent(support) : std::to_string(oid));
      }
      return Status::OK();
    }
    case ScalarFunction::kCurrentSchema:
      if (ctx.system == nullptr) {  // no session: the default search path's
        *out = Value::Text("public");
        return Status::OK();
      }
      break;
    case ScalarFunction::kDatabaseEncoding:
      *out = Value::Text("UTF8");
      return Status::OK();
    case ScalarFunction::kEncodingToChar:
      *out = Value::Text(!args[0].is_null() && args[0].int_value() == 6 ? "UTF8" : "");
      return Status::OK();
    case ScalarFunction::kQuoteIdent:
      *out = args[0].is_null() ? Value::Null(TypeId::kText) : Value::Text(QuoteIdent(args[0].string_value()));
      return Status::OK();
    case ScalarFunction::kQuoteLiteral:
    case ScalarFunction::kQuoteNullable:
      if (args[0].is_null()) {
        *out = e.function == ScalarFunction::kQuoteNullable ? Value::Text("NULL") : Value::Null(TypeId::kText);
      } else {
        *out = Value::Text(QuoteLiteral(args[0].string_value()));
      }
      return Status::OK();
    case ScalarFunction::kPartitionAncestor:
      *out = args[0];
      return Status::OK();
    case ScalarFunction::kSizePretty:
      if (args[0].is_null()) {
        *out = Value::Null(TypeId::kText);
        return Status::OK();
      }
      return SizePretty(args[0], out);
    case ScalarFunction::kRegoperOut:  // pg_operator lists no operator: an OID prints as its digits
      *out = args[0].is_null() ? Value::Null(TypeId::kText) : Value::Text(std::to_string(OidArg(args[0])));
      return Status::OK();
    case ScalarFunction::kTablespaceLocation:  // pg_default and pg_global: in the data directory
      *out = args[0].is_null() ? Value::Null(TypeId::kText) : Value::Text("");
      return Status::OK();
    default:
      break;
  }
  if (ctx.system == nullptr) {
    return Status(sqlstate::kFeatureNotSupported, "this function needs a session (the system catalogs)");
  }
  SystemInfo& info = *ctx.system;
  const CatalogObjects objects(info.catalog(), PublicOnSearchPath(info));
  // The others are strict, apart from format_type's typmod.
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].is_null() && !(e.function == ScalarFunction::kFormatType && i == 1)) {
      *out = Value::Null(e.type.id);
      return Status::OK();
    }
  }
  switch (e.function) {
    case ScalarFunction::kRelationSize: case ScalarFunction::kTotalRelationSize: case ScalarFunction::kIndexesSize:
    case ScalarFunction::kDatabaseSize: case ScalarFunction::kTablespaceSize:
      return EvaluateSizeFunction(e, args, info, out);
    case ScalarFunction::kFunctionResult: case ScalarFunction::kFunctionArguments:
    case ScalarFunction::kFunctionIdentityArguments: case ScalarFunction::kFunctionIsVisible:
    case ScalarFunction::kFunctionDef: case ScalarFunction::kFunctionSqlBody: {
      // NULL for an OID that names no function, as PostgreSQL's.
      const BuiltinFunction* f = BuiltinFunctionByOid(OidArg(args[0]));
      if (f == nullptr) {
        *out = Value::Null(e.type.id);
      } else if (e.function == ScalarFunction::kFunctionIsVisible) {
        *out = Value::Bool(true);  // pg_catalog is searched first
      } else if (e.function == ScalarFunction::kFunctionSqlBody) {
        *out = f->sql_body.empty() ? Value::Null(TypeId::kText) : Value::Text(f->sql_body);
      } else if (e.function == ScalarFunction::kFunctionDef) {
        if (f->kind == 'a') return Status(sqlstate::kWrongObjectType, "\"" + f->name + "\" is an aggregate function");
        *out = Value::Text(FunctionDefinitionText(*f, objects));
      } else {
        *out = Value::Text(e.function == ScalarFunction::kFunctionResult ? FunctionResultText(*f, objects)
                           : FunctionArgumentsText(*f, objects, e.function == ScalarFunction::kFunctionArguments));
      }
      return Status::OK();
    }
    case ScalarFunction::kVersion: {
      std::string version;
      for (const auto& [name, value] : info.Settings()) {
        if (name == "server_version") version = value;
      }
      *out = Value::Text("PostgreSQL " + version + " on x86_64-pc-linux-gnu, 64-bit");
      return Status::OK();
    }
    case ScalarFunction::kAclDefault: {
      // PostgreSQL 15's acldefault(): the privileges an object of the kind
      // has before any GRANT ("owner=privileges/grantor", PUBLIC unnamed).
      const std::string& kind = args[0].string_value();
      const std::string owner = RoleName(info, OidArg(args[1]));
      std::vector<std::string> items;
      auto owner_has = [&](const char* privileges) { items.push_back(owner + "=" + privileges + "/" + owner); };
      auto public_has = [&](const char* privileges) { items.push_back(std::string("=") + privileges + "/" + owner); };
      switch (kind.empty() ? ' ' : kind[0]) {
        case 'r': owner_has("arwdDxt"); break;  // tables, views
        case 's': owner_has("rwU"); break;      // sequences
        case 'd': public_has("Tc"); owner_has("CTc"); break;
        case 'f': public_has("X"); owner_has("X"); break;
        case 'l': public_has("U"); owner_has("U"); break;
        case 'L': owner_has("rw"); break;
        case 'n': owner_has("UC"); break;
        case 't': owner_has("C"); break;
        case 'F': case 'S': owner_has("U"); break;
        case 'T': public_has("U"); owner_has("U"); break;
        case 'p': owner_has("sA"); break;
        case 'c': break;  // columns: none
        default:
          return Status(sqlstate::kInvalidParameterValue, "unrecognized objtype abbreviation: " + kind);
      }
      ArrayBuilder b(TypeId::kText);
      for (auto& item : items) b.Add(Value::Text(std::move(item)));
      *out = b.Finish();
      return Status::OK();
    }
    case ScalarFunction::kCurrentDatabase: *out = Value::Text(info.DatabaseName()); return Status::OK();
    case ScalarFunction::kCurrentUser: *out = Value::Text(info.UserName()); return Status::OK();
    case ScalarFunction::kBackendPid: *out = Value::Int32(info.BackendPid()); return Status::OK();
    case ScalarFunction::kClientAddr:
    case ScalarFunction::kClientPort:
    case ScalarFunction::kServerAddr:
    case ScalarFunction::kServerPort: {
      const bool client = e.function == ScalarFunction::kClientAddr || e.function == ScalarFunction::kClientPort;
      const std::optional<SystemInfo::Endpoint> end = client ? info.ClientEndpoint() : info.ServerEndpoint();
      const bool port = e.function == ScalarFunction::kClientPort || e.function == ScalarFunction::kServerPort;
      if (!end) *out = Value::Null(port ? TypeId::kInt32 : TypeId::kText);
      else *out = port ? Value::Int32(end->port) : Value::Text(end->address);
      return Status::OK();
    }
    case ScalarFunction::kTransactionId:
      *out = Value::Int64(static_cast<int64_t>(ctx.transaction_id.value()));
      return Status::OK();
    case ScalarFunction::kCancelBackend:
    case ScalarFunction::kTerminateBackend: {
      // (pg_terminate_backend's timeout is not waited out: the connection
      // ends as soon as its thread sees the request.)
      const bool terminate = e.function == ScalarFunction::kTerminateBackend;
      *out = Value::Bool(info.SignalBackend(static_cast<int32_t>(args[0].int_value()), terminate));
      return Status::OK();
    }
    case ScalarFunction::kCurrentSchema:  // the search path's first schema that exists
    case ScalarFunction::kCurrentSchemas: {
      const std::vector<std::string> path = SessionSearchPath(info);
      if (e.function == ScalarFunction::kCurrentSchema) {
        *out = path.empty() ? Value::Null(TypeId::kText) : Value::Text(path[0]);
        return Status::OK();
      }
      // The search path's schemas that exist; with implicit ones,
      // pg_catalog first unless the path names it.
      ArrayBuilder b(TypeId::kText);
      if (args[0].bool_value() && std::find(path.begin(), path.end(), "pg_catalog") == path.end()) {
        b.Add(Value::Text("pg_catalog"));
      }
      for (const std::string& schema : path) b.Add(Value::Text(schema));
      *out = b.Finish();
      return Status::OK();
    }
    case ScalarFunction::kCurrentSetting: {
      std::string name = args[0].string_value();
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      for (const auto& [setting, value] : info.Settings()) {
        if (setting == name) {
          *out = Value::Text(value);
          return Status::OK();
        }
      }
      if (args.size() > 1 && args[1].bool_value()) {  // missing_ok
        *out = Value::Null(TypeId::kText);
        return Status::OK();
      }
      return Status(sqlstate::kUndefinedObject, "unrecognized configuration parameter \"" + args[0].string_value() + "\"");
    }
    case ScalarFunction::kSetConfig:  // set_config(name, value, is_local): the value set
      PL_RETURN_IF_ERROR(info.SetSetting(args[0].string_value(), args[1].string_value(), args[2].bool_value()));
      *out = args[1];
      return Status::OK();
    case ScalarFunction::kFormatType: {
      std::optional<int32_t> typmod;
      if (!args[1].is_null()) typmod = static_cast<int32_t>(args[1].int_value());
      const std::optional<std::string> name = objects.FormatType(OidArg(args[0]), typmod);
      *out = Value::Text(name ? *name : "???");
      return Status::OK();
    }
    case ScalarFunction::kGetUserById:
      *out = Value::Text(RoleName(info, OidArg(args[0])));
      return Status::OK();
    case ScalarFunction::kTableIsVisible: {
      // Visible: found first by its bare name on the search path
      // (pg_catalog, then public); information_schema's never are.
      const std::optional<RelationRef> relation = objects.RelationByOid(OidArg(args[0]));
      if (!relation) {
        *out = objects.FormatType(OidArg(args[0]), std::nullopt) ? Value::Bool(true) : Value::Null(TypeId::kBool);
        return Status::OK();
      }
      const std::optional<RelationRef> first = objects.RelationByName("", relation->name);
      *out = Value::Bool(first && first->oid == relation->oid);
      return Status::OK();
    }
    case ScalarFunction::kGetExpr:  // the catalogs hold an expression's text already
      *out = Value::Text(objects.ExprText(args[0].string_value()));
      return Status::OK();
    case ScalarFunction::kGetIndexdef:
      *out = TextOrNull(objects.IndexDef(OidArg(args[0]), args.size() > 1 ? static_cast<int>(args[1].int_value()) : 0,
                                         args.size() > 2 && args[2].bool_value()));
      return Status::OK();
    case ScalarFunction::kGetConstraintdef:
      *out = TextOrNull(objects.ConstraintDef(OidArg(args[0]), args.size() > 1 && args[1].bool_value()));
      return Status::OK();
    case ScalarFunction::kGetViewdef:
      *out = TextOrNull(objects.ViewDef(OidArg(args[0])));
      return Status::OK();
    case ScalarFunction::kSerialSequence:
      return SerialSequenceOf(info.catalog(), args[0].string_value(), args[1].string_value(), out);
    case ScalarFunction::kRegclassIn: {
      uint32_t oid = 0;
      PL_RETURN_IF_ERROR(objects.RegclassOid(args[0].string_value(), &oid));
      *out = Value::Oid(oid);
      return Status::OK();
    }
    case ScalarFunction::kRegclassOut: *out = Value::Text(objects.RegclassText(OidArg(args[0]))); return Status::OK();
    case ScalarFunction::kRegtypeIn: {
      uint32_t oid = 0;
      PL_RETURN_IF_ERROR(objects.RegtypeOid(args[0].string_value(), &oid));
      *out = Value::Oid(oid);
      return Status::OK();
    }
    case ScalarFunction::kRegtypeOut: *out = Value::Text(objects.RegtypeText(OidArg(args[0]))); return Status::OK();
    case ScalarFunction::kRegnamespaceIn: {
      uint32_t oid = 0;
      PL_RETURN_IF_ERROR(objects.NamespaceOid(args[0].string_value(), &oid));
      *out = Value::Oid(oid);
      return Status::OK();
    }
    case ScalarFunction::kRegprocIn: case ScalarFunction::kRegprocedureIn: {
      uint32_t oid = 0;
      PL_RETURN_IF_ERROR(objects.RegprocOid(args[0].string_value(), e.function == ScalarFunction::kRegprocedureIn, &oid));
      *out = Value::Oid(oid);
      return Status::OK();
    }
    case ScalarFunction::kRegoperIn: case ScalarFunction::kRegoperatorIn: {
      uint32_t oid = 0;
      PL_RETURN_IF_ERROR(objects.RegoperOid(args[0].string_value(), e.function == ScalarFunction::kRegoperatorIn, &oid));
      *out = Value::Oid(oid);
      return Status::OK();
    }
    case ScalarFunction::kRegnamespaceOut:
      *out = Value::Text(objects.NamespaceText(OidArg(args[0])));
      return Status::OK();
    default:
      return InternalError("not a catalog function");
  }
}

}  // namespace paceline::sql::eval
