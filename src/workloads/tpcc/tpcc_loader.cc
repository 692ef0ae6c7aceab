// TpccLoader: the initial population, generated per warehouse on worker
// threads and bulk-loaded in chunks.
#include "workloads/tpcc/tpcc_loader.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

#include "common/datetime.h"
#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {

namespace {

constexpr size_t kChunkRows = 20000;

using Row = std::vector<Value>;

// Rows of one table, bulk-loaded every kChunkRows.
class TableSink {
 public:
  TableSink(engine::Database* db, const char* table, std::atomic<uint64_t>* rows)
      : db_(db), table_(table), rows_(rows) {}
  Status Add(Row row) {
    pending_.push_back(std::move(row));
    return pending_.size() >= kChunkRows ? Flush() : Status::OK();
  }
  Status Flush() {
    if (pending_.empty()) return Status::OK();
    PL_RETURN_IF_ERROR(db_->BulkLoad(table_, pending_));
    rows_->fetch_add(pending_.size(), std::memory_order_relaxed);
    pending_.clear();
    return Status::OK();
  }

 private:
  engine::Database* db_;
  const char* table_;
  std::atomic<uint64_t>* rows_;
  std::vector<Row> pending_;
};

Value Ts(int64_t micros) { return Value::Timestamp(micros); }
Value NullOf(TypeId type) { return Value::Null(type); }

// Address columns: street_1, street_2, city, state, zip.
void AddAddress(Random& rng, Row* row) {
  row->push_back(Str(TpccRandom::AlphaString(rng, 10, 20)));
  row->push_back(Str(TpccRandom::AlphaString(rng, 10, 20)));
  row->push_back(Str(TpccRandom::AlphaString(rng, 10, 20)));
  std::string state(2, 'A');
  for (char& c : state) c = static_cast<char>('A' + rng() % 26);
  row->push_back(Str(state));
  row->push_back(Str(TpccRandom::Zip(rng)));
}

Status LoadItems(engine::Database* db, const TpccOptions& options, std::atomic<uint64_t>* rows) {
  Random rng(options.seed * 1000003 + 0);
  TableSink items(db, "item", rows);
  for (int i = 1; i <= options.items; ++i) {
    PL_RETURN_IF_ERROR(items.Add({Int(i), Int(TpccRandom::Uniform(rng, 1, 10000)),
                                  Str(TpccRandom::AlphaString(rng, 14, 24)),
                                  Num(TpccRandom::Uniform(rng, 100, 10000), 2),
                                  Str(TpccRandom::DataString(rng, 26, 50))}));
  }
  return items.Flush();
}

// Everything of warehouse `w`: the warehouse row, its stock, districts,
// customers, history, orders, order lines and new orders.
Status LoadWarehouse(engine::Database* db, const TpccOptions& options, const TpccRandom& random, int w,
                     int64_t now, std::atomic<uint64_t>* rows) {
  Random rng(options.seed * 1000003 + static_cast<uint64_t>(w));
  TableSink warehouse(db, "warehouse", rows), stock(db, "stock", rows), district(db, "district", rows),
      customer(db, "customer", rows), history(db, "history", rows), orders(db, "orders", rows),
      order_line(db, "order_line", rows), new_order(db, "new_order", rows);

  Row row = {Int(w), Str(TpccRandom::AlphaString(rng, 6, 10))};
  AddAddress(rng, &row);
  row.push_back(Num(TpccRandom::Uniform(rng, 0, 2000), 4));
  row.push_back(Num(30000000, 2));  // w_ytd 300,000.00
  PL_RETURN_IF_ERROR(warehouse.Add(std::move(row)));
  PL_RETURN_IF_ERROR(warehouse.Flush());

  for (int i = 1; i <= options.items; ++i) {
    row = {Int(i), Int(w), Int(TpccRandom::Uniform(rng, 10, 100))};
    for (int d = 0; d < kDistrictsPerWarehouse; ++d) row.push_back(Str(TpccRandom::AlphaString(rng, 24, 24)));
    row.push_back(Num(0, 0));  // s_ytd
    row.push_back(Int(0));     // s_order_cnt
    row.push_back(Int(0));     // s_remote_cnt
    row.push_back(Str(TpccRandom::DataString(rng, 26, 50)));
    PL_RETURN_IF_ERROR(stock.Add(std::move(row)));
  }
  PL_RETURN_IF_ERROR(stock.Flush());

  const int customers = options.customers_per_district;
  const int first_undelivered = options.FirstUndeliveredOrder();
  for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
    row = {Int(d), Int(w), Str(TpccRandom::AlphaString(rng, 6, 10))};
    AddAddress(rng, &row);
    row.push_back(Num(TpccRandom::Uniform(rng, 0, 2000), 4));
    row.push_back(Num(3000000, 2));  // d_ytd 30,000.00
    row.push_back(Int(customers + 1));  // d_next_o_id
    PL_RETURN_IF_ERROR(district.Add(std::move(row)));

    for (int c = 1; c <= customers; ++c) {
      int name = c <= 1000 ? c - 1 : static_cast<int>(random.NURandLastNameForLoad(rng));
      row = {Int(c), Int(d), Int(w), Str(TpccRandom::AlphaString(rng, 8, 16)), Str("OE"),
             Str(TpccRandom::LastName(name))};
      AddAddress(rng, &row);
      row.push_back(Str(TpccRandom::NumericString(rng, 16, 16)));
      row.push_back(Ts(now));
      row.push_back(Str(TpccRandom::Uniform(rng, 1, 10) == 1 ? "BC" : "GC"));
      row.push_back(Num(5000000, 2));                              // c_credit_lim 50,000.00
      row.push_back(Num(TpccRandom::Uniform(rng, 0, 5000), 4));  // c_discount
      row.push_back(Num(-1000, 2));                                // c_balance -10.00
      row.push_back(Num(1000, 2));                                 // c_ytd_payment 10.00
      row.push_back(Int(1));                                       // c_payment_cnt
      row.push_back(Int(0));                                       // c_delivery_cnt
      row.push_back(Str(TpccRandom::AlphaString(rng, 300, 500)));
      PL_RETURN_IF_ERROR(customer.Add(std::move(row)));

      PL_RETURN_IF_ERROR(history.Add({Int(c), Int(d), Int(w), Int(d), Int(w), Ts(now), Num(1000, 2),
                                      Str(TpccRandom::AlphaString(rng, 12, 24))}));
    }

    std::vector<int> customer_of(static_cast<size_t>(customers));
    std::iota(customer_of.begin(), customer_of.end(), 1);
    std::shuffle(customer_of.begin(), customer_of.end(), rng);
    for (int o = 1; o <= customers; ++o) {
      const bool delivered = o < first_undelivered;
      const int lines = static_cast<int>(TpccRandom::Uniform(rng, 5, 15));
      PL_RETURN_IF_ERROR(orders.Add({Int(o), Int(d), Int(w), Int(customer_of[static_cast<size_t>(o - 1)]), Ts(now),
                                     delivered ? Int(TpccRandom::Uniform(rng, 1, 10)) : NullOf(TypeId::kInt32),
                                     Int(lines), Int(1)}));
      for (int l = 1; l <= lines; ++l) {
        PL_RETURN_IF_ERROR(order_line.Add(
            {Int(o), Int(d), Int(w), Int(l), Int(TpccRandom::Uniform(rng, 1, options.items)), Int(w),
             delivered ? Ts(now) : NullOf(TypeId::kTimestamp), Int(5),
             Num(delivered ? 0 : TpccRandom::Uniform(rng, 1, 999999), 2), Str(TpccRandom::AlphaString(rng, 24, 24))}));
      }
      if (!delivered) PL_RETURN_IF_ERROR(new_order.Add({Int(o), Int(d), Int(w)}));
    }
  }
  for (TableSink* sink : {&district, &customer, &history, &orders, &order_line, &new_order}) {
    PL_RETURN_IF_ERROR(sink->Flush());
  }
  return Status::OK();
}

}  // namespace

Status TpccLoader::Load(engine::Database* db, TpccLoadStats* stats) const {
  PL_RETURN_IF_ERROR(options_.Validate());
  const auto start = std::chrono::steady_clock::now();
  std::atomic<uint64_t> rows{0};
  PL_RETURN_IF_ERROR(LoadItems(db, options_, &rows));

  // Warehouses on up to hardware_concurrency threads; the first error wins.
  const int64_t now = CurrentTimestampMicros();
  std::atomic<int> next_warehouse{1};
  std::mutex error_mu;
  Status error;
  auto work = [&] {
    for (int w; (w = next_warehouse.fetch_add(1)) <= options_.warehouses;) {
      Status s = LoadWarehouse(db, options_, random_, w, now, &rows);
      if (!s.ok()) {
        std::lock_guard lock(error_mu);
        if (error.ok()) error = s;
        next_warehouse.store(options_.warehouses + 1);
        return;
      }
    }
  };
  const int threads =
      std::max(1, std::min<int>(options_.warehouses, static_cast<int>(std::thread::hardware_concurrency())));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  PL_RETURN_IF_ERROR(error);
  if (stats != nullptr) {
    stats->rows = rows.load();
    stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return Status::OK();
}

}  // namespace paceline::workloads::tpcc
