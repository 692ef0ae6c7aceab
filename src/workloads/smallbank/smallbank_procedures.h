// The six SmallBank transactions as stored procedures (Alomari, Cahill,
// Fekete and Röhm, "The Cost of Serializability on Platforms That Use
// Snapshot Isolation", ICDE 2008; the amounts and the mix as OLTPBench and
// H-Store run it). Money is BIGINT cents. Every procedure first looks its
// customers up in `accounts`; an unknown customer is a business abort
// (ProcedureContext::Rollback: a user abort, not a conflict).
//
//   Amalgamate(c0, c1)        c1's checking += c0's savings + checking;
//                             both of c0's balances become 0.
//   Balance(c)                reads savings + checking (read-only).
//   DepositChecking(c, v)     checking += v; v < 0: business abort.
//   SendPayment(c0, c1, v)    c0's checking −= v, c1's += v; business abort
//                             when c0's checking < v (insufficient funds).
//   TransactSavings(c, v)     savings += v (a deposit, or a withdrawal when
//                             negative); business abort when it would
//                             leave savings negative.
//   WriteCheck(c, v)          checking −= v, or v + 100 (a $1 overdraft
//                             penalty) when savings + checking < v. Returns
//                             the amount debited (one row, one BIGINT), so
//                             that the caller's ledger knows it.
//
// Balances read before they are written are read FOR UPDATE (one lock, no
// upgrade, under 2PL). Each procedure's `predict` lists every statement
// with its customer, so the scheduler sees the customers before it runs.
//
// Thread-safety: the procedures are immutable values; their bodies run on
// any worker.
#pragma once

#include <vector>

#include "engine/procedure.h"

namespace paceline::workloads::smallbank {

inline constexpr const char* kAmalgamateProcedure = "smallbank_amalgamate";
inline constexpr const char* kBalanceProcedure = "smallbank_balance";
inline constexpr const char* kDepositCheckingProcedure = "smallbank_deposit_checking";
inline constexpr const char* kSendPaymentProcedure = "smallbank_send_payment";
inline constexpr const char* kTransactSavingsProcedure = "smallbank_transact_savings";
inline constexpr const char* kWriteCheckProcedure = "smallbank_write_check";

// The overdraft penalty of WriteCheck, in cents.
inline constexpr int64_t kOverdraftPenaltyCents = 100;

// All six, in the order of SmallbankWorkload::TransactionTypes().
std::vector<engine::Procedure> SmallbankProcedures();

}  // namespace paceline::workloads::smallbank
