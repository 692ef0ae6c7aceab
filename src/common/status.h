// Status: the outcome of an operation that can fail in an expected way.
//
// A failed Status carries a PostgreSQL SQLSTATE (five characters, e.g.
// "42P01"), a human-readable message that names the problem, optionally a
// detail (PostgreSQL's DETAIL line, e.g. "Key (id)=(1) already exists.") and
// the 1-based character position in the statement text the error refers to
// (PostgreSQL's "position" field). Success carries nothing and costs one
// pointer. Status is a value type: copyable, movable, thread-compatible.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace paceline {

// SQLSTATE codes used by Paceline (PostgreSQL's Appendix A names).
namespace sqlstate {
inline constexpr std::string_view kSuccessfulCompletion = "00000";
inline constexpr std::string_view kFeatureNotSupported = "0A000";
inline constexpr std::string_view kCardinalityViolation = "21000";
inline constexpr std::string_view kDataException = "22000";
inline constexpr std::string_view kStringDataRightTruncation = "22001";
inline constexpr std::string_view kNumericValueOutOfRange = "22003";
inline constexpr std::string_view kInvalidDatetimeFormat = "22007";
inline constexpr std::string_view kSequenceGeneratorLimitExceeded = "2200H";
inline constexpr std::string_view kDatetimeFieldOverflow = "22008";
inline constexpr std::string_view kInvalidTimeZoneDisplacementValue = "22009";
inline constexpr std::string_view kDivisionByZero = "22012";
inline constexpr std::string_view kIntervalFieldOverflow = "22015";
inline constexpr std::string_view kInvalidRegularExpression = "2201B";
inline constexpr std::string_view kInvalidArgumentForPowerFunction = "2201F";
inline constexpr std::string_view kInvalidRowCountInLimitClause = "2201W";
inline constexpr std::string_view kInvalidRowCountInResultOffsetClause = "2201X";
inline constexpr std::string_view kCharacterNotInRepertoire = "22021";
inline constexpr std::string_view kNullValueNotAllowed = "22004";
inline constexpr std::string_view kInvalidArgumentForNtile = "22014";
inline constexpr std::string_view kInvalidArgumentForNthValue = "22016";
inline constexpr std::string_view kInvalidPrecedingOrFollowingSize = "22013";
inline constexpr std::string_view kInvalidParameterValue = "22023";
inline constexpr std::string_view kInvalidTextRepresentation = "22P02";
inline constexpr std::string_view kInvalidBinaryRepresentation = "22P03";
inline constexpr std::string_view kBadCopyFileFormat = "22P04";
inline constexpr std::string_view kUntranslatableCharacter = "22P05";
inline constexpr std::string_view kIntegrityConstraintViolation = "23000";
inline constexpr std::string_view kNotNullViolation = "23502";
inline constexpr std::string_view kForeignKeyViolation = "23503";
inline constexpr std::string_view kCheckViolation = "23514";
inline constexpr std::string_view kUniqueViolation = "23505";
inline constexpr std::string_view kInvalidTransactionState = "25000";
inline constexpr std::string_view kActiveSqlTransaction = "25001";
inline constexpr std::string_view kReadOnlySqlTransaction = "25006";
inline constexpr std::string_view kNoActiveSqlTransaction = "25P01";
inline constexpr std::string_view kInvalidSavepoint = "3B001";  // invalid_savepoint_specification
inline constexpr std::string_view kInFailedSqlTransaction = "25P02";
inline constexpr std::string_view kIdleInTransactionTimeout = "25P03";
inline constexpr std::string_view kInvalidSqlStatementName = "26000";
inline constexpr std::string_view kInvalidCursorName = "34000";
inline constexpr std::string_view kInvalidAuthorizationSpecification = "28000";
inline constexpr std::string_view kInvalidPassword = "28P01";
inline constexpr std::string_view kTransactionRollback = "40000";
inline constexpr std::string_view kSerializationFailure = "40001";
inline constexpr std::string_view kDeadlockDetected = "40P01";
inline constexpr std::string_view kSyntaxError = "42601";
inline constexpr std::string_view kInvalidName = "42602";
inline constexpr std::string_view kInvalidSchemaName = "3F000";
inline constexpr std::string_view kInsufficientPrivilege = "42501";
inline constexpr std::string_view kGroupingError = "42803";
inline constexpr std::string_view kWindowingError = "42P20";
inline constexpr std::string_view kWrongObjectType = "42809";
inline constexpr std::string_view kDatatypeMismatch = "42804";
inline constexpr std::string_view kInvalidForeignKey = "42830";
inline constexpr std::string_view kUndefinedFunction = "42883";
inline constexpr std::string_view kAmbiguousFunction = "42725";
inline constexpr std::string_view kCannotCoerce = "42846";
inline constexpr std::string_view kInvalidCatalogName = "3D000";  // no such database
inline constexpr std::string_view kUndefinedTable = "42P01";
inline constexpr std::string_view kIndeterminateDatatype = "42P18";
inline constexpr std::string_view kUndefinedColumn = "42703";
inline constexpr std::string_view kUndefinedObject = "42704";
inline constexpr std::string_view kUndefinedParameter = "42P02";
inline constexpr std::string_view kAmbiguousColumn = "42702";
inline constexpr std::string_view kDuplicateAlias = "42712";
inline constexpr std::string_view kDuplicateTable = "42P07";
inline constexpr std::string_view kDuplicateObject = "42710";
inline constexpr std::string_view kDuplicateColumn = "42701";
inline constexpr std::string_view kDuplicatePreparedStatement = "42P05";
inline constexpr std::string_view kDuplicateCursor = "42P03";
inline constexpr std::string_view kInvalidTableDefinition = "42P16";
inline constexpr std::string_view kInvalidColumnReference = "42P10";
inline constexpr std::string_view kInvalidObjectDefinition = "42P17";
inline constexpr std::string_view kDependentObjectsStillExist = "2BP01";
inline constexpr std::string_view kGeneratedAlways = "428C9";
inline constexpr std::string_view kProgramLimitExceeded = "54000";
inline constexpr std::string_view kStatementTooComplex = "54001";
inline constexpr std::string_view kTooManyConnections = "53300";
inline constexpr std::string_view kLockNotAvailable = "55P03";
inline constexpr std::string_view kCantChangeRuntimeParam = "55P02";
inline constexpr std::string_view kObjectNotInPrerequisiteState = "55000";
inline constexpr std::string_view kObjectInUse = "55006";
inline constexpr std::string_view kIoError = "58030";
inline constexpr std::string_view kUndefinedFile = "58P01";
inline constexpr std::string_view kConfigFileError = "F0000";
inline constexpr std::string_view kQueryCanceled = "57014";
inline constexpr std::string_view kProtocolViolation = "08P01";
inline constexpr std::string_view kConnectionFailure = "08006";  // a connection broke or could not be made
inline constexpr std::string_view kAdminShutdown = "57P01";
inline constexpr std::string_view kIdleSessionTimeout = "57P05";
inline constexpr std::string_view kRaiseException = "P0001";
inline constexpr std::string_view kInternalError = "XX000";
inline constexpr std::string_view kDataCorrupted = "XX001";
}  // namespace sqlstate

class Status {
 public:
  Status() = default;  // OK
  Status(std::string_view sqlstate, std::string message, int position = 0);

  static Status OK() { return Status(); }

  bool ok() const { return state_ == nullptr; }
  // "00000" when ok.
  std::string_view sqlstate() const;
  const std::string& message() const;
  // PostgreSQL's DETAIL field; "" when none.
  const std::string& detail() const;
  // 1-based character offset into the statement, 0 when none.
  int position() const { return state_ ? state_->position : 0; }
  // "ERROR:  <message> (SQLSTATE 42P01)"-like one-line rendering for logs.
  std::string ToString() const;
  // Same error with a position attached (when it has none yet).
  Status WithPosition(int position) const;
  // Same error with a DETAIL attached.
  Status WithDetail(std::string detail) const;

  bool Is(std::string_view code) const { return sqlstate() == code; }

 private:
  struct State {
    char code[6];
    int position;
    std::string message;
    std::string detail;
  };
  std::shared_ptr<const State> state_;
};

// Helpers that build a Status with a given code.
Status SyntaxError(std::string message, int position = 0);
Status NotSupported(std::string what);  // 0A000 "<what> is not supported"
Status InternalError(std::string message);

// Returns early from the enclosing function when `expr` is a failed Status.
#define PL_RETURN_IF_ERROR(expr)                 \
  do {                                           \
    ::paceline::Status _pl_status = (expr);      \
    if (!_pl_status.ok()) return _pl_status;     \
  } while (0)

}  // namespace paceline
