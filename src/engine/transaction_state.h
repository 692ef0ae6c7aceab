// TransactionState: where a session stands between statements, as a
// protocol reports it (ReadyForQuery's I / T / E).
#pragma once

namespace paceline::engine {

enum class TransactionState {
  kIdle,     // no block open
  kInBlock,  // in a transaction block (BEGIN, or an implicit one)
  kFailed,   // in a failed block: statements get 25P02 until it ends
};

}  // namespace paceline::engine
