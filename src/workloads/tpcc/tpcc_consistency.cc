// The consistency conditions as SQL queries, compared in C++.
#include "workloads/tpcc/tpcc_consistency.h"

#include <map>
#include <utility>

#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {

namespace {

using DistrictKey = std::pair<int64_t, int64_t>;  // (w_id, d_id)

std::string Name(const DistrictKey& k) {
  return "warehouse " + std::to_string(k.first) + " district " + std::to_string(k.second);
}

Status Violation(int condition, const std::string& what) {
  return Status(sqlstate::kInternalError, "TPC-C consistency condition " + std::to_string(condition) +
                                              " violated: " + what);
}

// Runs `sql` and maps (first column, second column) → the remaining columns.
Status QueryByDistrict(engine::Session& session, const std::string& sql,
                       std::map<DistrictKey, std::vector<Value>>* out) {
  QueryResult r;
  PL_RETURN_IF_ERROR(session.Execute(sql, &r));
  for (auto& row : r.rows) {
    (*out)[{IntOf(row[0]), IntOf(row[1])}] = std::vector<Value>(row.begin() + 2, row.end());
  }
  return Status::OK();
}

}  // namespace

Status CheckTpccConsistency(engine::Database* db, std::string* report) {
  auto session = db->CreateSession();
  QueryResult r;
  std::string lines;

  // 1. W_YTD = sum(D_YTD).
  PL_RETURN_IF_ERROR(session->Execute("SELECT w_id, w_ytd FROM warehouse ORDER BY w_id", &r));
  std::map<int64_t, int64_t> w_ytd;
  for (auto& row : r.rows) w_ytd[IntOf(row[0])] = CentsOf(row[1]);
  PL_RETURN_IF_ERROR(session->Execute("SELECT d_w_id, sum(d_ytd) FROM district GROUP BY d_w_id", &r));
  std::map<int64_t, int64_t> d_ytd;
  for (auto& row : r.rows) d_ytd[IntOf(row[0])] = CentsOf(row[1]);
  for (auto& [w, ytd] : w_ytd) {
    if (d_ytd[w] != ytd) {
      return Violation(1, "warehouse " + std::to_string(w) + " has W_YTD " + Cents(ytd).ToString() +
                              " but its districts' D_YTD add up to " + Cents(d_ytd[w]).ToString());
    }
  }
  lines += "consistency 1 (W_YTD = sum(D_YTD)): " + std::to_string(w_ytd.size()) + " warehouses ok\n";

  // 2 and 3: next order id, orders and new orders per district.
  std::map<DistrictKey, std::vector<Value>> next, max_order, new_orders, ol_cnt, lines_count;
  PL_RETURN_IF_ERROR(QueryByDistrict(*session, "SELECT d_w_id, d_id, d_next_o_id FROM district", &next));
  PL_RETURN_IF_ERROR(QueryByDistrict(
      *session, "SELECT o_w_id, o_d_id, max(o_id), sum(o_ol_cnt) FROM orders GROUP BY o_w_id, o_d_id", &max_order));
  PL_RETURN_IF_ERROR(QueryByDistrict(*session,
                                     "SELECT no_w_id, no_d_id, max(no_o_id), min(no_o_id), count(*) "
                                     "FROM new_order GROUP BY no_w_id, no_d_id",
                                     &new_orders));
  size_t with_new_orders = 0;
  for (auto& [key, values] : next) {
    const int64_t last = IntOf(values[0]) - 1;
    auto order = max_order.find(key);
    const int64_t max_o = order == max_order.end() ? 0 : IntOf(order->second[0]);
    if (max_o != last) {
      return Violation(2, Name(key) + " has D_NEXT_O_ID - 1 = " + std::to_string(last) + " but max(O_ID) = " +
                              std::to_string(max_o));
    }
    auto no = new_orders.find(key);
    if (no == new_orders.end()) continue;
    ++with_new_orders;
    if (IntOf(no->second[0]) != last) {
      return Violation(2, Name(key) + " has D_NEXT_O_ID - 1 = " + std::to_string(last) + " but max(NO_O_ID) = " +
                              no->second[0].ToString());
    }
    const int64_t span = IntOf(no->second[0]) - IntOf(no->second[1]) + 1;
    if (span != IntOf(no->second[2])) {
      return Violation(3, Name(key) + " has max(NO_O_ID) - min(NO_O_ID) + 1 = " + std::to_string(span) + " but " +
                              no->second[2].ToString() + " new_order rows");
    }
  }
  lines += "consistency 2 (D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)): " + std::to_string(next.size()) +
           " districts ok\n";
  lines += "consistency 3 (max(NO_O_ID) - min(NO_O_ID) + 1 = count(new_order)): " +
           std::to_string(with_new_orders) + " districts with new orders ok\n";

  // 4. sum(O_OL_CNT) = count(order_line).
  PL_RETURN_IF_ERROR(QueryByDistrict(
      *session, "SELECT ol_w_id, ol_d_id, count(*) FROM order_line GROUP BY ol_w_id, ol_d_id", &lines_count));
  for (auto& [key, values] : max_order) {
    auto count = lines_count.find(key);
    const int64_t n = count == lines_count.end() ? 0 : IntOf(count->second[0]);
    if (IntOf(values[1]) != n) {
      return Violation(4, Name(key) + " has sum(O_OL_CNT) = " + values[1].ToString() + " but " +
                              std::to_string(n) + " order_line rows");
    }
  }
  lines += "consistency 4 (sum(O_OL_CNT) = count(order_line)): " + std::to_string(max_order.size()) +
           " districts ok\n";
  if (report != nullptr) *report += lines;
  return Status::OK();
}

}  // namespace paceline::workloads::tpcc
