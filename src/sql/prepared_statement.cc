// PreparedStatement: parse + bind of one statement (see prepared_statement.h).
#include "sql/prepared_statement.h"

#include "sql/binder.h"
#include "sql/parser.h"
#include "sql/reference_slot_extractor.h"
#include "sql/statement_kind.h"

namespace paceline::sql {

Status PreparedStatement::Prepare(std::string_view text, const catalog::Catalog& catalog,
                                  const std::vector<Type>& declared, std::shared_ptr<PreparedStatement>* out) {
  std::vector<std::unique_ptr<Statement>> statements;
  PL_RETURN_IF_ERROR(Parse(text, &statements));
  if (statements.size() > 1) {
    return SyntaxError("cannot insert multiple commands into a prepared statement");
  }
  if (statements.empty()) {
    auto empty = std::make_unique<Statement>();
    empty->kind = StatementKind::kUnsupported;
    empty->unsupported_what = "empty query";
    statements.push_back(std::move(empty));
  }
  PL_RETURN_IF_ERROR(FromStatement(std::move(statements[0]), catalog, declared, out));
  (*out)->text = std::string(text);
  return Status::OK();
}

Status PreparedStatement::FromStatement(std::unique_ptr<Statement> statement, const catalog::Catalog& catalog,
                                        const std::vector<Type>& declared, std::shared_ptr<PreparedStatement>* out) {
  auto p = std::make_shared<PreparedStatement>();
  p->kind = statement->kind;
  p->text = statement->text;
  p->catalog_version = catalog.version();
  Binder binder(&catalog);
  binder.DeclareParameterTypes(declared);
  binder.SetSource(statement->source);
  switch (statement->kind) {
    case StatementKind::kSelect:
      PL_RETURN_IF_ERROR(binder.BindSelect(*statement->select, &p->select));
      p->columns = p->select->columns;
      p->returns_rows = true;
      break;
    case StatementKind::kInsert:
      PL_RETURN_IF_ERROR(binder.BindInsert(*statement->insert, &p->insert));
      p->columns = p->insert->returning_columns;
      p->returns_rows = !p->insert->returning.empty();
      break;
    case StatementKind::kUpdate:
      PL_RETURN_IF_ERROR(binder.BindUpdate(*statement->update, &p->update));
      p->columns = p->update->returning_columns;
      p->returns_rows = !p->update->returning.empty();
      break;
    case StatementKind::kDelete:
      PL_RETURN_IF_ERROR(binder.BindDelete(*statement->del, &p->del));
      p->columns = p->del->returning_columns;
      p->returns_rows = !p->del->returning.empty();
      break;
    case StatementKind::kShow:
      p->columns = {{statement->show->name, Type(TypeId::kText)}};
      p->returns_rows = true;
      break;
    case StatementKind::kExplain: {
      std::unique_ptr<Statement> query = std::move(statement->explain->query);
      if (!IsDml(query->kind)) {
        return NotSupported(query->kind == StatementKind::kExecute
                                ? "EXPLAIN EXECUTE"
                                : "EXPLAIN of this statement (Paceline explains SELECT, INSERT, UPDATE and DELETE)");
      }
      std::shared_ptr<PreparedStatement> explained;
      PL_RETURN_IF_ERROR(FromStatement(std::move(query), catalog, declared, &explained));
      const bool json = statement->explain->format == ExplainFormat::kJson;
      p->columns = {{"QUERY PLAN", Type(json ? TypeId::kJson : TypeId::kText)}};
      p->returns_rows = true;
      p->param_types = explained->param_types;
      p->explained = std::move(explained);
      p->ast = std::move(statement);
      *out = std::move(p);
      return Status::OK();
    }
    default:
      break;
  }
  p->param_types = binder.ParameterTypes();
  p->table_ids = binder.TablesUsed();
  p->modifying_ctes = binder.ModifyingCtes();
  p->sequence_write = binder.SequenceWrite();
  ReferenceSlotExtractor(&catalog).Extract(*p, &p->reference_slots);
  p->ast = std::move(statement);
  *out = std::move(p);
  return Status::OK();
}

}  // namespace paceline::sql
