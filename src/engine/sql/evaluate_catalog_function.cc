// ExpressionEvaluator: the system catalogs' and the session's functions
// (bind_catalog_function.cc binds them), through ctx.system.
#include "common/array_value.h"
#include "engine/sql/evaluator_internal.h"
#include "engine/sql/sequence_access.h"
#include "engine/sql/system_catalog/catalog_objects.h"
#include "engine/sql/system_catalog/system_info.h"

namespace paceline::sql::eval {

namespace {

Value TextOrNull(const std::optional<std::string>& s) { return s ? Value::Text(*s) : Value::Null(TypeId::kText); }

uint32_t OidArg(const Value& v) { return static_cast<uint32_t>(v.int_value()); }

}  // namespace

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
    case ScalarFunction::kCurrentSchema:
      *out = Value::Text("public");
      return Status::OK();
    case ScalarFunction::kEncodingToChar:
      *out = Value::Text(!args[0].is_null() && args[0].int_value() == 6 ? "UTF8" : "");
      return Status::OK();
    case ScalarFunction::kQuoteIdent:
      *out = args[0].is_null() ? Value::Null(TypeId::kText) : Value::Text(QuoteIdent(args[0].string_value()));
      return Status::OK();
    case ScalarFunction::kPartitionAncestor:
      *out = args[0];
      return Status::OK();
    default:
      break;
  }
  if (ctx.system == nullptr) {
    return Status(sqlstate::kFeatureNotSupported, "this function needs a session (the system catalogs)");
  }
  SystemInfo& info = *ctx.system;
  const CatalogObjects objects(info.catalog());
  // The others are strict, apart from format_type's typmod.
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].is_null() && !(e.function == ScalarFunction::kFormatType && i == 1)) {
      *out = Value::Null(e.type.id);
      return Status::OK();
    }
  }
  switch (e.function) {
    case ScalarFunction::kVersion: {
      std::string version;
      for (const auto& [name, value] : info.Settings()) {
        if (name == "server_version") version = value;
      }
      *out = Value::Text("PostgreSQL " + version + " on x86_64-pc-linux-gnu, 64-bit");
      return Status::OK();
    }
    case ScalarFunction::kCurrentDatabase: *out = Value::Text(info.DatabaseName()); return Status::OK();
    case ScalarFunction::kCurrentUser: *out = Value::Text(info.UserName()); return Status::OK();
    case ScalarFunction::kBackendPid: *out = Value::Int32(info.BackendPid()); return Status::OK();
    case ScalarFunction::kCurrentSchemas: {
      ArrayBuilder b(TypeId::kText);
      if (args[0].bool_value()) b.Add(Value::Text("pg_catalog"));
      b.Add(Value::Text("public"));
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
    case ScalarFunction::kGetUserById: {
      const uint32_t role = OidArg(args[0]);
      *out = Value::Text(role == kOwnerRole           ? info.UserName()
                         : role == kDatabaseOwnerRole ? "pg_database_owner"
                                                      : "unknown (OID=" + std::to_string(role) + ")");
      return Status::OK();
    }
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
      *out = args[0];
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
    case ScalarFunction::kRegnamespaceOut:
      *out = Value::Text(objects.NamespaceText(OidArg(args[0])));
      return Status::OK();
    default:
      return InternalError("not a catalog function");
  }
}

}  // namespace paceline::sql::eval
